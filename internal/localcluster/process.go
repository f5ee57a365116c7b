package localcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Process is a long-running child process labtui started (the broker, the JobManager, a
// TaskManager): the leader of a process group of its own.
type Process struct {
	// Name says what it is, for messages: "Kafka broker", "JobManager", "TaskManager".
	Name string
	pid  int
	done chan struct{}
	err  error
}

// startProcess announces c and starts it as the leader of a new process group, with
// stdout and stderr to the file out (created or truncated; "" discards them). The
// kernel kills it when labtui dies (Linux's parent-death signal), and the watchdog kills
// the rest of its group (see guard).
func (o *Options) startProcess(name string, c command, out string) (*Process, error) {
	c = o.withTmp(c)
	o.logf("$ %s", c.Line())
	cmd := c.cmd(context.Background())
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return nil, fmt.Errorf("start the %s: %w", name, err)
		}
		defer f.Close()
		cmd.Stdout, cmd.Stderr = f, f
	}
	cmd.SysProcAttr = groupAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the %s: %w", name, err)
	}
	if err := guard(cmd.Process.Pid, o.Logf); err != nil {
		killGroup(cmd.Process.Pid)
		cmd.Wait()
		return nil, fmt.Errorf("start the %s: %w", name, err)
	}
	p := &Process{Name: name, pid: cmd.Process.Pid, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Pid is the process's id, which is also its process group's.
func (p *Process) Pid() int { return p.pid }

// Done is closed once the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited, and how.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// kill sends SIGKILL to the whole process group at once, as a machine that dies, and
// waits until the leader has exited.
func (p *Process) kill() {
	killGroup(p.pid)
	<-p.done
	p.gone()
}

// gone waits until no process of the group is left and takes it off the watchdog's list.
func (p *Process) gone() {
	if waitGroupGone(p.pid) {
		release(p.pid)
	}
}

// stop sends SIGTERM to the process group, waits up to grace for the leader to exit,
// then sends SIGKILL to whatever of the group is left. It returns once the leader has
// exited; stopping a process that has exited only clears what is left of its group.
func (p *Process) stop(grace time.Duration) {
	select {
	case <-p.done:
	default:
		syscall.Kill(-p.pid, syscall.SIGTERM)
		t := time.NewTimer(grace)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	}
	// The group may outlive its leader (a Python worker): nothing of it stays.
	killGroup(p.pid)
	<-p.done
	p.gone()
}

// waitGroupGone waits, up to 5 s, until no process of the group pgid is left (a killed
// child of the leader stays until init has reaped it), and reports whether none is.
func waitGroupGone(pgid int) bool {
	for deadline := time.Now().Add(5 * time.Second); groupAlive(pgid); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// killGroup sends SIGKILL to the process group pgid; a group that is gone is no error.
func killGroup(pgid int) error {
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// groupAlive reports whether any process of the group pgid still runs.
func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}
