package flinklab

import (
	"context"
	"errors"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// flinkRun is the compose lab's labrt.Job: the lab's PyFlink job on the cluster's
// Flink, submitted with `flink run` in the jobmanager and cancelled through Flink's
// REST API. Its results come from the taskmanager's log, which one follower reads for
// every job, so they reach the runtime through Lab.collect rather than through the
// collect function Start is given.
type flinkRun struct{ lab *Lab }

// Start submits a job on spec and waits until Flink reports it RUNNING; the books start
// over.
func (j flinkRun) Start(ctx context.Context, spec labrt.Spec, _ func(jobspec.Result)) error {
	l := j.lab
	defer l.setSwitching(false)
	if spec.Watermarks.Period() != watermark.DefaultInterval {
		return errors.New("the compose lab's job emits watermarks every 200 ms (gateway_meter.py): leave the watermark interval at its default")
	}
	l.beginPositions(ctx, spec)
	l.mu.Lock()
	l.books = newBooks()
	l.lastRestart = l.cfg.Now()
	l.mu.Unlock()
	if err := l.submit(ctx, l.jobRun(spec)); err != nil {
		return err
	}
	return l.waitReading(ctx)
}

// waitReading waits until the running job's Kafka source reports where it stands in
// every partition of its topic (a currentOffset gauge each, Flink registers it when the
// source takes the partition's split): only then does the job read what the fleet sends.
// Between every task RUNNING and that, the source's enumerator still lists the topic and
// hands out the splits, which took seconds on a loaded machine; records sent meanwhile
// would wait, and the job's watermark would trail their arrival by that long. When the
// broker could not list the topic, or the gauges do not come within JobTimeout, the log
// says so and the lab goes on; it returns only ctx's error.
func (l *Lab) waitReading(ctx context.Context) error {
	l.mu.Lock()
	id, pos, rest := l.jobID, l.pos, l.flink
	l.mu.Unlock()
	if id == "" || pos == nil || rest == nil || len(pos.start) == 0 {
		return nil
	}
	wait, cancel := context.WithTimeout(ctx, l.cfg.JobTimeout)
	defer cancel()
	t := time.NewTicker(l.cfg.PollEvery / 2)
	defer t.Stop()
	for {
		splits, err := rest.SourceOffsets(wait, id)
		if err == nil {
			held := map[int32]bool{}
			for _, s := range splits {
				if _, ok := pos.start[s.Partition]; ok && s.Topic == pos.topic {
					held[s.Partition] = true
				}
			}
			if len(held) == len(pos.start) {
				l.logf("job %s reads %s: its Kafka source holds all %d partitions", id, pos.topic, len(held))
				return nil
			}
		}
		select {
		case <-wait.Done():
			if err := ctx.Err(); err != nil {
				return err
			}
			l.logf("job %s: its Kafka source did not report all %d partitions of %s within %s: records sent now may wait until it reads them", id, len(pos.start), pos.topic, l.cfg.JobTimeout)
			return nil
		case <-t.C:
		}
	}
}

// beginPositions starts following how the job about to start reads spec's topic, from
// the starting offsets the broker lists now; when the broker cannot say, the job's
// reads are unknown (and a replay on it never completes), which the log says.
func (l *Lab) beginPositions(ctx context.Context, spec labrt.Spec) {
	start, err := startOffsets(ctx, []string{l.Broker()}, spec.Topic, spec.StartAt.String())
	var pos *positions
	if err != nil {
		l.logf("list the %s offsets of %s: %v: how far the job has read is unknown", spec.StartAt, spec.Topic, err)
	} else {
		pos = newPositions([]string{l.Broker()}, spec.Topic, start, spec.Watermarks.OutOfOrderness.Milliseconds())
	}
	l.mu.Lock()
	old := l.pos
	l.pos = pos
	l.mu.Unlock()
	old.stop()
}

// watchPositions asks Flink's REST API, every PollEvery/2 until the lab closes, how far
// the running job's Kafka source has read each partition (see positions).
func (l *Lab) watchPositions() {
	defer l.bg.Done()
	t := time.NewTicker(l.cfg.PollEvery / 2)
	defer t.Stop()
	for {
		select {
		case <-l.life.Done():
			return
		case <-t.C:
		}
		l.mu.Lock()
		id, pos, rest := l.jobID, l.pos, l.flink
		l.mu.Unlock()
		if id == "" || pos == nil || rest == nil {
			continue
		}
		splits, err := rest.SourceOffsets(l.life, id)
		if err != nil {
			continue // the job's state watcher says when the REST API does not answer
		}
		offsets := map[int32]int64{}
		for _, s := range splits {
			if s.Topic == pos.topic {
				offsets[s.Partition] = s.Offset
			}
		}
		pos.report(offsets)
	}
}

// Stop cancels the running job, if any, and waits until Flink reports it ended; the
// runtime's Start on the next spec follows (Restart). From here until that Start
// returns the lab is switching (see follow). Without a job there is nothing to cancel,
// so nothing can take the TaskManager down with it: a TaskManager that stops while the
// lab's first job starts has died, and the run restarts.
func (j flinkRun) Stop(ctx context.Context) error {
	l := j.lab
	l.mu.Lock()
	id := l.jobID
	l.switching = id != ""
	l.mu.Unlock()
	if id == "" {
		return nil
	}
	if err := l.cancelJob(ctx, id); err != nil {
		l.setSwitching(false) // no Start follows: the job stays as it was
		return err
	}
	l.drainResults(ctx)
	return nil
}

// Status is estimated from the job's print-sink lines (see the books type).
func (j flinkRun) Status() labrt.JobStatus {
	l := j.lab
	now := l.cfg.Now().UnixMilli()
	l.mu.Lock()
	pos := l.pos
	js := labrt.JobStatus{Watermark: l.books.watermark, Stats: l.books.stats, Open: l.books.openWindows(now)}
	l.mu.Unlock()
	js.Read, js.Reads = pos.status()
	return js
}

// collect takes one result from the job; it never blocks unless the runtime is
// lossless.
func (l *Lab) collect(r jobspec.Result) {
	l.mu.Lock()
	l.books.add(&r)
	pos := l.pos
	l.mu.Unlock()
	if r.Kind == jobspec.LateResult {
		pos.late(r.Record.RequestID, r.Record.Timestamp)
	}
	l.Collect(r)
}

// restarted reports a restart the job went through by itself (a killed or dead
// TaskManager, Flink restarting a failed job): it reads what it read, and the books
// start over.
func (l *Lab) restarted(r backend.Restart) {
	brokers := []string{l.Broker()}
	l.mu.Lock()
	l.books = newBooks()
	l.lastRestart = l.cfg.Now()
	old := l.pos
	if old != nil {
		l.pos = newPositions(brokers, old.topic, old.start, old.bound)
	}
	l.mu.Unlock()
	old.stop()
	l.Begin(r, l.Spec())
}

// logf queues a line for the learner's log.
func (l *Lab) logf(format string, args ...any) { l.Logf(format, args...) }

// errClosed is returned by calls made after Close.
var errClosed = labrt.ErrClosed

// ready returns labrt.ErrClosed, or labrt's not-started error, unless the lab is running.
func (l *Lab) ready() error { return l.Ready() }

// isClosed reports whether Close has begun.
func (l *Lab) isClosed() bool { return errors.Is(l.Ready(), labrt.ErrClosed) }
