package state

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets a test run this binary as a second process that holds a state folder.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LABTUI_TEST_HOLD_STATE_DIR"); dir != "" {
		l, err := LockDir(dir, "the TUI")
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		// Hold the folder until stdin closes (the test ends, or kills this process).
		bufio.NewReader(os.Stdin).ReadString('\n')
		l.Unlock()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// holdInChild starts a process that takes dir's lock and waits; it returns the process
// and a function that lets it go.
func holdInChild(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LABTUI_TEST_HOLD_STATE_DIR="+dir)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("the child did not take the lock: %q", line)
	}
	return cmd
}

func TestASecondProcessOnTheStateFolderIsRefusedWithWhoHoldsIt(t *testing.T) {
	dir := t.TempDir()
	child := holdInChild(t, dir)

	l, err := LockDir(dir, "a headless run")
	var busy *busyError
	if !errors.As(err, &busy) {
		l.Unlock()
		t.Fatalf("LockDir beside a holder = %v, want a *BusyError", err)
	}
	if busy.PID != child.Process.Pid || busy.What != "the TUI" {
		t.Errorf("holder = pid %d %q, want pid %d the TUI", busy.PID, busy.What, child.Process.Pid)
	}
	msg := err.Error()
	for _, want := range []string{"the TUI", dir, "--state-dir", "quit that one first"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the sentence %q does not say %q", msg, want)
		}
	}
}

func TestAKilledHoldersLockIsFreeAgain(t *testing.T) {
	dir := t.TempDir()
	child := holdInChild(t, dir)
	child.Process.Kill()
	child.Wait()
	l, err := LockDir(dir, "the TUI")
	if err != nil {
		t.Fatalf("LockDir after the holder was killed = %v", err)
	}
	l.Unlock()
}

func TestTakingTheLockRemovesTheTemporariesOfAKilledSave(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".lab-04.json.123456.tmp")
	other := filepath.Join(dir, ".lab-04-answers.md.99.tmp")
	os.WriteFile(stale, []byte(`{"answers":`), 0o644)
	os.WriteFile(other, []byte("x"), 0o644)
	l, err := LockDir(dir, "the TUI")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary of a killed save is still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file that is not the state file's temporary was removed: %v", err)
	}
}

func TestUnlockLetsTheNextSessionIn(t *testing.T) {
	dir := t.TempDir()
	l, err := LockDir(dir, "the TUI")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(dir, "a headless run"); err == nil {
		t.Fatal("a second lock in the same process was given")
	}
	l.Unlock()
	l.Unlock()
	l2, err := LockDir(dir, "a headless run")
	if err != nil {
		t.Fatalf("LockDir after Unlock = %v", err)
	}
	l2.Unlock()
}
