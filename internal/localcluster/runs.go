package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"
)

// keepRuns is how many of the newest run folders are always kept, so the logs of the last
// few runs stay there to read.
const keepRuns = 5

// unlockedAge is how long a run folder without a lock file (made before run folders were
// locked) must have been left untouched before it counts as finished.
const unlockedAge = 24 * time.Hour

// runLockName is the file each run holds an exclusive flock on while its process lives.
const runLockName = ".lock"

// runLocks holds the lock file of every run folder this process made, for the life of
// the process: an *os.File nothing refers to is closed by its finalizer at the next
// garbage collection, and closing it lets the flock go while the run still lives.
var runLocks struct {
	sync.Mutex
	files []*os.File
}

// newRunDir makes a new run folder under base, locks it for the life of this process, and
// removes the folders of finished runs beyond the newest keepRuns. A run is finished when
// nobody holds its lock: the kernel lets the lock go when its process exits, however it
// exits, so a folder of a run still going (another labtui) is never touched.
func newRunDir(base string, logf func(string, ...any)) (string, error) {
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", fmt.Errorf("create the run folder: %w", err)
	}
	dir, err := os.MkdirTemp(base, "run-")
	if err != nil {
		return "", fmt.Errorf("create the run folder: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, runLockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("create the run folder's lock: %w", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		return "", fmt.Errorf("lock the run folder %s: %w", dir, err)
	}
	runLocks.Lock()
	runLocks.files = append(runLocks.files, lock)
	runLocks.Unlock()
	removed, err := pruneRuns(base, dir, time.Now())
	if err != nil && logf != nil {
		logf("old run folders in %s were not all removed: %v", base, err)
	}
	if removed > 0 && logf != nil {
		logf("removed %d finished run folders from %s (the newest %d are kept)", removed, base, keepRuns)
	}
	return dir, nil
}

// pruneRuns removes the run folders under base that are finished, except the newest
// keepRuns and current, and returns how many it removed.
func pruneRuns(base, current string, now time.Time) (int, error) {
	entries, err := filepath.Glob(filepath.Join(base, "run-*"))
	if err != nil {
		return 0, err
	}
	type run struct {
		dir     string
		modTime time.Time
	}
	var runs []run
	for _, dir := range entries {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() || dir == current {
			continue
		}
		runs = append(runs, run{dir, fi.ModTime()})
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].modTime.After(runs[j].modTime) })
	removed := 0
	var firstErr error
	for i, r := range runs {
		if !finished(r.dir, r.modTime, now) {
			continue
		}
		// A run that died (kill -9) left its temporary files: a kept run keeps only
		// its logs and data.
		if err := os.RemoveAll(filepath.Join(r.dir, tmpName)); err != nil && firstErr == nil {
			firstErr = err
		}
		if i < keepRuns-1 {
			continue
		}
		if err := os.RemoveAll(r.dir); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		removed++
	}
	return removed, firstErr
}

// finished reports whether no process holds dir's run lock. A folder without a lock file
// is finished once it has not been changed for unlockedAge.
func finished(dir string, modTime, now time.Time) bool {
	f, err := os.OpenFile(filepath.Join(dir, runLockName), os.O_RDWR, 0)
	if err != nil {
		return os.IsNotExist(err) && now.Sub(modTime) >= unlockedAge
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return true
}
