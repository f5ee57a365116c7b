package compose

import (
	"errors"
	"fmt"
	"strings"
)

// Status is the outcome of one doctor check.
type Status int

const (
	// OK means the check passed.
	OK Status = iota
	// Problem means the check failed; the Result's Fix says what to do.
	Problem
	// Skipped means the check could not run because an earlier one failed.
	Skipped
	// Note means the check found something a user should know that is no problem: the
	// Result's Detail says what (the lab's images are not built yet, and what building
	// them takes).
	Note
)

// String returns "ok", "problem" or "skipped".
func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Problem:
		return "problem"
	case Skipped:
		return "skipped"
	case Note:
		return "note"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Names of the checks that do not depend on a port.
const (
	// CheckCLI is the name of the check that the docker executable is on PATH.
	CheckCLI = "Docker CLI"
	// CheckCompose is the name of the check that `docker compose version` reports v2 or later.
	CheckCompose = "Docker Compose v2"
	// CheckDaemon is the name of the check that `docker info` reaches the daemon.
	CheckDaemon = "Docker daemon"
	// CheckImages is the name of the check that the lab's images are built, or can be.
	CheckImages = "Lab images"
)

// Result is the outcome of one check.
type Result struct {
	// Name says what was checked: CheckCLI, CheckCompose, CheckDaemon, or
	// "Port 127.0.0.1:N" for a port.
	Name string
	// Status is OK, Problem or Skipped.
	Status Status
	// Detail is what the check found: a path or version when OK, docker's own
	// message when there is one for a Problem, or the reason for Skipped.
	Detail string
	// Fix is set for a Problem: one plain sentence that names the fix.
	Fix string
	// Err is set for a Problem when an error caused it, for logs.
	Err error
}

// String renders the result as one line, e.g. "ok       Docker CLI: /usr/bin/docker"
// or "problem  Docker daemon: The Docker daemon is not running: start ...".
func (r Result) String() string {
	text := r.Detail
	if r.Status == Problem {
		text = r.Fix
	}
	if text == "" {
		return fmt.Sprintf("%-8s %s", r.Status, r.Name)
	}
	return fmt.Sprintf("%-8s %s: %s", r.Status, r.Name, text)
}

// Report is the outcome of every check, in the order they ran.
type Report struct {
	Results []Result
}

// OK reports whether no check found a problem. Skipped checks only follow a
// problem, so a report with one is never OK.
func (r Report) OK() bool { return len(r.Problems()) == 0 }

// Problems returns the results whose Status is Problem.
func (r Report) Problems() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Status == Problem {
			out = append(out, res)
		}
	}
	return out
}

// err returns nil when the report is OK, and otherwise one error whose message
// is every problem's fix, one per line, for a caller that must refuse to start
// the compose lab.
func (r Report) err() error {
	var errs []error
	for _, p := range r.Problems() {
		errs = append(errs, errors.New(p.Fix))
	}
	return errors.Join(errs...)
}

// String renders one line per result.
func (r Report) String() string {
	var b strings.Builder
	for _, res := range r.Results {
		b.WriteString(res.String())
		b.WriteByte('\n')
	}
	return b.String()
}
