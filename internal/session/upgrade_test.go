package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// mainState is a state file saved by main at b3ca403, before the session core and the
// one row model: its answers, steps and evidence must read and save again unchanged, but
// for the steps' "because" sentences, which are no longer kept.
const mainState = "testdata/lab-04-main-b3ca403.json"

func TestAStateFileFromBeforeTheSessionCoreKeepsAnswersAndEvidence(t *testing.T) {
	dir := t.TempDir()
	orig, err := os.ReadFile(mainState)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, state.FileName), orig, 0o600); err != nil {
		t.Fatal(err)
	}
	saved, found, err := state.NewStore(dir).Load()
	if err != nil || !found {
		t.Fatalf("Load = %v, %v", found, err)
	}
	if a := saved.Answers["4.2b"]; a != "past the window end 07:19:59.999 — home, up, left, tab: typed verbatim" {
		t.Errorf("answer 4.2b = %q", a)
	}
	rows := saved.Evidence.Hiccup.Table.Rows
	if p, e := rows[2].Cells[minutes.Processing], rows[2].Cells[minutes.Event]; p.Fired != 1 || e.Present() || !rows[2].Differs {
		t.Errorf("a row with one cell read as %+v", rows[2])
	}
	if c := saved.Evidence.Agreement.Rows[1].Cells[minutes.Event]; !c.Open || c.Fired != 0 {
		t.Errorf("an open cell read as %+v", c)
	}

	// The session starts from it and saves it again: the same answers, steps and evidence.
	s := New(Config{Saved: &saved})
	again := s.Snapshot(saved.Answers, saved.Revision+1)
	again.SavedAt = saved.SavedAt
	out := filepath.Join(t.TempDir(), "again")
	if _, err := state.NewStore(out).Save(again); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(out, state.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	json.Unmarshal(orig, &before)
	json.Unmarshal(written, &after)
	// What cannot come through: a step's "because", a sentence saved beside the finding
	// that could disagree with it. The finding is the evidence; the tick and its time stay.
	for _, st := range before["steps"].(map[string]any) {
		delete(st.(map[string]any), "because")
	}
	for _, k := range []string{"answers", "steps", "evidence"} {
		if !reflect.DeepEqual(before[k], after[k]) {
			b, _ := json.MarshalIndent(before[k], "", " ")
			a, _ := json.MarshalIndent(after[k], "", " ")
			t.Errorf("%s changed on the way through the session:\nbefore %s\nafter  %s", k, b, a)
		}
	}
}
