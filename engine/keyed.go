package engine

// KeyedProcessFunction is Flink's KeyedProcessFunction with one ValueState of type S per
// key: ProcessElement sees each element with its key's state, OnTimer each event-time
// timer of a key when the watermark reaches it.
type KeyedProcessFunction[K comparable, S, IN, OUT any] interface {
	ProcessElement(ctx *KeyedContext[K, S, OUT], value IN)
	OnTimer(ctx *KeyedContext[K, S, OUT], timestamp int64)
}

// KeyedProcess runs a KeyedProcessFunction: Flink's KeyedProcessOperator on a keyed
// stream. Event-time timers are deduplicated per (key, time), as Flink's timer service
// does, and fire in time order, every timer at or below the watermark, before the
// watermark is forwarded (InternalTimerServiceImpl.advanceWatermark).
type KeyedProcess[K comparable, S, IN, OUT any] struct {
	keyOf  func(IN) K
	fn     KeyedProcessFunction[K, S, IN, OUT]
	out    Output[OUT]
	state  map[K]keyedEntry[S]
	timers timerQueue[K]
	wm     int64
	ctx    KeyedContext[K, S, OUT]
}

// keyedEntry is what one key holds: its ValueState and its registered timers. Most keys
// have at most two timers, kept inline so a key costs no allocation of its own.
type keyedEntry[S any] struct {
	value  S
	has    bool
	n      uint8
	timers [2]int64
	extra  []int64
}

func (e *keyedEntry[S]) empty() bool { return !e.has && e.n == 0 && len(e.extra) == 0 }

func (e *keyedEntry[S]) hasTimer(ts int64) bool {
	for i := uint8(0); i < e.n; i++ {
		if e.timers[i] == ts {
			return true
		}
	}
	for _, t := range e.extra {
		if t == ts {
			return true
		}
	}
	return false
}

func (e *keyedEntry[S]) addTimer(ts int64) {
	if int(e.n) < len(e.timers) {
		e.timers[e.n] = ts
		e.n++
		return
	}
	e.extra = append(e.extra, ts)
}

func (e *keyedEntry[S]) removeTimer(ts int64) bool {
	for i := uint8(0); i < e.n; i++ {
		if e.timers[i] == ts {
			e.n--
			e.timers[i] = e.timers[e.n]
			if len(e.extra) > 0 {
				e.timers[e.n] = e.extra[len(e.extra)-1]
				e.extra = e.extra[:len(e.extra)-1]
				e.n++
			}
			return true
		}
	}
	for i, t := range e.extra {
		if t == ts {
			e.extra = append(e.extra[:i], e.extra[i+1:]...)
			return true
		}
	}
	return false
}

// NewKeyedProcess returns an operator that keys elements with keyOf, runs fn, and sends
// what fn collects to out.
func NewKeyedProcess[K comparable, S, IN, OUT any](keyOf func(IN) K, fn KeyedProcessFunction[K, S, IN, OUT], out Output[OUT]) *KeyedProcess[K, S, IN, OUT] {
	op := &KeyedProcess[K, S, IN, OUT]{keyOf: keyOf, fn: fn, out: out, state: make(map[K]keyedEntry[S]), wm: MinWatermark}
	op.ctx.op = op
	return op
}

// Collect runs ProcessElement for rec under its key.
func (op *KeyedProcess[K, S, IN, OUT]) Collect(rec Record[IN]) {
	key := op.keyOf(rec.Value)
	existed := op.load(key, rec.Timestamp)
	op.fn.ProcessElement(&op.ctx, rec.Value)
	op.store(existed)
}

// EmitWatermark fires every timer at or below wm, then forwards wm.
func (op *KeyedProcess[K, S, IN, OUT]) EmitWatermark(wm int64) {
	op.wm = wm
	for {
		t, ok := op.timers.peek()
		if !ok || t.at > wm {
			break
		}
		op.timers.pop()
		existed := op.load(t.key, t.at)
		if op.ctx.entry.removeTimer(t.at) { // false: deleted since it was registered
			op.fn.OnTimer(&op.ctx, t.at)
		}
		op.store(existed)
	}
	op.out.EmitWatermark(wm)
}

// Watermark returns the operator's current watermark (MinWatermark before any).
func (op *KeyedProcess[K, S, IN, OUT]) Watermark() int64 { return op.wm }

// Keys returns how many keys hold state or timers: the operator's state size.
func (op *KeyedProcess[K, S, IN, OUT]) Keys() int { return len(op.state) }

// PendingTimers returns how many timers are queued, including deleted ones not yet due.
func (op *KeyedProcess[K, S, IN, OUT]) PendingTimers() int { return op.timers.len() }

func (op *KeyedProcess[K, S, IN, OUT]) load(key K, ts int64) bool {
	e, existed := op.state[key]
	op.ctx.key, op.ctx.entry, op.ctx.timestamp = key, e, ts
	return existed
}

func (op *KeyedProcess[K, S, IN, OUT]) store(existed bool) {
	switch {
	case !op.ctx.entry.empty():
		op.state[op.ctx.key] = op.ctx.entry
	case existed:
		delete(op.state, op.ctx.key)
	}
}

// KeyedContext is what a KeyedProcessFunction sees of the current key: its state, its
// timers, the current element's (or timer's) timestamp, and the output.
type KeyedContext[K comparable, S, OUT any] struct {
	op interface {
		collect(Record[OUT])
		registerTimer(ts int64, key K)
		watermark() int64
	}
	key       K
	entry     keyedEntry[S]
	timestamp int64
}

func (op *KeyedProcess[K, S, IN, OUT]) collect(rec Record[OUT])     { op.out.Collect(rec) }
func (op *KeyedProcess[K, S, IN, OUT]) registerTimer(ts int64, k K) { op.timers.push(ts, k) }
func (op *KeyedProcess[K, S, IN, OUT]) watermark() int64            { return op.wm }

// Key returns the current key.
func (c *KeyedContext[K, S, OUT]) Key() K { return c.key }

// Timestamp returns the current element's timestamp, or the firing timer's time.
func (c *KeyedContext[K, S, OUT]) Timestamp() int64 { return c.timestamp }

// CurrentWatermark returns the operator's watermark when the element arrived.
func (c *KeyedContext[K, S, OUT]) CurrentWatermark() int64 { return c.op.watermark() }

// Value returns the key's state, and false if it holds none.
func (c *KeyedContext[K, S, OUT]) Value() (S, bool) { return c.entry.value, c.entry.has }

// Update sets the key's state.
func (c *KeyedContext[K, S, OUT]) Update(v S) { c.entry.value, c.entry.has = v, true }

// Clear empties the key's state.
func (c *KeyedContext[K, S, OUT]) Clear() {
	var zero S
	c.entry.value, c.entry.has = zero, false
}

// RegisterEventTimeTimer asks for OnTimer(ts) once the watermark reaches ts. A timer
// already registered for this key and time is not registered twice. A time the watermark
// has already passed fires at the next watermark.
func (c *KeyedContext[K, S, OUT]) RegisterEventTimeTimer(ts int64) {
	if c.entry.hasTimer(ts) {
		return
	}
	c.entry.addTimer(ts)
	c.op.registerTimer(ts, c.key)
}

// DeleteEventTimeTimer cancels this key's timer for ts, if there is one.
func (c *KeyedContext[K, S, OUT]) DeleteEventTimeTimer(ts int64) { c.entry.removeTimer(ts) }

// Collect emits v with the current timestamp: the element's, or the timer's.
func (c *KeyedContext[K, S, OUT]) Collect(v OUT) {
	c.op.collect(Record[OUT]{Value: v, Timestamp: c.timestamp})
}
