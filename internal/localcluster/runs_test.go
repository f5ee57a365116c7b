package localcluster

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"
)

// TestNewRunDirRemovesOnlyFinishedRunsBeyondTheNewest makes run folders of every kind (a
// finished run, a run whose process still holds its lock, a folder from before the locks,
// recent and old) and checks that a new run removes exactly the finished ones beyond the
// newest five and the temporary files of every finished one, and keeps its own folder
// locked.
func TestNewRunDirRemovesOnlyFinishedRunsBeyondTheNewest(t *testing.T) {
	base := t.TempDir()
	now := time.Now()
	var held []*os.File
	t.Cleanup(func() {
		for _, f := range held {
			f.Close()
		}
	})
	mk := func(name string, age time.Duration, lock string) {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		// Every run left temporary files, as a run killed with SIGKILL does.
		if err := os.MkdirAll(filepath.Join(dir, tmpName, "flink"), 0o755); err != nil {
			t.Fatal(err)
		}
		if lock != "none" {
			f, err := os.Create(filepath.Join(dir, runLockName))
			if err != nil {
				t.Fatal(err)
			}
			if lock == "held" {
				if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
					t.Fatal(err)
				}
				held = append(held, f)
			} else {
				f.Close()
			}
		}
		when := now.Add(-age)
		if err := os.Chtimes(dir, when, when); err != nil {
			t.Fatal(err)
		}
	}
	// Newest first: the four newest are kept whatever they are (with the new one, five).
	mk("run-a", 1*time.Minute, "free")
	mk("run-b", 2*time.Minute, "held")
	mk("run-c", 3*time.Minute, "none")
	mk("run-d", 4*time.Minute, "free")
	// Beyond the newest: removed only when finished.
	mk("run-e", 5*time.Minute, "free") // finished: removed
	mk("run-f", 6*time.Minute, "held") // still running: kept
	mk("run-g", 7*time.Minute, "none") // no lock, changed recently: kept
	mk("run-h", 48*time.Hour, "none")  // no lock, untouched for two days: removed
	mk("run-i", 72*time.Hour, "free")  // finished: removed
	mk("other", 96*time.Hour, "none")  // not a run folder: kept
	var logged []string
	dir, err := newRunDir(base, func(f string, a ...any) { logged = append(logged, f) })
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(base)
	var left []string
	for _, e := range entries {
		if filepath.Join(base, e.Name()) != dir {
			left = append(left, e.Name())
		}
	}
	sort.Strings(left)
	want := []string{"other", "run-a", "run-b", "run-c", "run-d", "run-f", "run-g"}
	if len(left) != len(want) {
		t.Fatalf("left %v, want %v", left, want)
	}
	for i := range want {
		if left[i] != want[i] {
			t.Fatalf("left %v, want %v", left, want)
		}
	}
	// A finished run that is kept keeps its logs, not its temporary files; a run still
	// going keeps both.
	for name, want := range map[string]bool{"run-a": false, "run-b": true, "run-d": false, "run-f": true} {
		_, err := os.Stat(filepath.Join(base, name, tmpName))
		if got := err == nil; got != want {
			t.Errorf("%s: temporary files kept %v, want %v", name, got, want)
		}
	}
	if len(logged) != 1 {
		t.Fatalf("logged %q, want one line saying what was removed", logged)
	}
	// The new run's own folder is locked: another process (here another open file) cannot
	// take its lock, so a later run never removes it while this one lives, however
	// often the garbage collector runs (an unreferenced *os.File is closed by it).
	runtime.GC()
	runtime.GC()
	if finished(dir, now.Add(-72*time.Hour), now) {
		t.Fatalf("the new run folder %s is not locked", dir)
	}
}
