package labrt

import (
	"sync"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// defaultMaxResults is how many results wait for the reader, by default, before the
// runtime drops (or, lossless, holds back) the next ones.
const defaultMaxResults = 50_000

// reuseBatch is the most results a new batch makes room for at its start (1.4 MB).
const reuseBatch = 8192

// outbox is the one way updates leave the runtime. Notices (restarts, replay progress,
// log lines) wait in a queue and are never dropped; results wait in a batch of the run
// they belong to, bounded: once max results wait for the reader (in the batch, in the
// queue, or in the update being sent) a new result is dropped and counted, or, when the
// outbox is lossless, its writer waits until the reader has taken some. What a send
// carried is let go only once the reader has it, so what a failed send carried is never
// lost.
//
// Whatever is queued goes out in the order it was queued, all of it before the batch:
// the results of a run before the restart that ends it, a restart before any result
// of the run it begins, a replay's progress after every result collected before it.
//
// A send that waits for the reader (a lossless one, or close's) waits without holding
// the lock, so nothing else waits for the reader with it: a notice (a log line, a
// replay's progress, a restart) is queued at once, and results are collected up to the
// bound, while the send waits. Only a lossless writer past the bound waits for the
// reader. One flush sends at a time, so updates leave in order.
type outbox struct {
	updates  chan backend.Update
	max      int
	lossless bool

	// sending is held by the one flush that sends, for all of it.
	sending sync.Mutex

	mu sync.Mutex
	// room is signalled when results have been sent: a lossless collect waits on it.
	room  *sync.Cond
	queue []backend.Update
	// waiting counts the results in the queue and in the update being sent: with the
	// batch, what counts against max.
	waiting int
	// run is the run of the batch: the current one.
	run   int
	batch []jobspec.Result
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
// max results wait for the reader.
func (o *outbox) collect(run int, r jobspec.Result) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if run != o.run {
		o.rotate(run)
	}
	for o.holding() && o.full() && !o.done {
		o.room.Wait()
	}
	if o.full() || o.done {
		o.dropped++
		o.lost.Results++
		return
	}
	o.batch = append(o.batch, r)
}

// full reports whether max results wait for the reader. Its caller holds mu.
func (o *outbox) full() bool { return len(o.batch)+o.waiting >= o.max }

// rotate queues the batch, if anything is in it, and starts one for run. Its caller
// holds mu.
func (o *outbox) rotate(run int) {
	if len(o.batch) > 0 || o.dropped > 0 {
		o.queue = append(o.queue, backend.Update{Run: o.run, Results: o.batch, Dropped: o.dropped})
		o.waiting += len(o.batch)
		o.batch, o.dropped = nil, 0
	}
	o.run = run
}

// notice queues u, never to be dropped, and never waiting for the reader; u.Run is set
// to the current run. A replay's progress goes after the results collected before it.
func (o *outbox) notice(u backend.Update) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		o.lost.Notices++
		return
	}
	if u.Replay != nil {
		o.rotate(o.run)
	}
	u.Run = o.run
	o.queue = append(o.queue, u)
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
	o.sending.Lock()
	defer o.sending.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	// Only this flush takes from the queue: while a send waits, notices are appended
	// behind the one it sends, which stays the first.
	for len(o.queue) > 0 {
		u := o.queue[0]
		if !o.send(u) {
			return
		}
		o.queue[0] = backend.Update{}
		o.queue = o.queue[1:]
		o.sent(len(u.Results))
	}
	u := backend.Update{Run: o.run, Results: o.batch, Dropped: o.dropped, Status: st}
	if st == nil && len(u.Results) == 0 && u.Dropped == 0 {
		return
	}
	// The batch leaves the outbox while it is sent, so that what is collected meanwhile
	// starts a new one, and comes back in front of it if the send fails. The new one
	// starts with the room the last one took (up to reuseBatch results): a replay
	// collects a batch of thousands between two sends, and growing each from nothing
	// left as much garbage again as its results.
	o.batch, o.dropped = make([]jobspec.Result, 0, min(len(u.Results), reuseBatch)), 0
	o.waiting += len(u.Results)
	if o.send(u) {
		o.sent(len(u.Results))
		return
	}
	o.waiting -= len(u.Results)
	if len(o.queue) == 0 && o.run == u.Run {
		o.batch, o.dropped = append(u.Results, o.batch...), u.Dropped+o.dropped
		return
	}
	// A restart or a replay's progress was queued while the send waited: the batch
	// goes before it.
	o.queue = append([]backend.Update{{Run: u.Run, Results: u.Results, Dropped: u.Dropped}}, o.queue...)
	o.waiting += len(u.Results)
}

// sent counts n results as taken by the reader, and wakes the writers waiting for
// room. Its caller holds mu.
func (o *outbox) sent(n int) {
	if n > 0 {
		o.waiting -= n
		o.room.Broadcast()
	}
}

// send delivers u: at once or not at all, unless the outbox holds back or is closing,
// when it waits for the reader (until the close's deadline, or until abandon), with mu
// let go meanwhile. Its caller holds mu and sending.
func (o *outbox) send(u backend.Update) bool {
	select {
	case o.updates <- u:
		return true
	default:
	}
	if !o.holding() && o.closing == nil {
		return false
	}
	// Closing, the deadline alone ends the wait (an abandon starts it).
	closing, abort := o.closing, o.abort
	if closing != nil {
		abort = nil
	}
	o.mu.Unlock()
	defer o.mu.Lock()
	select {
	case o.updates <- u:
		return true
	case <-closing:
		return false
	case <-abort:
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
// writer waiting for room drops and counts, and close waits only its deadline (from
// the abandon, when close was already waiting).
func (o *outbox) abandon() {
	o.abortOnce.Do(func() { close(o.abort) })
	o.mu.Lock()
	o.room.Broadcast()
	o.mu.Unlock()
}

// close sends everything still waiting, giving the reader until wait has passed (a
// lossless outbox waits as long as it takes, or until wait has passed since an
// abandon), counts what it could not send as lost,
// and closes the updates channel.
func (o *outbox) close(st *backend.Status, wait time.Duration) Lost {
	deadline := make(chan struct{})
	end := sync.OnceFunc(func() { close(deadline) })
	if !o.holding() {
		t := time.AfterFunc(wait, end)
		defer t.Stop()
	} else { // as long as it takes, or wait from an abandon
		closed := make(chan struct{})
		defer close(closed)
		go func() {
			select {
			case <-o.abort:
				t := time.AfterFunc(wait, end)
				<-closed
				t.Stop()
			case <-closed:
			}
		}()
	}
	o.mu.Lock()
	o.closing = deadline
	o.mu.Unlock()
	o.flush(st)
	o.sending.Lock()
	defer o.sending.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, u := range o.queue {
		o.lost.Results += int64(len(u.Results))
		if u.Restarted != nil || u.Replay != nil || u.Log != "" {
			o.lost.Notices++
		}
	}
	o.lost.Results += int64(len(o.batch))
	o.queue, o.batch, o.waiting, o.done = nil, nil, 0, true
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
