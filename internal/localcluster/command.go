package localcluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// command is one program labtui runs: its path, arguments, the environment it adds to
// labtui's own, and the folder it runs in ("" for labtui's).
type command struct {
	Path string
	Args []string
	// Env holds the variables added to labtui's environment, as NAME=value.
	Env []string
	Dir string
}

// Line renders the command as a learner would type it in a POSIX shell: the added
// variables, then the program and its arguments, each quoted when a shell would split
// or expand it.
func (c command) Line() string {
	var b strings.Builder
	if c.Dir != "" {
		b.WriteString("cd " + Quote(c.Dir) + " && ")
	}
	env := append([]string(nil), c.Env...)
	sort.Strings(env)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		b.WriteString(name + "=" + Quote(value) + " ")
	}
	b.WriteString(Quote(c.Path))
	for _, a := range c.Args {
		b.WriteString(" " + Quote(a))
	}
	return b.String()
}

// cmd builds the exec.Cmd of c, bound to ctx.
func (c command) cmd(ctx context.Context) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Dir = c.Dir
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Quote single-quotes s when a POSIX shell would not take it as one plain word.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// run announces c and runs it to its end in a process group of its own, guarded by the
// watchdog (so that ctx ending, or labtui dying, stops its children too), and returns
// what it wrote on stdout and stderr together. Whatever of its group outlives it is
// killed. A non-zero exit is an error carrying the last lines it wrote.
func (o *Options) run(ctx context.Context, c command) ([]byte, error) {
	c = o.withTmp(c)
	o.logf("$ %s", c.Line())
	var out bytes.Buffer
	cmd := c.cmd(ctx)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := o.runGuarded(cmd); err != nil {
		return out.Bytes(), fmt.Errorf("%s: %w%s", c.Path, err, lastLines(out.Bytes(), 6))
	}
	return out.Bytes(), nil
}

// runGuarded runs cmd to its end as the leader of a process group the watchdog guards;
// ctx ending (cmd's Cancel) kills the whole group, and so does the end of cmd: nothing
// of it is left when runGuarded returns.
func (o *Options) runGuarded(cmd *exec.Cmd) error {
	if err := StartGuarded(cmd, o.Logf); err != nil {
		return err
	}
	err := cmd.Wait()
	EndGuarded(cmd)
	return err
}

// lastLines returns the last n non-empty lines of out, indented after a colon, or "".
func lastLines(out []byte, n int) string {
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return ":\n  " + strings.Join(keep, "\n  ")
}
