package compose

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/backend/labrt"
	cluster "github.com/labtui/labtui/compose"
)

// PreflightError is the machine not being ready for the compose lab: what `labtui
// doctor` would report, as one message that names every fix.
type PreflightError struct {
	Report cluster.Report
}

// Error lists each problem's fix and points at `labtui doctor` and the embedded lab.
func (e *PreflightError) Error() string {
	var b strings.Builder
	b.WriteString("the compose lab cannot start on this machine:\n")
	for _, p := range e.Report.Problems() {
		fmt.Fprintf(&b, "  - %s: %s\n", p.Name, p.Fix)
	}
	b.WriteString("Run `labtui doctor` to see every check, or run labtui without --backend compose " +
		"for the embedded lab (the default: nothing to install).")
	return b.String()
}

// Preflight runs the checks of `labtui doctor` (Docker CLI, Compose v2, the daemon,
// ports 9092 and 8081 free) and returns a *PreflightError when one fails. Ports held
// by the lab's own cluster, left running with keep-cluster, are no problem: Start
// reuses that cluster. Preflight runs nothing else, so a machine without Docker is
// left as it was; it runs once, and Start runs it if it has not run.
func (l *Lab) Preflight(ctx context.Context) error {
	l.mu.Lock()
	done := l.preflighted
	l.mu.Unlock()
	if l.isClosed() {
		return errClosed
	}
	if done {
		return nil
	}
	opts := append([]cluster.CheckerOption{cluster.WithRunner(l.checkRun), cluster.WithLookPath(l.lookPath)}, l.cfg.CheckerOptions...)
	report := cluster.NewChecker(opts...).Check(ctx)
	for _, r := range report.Results {
		l.logf("doctor: %s", r)
	}
	if !report.OK() {
		if !onlyPorts(report) || !l.clusterRunning(ctx) {
			return &PreflightError{Report: report}
		}
		l.logf("ports %d and %d are held by the lab's own cluster, still running: labtui uses it", cluster.KafkaHostPort, cluster.FlinkWebPort)
	}
	l.mu.Lock()
	l.preflighted = true
	l.mu.Unlock()
	return nil
}

// checkRun is the doctor's runner: the command is announced like every other.
func (l *Lab) checkRun(ctx context.Context, path string, args ...string) ([]byte, []byte, error) {
	l.docker.announce(args)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	return stdout.Bytes(), stderr.Bytes(), err
}

// lookPath finds the configured docker executable when the doctor looks for "docker".
func (l *Lab) lookPath(file string) (string, error) {
	if file == "docker" {
		file = l.cfg.Docker
	}
	return exec.LookPath(file)
}

// onlyPorts reports whether every problem in the report is a port in use.
func onlyPorts(r cluster.Report) bool {
	for _, p := range r.Problems() {
		if !strings.HasPrefix(p.Name, "Port ") {
			return false
		}
	}
	return true
}

// clusterRunning reports whether the lab's project has running containers.
func (l *Lab) clusterRunning(ctx context.Context) bool {
	out, _, err := l.docker.runCompose(ctx, "ps", "--status", "running", "--quiet")
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

// Start runs Preflight, brings the cluster up (`docker compose up -d --build --wait`,
// its progress on the log), cancels a job a kept cluster still runs, follows the
// taskmanager's log, submits the job and returns once Flink reports it RUNNING. The
// generator starts stopped. When Start fails, Close takes down whatever `up` created.
func (l *Lab) Start(ctx context.Context) error {
	l.startMu.Lock()
	defer l.startMu.Unlock()
	switch err := l.Ready(); {
	case errors.Is(err, labrt.ErrClosed):
		return errClosed
	case err == nil:
		return errors.New("the compose lab was already started")
	}
	ctx, cancel := l.bound(ctx)
	defer cancel()
	l.StartPump()
	if err := l.Preflight(ctx); err != nil {
		return err
	}
	l.logf("starting the compose lab: Kafka and Flink in Docker, project %s (a first start downloads and builds for several minutes)", cluster.ProjectName)
	l.mu.Lock()
	l.upRan = true
	l.mu.Unlock()
	p := &progress{logf: l.logf}
	if err := l.docker.stream(ctx, p.line, "up", "-d", "--build", "--wait"); err != nil {
		return fmt.Errorf("bring the cluster up: %w (`docker compose -p %s logs` shows each service's log)", err, cluster.ProjectName)
	}
	l.logf("every service is healthy: Kafka on %s, Flink's web UI on %s", l.cfg.Broker, l.cfg.FlinkURL)
	if err := l.cancelJobs(ctx); err != nil {
		return err
	}
	// The log is followed from before the job exists, so none of its lines is missed.
	tm, err := l.docker.start(l.life, followArgs(l.cfg.Now())...)
	if err != nil {
		return fmt.Errorf("follow the taskmanager's log: %w", err)
	}
	l.bg.Add(2)
	go l.follow(tm)
	go l.watch()
	if err := l.SetKafka(l.cfg.Broker, []string{l.cfg.Broker}, cluster.Topic); err != nil {
		return err
	}
	startAt := labrt.Earliest
	if l.cfg.StartAt == "latest" {
		startAt = labrt.Latest
	}
	spec := labrt.Spec{Topic: cluster.Topic, StartAt: startAt, Timestamp: l.cfg.Job.Timestamp,
		Watermarks: l.cfg.Job.Watermarks}
	if err := l.Restart(ctx, backend.Restart{Cause: backend.CauseStart, Reason: "started"}, spec); err != nil {
		return err
	}
	return l.Started()
}
