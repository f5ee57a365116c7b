package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
)

func TestAReplayOfHalvesThatNeverCompleteSaysHowManyItDropped(t *testing.T) {
	var b strings.Builder
	const extra = 10
	for i := range jobspec.MaxPendingHalves + extra {
		fmt.Fprintf(&b, `{"partition":0,"offset":%d,"timestamp":1795946405000,"arrival":1795946405000,"key":"n%d","value":{"type":"RequestStarted","request_id":"n%d","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":1795946405000,"prompt_tokens":1000}}`+"\n", i, i, i)
	}
	path := filepath.Join(t.TempDir(), "halves.jsonl")
	os.WriteFile(path, []byte(b.String()), 0o644)
	code, _, stderr := runCLI(t, "replay", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := fmt.Sprintf("%d request halves were dropped on arrival: %d halves already waited", extra, jobspec.MaxPendingHalves)
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr)
	}
}

// TestAReplayRefusesALineStampedAtTheEndOfTheLongRangeAndReplaysTheRest: its
// event-time window would overflow a long, so its line is refused in one sentence that
// names the file, the line and what is accepted; every other line replays, and the count
// is exact.
func TestAReplayRefusesALineStampedAtTheEndOfTheLongRangeAndReplaysTheRest(t *testing.T) {
	line := func(off int, typ, id string, ts int64, tokens string) string {
		return fmt.Sprintf(`{"partition":0,"offset":%d,"timestamp":1795946405000,"arrival":%d,"key":"%s","value":{"type":"%s","request_id":"%s","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":%d,%s:1000}}`+"\n",
			off, 1795946405000+int64(off), id, typ, id, ts, tokens)
	}
	rec := line(0, "RequestStarted", "a", 1795946405000, `"prompt_tokens"`) +
		line(1, "RequestCompleted", "a", 9223372036854775807, `"completion_tokens"`) +
		line(2, "RequestStarted", "b", 1795946406000, `"prompt_tokens"`) +
		line(3, "RequestCompleted", "b", -9223372036854775807, `"completion_tokens"`) +
		line(4, "RequestCompleted", "c", 1795946407000, `"completion_tokens"`) +
		line(5, "RequestStarted", "c", 1795946406500, `"prompt_tokens"`)
	path := filepath.Join(t.TempDir(), "end.jsonl")
	os.WriteFile(path, []byte(rec), 0o644)
	code, stdout, stderr := runCLI(t, "replay", path, "--drain")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		path + ":2: skipped: malformed event: ts 9223372036854775807 is out of range for a one-minute window: a window must start and end within a long, so ts is accepted from -9223372036854720000 to 9223372036854719999\n",
		path + ":4: skipped: malformed event: ts -9223372036854775807 is out of range for a one-minute window",
		"replayed 4 records (2 skipped)",
		"1 requests assembled", // the oracle reads this wording
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, `"requests":1`) || strings.Count(stdout, "event-time>") != 1 {
		t.Errorf("want c's one window fired, stdout:\n%s", stdout)
	}
}
