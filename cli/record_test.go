package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/recording"
)

func TestRecordSimulateOfADayStopsOnInterruptLeavingAWholeFile(t *testing.T) {
	for _, name := range []string{"day.jsonl", "day.jsonl.gz"} {
		out := filepath.Join(t.TempDir(), name)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(700*time.Millisecond, cancel)
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		var stdout, stderr bytes.Buffer
		begin := time.Now()
		code := Run(ctx, []string{"record", "--simulate", "--duration", "24h", "--rate", "500", "--out", out}, &stdout, &stderr)
		// The day's 43 M records take minutes to write, so a run that ignored the interrupt
		// is caught with room to spare; the bound is loose because a loaded CI machine
		// takes more than a second to schedule and flush (1.003 s was seen under -race).
		if took := time.Since(begin); took > 5700*time.Millisecond {
			t.Errorf("%s: stopped %s after the interrupt", name, took-700*time.Millisecond)
		}
		if code != 130 || !strings.Contains(stderr.String(), "labtui: interrupted: wrote ") || !strings.Contains(stderr.String(), "the file ends at a whole record") {
			t.Fatalf("%s: exit %d, stderr %q", name, code, stderr.String())
		}
		r, err := recording.Open(context.Background(), out)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		var skips recording.Skips
		for _, err := range r.Records(skips.Add) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n++
		}
		r.Close()
		if n < 1000 || skips.Total() != 0 || !strings.Contains(stderr.String(), fmt.Sprintf("wrote %d records", n)) {
			t.Fatalf("%s: %d records read back, %d skipped; stderr %q", name, n, skips.Total(), stderr.String())
		}
		if info, _ := os.Stat(out); info.Size() == 0 {
			t.Fatalf("%s is empty", out)
		}
	}
}
