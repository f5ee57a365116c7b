package flinklab

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/localcluster"
)

// PreflightError is the machine not being ready for the compose lab: what `labtui
// doctor` would report, as one message that names every fix.
type PreflightError struct {
	Report compose.Report
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

// Preflight runs the platform's checks (for the compose lab, those of `labtui doctor`:
// Docker CLI, Compose v2, the daemon, ports 9092 and 8081 free) and returns what to fix
// (a *PreflightError for compose) when one fails. It runs nothing else, so a machine
// that cannot run the lab is left as it was; it runs once, and Start runs it if it has
// not run.
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
	if err := l.platform.Preflight(ctx); err != nil {
		return err
	}
	l.mu.Lock()
	l.preflighted = true
	l.mu.Unlock()
	return nil
}

// Start runs Preflight, brings Kafka and Flink up (Platform.Up: for compose `docker
// compose up -d --build --wait`, its progress on the log), cancels a job of the lab's
// name a cluster of its own still runs, follows the TaskManager's stdout, submits the
// job and returns once Flink reports it RUNNING. The generator starts stopped. When
// Start fails, Close takes down whatever Up started.
func (l *Lab) Start(ctx context.Context) error {
	l.startMu.Lock()
	defer l.startMu.Unlock()
	switch err := l.Ready(); {
	case errors.Is(err, labrt.ErrClosed):
		return errClosed
	case err == nil:
		return fmt.Errorf("the %s lab was already started", l.Name())
	}
	ctx, cancel := l.bound(ctx)
	defer cancel()
	l.StartPump()
	if err := l.Preflight(ctx); err != nil {
		return err
	}
	l.mu.Lock()
	l.upRan = true
	l.mu.Unlock()
	ep, err := l.platform.Up(ctx)
	if err != nil {
		return err
	}
	if ep.JobBroker == "" {
		ep.JobBroker = ep.Broker
	}
	if ep.Topic == "" {
		ep.Topic = compose.Topic
	}
	l.mu.Lock()
	l.ep, l.flink = ep, localcluster.NewREST(ep.FlinkURL)
	l.mu.Unlock()
	if !ep.Shared {
		if err := l.cancelJobs(ctx); err != nil {
			return err
		}
	}
	// The output is followed from before the job exists, so none of its lines is missed.
	if ep.Session != "" {
		r, err := openResults(ctx, ep.Broker, ResultsTopic(ep.Session), ep.Session, l.logf)
		if err != nil {
			return err
		}
		l.mu.Lock()
		l.results = r
		l.mu.Unlock()
		l.bg.Add(1)
		go func() {
			defer l.bg.Done()
			r.follow(l.life, l.resultLine)
		}()
		l.logf("session %s: its job %s writes its results to topic %s, which labtui reads", ep.Session, SessionJobName(ep.Session), r.topic)
	}
	wait, err := l.platform.Follow(l.life, l.stdoutLine)
	if err != nil {
		return err
	}
	l.bg.Add(3)
	go l.follow(wait)
	go l.watch()
	go l.watchPositions()
	if err := l.SetKafka(ep.Broker, []string{ep.Broker}, ep.Topic); err != nil {
		return err
	}
	startAt := labrt.Earliest
	if l.cfg.StartAt == "latest" {
		startAt = labrt.Latest
	}
	spec := labrt.Spec{Topic: ep.Topic, StartAt: startAt, Timestamp: l.cfg.Job.Timestamp,
		Watermarks: l.cfg.Job.Watermarks}
	if err := l.Restart(ctx, backend.Restart{Cause: backend.CauseStart, Reason: "started"}, spec); err != nil {
		return err
	}
	return l.Started()
}
