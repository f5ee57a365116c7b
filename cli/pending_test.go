package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labtui/labtui/meter"
)

func TestAReplayOfHalvesThatNeverCompleteSaysHowManyItDropped(t *testing.T) {
	var b strings.Builder
	const extra = 10
	for i := range meter.MaxPendingHalves + extra {
		fmt.Fprintf(&b, `{"partition":0,"offset":%d,"timestamp":1795946405000,"arrival":1795946405000,"key":"n%d","value":{"type":"RequestStarted","request_id":"n%d","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":1795946405000,"prompt_tokens":1000}}`+"\n", i, i, i)
	}
	path := filepath.Join(t.TempDir(), "halves.jsonl")
	os.WriteFile(path, []byte(b.String()), 0o644)
	code, _, stderr := runCLI(t, "replay", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := fmt.Sprintf("%d request halves were dropped on arrival: %d halves already waited", extra, meter.MaxPendingHalves)
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}

// TestAReplayOfARequestAtTheEndOfTheLongRangeSaysWhereItWent: its event-time window
// overflows, and Flink drops it silently; the replay says so.
func TestAReplayOfARequestAtTheEndOfTheLongRangeSaysWhereItWent(t *testing.T) {
	rec := `{"partition":0,"offset":0,"timestamp":1795946405000,"arrival":1795946405000,"key":"a","value":{"type":"RequestStarted","request_id":"a","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":1000,"prompt_tokens":1000}}
{"partition":0,"offset":1,"timestamp":1795946405000,"arrival":1795946405001,"key":"a","value":{"type":"RequestCompleted","request_id":"a","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":9223372036854775807,"completion_tokens":1000}}
`
	path := filepath.Join(t.TempDir(), "end.jsonl")
	os.WriteFile(path, []byte(rec), 0o644)
	code, _, stderr := runCLI(t, "replay", path, "--drain")
	if code != 0 || !strings.Contains(stderr, "1 request ($0.1000) fell in no event-time window") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
