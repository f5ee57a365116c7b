package flinklab

import (
	"context"
	"errors"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/backend/labrt"
	"github.com/labtui/labtui/meter"
)

// flinkRun is the compose lab's labrt.Job: the lab's PyFlink job on the cluster's
// Flink, submitted with `flink run` in the jobmanager and cancelled through Flink's
// REST API. Its results come from the taskmanager's log, which one follower reads for
// every job, so they reach the runtime through Lab.collect rather than through the
// collect function Start is given.
type flinkRun struct{ lab *Lab }

// Start submits a job on spec and waits until Flink reports it RUNNING; the books start
// over.
func (j flinkRun) Start(ctx context.Context, spec labrt.Spec, _ func(meter.Result)) error {
	l := j.lab
	if spec.Watermarks.Interval.Or(meter.DefaultWatermarkInterval) != meter.DefaultWatermarkInterval {
		return errors.New("the compose lab's job emits watermarks every 200 ms (gateway_meter.py): leave the watermark interval at its default")
	}
	l.mu.Lock()
	l.books = newBooks()
	l.lastRestart = l.cfg.Now()
	l.mu.Unlock()
	return l.submit(ctx, l.jobRun(spec))
}

// Stop cancels the running job, if any, and waits until Flink reports it ended.
func (j flinkRun) Stop(ctx context.Context) error {
	l := j.lab
	l.mu.Lock()
	id := l.jobID
	l.mu.Unlock()
	if id == "" {
		return nil
	}
	return l.cancelJob(ctx, id)
}

// Status is estimated from the job's print-sink lines (see the books type).
func (j flinkRun) Status() labrt.JobStatus {
	l := j.lab
	now := l.cfg.Now().UnixMilli()
	l.mu.Lock()
	defer l.mu.Unlock()
	return labrt.JobStatus{Watermark: l.books.watermark, Stats: l.books.stats, Open: l.books.openWindows(now)}
}

// collect takes one result from the job; it never blocks unless the runtime is
// lossless.
func (l *Lab) collect(r meter.Result) {
	l.mu.Lock()
	l.books.add(&r)
	l.mu.Unlock()
	l.Collect(r)
}

// restarted reports a restart the job went through by itself (a killed or dead
// TaskManager, Flink restarting a failed job): it reads what it read, and the books
// start over.
func (l *Lab) restarted(r backend.Restart) {
	l.mu.Lock()
	l.books = newBooks()
	l.lastRestart = l.cfg.Now()
	l.mu.Unlock()
	l.Begin(r, l.Spec())
}

// logf queues a line for the learner's log.
func (l *Lab) logf(format string, args ...any) { l.Logf(format, args...) }

// errClosed is returned by calls made after Close.
var errClosed = labrt.ErrClosed

// ready returns labrt.ErrClosed or labrt.ErrNotStarted unless the lab is running.
func (l *Lab) ready() error { return l.Ready() }

// isClosed reports whether Close has begun.
func (l *Lab) isClosed() bool { return errors.Is(l.Ready(), labrt.ErrClosed) }
