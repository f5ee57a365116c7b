package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this binary as labtui itself, a real process that signals
// reach: see labtuiProcess. Every test's labtui keeps its state (answers, evidence, the
// log) in a folder of the test run's, never the user's: a test that sets none of its own
// still writes there.
func TestMain(m *testing.M) {
	if os.Getenv("LABTUI_TEST_BE_LABTUI") == "1" {
		os.Unsetenv("LABTUI_TEST_BE_LABTUI")
		os.Exit(Execute())
	}
	dir, err := os.MkdirTemp("", "labtui-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	os.Unsetenv("LABTUI_STATE_DIR")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// stopBound is how long after its signal a command may take to exit here. labtui
// promises a second (ctrl-c, SIGTERM and SIGHUP stop every command within one); the rest
// is room for a loaded machine to schedule the process, not for labtui to do more work.
// It is measured from the signal, which the tests send once the command is at work, so
// no start-up is charged to it. (Stops take 2-120 ms here at load 15.)
const stopBound = 3 * time.Second

// hangBound only stops a test whose condition never comes: waits for output, a file or a
// process's start return as soon as it holds. A loaded CI machine has taken seconds to
// start the embedded lab.
const hangBound = 60 * time.Second

// proc is labtui running as a process of its own, with its output collected.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stdout bytes.Buffer
	stderr bytes.Buffer
	done   chan struct{}
	code   int
}

// lockedBuf is a writer into one of proc's buffers.
type lockedBuf struct {
	p *proc
	b *bytes.Buffer
}

func (w lockedBuf) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	return w.b.Write(b)
}

// labtuiCmd is the command that runs labtui with args in fresh XDG folders under home.
func labtuiCmd(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "LABTUI_TEST_BE_LABTUI=1",
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "HOME="+home)
	return cmd
}

// startLabtui starts labtui with args as a process; the test kills it if it is still
// running at the end.
func startLabtui(t *testing.T, home string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: labtuiCmd(t, home, args...), done: make(chan struct{})}
	p.cmd.Stdout = lockedBuf{p, &p.stdout}
	p.cmd.Stderr = lockedBuf{p, &p.stderr}
	p.start(t)
	return p
}

func (p *proc) start(t *testing.T) {
	t.Helper()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
		if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			p.code = 128 + int(ws.Signal())
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
}

// output returns what the process wrote so far.
func (p *proc) output() (stdout, stderr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stdout.String(), p.stderr.String()
}

// waitOutput waits until the process's stdout or stderr holds text, for at most
// hangBound.
func (p *proc) waitOutput(t *testing.T, text string) {
	t.Helper()
	within := hangBound
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		o, e := p.output()
		if strings.Contains(o, text) || strings.Contains(e, text) {
			return
		}
		// After the process exits its last output may still be in a pipe or terminal:
		// keep looking until the deadline.
		time.Sleep(50 * time.Millisecond)
	}
	o, e := p.output()
	t.Fatalf("no %q after %v; stdout:\n%s\nstderr:\n%s", text, within, tail(o), tail(e))
}

// signal sends sig and waits for the process to exit, at most stopBound after the
// signal; it returns the exit code.
func (p *proc) signal(t *testing.T, sig os.Signal) int {
	t.Helper()
	p.cmd.Process.Signal(sig)
	return p.wait(t, stopBound)
}

// waitOpen waits until the process has path open: it is past its start then (its
// signals handled) and at work on path. It reads the process's /proc/PID/fd.
func (p *proc) waitOpen(t *testing.T, path string) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid)
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skipf("no /proc/self/fd here to see what a process has open: %v", err)
	}
	for deadline := time.Now().Add(hangBound); ; time.Sleep(10 * time.Millisecond) {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && target == path {
				return
			}
		}
		select {
		case <-p.done:
			o, e := p.output()
			t.Fatalf("labtui exited before it opened %s; stdout:\n%s\nstderr:\n%s", path, tail(o), tail(e))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("labtui did not open %s in %v", path, hangBound)
		}
	}
}

func (p *proc) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(within):
		o, e := p.output()
		t.Fatalf("labtui still running %v later; stdout:\n%s\nstderr:\n%s", within, tail(o), tail(e))
		return -1
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
