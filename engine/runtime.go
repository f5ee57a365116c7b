package engine

// Runtime is a job's processing-time service: its clock and its processing-time timers.
// The driver moves the clock with AdvanceTo before each record, so processing time is
// whatever the driver says: arrival times on a simulated clock, or the wall clock.
//
// A timer registered for time t fires before a record that arrives at processing time p
// exactly when t < p: Flink schedules a timer for t at wall clock t+1
// (ProcessingTimeServiceUtil.getProcessingTimeDelay). Timers due at the same time fire in
// the order they were registered. A Runtime is not safe for concurrent use.
type Runtime struct {
	now    int64
	seq    uint64
	timers procTimers
}

// NewRuntime returns a Runtime whose clock reads start.
func NewRuntime(start int64) *Runtime {
	return &Runtime{now: start}
}

// Now returns the current processing time in milliseconds since the epoch.
func (r *Runtime) Now() int64 { return r.now }

// RegisterTimer asks for fn to be called with t once processing time passes t.
func (r *Runtime) RegisterTimer(t int64, fn func(t int64)) {
	r.seq++
	r.timers.push(procTimer{at: t, seq: r.seq, fn: fn})
}

// AdvanceTo moves the clock to p, first firing, in order, every timer due strictly before
// p, including timers those timers register. While a timer for t runs, the clock reads
// t+1, the earliest moment Flink would run it. The clock never goes back: a p behind the
// clock fires nothing and leaves it where it is.
func (r *Runtime) AdvanceTo(p int64) {
	for len(r.timers) > 0 && r.timers[0].at < p {
		t := r.timers.pop()
		if t.at+1 > r.now {
			r.now = t.at + 1
		}
		t.fn(t.at)
	}
	if p > r.now {
		r.now = p
	}
}

// NextTimer returns the time of the earliest pending timer, and false if there is none.
// A live driver sleeps until the wall clock passes it.
func (r *Runtime) NextTimer() (int64, bool) {
	if len(r.timers) == 0 {
		return 0, false
	}
	return r.timers[0].at, true
}

// PendingTimers returns how many processing-time timers are waiting.
func (r *Runtime) PendingTimers() int { return len(r.timers) }

type procTimer struct {
	at  int64
	seq uint64
	fn  func(int64)
}

// procTimers is a binary min-heap of timers in (at, seq) order, written out rather than
// through container/heap so that a timer is never boxed into an interface.
type procTimers []procTimer

func (h procTimers) less(i, j int) bool {
	return h[i].at < h[j].at || (h[i].at == h[j].at && h[i].seq < h[j].seq)
}

func (h *procTimers) push(t procTimer) {
	*h = append(*h, t)
	q := *h
	for i := len(q) - 1; i > 0; {
		parent := (i - 1) / 2
		if !q.less(i, parent) {
			break
		}
		q[i], q[parent] = q[parent], q[i]
		i = parent
	}
}

func (h *procTimers) pop() procTimer {
	q := *h
	t := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q[last] = procTimer{}
	q = q[:last]
	for i := 0; ; {
		l, r, smallest := 2*i+1, 2*i+2, i
		if l < len(q) && q.less(l, smallest) {
			smallest = l
		}
		if r < len(q) && q.less(r, smallest) {
			smallest = r
		}
		if smallest == i {
			break
		}
		q[i], q[smallest] = q[smallest], q[i]
		i = smallest
	}
	*h = q
	return t
}
