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
