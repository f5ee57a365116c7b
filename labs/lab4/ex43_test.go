package lab4

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
)

// TestA43FindingNamesTheReferencesStrategyAndBlamesTheStrategiesForTheirDifference: after
// 4.2 leaves for_bounded_out_of_orderness(40 s) selected, r replays the hour under it
// against the re-enactment under for_monotonous_timestamps(): 5 of 300 rows differ, every
// difference explained. The sentence names both strategies and says the difference is
// theirs, not only the records' arrival (issue 22, item 4); under one strategy it is the
// arrival.
func TestA43FindingNamesTheReferencesStrategyAndBlamesTheStrategiesForTheirDifference(t *testing.T) {
	run := state.RunRef{ID: 3, Kind: "replay", Timestamp: "completed_ts", Watermarks: "for_bounded_out_of_orderness(40 s)", Recording: "recorded-hour.jsonl.gz"}
	r := state.ReplayFacts{ReferenceWatermarks: "for_monotonous_timestamps()", Rows: 300, Identical: 295}
	got := Sentence(&state.Finding{Run: run, Met: true, Replay: &r})
	for _, want := range []string{
		"against the recorded hour re-enacted at its recorded times under for_monotonous_timestamps(): 295 of 300 (tenant, minute) rows identical, 5 not",
		"the reference ran under for_monotonous_timestamps() and this replay under for_bounded_out_of_orderness(40 s)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the sentence lacks %q:\n%s", want, got)
		}
	}
	if want := "(the recorded hour holds its own hiccup, gw-1 held 10:20:40–10:21:15: its retry burst arrives behind"; !strings.Contains(got, want) {
		t.Errorf("the sentence does not name the recorded hour's own retry burst:\n%s", got)
	}
	if strings.Contains(got, "explained by the records' arrival") {
		t.Errorf("the strategies' difference is put down to the arrival alone:\n%s", got)
	}
	run.Watermarks = "for_monotonous_timestamps()"
	if got := Sentence(&state.Finding{Run: run, Met: true, Replay: &r}); !strings.Contains(got, "every difference explained by the records' arrival") {
		t.Errorf("under one strategy: %s", got)
	}
	// Watermarks per partition on the source against the re-enactment after the parse:
	// both for_monotonous_timestamps(), both drop the hour's own burst; the hiccup is not
	// what tells them apart.
	run.Watermarks = "for_monotonous_timestamps() per partition at the source"
	if got := Sentence(&state.Finding{Run: run, Met: true, Replay: &r}); strings.Contains(got, "holds its own hiccup") ||
		!strings.Contains(got, "this replay under for_monotonous_timestamps() per partition at the source") {
		t.Errorf("per partition at the source: %s", got)
	}
	run.Watermarks = "for_monotonous_timestamps()"
	chosen := state.RunRef{ID: 2, Kind: "replay", Timestamp: "completed_ts", Watermarks: "for_monotonous_timestamps() per partition at the source", Recording: "recorded-hour.jsonl.gz"}
	r = state.ReplayFacts{AgainstRun: &chosen, Rows: 300, Identical: 300}
	if got := Sentence(&state.Finding{Run: run, Met: true, Replay: &r}); !strings.Contains(got,
		"against run 2 (replay of recorded-hour.jsonl.gz, completed_ts) under for_monotonous_timestamps() per partition at the source: 300 of 300") {
		t.Errorf("against a chosen run: %s", got)
	}
}

// fieldRun is a finished replay that reads field; only what replayWhyNot asks before
// the comparison is answered.
type fieldRun struct {
	Run
	field jobspec.TimestampField
}

func (r fieldRun) Replay() bool                      { return true }
func (r fieldRun) ReadsRecording() bool              { return true }
func (r fieldRun) Timestamp() jobspec.TimestampField { return r.field }

// After t the job reads started_ts, and r replays with the field the job reads: given
// that replay, 4.3 says how to get back to completed_ts (t), not only that it needs
// it, and so does its short form at 80x24; 4.4 after a completed_ts replay likewise.
func TestAfterTThe43PanelSaysTGoesBackToCompletedTS(t *testing.T) {
	got := ex43.WhyNot(nil, fieldRun{field: jobspec.StartedTS})
	if want := "reads started_ts: 4.3 replays with completed_ts, which t switches to and replays"; got != want {
		t.Errorf("4.3 after t: %q, want %q", got, want)
	}
	if !strings.Contains(ex43.Guide.Short, "t while the job reads started_ts") {
		t.Errorf("4.3's short form does not say t replays completed_ts after t: %q", ex43.Guide.Short)
	}
	got = ex44.WhyNot(nil, fieldRun{field: jobspec.CompletedTS})
	if want := "reads completed_ts: 4.4 replays with started_ts, which t switches to and replays"; got != want {
		t.Errorf("4.4 after r: %q, want %q", got, want)
	}
}
