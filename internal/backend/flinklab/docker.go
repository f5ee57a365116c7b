package flinklab

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/labtui/labtui/internal/localcluster"
	"io"
	"os/exec"
	"strings"
	"time"
)

// docker runs `docker compose` for the lab's project and compose file: always as a
// program with its arguments (os/exec, never a shell), and always announced on the log
// as the line a learner would type.
type docker struct {
	// path is the docker executable; "docker" is found on PATH when the command runs.
	path    string
	project string
	file    string
	// logf puts a line on the lab's log.
	logf func(format string, args ...any)
}

// compose returns the arguments of `docker compose -p PROJECT -f FILE args…`.
func (d *docker) compose(args ...string) []string {
	return append([]string{"compose", "-p", d.project, "-f", d.file}, args...)
}

// announce logs the command line about to run.
func (d *docker) announce(args []string) { d.logf("$ %s", commandLine(args)) }

// run runs `docker args…` and returns what it wrote. A non-zero exit is an error that
// carries the first line docker wrote on stderr.
func (d *docker) run(ctx context.Context, args ...string) (stdout, stderr []byte, err error) {
	d.announce(args)
	var out, errOut bytes.Buffer
	cmd := d.command(ctx, args)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err = localcluster.StartGuarded(cmd, d.logf); err == nil {
		err = cmd.Wait()
		localcluster.EndGuarded(cmd)
	}
	if err != nil {
		err = commandError(args, errOut.Bytes(), err)
	}
	return out.Bytes(), errOut.Bytes(), err
}

// runCompose runs `docker compose -p … -f … args…`.
func (d *docker) runCompose(ctx context.Context, args ...string) (stdout, stderr []byte, err error) {
	return d.run(ctx, d.compose(args...)...)
}

// stream runs `docker compose -p … -f … args…` and hands each line it writes, on stdout
// or stderr, to line as it comes. It returns when docker exits or ctx ends; a non-zero
// exit is an error that carries docker's last lines.
func (d *docker) stream(ctx context.Context, line func(string), args ...string) error {
	p, err := d.start(ctx, args...)
	if err != nil {
		return err
	}
	return p.lines(line)
}

// proc is a docker command started and not yet read to its end.
type proc struct {
	args   []string
	pr     *io.PipeReader
	waited chan error
}

// start announces and starts `docker compose -p … -f … args…`; read it with lines.
func (d *docker) start(ctx context.Context, args ...string) (*proc, error) {
	args = d.compose(args...)
	d.announce(args)
	pr, pw := io.Pipe()
	cmd := d.command(ctx, args)
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := localcluster.StartGuarded(cmd, d.logf); err != nil {
		pw.Close()
		pr.Close()
		return nil, fmt.Errorf("run %s: %w", commandLine(args), err)
	}
	p := &proc{args: args, pr: pr, waited: make(chan error, 1)}
	go func() {
		err := cmd.Wait()
		localcluster.EndGuarded(cmd)
		pw.Close()
		p.waited <- err
	}()
	return p, nil
}

// lines hands each line of the command's output to line until it exits, and returns
// its exit as stream does.
func (p *proc) lines(line func(string)) error {
	last := newTail(8)
	sc := bufio.NewScanner(p.pr)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		s := sc.Text()
		last.add(s)
		line(s)
	}
	if sc.Err() != nil {
		// A line over 1 MiB: drain the rest so docker is never blocked on a full pipe.
		io.Copy(io.Discard, p.pr)
	}
	p.pr.Close()
	if err := <-p.waited; err != nil {
		return commandError(p.args, []byte(last.String()), err)
	}
	return nil
}

// command builds the exec.Cmd for args, to be started with localcluster.StartGuarded: the
// context, or labtui dying however it dies, kills docker and whatever it started (the
// compose plugin is its child). WaitDelay keeps a child that inherited the pipes from
// holding Wait up.
func (d *docker) command(ctx context.Context, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, d.path, args...)
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// commandError names the command and what docker said about its failure.
func commandError(args []string, said []byte, err error) error {
	msg := strings.TrimSpace(string(said))
	if msg == "" {
		return fmt.Errorf("%s: %w", commandLine(args), err)
	}
	return fmt.Errorf("%s: %w: %s", commandLine(args), err, msg)
}

// commandLine renders argv as it would be typed after `docker`, quoting what a shell
// would otherwise split or expand.
func commandLine(args []string) string {
	var b strings.Builder
	b.WriteString("docker")
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(localcluster.Quote(a))
	}
	return b.String()
}

// tail keeps the last few lines docker wrote, for an error message.
type tail struct {
	lines []string
	max   int
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) add(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	if len(t.lines) == t.max {
		t.lines = append(t.lines[:0], t.lines[1:]...)
	}
	t.lines = append(t.lines, strings.TrimSpace(s))
}

func (t *tail) String() string { return strings.Join(t.lines, "\n") }
