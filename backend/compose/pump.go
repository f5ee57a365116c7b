package compose

import (
	"context"
	"fmt"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/engine"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/meter"
)

// Bounds of what waits to be sent: past them results are dropped and counted (as the
// embedded lab does) and log lines dropped and counted; restarts and replay progress
// are never dropped.
const (
	maxBatch = 50_000
	maxQueue = 2_000
)

// startPump starts the goroutine that sends updates every StatusEvery.
func (l *Lab) startPump() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pumpDone != nil {
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	l.pumpStop, l.pumpDone = stop, make(chan struct{})
	go l.pump(ctx, l.pumpDone)
}

// stopPump stops the pump after one last flush.
func (l *Lab) stopPump() {
	l.mu.Lock()
	stop, done := l.pumpStop, l.pumpDone
	l.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// pump sends, every StatusEvery, what is queued (log lines, restarts, replay progress,
// in order), then the results collected since the last update with a fresh status. It
// never blocks: when the reader falls behind, the queue waits and results are dropped
// and counted.
func (l *Lab) pump(ctx context.Context, done chan struct{}) {
	defer close(done)
	backend.Pump(ctx, l.cfg.StatusEvery, l.flush)
}

func (l *Lab) flush() {
	l.mu.Lock()
	queue := l.queue
	l.queue = nil
	if l.queueDropped > 0 {
		queue = append(queue, backend.Update{Log: fmt.Sprintf("%d log lines were dropped: the screen fell behind", l.queueDropped)})
		l.queueDropped = 0
	}
	u := backend.Update{Run: l.runs, Results: l.batch, Dropped: l.dropped}
	l.batch, l.dropped = nil, 0
	l.mu.Unlock()
	for i := range queue {
		if !l.send(queue[i]) {
			l.mu.Lock()
			l.queue = append(queue[i:], l.queue...)
			l.batch = append(u.Results, l.batch...)
			l.dropped += u.Dropped
			if over := len(l.batch) - maxBatch; over > 0 {
				l.batch = l.batch[:maxBatch]
				l.dropped += over
			}
			l.mu.Unlock()
			return
		}
	}
	st := l.Status()
	u.Status = &st
	if !l.send(u) {
		l.mu.Lock()
		l.dropped += u.Dropped + len(u.Results)
		l.mu.Unlock()
	}
}

// send delivers u unless the reader is a full channel behind.
func (l *Lab) send(u backend.Update) bool {
	select {
	case l.updates <- u:
		return true
	default:
		return false
	}
}

// logf queues a line for the learner's log.
func (l *Lab) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) >= maxQueue {
		l.queueDropped++
		return
	}
	l.queue = append(l.queue, backend.Update{Log: fmt.Sprintf(format, args...)})
}

// enqueue queues an update that must not be dropped.
func (l *Lab) enqueue(u backend.Update) {
	l.mu.Lock()
	l.queue = append(l.queue, u)
	l.mu.Unlock()
}

// collect takes one result from the job; it never blocks.
func (l *Lab) collect(r meter.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.books.add(&r)
	if len(l.batch) < maxBatch {
		l.batch = append(l.batch, r)
	} else {
		l.dropped++
	}
}

// restarted reports that the job starts again: the results collected so far are queued
// ahead of the restart, so they stay with the run they belong to, and the books start
// over.
func (l *Lab) restarted(r backend.Restart) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.batch) > 0 || l.dropped > 0 {
		l.queue = append(l.queue, backend.Update{Run: l.runs, Results: l.batch, Dropped: l.dropped})
		l.batch, l.dropped = nil, 0
	}
	now := l.cfg.Now()
	l.runs++
	if r.Cause == backend.CauseReplay || r.Cause == backend.CauseLive {
		l.recording = r.Recording
	}
	r.Run, r.Recording, r.Timestamp, r.At = l.runs, l.recording, l.field, now.UnixMilli()
	r.Watermarks = backend.Watermarks{OutOfOrderness: l.cfg.Job.Watermarks.OutOfOrderness, Interval: engine.DefaultWatermarkInterval}
	l.queue = append(l.queue, backend.Update{Run: r.Run, Restarted: &r})
	l.books = newBooks()
	l.lastRestart = now
}

// Status is a snapshot of the lab. Watermark, Job and Open are estimated from the job's
// print-sink lines (see the books type); Instances are labtui's own gateway fleet.
func (l *Lab) Status() backend.Status {
	now := l.cfg.Now().UnixMilli()
	l.mu.Lock()
	st := backend.Status{Now: now, Backend: l.Name(), Broker: l.cfg.Broker, Generator: l.gen != nil,
		Watermark: l.books.watermark, Timestamp: l.field, Job: l.books.stats, Open: l.books.openWindows(now)}
	gen := l.gen
	totals := append([]generator.InstanceStats(nil), l.retired...)
	l.mu.Unlock()
	var live []generator.InstanceStats
	if gen != nil {
		live = gen.Stats()
	}
	states := l.injector.State(nil)
	if gen != nil {
		states = l.injector.State(gen)
	}
	n := l.cfg.Generator.Instances
	for i := range n {
		in := backend.Instance{Name: generator.InstanceName(i), Produced: totals[i].Produced, Acked: totals[i].Acked}
		if i < len(live) {
			in.Produced += live[i].Produced
			in.Acked += live[i].Acked
			in.Rate = l.cfg.Generator.Rate / float64(n)
		}
		if i < len(states) {
			in.Hiccup, in.HiccupLeft, in.Held = states[i].On, states[i].Left, int(states[i].Held)
		}
		st.Instances = append(st.Instances, in)
	}
	return st
}
