package labs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRecordedHourIsTheRepositoryFileWrittenOnce(t *testing.T) {
	repo, err := os.ReadFile(filepath.Join("..", RecordedHourPath))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cache")
	path, err := RecordedHour(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, repo) {
		t.Fatalf("the copy differs from %s (%v)", RecordedHourPath, err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordedHour(dir); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); !info.ModTime().Equal(old) {
		t.Error("an identical copy was written again")
	}
	if err := os.WriteFile(path, []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordedHour(dir); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, repo) {
		t.Error("a damaged copy was not replaced")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the cache holds %d files, want only the recording", len(entries))
	}
}
