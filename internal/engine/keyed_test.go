package engine

import (
	"fmt"
	"testing"
)

// timeoutFn keeps the last value per key and emits it when the key's timer fires; a new
// element moves the key's timer ts+gap, deleting the old one (a session timeout).
type timeoutFn struct{ gap int64 }

type timeoutState struct{ last, timer int64 }

func (f timeoutFn) ProcessElement(ctx *KeyedContext[timeoutState, string], v *kv) {
	if s, ok := ctx.Value(); ok {
		ctx.DeleteEventTimeTimer(s.timer)
	}
	timer := ctx.Timestamp() + f.gap
	ctx.Update(timeoutState{last: v.v, timer: timer})
	ctx.RegisterEventTimeTimer(timer)
	ctx.RegisterEventTimeTimer(timer) // twice: Flink deduplicates (key, time)
	ctx.Collect(fmt.Sprintf("seen %s=%d wm=%d", ctx.Key(), v.v, ctx.CurrentWatermark()))
}

func (f timeoutFn) OnTimer(ctx *KeyedContext[timeoutState, string], ts int64) {
	s, ok := ctx.Value()
	var last int64
	if ok {
		last = s.last
		ctx.Clear()
		if s.last != 0 {
			panic("Clear left the state's value behind")
		}
	}
	ctx.Collect(fmt.Sprintf("timeout %s last=%d had=%v wm=%d", ctx.Key(), last, ok, ctx.CurrentWatermark()))
}

func TestKeyedProcessTimersFireOnceInOrderBeforeTheWatermark(t *testing.T) {
	out := &collector[string]{}
	op := NewKeyedProcess(keyOfKV, KeyedProcessFunction[timeoutState, kv, string](timeoutFn{gap: 100}), Output[string](out))
	op.Collect(&Record[kv]{kv{"b", 1}, 50})  // timer 150
	op.Collect(&Record[kv]{kv{"a", 2}, 10})  // timer 110
	op.Collect(&Record[kv]{kv{"a", 3}, 120}) // moves a's timer to 220
	out.take()
	op.EmitWatermark(150)
	expect(t, "b times out, a's deleted timer does not fire", out.take(),
		"timeout b last=1 had=true wm=150@150", "WM(150)")
	op.EmitWatermark(1_000)
	expect(t, "a times out once", out.take(), "timeout a last=3 had=true wm=1000@220", "WM(1000)")
	if op.Keys() != 0 || op.PendingTimers() != 0 {
		t.Fatalf("state left: %d keys, %d timers", op.Keys(), op.PendingTimers())
	}
}

func TestKeyedProcessTimerInThePastFiresAtTheNextWatermark(t *testing.T) {
	out := &collector[string]{}
	op := NewKeyedProcess(keyOfKV, KeyedProcessFunction[timeoutState, kv, string](timeoutFn{gap: 10}), Output[string](out))
	op.EmitWatermark(500)
	op.Collect(&Record[kv]{kv{"a", 1}, 100}) // timer 110, already behind the watermark
	expect(t, "no firing on element", out.take(), "WM(500)", "seen a=1 wm=500@100")
	op.EmitWatermark(501)
	expect(t, "fires at the next watermark", out.take(), "timeout a last=1 had=true wm=501@110", "WM(501)")
}

// sumFn keeps a running sum per key, filled in place with Set, and emits it filled in
// place with Next and Emit.
type sumFn struct{}

func (sumFn) ProcessElement(ctx *KeyedContext[int64, kv], v *kv) {
	s := ctx.Set()
	*s += v.v
	out := ctx.Next()
	out.k, out.v = ctx.Key(), *s
	ctx.Emit()
}

func (sumFn) OnTimer(*KeyedContext[int64, kv], int64) {}

func TestKeyedProcessSetAndEmitFillInPlace(t *testing.T) {
	out := &collector[kv]{}
	op := NewKeyedProcess(keyOfKV, KeyedProcessFunction[int64, kv, kv](sumFn{}), Output[kv](out))
	op.Collect(&Record[kv]{kv{"a", 2}, 10})
	op.Collect(&Record[kv]{kv{"b", 5}, 20})
	op.Collect(&Record[kv]{kv{"a", 3}, 30})
	expect(t, "sums per key, each with its element's timestamp", out.take(),
		"{a 2}@10", "{b 5}@20", "{a 5}@30")
	if op.Keys() != 2 {
		t.Fatalf("keys = %d, want 2", op.Keys())
	}
}

// setOnceFn sets its state with Set on a key's first element, checking that Set shows a
// key without state the zero value, and clears it on the second: every key leaves, and
// its entry is reused for the next.
type setOnceFn struct{ t *testing.T }

func (f setOnceFn) ProcessElement(ctx *KeyedContext[timeoutState, string], v *kv) {
	if s, ok := ctx.Value(); ok {
		if s.last != v.v-1 {
			f.t.Errorf("key %s holds %d, want %d", ctx.Key(), s.last, v.v-1)
		}
		ctx.Clear()
		if s, ok := ctx.Value(); ok || s != nil {
			f.t.Errorf("key %s: Value after Clear = %v, %v; want nil, false", ctx.Key(), s, ok)
		}
		return
	}
	s := ctx.Set()
	if *s != (timeoutState{}) {
		f.t.Errorf("key %s: Set on a key without state shows %+v, want the zero value", ctx.Key(), *s)
	}
	s.last, s.timer = v.v, 1
}

func (setOnceFn) OnTimer(*KeyedContext[timeoutState, string], int64) {}

func TestKeyedProcessReusedEntriesStartEmpty(t *testing.T) {
	op := NewKeyedProcess(keyOfKV, KeyedProcessFunction[timeoutState, kv, string](setOnceFn{t}), Output[string](&collector[string]{}))
	for i := range 100 {
		key := fmt.Sprint("k", i)
		op.Collect(&Record[kv]{kv{key, int64(2*i + 1)}, int64(i)})
		op.Collect(&Record[kv]{kv{key, int64(2*i + 2)}, int64(i)})
	}
	if n := op.Keys(); n != 0 {
		t.Fatalf("%d keys left, want 0", n)
	}
}
