package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// twoOldSessions is a file saved by labtui before runs were numbered on: a session of
// runs 1 and 2 (29 Nov), then one of runs 1, 2 and 3 (30 Nov), each numbered from 1. Its
// 4.1 and 4.2 findings are sentences, as files saved before findings were data hold
// them; its 4.3 finding is data, run 3 of the second session against its run 2.
func twoOldSessions() State {
	const day = int64(86400000)
	a, b := int64(1795946400000), int64(1795946400000)+day
	mono := "for_monotonous_timestamps()"
	st := New()
	st.Answers["4.1a"] = "They agree."
	st.Steps["4.1"] = Step{Done: true, At: a + 400000}
	st.Steps["4.2"] = Step{Done: true, At: b + 200000}
	st.Steps["4.3"] = Step{Done: true, At: b + 900000}
	st.Evidence.Agreement = &Table{Run: 1, Reason: "started", TakenAt: a + 400000}
	st.Evidence.Hiccup = &Hiccup{Instance: "gw-1", At: b + 100000, Table: Table{Run: 1, Reason: "started", TakenAt: b + 200000}}
	chosen := RunRef{ID: 2, Kind: "replay", Timestamp: "completed_ts", Recording: "hour.jsonl.gz", StartedAt: b + 300000}
	st.Evidence.Replays = []Replay{{Path: "hour.jsonl.gz", Table: Table{Run: 2, TakenAt: a + 700000}},
		{Path: "hour.jsonl.gz", Table: Table{Run: 3, TakenAt: b + 900000}, Compare: &Comparison{Against: "run 2", AgainstRun: &chosen}}}
	st.Evidence.Findings = map[string]*Finding{
		"4.1": {Run: RunRef{ID: 1, Kind: "start", Watermarks: mono, StartedAt: a}, Met: true, Saved: "In run 1 (start, completed_ts), the 5 minutes agree."},
		"4.2": {Run: RunRef{ID: 1, Kind: "start", Watermarks: mono, StartedAt: b}, Met: true, Saved: "In run 1, gw-1 was held 10:00:40–10:01:15."},
		"4.3": {Run: RunRef{ID: 3, Kind: "replay", Watermarks: mono, StartedAt: b + 600000}, Met: true,
			Replay: &ReplayFacts{AgainstRun: &chosen, Rows: 300, Identical: 295}, Late: &LateFacts{Run: 3, Recording: true, Late: 832}},
	}
	st.Evidence.Replayed = []ReplayRun{
		{Run: RunRef{ID: 2, Kind: "replay", StartedAt: a + 600000}, Records: 143400},
		{Run: RunRef{ID: 3, Kind: "replay", StartedAt: b + 600000}, Records: 143400, LateCount: 832},
	}
	return st
}

// TestLoadingAFileOfTwoOldSessionsNumbersEachRunOnce: the second session's runs 1, 2 and
// 3 become runs 3, 4 and 5 (after the first session's two) everywhere the file names them
// as data, and the next session numbers on from 5. Sentences saved by an earlier labtui
// are kept as they were written: their numbers are not rewritten.
func TestLoadingAFileOfTwoOldSessionsNumbersEachRunOnce(t *testing.T) {
	dir := t.TempDir()
	data, err := json.Marshal(twoOldSessions())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	st, ok, err := NewStore(dir).Load()
	if err != nil || !ok {
		t.Fatalf("load: %v %v", ok, err)
	}
	e := st.Evidence
	got := map[string]any{
		"4.1 run": e.Findings["4.1"].Run.ID, "4.2 run": e.Findings["4.2"].Run.ID, "4.3 run": e.Findings["4.3"].Run.ID,
		"4.2 saved":     e.Findings["4.2"].Saved,
		"4.3 against":   e.Findings["4.3"].Replay.AgainstRun.ID,
		"4.3 late run":  e.Findings["4.3"].Late.Run,
		"agreement":     e.Agreement.Run,
		"hiccup table":  e.Hiccup.Table.Run,
		"replay tables": []int{e.Replays[0].Table.Run, e.Replays[1].Table.Run},
		"against":       e.Replays[1].Compare.AgainstRun.ID,
		"against text":  e.Replays[1].Compare.Against,
		"replayed":      []int{e.Replayed[0].Run.ID, e.Replayed[1].Run.ID},
		"last run":      st.LastRun, "runs before": st.RunsBefore(),
	}
	want := map[string]any{
		"4.1 run": 1, "4.2 run": 3, "4.3 run": 5,
		"4.2 saved":     "In run 1, gw-1 was held 10:00:40–10:01:15.",
		"4.3 against":   4,
		"4.3 late run":  5,
		"agreement":     1,
		"hiccup table":  3,
		"replay tables": []int{2, 5},
		"against":       4,
		"against text":  "run 2",
		"replayed":      []int{2, 5},
		"last run":      5, "runs before": 5,
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("%s: %v, want %v", k, got[k], w)
		}
	}
	// Numbers that are unique already are left alone, so loading again changes nothing.
	again := st.Clone()
	if again.renumber() || !reflect.DeepEqual(again, st) {
		t.Errorf("a second Renumber changed the file")
	}
}
