package engine

import (
	"fmt"
	"unsafe"

	"github.com/labtui/labtui/internal/addrcache"
)

// AggregateFunction is Flink's AggregateFunction: it folds the elements of a window into
// an accumulator, one at a time, and extracts the window's result. Add is lent the
// element for the call, as a Record is (see Output).
type AggregateFunction[IN, ACC, OUT any] interface {
	CreateAccumulator() ACC
	Add(value *IN, acc ACC) ACC
	GetResult(acc ACC) OUT
	Merge(a, b ACC) ACC
}

// TimeDomain says which clock a window assigner reads.
type TimeDomain uint8

const (
	// ProcessingTime windows (TumblingProcessingTimeWindows) assign each element by the
	// operator's processing time when it arrives and fire on the processing-time clock.
	ProcessingTime TimeDomain = iota + 1
	// EventTime windows (TumblingEventTimeWindows) assign each element by its timestamp
	// and fire when the watermark reaches the window's last millisecond.
	EventTime
)

// String names the domain as the lab does.
func (d TimeDomain) String() string {
	switch d {
	case ProcessingTime:
		return "processing-time"
	case EventTime:
		return "event-time"
	}
	return fmt.Sprintf("TimeDomain(%d)", uint8(d))
}

// Tumbling describes a tumbling window assigner: windows of Size milliseconds, aligned to
// the epoch plus Offset, on one clock. AllowedLateness only applies to event time.
type Tumbling struct {
	Domain          TimeDomain
	Size            int64
	Offset          int64
	AllowedLateness int64
}

// Validate reports an assigner Flink would refuse.
func (t Tumbling) Validate() error {
	switch {
	case t.Domain != ProcessingTime && t.Domain != EventTime:
		return fmt.Errorf("window domain must be processing time or event time")
	case t.Size <= 0:
		return fmt.Errorf("window size must be positive, got %d ms", t.Size)
	case t.Offset < 0 || t.Offset >= t.Size:
		return fmt.Errorf("window offset must be in [0, size), got %d ms", t.Offset)
	case t.AllowedLateness < 0:
		return fmt.Errorf("allowed lateness must not be negative, got %d ms", t.AllowedLateness)
	}
	return nil
}

// WindowFunction turns a window's aggregated result into the element the window emits:
// the ProcessWindowFunction of `.aggregate(aggFn, windowFn)`, which sees exactly one
// element, the accumulator's result.
type WindowFunction[OUT, R any] func(key string, w TimeWindow, result OUT) R

// WindowOperator is Flink's WindowOperator for a tumbling assigner with the default
// trigger of its domain (EventTimeTrigger or ProcessingTimeTrigger) and an incremental
// aggregate. Emitted results carry the timestamp end-1 on both clocks.
//
// Event time: an element whose window satisfies end-1+lateness <= watermark is not added;
// if its timestamp+lateness <= watermark it goes to the late output (side_output_late_data),
// otherwise it is dropped and counted. A window fires when the watermark reaches end-1 and
// its state is cleared at end-1+lateness; an element added to a window the watermark has
// already passed (within the allowed lateness) fires it again at once.
//
// Processing time: an element goes into the window of the runtime's current processing
// time, which fires and is cleared when processing time passes end-1.
type WindowOperator[IN, ACC, OUT, R any] struct {
	assigner Tumbling
	keyOf    func(*IN) string
	agg      AggregateFunction[IN, ACC, OUT]
	emit     WindowFunction[OUT, R]
	out      Output[R]
	late     func(rec *Record[IN], watermark int64)
	fired    Record[R]  // the record fire lends to out
	last     TimeWindow // the window WindowFor found last
	rt       *Runtime
	keys     keyTable[*windowKey[ACC]]
	recent   addrcache.Cache[*windowKey[ACC]] // keys by their string's identity: a cache in front of keys
	numberOf func(*IN) (string, uint32)       // the key with its number (NumberedBy), or nil
	byNo     []*windowKey[ACC]                // keys by their number: a cache in front of recent and keys
	timers   timerQueue[string]
	wm       int64
	dropped  int64
}

type windowKey[ACC any] struct {
	key  string
	no   uint32 // the byNo slot it was cached in, or 0: the only slot that can hold it, cleared by removeKey
	open []openWindow[ACC]
}

type openWindow[ACC any] struct {
	w   TimeWindow
	acc ACC
}

// NewWindowOperator returns a window operator. rt is the processing-time service (used
// by processing-time windows); late, which may be nil, receives late elements with the
// watermark they met.
func NewWindowOperator[IN, ACC, OUT, R any](
	rt *Runtime, assigner Tumbling, keyOf func(*IN) string,
	agg AggregateFunction[IN, ACC, OUT], emit WindowFunction[OUT, R],
	out Output[R], late func(rec *Record[IN], watermark int64),
) (*WindowOperator[IN, ACC, OUT, R], error) {
	if err := assigner.Validate(); err != nil {
		return nil, err
	}
	if assigner.Domain == ProcessingTime {
		assigner.AllowedLateness = 0
	}
	return &WindowOperator[IN, ACC, OUT, R]{
		assigner: assigner, keyOf: keyOf, agg: agg, emit: emit, out: out, late: late, rt: rt,
		keys: newKeyTable[*windowKey[ACC]](), wm: MinWatermark,
	}, nil
}

// WindowFor returns the window an element with this timestamp would be assigned to now.
func (op *WindowOperator[IN, ACC, OUT, R]) WindowFor(timestamp int64) TimeWindow {
	t := timestamp
	if op.assigner.Domain == ProcessingTime {
		t = op.rt.Now()
	}
	if t < op.last.Start || t >= op.last.End { // most elements fall in the last one's window
		op.last = TumblingWindow(t, op.assigner.Offset, op.assigner.Size)
	}
	return op.last
}

// IsLate reports whether an element with this timestamp would be dropped as late now.
func (op *WindowOperator[IN, ACC, OUT, R]) IsLate(timestamp int64) bool {
	if op.assigner.Domain != EventTime {
		return false
	}
	w := op.WindowFor(timestamp)
	return w.MaxTimestamp()+op.assigner.AllowedLateness <= op.wm && timestamp+op.assigner.AllowedLateness <= op.wm
}

// Watermark returns the operator's current watermark (MinWatermark before any).
func (op *WindowOperator[IN, ACC, OUT, R]) Watermark() int64 { return op.wm }

// Dropped returns how many late elements were dropped without a late output
// (Flink's numLateRecordsDropped).
func (op *WindowOperator[IN, ACC, OUT, R]) Dropped() int64 { return op.dropped }

// Collect assigns rec to its window and adds it, or sends it to the late output.
func (op *WindowOperator[IN, ACC, OUT, R]) Collect(rec *Record[IN]) {
	t := rec.Timestamp
	eventTime := op.assigner.Domain == EventTime
	if !eventTime {
		t = op.rt.now
	}
	w := op.last
	if t < w.Start || t >= w.End { // most elements fall in the last one's window
		w = op.windowAt(t)
	}
	if eventTime && w.End-1+op.assigner.AllowedLateness <= op.wm {
		op.lateElement(rec)
		return
	}
	// Most elements carry the number of a key whose state is cached under it.
	var key string
	var k *windowKey[ACC]
	if op.numberOf != nil {
		var no uint32
		key, no = op.numberOf(&rec.Value)
		if no < uint32(len(op.byNo)) {
			k = op.byNo[no]
		}
		switch {
		case k != nil && sameString(k.key, key):
		case no == 0: // no number: the cache by the string's identity, then the table
			var ok bool
			if k, ok = op.recent.Get(key); !ok {
				k = op.keyState(key, 0)
			}
		default:
			k = op.keyState(key, no)
		}
	} else {
		key = op.keyOf(&rec.Value)
		var ok bool
		if k, ok = op.recent.Get(key); !ok {
			k = op.keyState(key, 0)
		}
	}
	// The assigner's windows all have its size, so a window's start tells it apart.
	var ow *openWindow[ACC]
	if n := len(k.open); n > 0 && k.open[n-1].w.Start == w.Start { // most elements go to the key's newest window
		ow = &k.open[n-1]
	} else {
		ow = &k.open[op.openWindow(key, k, w)]
	}
	ow.acc = op.agg.Add(&rec.Value, ow.acc)
	if eventTime && w.End-1 <= op.wm {
		op.fire(key, *ow) // EventTimeTrigger.onElement: the watermark is already past
	}
}

// windowAt returns the window holding t, and remembers it as the last one found.
func (op *WindowOperator[IN, ACC, OUT, R]) windowAt(t int64) TimeWindow {
	op.last = TumblingWindow(t, op.assigner.Offset, op.assigner.Size)
	return op.last
}

// lateElement is Collect for an event-time element whose window the watermark has
// passed, allowed lateness included: it goes to the late output if its own timestamp is
// late too (WindowOperator.isElementLate), and is dropped otherwise.
func (op *WindowOperator[IN, ACC, OUT, R]) lateElement(rec *Record[IN]) {
	if rec.Timestamp+op.assigner.AllowedLateness > op.wm {
		return
	}
	if op.late != nil {
		op.late(rec, op.wm)
	} else {
		op.dropped++
	}
}

// openWindow returns the index of window w among k's open windows, opening it (with its
// timers) if k has none yet.
func (op *WindowOperator[IN, ACC, OUT, R]) openWindow(key string, k *windowKey[ACC], w TimeWindow) int {
	if i := k.find(w); i >= 0 {
		return i
	}
	k.open = append(k.open, openWindow[ACC]{w: w, acc: op.agg.CreateAccumulator()})
	op.registerTimers(key, w)
	return len(k.open) - 1
}

// NumberedBy makes the operator read each element's key with numberOf, which returns
// keyOf's key and a number that stands for it (gateway.NameNo, the parser's number for a
// tenant), and find the key's state by indexing an array with the number, in front of
// its other lookups. The number is small, below a few thousand, or zero for none. It is
// only a hint: an element whose key is not the very string the number was first seen
// with (by pointer and length) takes the other lookups, so a wrong number costs time,
// never a wrong result. It returns op.
func (op *WindowOperator[IN, ACC, OUT, R]) NumberedBy(numberOf func(*IN) (string, uint32)) *WindowOperator[IN, ACC, OUT, R] {
	op.numberOf = numberOf
	return op
}

// maxKeyNumber bounds the numbers byNo holds, so that a huge number costs no memory.
const maxKeyNumber = 1 << 16

// keyState returns the state of key, whose number is no (or zero), creating it for a
// new key, and caches it under no: Collect's lookup when byNo does not hold it.
func (op *WindowOperator[IN, ACC, OUT, R]) keyState(key string, no uint32) *windowKey[ACC] {
	k, ok := op.recent.Get(key)
	if !ok {
		hash := op.keys.hashOf(key)
		slot, found := op.keys.find(key, hash)
		if found {
			k = op.keys.slots[slot].val
		} else {
			k = &windowKey[ACC]{key: key}
			op.keys.insert(slot, key, hash, k)
		}
		op.recent.Put(key, k)
	}
	if no != 0 && no < maxKeyNumber && k.no == 0 {
		if int(no) >= len(op.byNo) {
			op.byNo = append(op.byNo, make([]*windowKey[ACC], int(no)+1-len(op.byNo))...)
		}
		op.byNo[no], k.no = k, no
		k.key = key // equal to the key it holds: this string is the one numbered elements carry
	}
	return k
}

// removeKey drops a key whose windows are all gone, and every cache of it. It finds the
// key again: what fired may have reached other keys and moved it.
func (op *WindowOperator[IN, ACC, OUT, R]) removeKey(key string, k *windowKey[ACC]) {
	op.keys.remove(key, op.keys.hashOf(key))
	op.recent.Forget(k)
	if k.no != 0 && op.byNo[k.no] == k {
		op.byNo[k.no] = nil
	}
}

func (op *WindowOperator[IN, ACC, OUT, R]) registerTimers(key string, w TimeWindow) {
	if op.assigner.Domain == ProcessingTime {
		op.rt.RegisterTimer(w.MaxTimestamp(), func(t int64) { op.onProcessingTime(key, t) })
		return
	}
	op.timers.push(w.MaxTimestamp(), key)
	if op.assigner.AllowedLateness > 0 {
		op.timers.push(w.MaxTimestamp()+op.assigner.AllowedLateness, key)
	}
}

// EmitWatermark fires and clears every event-time window the watermark has reached, in
// timer order, then forwards wm.
func (op *WindowOperator[IN, ACC, OUT, R]) EmitWatermark(wm int64) {
	op.wm = wm
	for {
		t, ok := op.timers.peek()
		if !ok || t.at > wm {
			break
		}
		op.timers.pop()
		op.onEventTime(t.key, t.at)
	}
	op.out.EmitWatermark(wm)
}

func (op *WindowOperator[IN, ACC, OUT, R]) onEventTime(key string, at int64) {
	k, ok := op.keys.get(key, op.keys.hashOf(key))
	if !ok {
		return
	}
	for i := 0; i < len(k.open); i++ {
		ow := k.open[i]
		if ow.w.MaxTimestamp() == at {
			op.fire(key, ow)
		}
		if ow.w.MaxTimestamp()+op.assigner.AllowedLateness == at {
			k.remove(i)
			i--
		}
	}
	if len(k.open) == 0 {
		op.removeKey(key, k)
	}
}

func (op *WindowOperator[IN, ACC, OUT, R]) onProcessingTime(key string, at int64) {
	k, ok := op.keys.get(key, op.keys.hashOf(key))
	if !ok {
		return
	}
	for i := 0; i < len(k.open); i++ {
		if k.open[i].w.MaxTimestamp() == at {
			op.fire(key, k.open[i])
			k.remove(i)
			i--
		}
	}
	if len(k.open) == 0 {
		op.removeKey(key, k)
	}
}

func (op *WindowOperator[IN, ACC, OUT, R]) fire(key string, ow openWindow[ACC]) {
	op.fired = Record[R]{Value: op.emit(key, ow.w, op.agg.GetResult(ow.acc)), Timestamp: ow.w.MaxTimestamp()}
	op.out.Collect(&op.fired)
}

// OpenWindow is a window that holds state: not yet fired, or fired and kept for allowed
// lateness.
type OpenWindow[OUT any] struct {
	Key    string
	Window TimeWindow
	Result OUT
}

// OpenWindows returns every window holding state, with its running result, in no
// particular order.
func (op *WindowOperator[IN, ACC, OUT, R]) OpenWindows() []OpenWindow[OUT] {
	var ws []OpenWindow[OUT]
	op.keys.each(func(key string, k *windowKey[ACC]) {
		for _, ow := range k.open {
			ws = append(ws, OpenWindow[OUT]{Key: key, Window: ow.w, Result: op.agg.GetResult(ow.acc)})
		}
	})
	return ws
}

func (k *windowKey[ACC]) find(w TimeWindow) int {
	for i := range k.open {
		if k.open[i].w == w {
			return i
		}
	}
	return -1
}

func (k *windowKey[ACC]) remove(i int) {
	k.open = append(k.open[:i], k.open[i+1:]...)
}

// sameString reports whether a and b are the very same string: the same bytes at the
// same address, which implies equal, without reading the bytes.
func sameString(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) && len(a) == len(b)
}
