package cli

import (
	"bytes"
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
// reach: see labtuiProcess.
func TestMain(m *testing.M) {
	if os.Getenv("LABTUI_TEST_BE_LABTUI") == "1" {
		os.Unsetenv("LABTUI_TEST_BE_LABTUI")
		os.Exit(Execute())
	}
	os.Exit(m.Run())
}

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

// waitOutput waits until the process's stdout or stderr holds text.
func (p *proc) waitOutput(t *testing.T, text string, within time.Duration) {
	t.Helper()
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

// signal sends sig and waits for the process to exit, at most within; it returns the
// exit code.
func (p *proc) signal(t *testing.T, sig os.Signal, within time.Duration) int {
	t.Helper()
	p.cmd.Process.Signal(sig)
	return p.wait(t, within)
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
