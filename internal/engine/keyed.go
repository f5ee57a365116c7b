package engine

import "github.com/labtui/labtui/internal/timeheap"

// KeyedProcessFunction is Flink's KeyedProcessFunction with one ValueState of type S per
// key: ProcessElement sees each element with its key's state, OnTimer each event-time
// timer of a key when the watermark reaches it. The element is lent for the call, as a
// Record is (see Output).
type KeyedProcessFunction[S, IN, OUT any] interface {
	ProcessElement(ctx *KeyedContext[S, OUT], value *IN)
	OnTimer(ctx *KeyedContext[S, OUT], timestamp int64)
}

// KeyedProcess runs a KeyedProcessFunction: Flink's KeyedProcessOperator on a keyed
// stream. Event-time timers are deduplicated per (key, time), as Flink's timer service
// does, and fire in time order, every timer at or below the watermark, before the
// watermark is forwarded (InternalTimerServiceImpl.advanceWatermark).
type KeyedProcess[S, IN, OUT any] struct {
	keyOf  func(*IN) string
	hashOf func(*IN) (string, uint64) // the key with a hash computed earlier (HashedBy), or nil
	fn     KeyedProcessFunction[S, IN, OUT]
	out    Output[OUT]
	state  keyTable[*keyedEntry[S]]
	free   []*keyedEntry[S] // emptied entries, reused so a key costs no allocation
	timers timerQueue[timerRef[S]]
	// compactAt is the queue length at which deleted timers are next dropped.
	compactAt int
	wm        int64
	ctx       KeyedContext[S, OUT]
}

// timerRef is what a queued timer remembers of its key: the entry that held it when the
// timer was registered (which knows its key), with the entry's generation then. An entry
// is reused for another key only after it held no timer, so a changed generation means the
// timer was deleted, and firing needs no map lookup.
type timerRef[S any] struct {
	e   *keyedEntry[S]
	gen uint32
}

// keyedEntry is what one key holds: its ValueState and its registered timers. Most keys
// have at most two timers, kept inline so a key costs no allocation of its own.
type keyedEntry[S any] struct {
	key    string
	hash   uint64 // the hash the key is in the table with
	value  S
	has    bool
	n      uint8
	gen    uint32
	timers [2]int64
	extra  []int64
}

// empty reports whether e holds no value and no timer. extra only holds timers while
// both inline ones are taken (addTimer, removeTimer keep it so), so n == 0 says no timer.
func (e *keyedEntry[S]) empty() bool { return !e.has && e.n == 0 }

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
	if e.n == 1 && e.timers[0] == ts { // a key's one timer, so none in extra: most keys
		e.n = 0
		return true
	}
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
func NewKeyedProcess[S, IN, OUT any](keyOf func(*IN) string, fn KeyedProcessFunction[S, IN, OUT], out Output[OUT]) *KeyedProcess[S, IN, OUT] {
	op := &KeyedProcess[S, IN, OUT]{keyOf: keyOf, fn: fn, out: out, state: newKeyTable[*keyedEntry[S]](), wm: MinWatermark, compactAt: minCompact}
	op.ctx.out, op.ctx.timers, op.ctx.compactAt, op.ctx.wm = out, &op.timers, &op.compactAt, &op.wm
	return op
}

// HashedBy makes the operator read each element's key and its hash with hashOf instead
// of calling keyOf and hashing the key: a hash the parser computed as it read the key
// (gateway.Event.IDHash). hashOf must return keyOf's key, with a hash that is the same
// for equal keys every time, or zero, which makes the operator hash the key itself
// (keyhash.String): so a hash it returns must be keyhash.String of the key unless it
// returns one for every element. It returns op.
func (op *KeyedProcess[S, IN, OUT]) HashedBy(hashOf func(*IN) (string, uint64)) *KeyedProcess[S, IN, OUT] {
	op.hashOf = hashOf
	return op
}

// Collect runs ProcessElement for rec under its key.
func (op *KeyedProcess[S, IN, OUT]) Collect(rec *Record[IN]) {
	var key string
	var hash uint64
	if op.hashOf != nil {
		key, hash = op.hashOf(&rec.Value)
	} else {
		key = op.keyOf(&rec.Value)
	}
	if hash == 0 {
		hash = op.state.hashOf(key)
	}
	slot, existed := op.state.find(key, hash)
	e := op.entry(slot, existed)
	if !existed {
		e.key, e.hash = key, hash
	}
	op.ctx.entry, op.ctx.timestamp = e, rec.Timestamp
	op.fn.ProcessElement(&op.ctx, &rec.Value)
	switch {
	case existed && e.empty():
		op.state.deleteAt(slot)
		op.recycle(e)
	case !existed && !e.empty():
		op.state.insert(slot, key, hash, e)
	case !existed:
		op.recycle(e)
	}
}

// EmitWatermark fires every timer at or below wm, then forwards wm.
func (op *KeyedProcess[S, IN, OUT]) EmitWatermark(wm int64) {
	op.wm = wm
	for {
		t, ok := op.timers.peek()
		if !ok || t.at > wm {
			break
		}
		op.timers.pop()
		ref := t.key
		if ref.e.gen != ref.gen || !ref.e.hasTimer(t.at) {
			continue // deleted since it was registered
		}
		op.ctx.entry, op.ctx.timestamp = ref.e, t.at
		ref.e.removeTimer(t.at)
		op.fn.OnTimer(&op.ctx, t.at)
		if ref.e.empty() {
			op.state.remove(ref.e.key, ref.e.hash)
			op.recycle(ref.e)
		}
	}
	op.out.EmitWatermark(wm)
}

// Watermark returns the operator's current watermark (MinWatermark before any).
func (op *KeyedProcess[S, IN, OUT]) Watermark() int64 { return op.wm }

// Keys returns how many keys hold state or timers: the operator's state size.
func (op *KeyedProcess[S, IN, OUT]) Keys() int { return op.state.len() }

// PendingTimers returns how many timers are queued, including deleted ones not yet due
// and not yet dropped.
func (op *KeyedProcess[S, IN, OUT]) PendingTimers() int { return op.timers.len() }

// entry returns the entry in slot, or a fresh one for a key that has none.
func (op *KeyedProcess[S, IN, OUT]) entry(slot int, existed bool) *keyedEntry[S] {
	if existed {
		return op.state.slots[slot].val
	}
	if n := len(op.free); n > 0 {
		e := op.free[n-1]
		op.free = op.free[:n-1]
		return e
	}
	return &keyedEntry[S]{}
}

// recycle keeps an entry no key holds any more (empty: no value, no timer) for the next
// new key; its generation moves on, so the timers queued for it are known to be gone. Its
// value needs no zeroing: a value is only written by Update and Set, which mark it held,
// and Clear zeroes it.
func (op *KeyedProcess[S, IN, OUT]) recycle(e *keyedEntry[S]) {
	e.key, e.hash, e.gen = "", 0, e.gen+1
	op.free = append(op.free, e)
}

// KeyedContext is what a KeyedProcessFunction sees of the current key: its state, its
// timers, the current element's (or timer's) timestamp, and the output.
type KeyedContext[S, OUT any] struct {
	out       Output[OUT]
	timers    *timerQueue[timerRef[S]]
	compactAt *int
	wm        *int64
	entry     *keyedEntry[S] // the current key's: it holds the key
	timestamp int64
	emitted   Record[OUT] // the record Collect lends to out
}

// Key returns the current key.
func (c *KeyedContext[S, OUT]) Key() string { return c.entry.key }

// Timestamp returns the current element's timestamp, or the firing timer's time.
func (c *KeyedContext[S, OUT]) Timestamp() int64 { return c.timestamp }

// CurrentWatermark returns the operator's watermark when the element arrived.
func (c *KeyedContext[S, OUT]) CurrentWatermark() int64 { return *c.wm }

// Value returns the key's state, by reference as Flink's heap state backend returns it,
// and true; or nil and false if it holds none (ValueState.value() returns null). What it
// points to changes with Update and Clear: read what you need from it first.
func (c *KeyedContext[S, OUT]) Value() (*S, bool) {
	if !c.entry.has {
		return nil, false
	}
	return &c.entry.value, true
}

// Update sets the key's state.
func (c *KeyedContext[S, OUT]) Update(v S) { c.entry.value, c.entry.has = v, true }

// Set marks the key's state as set and returns it by reference, to be filled in place:
// Update without building the value elsewhere and copying it in. What it points to holds
// the key's previous state, or the zero value if it held none.
func (c *KeyedContext[S, OUT]) Set() *S {
	c.entry.has = true
	return &c.entry.value
}

// Clear empties the key's state.
func (c *KeyedContext[S, OUT]) Clear() {
	var zero S
	c.entry.value, c.entry.has = zero, false
}

// RegisterEventTimeTimer asks for OnTimer(ts) once the watermark reaches ts. A timer
// already registered for this key and time is not registered twice. A time the watermark
// has already passed fires at the next watermark.
func (c *KeyedContext[S, OUT]) RegisterEventTimeTimer(ts int64) {
	switch e := c.entry; {
	case e.n == 0: // no timer yet, so none in extra either: most keys
		e.timers[0], e.n = ts, 1
	case e.hasTimer(ts):
		return
	default:
		e.addTimer(ts)
	}
	c.timers.push(ts, timerRef[S]{e: c.entry, gen: c.entry.gen})
	if c.timers.len() >= *c.compactAt {
		// Deleted timers stay queued until they are due; most per-request timers are
		// deleted long before (a forget timer ten minutes out, its request done in
		// seconds). Dropping them once the queue has doubled since the last time keeps it
		// about twice the live timers, in cache, at a cost of O(1) a timer.
		dropDeleted(c.timers)
		*c.compactAt = max(minCompact, 2*c.timers.len())
	}
}

// liveTimer reports whether a queued timer is still registered: its entry was not reused
// for another key since, and still holds the time.
func liveTimer[S any](at int64, r timerRef[S]) bool { return r.e.gen == r.gen && r.e.hasTimer(at) }

// dropDeleted drops from q every timer deleted since it was queued, keeping the order of
// the others, with the test written into the loop over the ring (where almost every timer
// is), and without clearing the slots the ring lets go: they
// hold references to entries the operator keeps for reuse anyway, and the next pushes
// overwrite them.
func dropDeleted[S any](q *timerQueue[timerRef[S]]) {
	mask := len(q.ring) - 1
	n := 0
	for i := 0; i < q.size; i++ {
		t := &q.ring[(q.head+i)&mask]
		if e := t.key.e; e.gen == t.key.gen && e.hasTimer(t.at) {
			q.ring[(q.head+n)&mask] = *t
			n++
		}
	}
	q.size = n
	q.heap.Retain(func(it timeheap.Item[timerRef[S]]) bool { return liveTimer(it.At, it.Value) })
}

// minCompact is the smallest queue a keyed operator compacts.
const minCompact = 1024

// DeleteEventTimeTimer cancels this key's timer for ts, if there is one.
func (c *KeyedContext[S, OUT]) DeleteEventTimeTimer(ts int64) { c.entry.removeTimer(ts) }

// Collect emits v with the current timestamp: the element's, or the timer's.
func (c *KeyedContext[S, OUT]) Collect(v OUT) {
	c.emitted = Record[OUT]{Value: v, Timestamp: c.timestamp}
	c.out.Collect(&c.emitted)
}

// Next returns the value the next Emit sends, to be filled in place: Collect without
// building the value elsewhere and copying it in. It holds what the last emit left.
func (c *KeyedContext[S, OUT]) Next() *OUT { return &c.emitted.Value }

// Emit sends the value Next returned with the current timestamp, as Collect does.
func (c *KeyedContext[S, OUT]) Emit() {
	c.emitted.Timestamp = c.timestamp
	c.out.Collect(&c.emitted)
}
