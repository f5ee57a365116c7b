package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// twoOldSessions is a file saved by labtui before runs were numbered on: a session of
// runs 1 and 2 (29 Nov), then one of runs 1, 2 and 3 (30 Nov), each numbered from 1.
func twoOldSessions() State {
	const day = int64(86400000)
	a, b := int64(1795946400000), int64(1795946400000)+day
	mono := "for_monotonous_timestamps()"
	st := New()
	st.Answers["4.1a"] = "They agree."
	st.Steps["4.1"] = Step{Done: true, At: a + 400000, Because: "In run 1 (start, completed_ts), the 5 minutes agree."}
	st.Steps["4.2"] = Step{Done: true, At: b + 200000, Because: "In run 1, gw-1 was held 10:00:40–10:01:15."}
	st.Steps["4.3"] = Step{Done: true, At: b + 900000, Because: "In run 3, 295 of 300 rows identical. Run 3 dropped 832 records as late."}
	st.Evidence.Agreement = &Table{Run: 1, Reason: "started", TakenAt: a + 400000}
	st.Evidence.Hiccup = &Hiccup{Instance: "gw-1", At: b + 100000, Table: Table{Run: 1, Reason: "started", TakenAt: b + 200000}}
	st.Evidence.Replays = []Replay{{Path: "hour.jsonl.gz", Table: Table{Run: 2, TakenAt: a + 700000}},
		{Path: "hour.jsonl.gz", Table: Table{Run: 3, TakenAt: b + 900000}, Compare: &Comparison{Against: "run 2"}}}
	st.Evidence.Findings = map[string]*Finding{
		"4.1": {Run: RunRef{ID: 1, Kind: "start", Watermarks: mono, StartedAt: a}, Met: true, Sentence: st.Steps["4.1"].Because},
		"4.2": {Run: RunRef{ID: 1, Kind: "start", Watermarks: mono, StartedAt: b}, Met: true, Sentence: st.Steps["4.2"].Because},
		"4.3": {Run: RunRef{ID: 3, Kind: "replay", Watermarks: mono, StartedAt: b + 600000}, Met: true, Sentence: st.Steps["4.3"].Because},
	}
	st.Evidence.Replayed = []ReplayRun{
		{Run: RunRef{ID: 2, Kind: "replay", StartedAt: a + 600000}, Records: 143400},
		{Run: RunRef{ID: 3, Kind: "replay", StartedAt: b + 600000}, Records: 143400, LateCount: 832},
	}
	return st
}

// TestLoadingAFileOfTwoOldSessionsNumbersEachRunOnce: the second session's runs 1 and 3
// become runs 3 and 5 (after the first session's two) everywhere the file names them, its
// sentences included, and the next session numbers on from 5.
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
		"4.2 sentence":  e.Findings["4.2"].Sentence,
		"4.3 sentence":  e.Findings["4.3"].Sentence,
		"4.1 because":   st.Steps["4.1"].Because,
		"4.3 because":   st.Steps["4.3"].Because,
		"agreement":     e.Agreement.Run,
		"hiccup table":  e.Hiccup.Table.Run,
		"replay tables": []int{e.Replays[0].Table.Run, e.Replays[1].Table.Run},
		"against":       e.Replays[1].Compare.Against,
		"replayed":      []int{e.Replayed[0].Run.ID, e.Replayed[1].Run.ID},
		"last run":      st.LastRun, "runs before": st.RunsBefore(),
	}
	want := map[string]any{
		"4.1 run": 1, "4.2 run": 3, "4.3 run": 5,
		"4.2 sentence":  "In run 3, gw-1 was held 10:00:40–10:01:15.",
		"4.3 sentence":  "In run 5, 295 of 300 rows identical. Run 5 dropped 832 records as late.",
		"4.1 because":   "In run 1 (start, completed_ts), the 5 minutes agree.",
		"4.3 because":   "In run 5, 295 of 300 rows identical. Run 5 dropped 832 records as late.",
		"agreement":     1,
		"hiccup table":  3,
		"replay tables": []int{2, 5},
		"against":       "run 4",
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
	if again.Renumber() || !reflect.DeepEqual(again, st) {
		t.Errorf("a second Renumber changed the file")
	}
}
