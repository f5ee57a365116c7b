package compose

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// LookPathFunc finds an executable by name the way exec.LookPath does: it
// returns the path to run, or an error when there is none.
type LookPathFunc func(file string) (string, error)

// RunFunc runs the program at path with args, directly and never through a
// shell, and returns what it wrote to stdout and stderr. A non-zero exit is an
// error (exec.ExitError); the output is returned either way.
type RunFunc func(ctx context.Context, path string, args ...string) (stdout, stderr []byte, err error)

// ListenFunc opens a listener the way net.Listen does; the checker closes it at once.
type ListenFunc func(network, address string) (net.Listener, error)

// Checker runs the checks of `labtui doctor`: the Docker CLI, Compose v2, the
// Docker daemon, the lab's images and its host ports. Build one with NewChecker.
type Checker struct {
	lookPath LookPathFunc
	run      RunFunc
	listen   ListenFunc
	// goos is runtime.GOOS: where no dockerd on PATH means no engine is installed.
	goos    string
	ports   []int
	timeout time.Duration
}

// CheckerOption changes one setting of a Checker.
type CheckerOption func(*Checker)

// WithLookPath replaces exec.LookPath, which finds `docker` on PATH.
func WithLookPath(f LookPathFunc) CheckerOption { return func(c *Checker) { c.lookPath = f } }

// WithRunner replaces the default runner, which starts the program with
// os/exec and captures its output.
func WithRunner(f RunFunc) CheckerOption { return func(c *Checker) { c.run = f } }

// WithListen replaces net.Listen for the port checks.
func WithListen(f ListenFunc) CheckerOption { return func(c *Checker) { c.listen = f } }

// WithPorts sets the 127.0.0.1 ports that must be free. The default is the
// lab's published ports, KafkaHostPort and FlinkWebPort (9092 and 8081).
func WithPorts(ports ...int) CheckerOption {
	return func(c *Checker) { c.ports = append([]int(nil), ports...) }
}

// withTimeout bounds each docker command; the default is 10 seconds. A daemon
// that hangs rather than refusing is reported once this runs out.
func withTimeout(d time.Duration) CheckerOption { return func(c *Checker) { c.timeout = d } }

// NewChecker returns a Checker that finds docker on PATH, runs it with
// os/exec, and checks ports 9092 and 8081 on 127.0.0.1, unless options say
// otherwise. Nil functions and a non-positive timeout keep the defaults.
func NewChecker(opts ...CheckerOption) *Checker {
	c := &Checker{
		lookPath: exec.LookPath,
		run:      execRun,
		listen:   net.Listen,
		goos:     runtime.GOOS,
		ports:    []int{KafkaHostPort, FlinkWebPort},
		timeout:  10 * time.Second,
	}
	for _, o := range opts {
		o(c)
	}
	if c.lookPath == nil {
		c.lookPath = exec.LookPath
	}
	if c.run == nil {
		c.run = execRun
	}
	if c.listen == nil {
		c.listen = net.Listen
	}
	if c.timeout <= 0 {
		c.timeout = 10 * time.Second
	}
	return c
}

// execRun is the default RunFunc.
func execRun(ctx context.Context, path string, args ...string) ([]byte, []byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A killed docker may leave a child holding the pipes; do not wait on it.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	return stdout.Bytes(), stderr.Bytes(), err
}

// Check runs every check in order and reports each one. When the Docker CLI is
// missing, the Compose and daemon checks are reported as skipped; the port
// checks always run. Check never returns early on a problem, so one run of
// `labtui doctor` lists every fix.
func (c *Checker) Check(ctx context.Context) Report {
	var r Report
	docker, cli := c.checkCLI()
	r.Results = append(r.Results, cli)
	if docker == "" {
		r.Results = append(r.Results,
			Result{Name: CheckCompose, Status: Skipped, Detail: "needs the Docker CLI"},
			Result{Name: CheckDaemon, Status: Skipped, Detail: "needs the Docker CLI"},
			Result{Name: CheckImages, Status: Skipped, Detail: "needs the Docker CLI"})
	} else {
		r.Results = append(r.Results, c.checkCompose(ctx, docker))
		daemon := c.checkDaemon(ctx, docker)
		images := Result{Name: CheckImages, Status: Skipped, Detail: "needs the Docker daemon"}
		if daemon.Status == OK {
			images = c.checkImages(ctx, docker)
		}
		r.Results = append(r.Results, daemon, images)
	}
	for _, p := range c.ports {
		r.Results = append(r.Results, c.checkPort(p))
	}
	return r
}

// runDocker runs docker (or docker-compose) with the checker's timeout and names a timeout as such.
func (c *Checker) runDocker(ctx context.Context, docker string, args ...string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	stdout, stderr, err = c.run(ctx, docker, args...)
	name := filepath.Base(docker)
	if err != nil && ctx.Err() != nil {
		return stdout, stderr, fmt.Errorf("run %s %v: no answer within %s: %w", name, args, c.timeout, ctx.Err())
	}
	if err != nil {
		return stdout, stderr, fmt.Errorf("run %s %v: %w", name, args, err)
	}
	return stdout, stderr, nil
}

// checkPort reports whether 127.0.0.1:port can be listened on.
func (c *Checker) checkPort(port int) Result {
	name := "Port " + net.JoinHostPort(HostIP, strconv.Itoa(port))
	l, err := c.listen("tcp", net.JoinHostPort(HostIP, strconv.Itoa(port)))
	if err != nil {
		err = fmt.Errorf("listen on %s:%d: %w", HostIP, port, err)
		return Result{Name: name, Status: Problem, Err: err, Fix: portFix(port, err)}
	}
	if err := l.Close(); err != nil {
		return Result{Name: name, Status: Problem, Err: fmt.Errorf("close test listener: %w", err),
			Fix: fmt.Sprintf("Port %d could not be released after a test listen: run labtui doctor again.", port)}
	}
	return Result{Name: name, Status: OK, Detail: "free"}
}

// errTimeout tells whether err came from the checker's own deadline.
func errTimeout(err error) bool { return errors.Is(err, context.DeadlineExceeded) }
