package labrt

import (
	"sync"
	"time"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/meter"
)

// DefaultMaxResults is how many results wait for the reader, by default, before the
// runtime drops (or, lossless, holds back) the next ones.
const DefaultMaxResults = 50_000

// outbox is the one way updates leave the runtime. Notices (restarts, replay progress,
// log lines) wait in a queue and are never dropped; results wait in a batch of the run
// they belong to, bounded: past the bound a new result is dropped and counted, or, when
// the outbox is lossless, its sender waits until the reader has taken the batch. A batch
// is let go only once the reader has it, so what a failed send carried is never lost.
//
// Whatever is queued goes out in the order it was queued, all of it before the batch:
// the results of a run before the restart that ends it, a restart before any result
// of the run it begins.
type outbox struct {
	updates  chan backend.Update
	max      int
	lossless bool

	mu sync.Mutex
	// room is signalled when a batch has been sent: a lossless collect waits on it.
	room  *sync.Cond
	queue []backend.Update
	// run is the run of the batch: the current one.
	run   int
	batch []meter.Result
	// dropped is what was dropped since the last update that counted it; lost is every
	// result dropped since the start, and every notice left unsent at close.
	dropped int
	lost    Lost
	// closing makes every send give up once the final flush's deadline has passed;
	// done says the updates channel is closed.
	closing <-chan struct{}
	done    bool
	// abort, closed by abandon, ends holding back for good.
	abort     chan struct{}
	abortOnce sync.Once
}

// Lost counts what never reached the reader.
type Lost struct {
	// Results were dropped because the reader fell behind (never when lossless), or were
	// still waiting when the lab closed and the reader did not take them.
	Results int64
	// Notices are restarts, progress and log lines still waiting when the lab closed and
	// the reader did not take them.
	Notices int64
}

func newOutbox(buffer, max int, lossless bool) *outbox {
	o := &outbox{updates: make(chan backend.Update, buffer), max: max, lossless: lossless, abort: make(chan struct{})}
	o.room = sync.NewCond(&o.mu)
	return o
}

// collect takes one result of run. It never blocks unless the outbox is lossless and
// the batch is full.
func (o *outbox) collect(run int, r meter.Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if run != o.run {
		o.rotate(run)
	}
	for o.holding() && len(o.batch) >= o.max && !o.done {
		o.room.Wait()
	}
	if len(o.batch) >= o.max || o.done {
		o.dropped++
		o.lost.Results++
		return
	}
	o.batch = append(o.batch, r)
}

// rotate queues the batch, if anything is in it, and starts one for run. Its caller
// holds mu.
func (o *outbox) rotate(run int) {
	if len(o.batch) > 0 || o.dropped > 0 {
		o.queue = append(o.queue, backend.Update{Run: o.run, Results: o.batch, Dropped: o.dropped})
		o.batch, o.dropped = nil, 0
		o.room.Broadcast()
	}
	o.run = run
}

// notice queues u, never to be dropped; u.Run is set to the current run.
func (o *outbox) notice(u backend.Update) {
	o.mu.Lock()
	if o.done {
		o.lost.Notices++
		o.mu.Unlock()
		return
	}
	u.Run = o.run
	o.queue = append(o.queue, u)
	o.mu.Unlock()
}

// begin queues the current run's results, then the restart r that begins run r.Run.
func (o *outbox) begin(r backend.Restart) {
	o.mu.Lock()
	o.rotate(r.Run)
	o.queue = append(o.queue, backend.Update{Run: r.Run, Restarted: &r})
	o.mu.Unlock()
}

// flush sends what is queued, in order, then the batch with st. When the reader is
// behind, the rest waits for the next flush (st is let go: a newer one will come); a
// lossless outbox waits for the reader instead.
func (o *outbox) flush(st *backend.Status) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	for len(o.queue) > 0 {
		if !o.send(o.queue[0]) {
			return
		}
		o.queue[0] = backend.Update{}
		o.queue = o.queue[1:]
	}
	u := backend.Update{Run: o.run, Results: o.batch, Dropped: o.dropped, Status: st}
	if st == nil && len(u.Results) == 0 && u.Dropped == 0 {
		return
	}
	if o.send(u) {
		o.batch, o.dropped = nil, 0
		o.room.Broadcast()
	}
}

// send delivers u: at once or not at all, unless the outbox holds back or is closing,
// when it waits for the reader (until the close's deadline, or until abandon). Its
// caller holds mu.
func (o *outbox) send(u backend.Update) bool {
	select {
	case o.updates <- u:
		return true
	default:
	}
	if !o.holding() && o.closing == nil {
		return false
	}
	select {
	case o.updates <- u:
		return true
	case <-o.closing:
		return false
	case <-o.abort:
		return false
	}
}

// holding reports whether a full outbox holds its writers back rather than drop.
func (o *outbox) holding() bool {
	if !o.lossless {
		return false
	}
	select {
	case <-o.abort:
		return false
	default:
		return true
	}
}

// abandon stops holding back, for good: a send waiting for the reader gives up, a
// writer waiting for room drops and counts, and close waits only its deadline.
func (o *outbox) abandon() {
	o.abortOnce.Do(func() { close(o.abort) })
	o.mu.Lock()
	o.room.Broadcast()
	o.mu.Unlock()
}

// close sends everything still waiting, giving the reader until wait has passed (a
// lossless outbox waits as long as it takes), counts what it could not send as lost,
// and closes the updates channel.
func (o *outbox) close(st *backend.Status, wait time.Duration) Lost {
	deadline := make(chan struct{})
	if !o.holding() {
		t := time.AfterFunc(wait, func() { close(deadline) })
		defer t.Stop()
	}
	o.mu.Lock()
	o.closing = deadline
	o.mu.Unlock()
	o.flush(st)
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, u := range o.queue {
		o.lost.Results += int64(len(u.Results))
		if u.Results == nil {
			o.lost.Notices++
		}
	}
	o.lost.Results += int64(len(o.batch))
	o.queue, o.batch, o.done = nil, nil, true
	o.room.Broadcast()
	close(o.updates)
	return o.lost
}

// lostSoFar is what was lost up to now.
func (o *outbox) lostSoFar() Lost {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lost
}
