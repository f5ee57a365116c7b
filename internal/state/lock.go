package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/labtui/labtui/internal/fileerr"
)

// lockName is the file in the state directory whose lock says a labtui writes there.
const lockName = ".lab-04.lock"

// Lock is a state directory held by this process: while it is held no other labtui
// (a second TUI, a headless run) can take it, so no two sessions save over each
// other's answers. The operating system lets go of it when the process ends, however
// it ends (a kill -9 leaves no stale lock behind).
type Lock struct {
	f *os.File
}

// busyError says that another labtui holds the state directory.
type busyError struct {
	// Dir is the state directory.
	Dir string
	// PID and What are the holder's process id and what it runs ("the TUI", "a
	// headless run"), as it wrote them; 0 and "" when it had not written them yet.
	PID  int
	What string
	// Since is when the holder took the lock (zero when unknown).
	Since time.Time
}

// Error is one sentence: who holds the folder, and the two ways on.
func (e *busyError) Error() string {
	who := "another labtui"
	if e.What != "" {
		who += " (" + e.What
		if e.PID > 0 {
			who += ", pid " + strconv.Itoa(e.PID)
		}
		if !e.Since.IsZero() {
			who += ", since " + e.Since.Local().Format("15:04")
		}
		who += ")"
	}
	return fmt.Sprintf("%s is using the saved answers in %s, and two sessions saving there would overwrite each other's answers: "+
		"quit that one first, or give this one its own folder with --state-dir (or LABTUI_STATE_DIR)", who, e.Dir)
}

// LockDir takes the lock of the state directory dir for this process, creating dir if
// needed; what says what holds it ("the TUI"), for the sentence another labtui then
// shows. It fails at once with a *BusyError when another process holds it. Having the
// lock, it removes the temporary files a save killed half-way left behind.
func LockDir(dir, what string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the state folder %s, where answers and the log are kept (%s): set LABTUI_STATE_DIR or --state-dir to a folder you can write",
			dir, fileerr.Reason(err))
	}
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot write in the state folder %s, where answers and the log are kept (%s): set LABTUI_STATE_DIR or --state-dir to a folder you can write",
			dir, fileerr.Reason(err))
	}
	busy, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock %s (%s): set LABTUI_STATE_DIR or --state-dir to a local folder", path, fileerr.Reason(err))
	}
	if busy {
		// The holder wrote who it is after taking the lock; a moment's gap is
		// possible, and the sentence then names no one.
		holder := readHolder(f)
		f.Close()
		holder.Dir = dir
		return nil, holder
	}
	l := &Lock{f: f}
	l.writeHolder(what)
	removeStaleTemporaries(dir)
	return l, nil
}

// Unlock lets go of the directory. It is safe to call more than once.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close() // closing the file drops its lock
	l.f = nil
}

// writeHolder writes "pid unix-seconds what" into the lock file.
func (l *Lock) writeHolder(what string) {
	l.f.Truncate(0)
	l.f.WriteAt([]byte(fmt.Sprintf("%d %d %s\n", os.Getpid(), time.Now().Unix(), what)), 0)
}

func readHolder(f *os.File) *busyError {
	buf := make([]byte, 256)
	n, _ := f.ReadAt(buf, 0)
	fields := strings.SplitN(strings.TrimSpace(string(buf[:n])), " ", 3)
	e := &busyError{}
	if len(fields) < 3 {
		return e
	}
	pid, err1 := strconv.Atoi(fields[0])
	since, err2 := strconv.ParseInt(fields[1], 10, 64)
	if err1 != nil || err2 != nil {
		return e
	}
	e.PID, e.Since, e.What = pid, time.Unix(since, 0), fields[2]
	return e
}

// removeStaleTemporaries removes the temporary files of saves of the state file that
// never reached their rename (the process was killed in between). Only the lock's
// holder saves there, so none of them is being written.
func removeStaleTemporaries(dir string) {
	tmps, _ := filepath.Glob(filepath.Join(dir, "."+FileName+".*.tmp"))
	for _, t := range tmps {
		if fi, err := os.Lstat(t); err == nil && fi.Mode().IsRegular() {
			os.Remove(t)
		}
	}
}
