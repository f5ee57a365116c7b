package state

import (
	"math"
	"testing"
)

func TestAFileAtTheRevisionLimitDoesNotStopAutosave(t *testing.T) {
	dir := t.TempDir()
	st := New()
	st.Revision = math.MaxUint64
	st.Answers["4.1a"] = "old"
	NewStore(dir).Save(st)

	s := NewStore(dir)
	loaded, _, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	// A session counts its own revisions from 1, whatever the file held.
	loaded.Revision = 1
	loaded.Answers["4.1a"] = "new"
	if ok, err := s.Save(loaded); !ok || err != nil {
		t.Fatalf("Save after loading a revision at the limit = %v, %v", ok, err)
	}
	got, _, _ := NewStore(dir).Load()
	if got.Answers["4.1a"] != "new" {
		t.Errorf("answer = %q, want new", got.Answers["4.1a"])
	}
}
