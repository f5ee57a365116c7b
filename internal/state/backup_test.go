package state

import (
	"encoding/json"
	"os"
	"testing"
)

func TestStartingAfreshTwiceKeepsBothEarlierSetsOfAnswers(t *testing.T) {
	s := NewStore(t.TempDir())
	var baks []string
	for i, answer := range []string{"first", "second"} {
		st := New()
		st.Revision = uint64(i + 1)
		st.Answers["4.1a"] = answer
		if _, err := s.Save(st); err != nil {
			t.Fatal(err)
		}
		bak, err := s.Archive()
		if err != nil || bak == "" {
			t.Fatalf("Archive = %q, %v", bak, err)
		}
		baks = append(baks, bak)
	}
	want := []string{s.Path() + ".1.bak", s.Path() + ".2.bak"}
	for i, bak := range baks {
		if bak != want[i] {
			t.Errorf("backup %d = %s, want %s", i+1, bak, want[i])
		}
		data, err := os.ReadFile(bak)
		if err != nil {
			t.Fatal(err)
		}
		var got State
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if a := got.Answers["4.1a"]; a != []string{"first", "second"}[i] {
			t.Errorf("backup %d holds %q", i+1, a)
		}
	}
	if _, err := os.Stat(s.Path()); !os.IsNotExist(err) {
		t.Errorf("the saved file is still there after Archive: %v", err)
	}
}

func TestArchiveNumbersOnFromTheHighestBackup(t *testing.T) {
	s := NewStore(t.TempDir())
	os.WriteFile(s.Path()+".7.bak", []byte("{}"), 0o644)
	s.Save(New())
	bak, err := s.Archive()
	if err != nil || bak != s.Path()+".8.bak" {
		t.Errorf("Archive = %q, %v; want %s", bak, err, s.Path()+".8.bak")
	}
	if bak, err := s.Archive(); bak != "" || err != nil {
		t.Errorf("Archive of nothing = %q, %v", bak, err)
	}
}

// TestASaveCannotRunInsideAnArchive saves at the worst moment of an archive, after the
// backup's link and before the saved name is removed, whenever the store's lock lets it:
// the new answers must not be the ones removed, nor the old ones lost.
func TestASaveCannotRunInsideAnArchive(t *testing.T) {
	s := NewStore(t.TempDir())
	old := New()
	old.Answers["4.3b"] = "one enormous minute"
	if _, err := s.Save(old); err != nil {
		t.Fatal(err)
	}
	fresh := New()
	fresh.Answers["4.1a"] = "new"
	saved := false
	afterLink = func() {
		if s.mu.TryLock() { // a Save may run here: run one
			s.mu.Unlock()
			if _, err := s.Save(fresh); err != nil {
				t.Error(err)
			}
			saved = true
		}
	}
	t.Cleanup(func() { afterLink = func() {} })
	bak, err := s.Archive()
	if err != nil || bak == "" {
		t.Fatalf("Archive = %q, %v", bak, err)
	}
	if !saved {
		if _, err := s.Save(fresh); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(bak)
	var aside State
	if err != nil || json.Unmarshal(data, &aside) != nil || aside.Answers["4.3b"] != "one enormous minute" {
		t.Errorf("the old answers aside = %+v (%v)", aside.Answers, err)
	}
	got, found, err := s.Load()
	if err != nil || !found || got.Answers["4.1a"] != "new" || got.Answers["4.3b"] != "" {
		t.Errorf("the new session's file = %+v (found %v, %v)", got.Answers, found, err)
	}
}
