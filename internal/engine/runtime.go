package engine

import "math"

// Runtime is a job's processing-time service: its clock and its processing-time timers.
// The driver moves the clock with AdvanceTo before each record, so processing time is
// whatever the driver says: arrival times on a simulated clock, or the wall clock.
//
// A timer registered for time t fires before a record that arrives at processing time p
// exactly when t < p: Flink schedules a timer for t at wall clock t+1
// (ProcessingTimeServiceUtil.getProcessingTimeDelay). Timers due at the same time fire in
// the order they were registered. A Runtime is not safe for concurrent use.
type Runtime struct {
	now int64
	// next is the earliest pending timer's time (math.MaxInt64 when none is), so that
	// AdvanceTo between two timers, as for almost every record, reads no queue.
	next   int64
	timers timerQueue[func(int64)]
}

// NewRuntime returns a Runtime whose clock reads start.
func NewRuntime(start int64) *Runtime {
	return &Runtime{now: start, next: math.MaxInt64}
}

// Now returns the current processing time in milliseconds since the epoch.
func (r *Runtime) Now() int64 { return r.now }

// RegisterTimer asks for fn to be called with t once processing time passes t.
func (r *Runtime) RegisterTimer(t int64, fn func(t int64)) {
	r.timers.push(t, fn)
	r.next = min(r.next, t)
}

// AdvanceTo moves the clock to p, first firing, in order, every timer due strictly before
// p, including timers those timers register. While a timer for t runs, the clock reads
// t+1, the earliest moment Flink would run it. The clock never goes back: a p behind the
// clock fires nothing and leaves it where it is.
func (r *Runtime) AdvanceTo(p int64) {
	if p <= r.next { // no timer due before p: most records
		r.now = max(r.now, p)
		return
	}
	r.fire(p)
}

// fire is AdvanceTo when a timer may be due before p.
func (r *Runtime) fire(p int64) {
	for {
		t, ok := r.timers.peek()
		if !ok || t.at >= p {
			break
		}
		r.timers.pop()
		r.next = r.nextAt()
		if t.at+1 > r.now {
			r.now = t.at + 1
		}
		t.key(t.at)
	}
	if p > r.now {
		r.now = p
	}
}

// nextAt is the earliest pending timer's time, or math.MaxInt64.
func (r *Runtime) nextAt() int64 {
	if t, ok := r.timers.peek(); ok {
		return t.at
	}
	return math.MaxInt64
}

// NextTimer returns the time of the earliest pending timer, and false if there is none.
// A live driver sleeps until the wall clock passes it.
func (r *Runtime) NextTimer() (int64, bool) {
	t, ok := r.timers.peek()
	return t.at, ok
}

// PendingTimers returns how many processing-time timers are waiting.
func (r *Runtime) PendingTimers() int { return r.timers.len() }

// RunUntilIdle runs the clock on with no more input until no timer is pending: it fires
// every pending timer, and every timer those register, in order, and leaves the clock one
// millisecond past the last (where Flink would have run it). It returns when nothing is
// scheduled, so the timers must stop re-registering themselves once input ends, as the
// engine's do: a window's timer fires once, and an assigner arms its next emit only after
// an element.
func (r *Runtime) RunUntilIdle() {
	for {
		t, ok := r.timers.peek()
		if !ok {
			return
		}
		r.AdvanceTo(max(t.at+1, r.now))
	}
}
