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

	"github.com/labtui/labtui/internal/recording"
)

func TestRecordSimulateOfADayStopsOnInterruptLeavingAWholeFile(t *testing.T) {
	for _, name := range []string{"day.jsonl", "day.jsonl.gz"} {
		out := filepath.Join(t.TempDir(), name)
		ctx, cancel := context.WithCancel(context.Background())
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		// The interrupt comes once half a megabyte is on disk (thousands of records,
		// plain or gzip), however long a loaded machine takes to get there.
		interrupted := make(chan time.Time, 1)
		go func() {
			for deadline := time.Now().Add(hangBound); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(5 * time.Millisecond) {
				if fi, err := os.Stat(out); err == nil && fi.Size() >= 512<<10 {
					break
				}
			}
			interrupted <- time.Now()
			cancel()
		}()
		var stdout, stderr bytes.Buffer
		code := Run(ctx, []string{"record", "--simulate", "--duration", "24h", "--rate", "500", "--out", out}, &stdout, &stderr)
		// The day's 43 M records take minutes to write, so a run that ignored the interrupt
		// is caught with room to spare. Measured from the interrupt; the bound is loose
		// because a loaded CI machine takes more than a second to schedule and flush
		// (1.003 s was seen under -race).
		if took := time.Since(<-interrupted); took > 5*time.Second {
			t.Errorf("%s: stopped %s after the interrupt", name, took)
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
