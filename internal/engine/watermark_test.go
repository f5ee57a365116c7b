package engine

import (
	"testing"
	"time"

	"github.com/labtui/labtui/internal/watermark"
)

func byValue(v *int64, _ int64) int64 { return *v }

func TestAssignerEmitsLargestTimestampMinusBoundMinusOneOnTicks(t *testing.T) {
	rt := NewRuntime(1_000)
	out := &collector[int64]{}
	a := NewTimestampAssigner(rt, watermark.Strategy{OutOfOrderness: 500 * time.Millisecond, Interval: 200 * time.Millisecond}, byValue, Output[int64](out))
	rt.AdvanceTo(1_050)
	a.Collect(&Record[int64]{Value: 10_000, Timestamp: -1})
	a.Collect(&Record[int64]{Value: 9_000})
	expect(t, "records stamped, no watermark per event", out.take(), "10000@10000", "9000@9000")
	rt.AdvanceTo(1_201) // tick at 1200 fires
	expect(t, "first tick", out.take(), "WM(9499)")
	rt.AdvanceTo(1_401)
	expect(t, "no new maximum: nothing emitted", out.take())
	a.Collect(&Record[int64]{Value: 20_000})
	rt.AdvanceTo(1_601)
	expect(t, "next tick", out.take(), "20000@20000", "WM(19499)")
}

func TestMonotonousAssignerNeverEmitsTheInitialWatermark(t *testing.T) {
	rt := NewRuntime(0)
	out := &collector[int64]{}
	NewTimestampAssigner(rt, watermark.Strategy{}, byValue, Output[int64](out))
	rt.AdvanceTo(10_000) // fifty ticks with no element
	expect(t, "idle assigner", out.take())
}

func TestTickAndRecordInTheSameMillisecond(t *testing.T) {
	rt := NewRuntime(0)
	out := &collector[int64]{}
	a := NewTimestampAssigner(rt, watermark.Strategy{Interval: 200 * time.Millisecond}, byValue, Output[int64](out))
	rt.AdvanceTo(100)
	a.Collect(&Record[int64]{Value: 5_000})
	// The tick is due at 200; a record arriving at processing time 200 comes first
	// (a timer due at t fires before a record at p exactly when t < p).
	rt.AdvanceTo(200)
	a.Collect(&Record[int64]{Value: 7_000})
	expect(t, "record at the tick's millisecond", out.take(), "5000@5000", "7000@7000")
	rt.AdvanceTo(201)
	expect(t, "tick after it", out.take(), "WM(6999)")
}

func TestAssignerIgnoresUpstreamWatermarksButMax(t *testing.T) {
	rt := NewRuntime(0)
	out := &collector[int64]{}
	a := NewTimestampAssigner(rt, watermark.Strategy{Interval: watermark.Off}, byValue, Output[int64](out))
	a.EmitWatermark(50_000)
	expect(t, "upstream watermark", out.take())
	a.EmitWatermark(MaxWatermark)
	expect(t, "max watermark", out.take(), "WM(9223372036854775807)")
	a.Collect(&Record[int64]{Value: 1})
	rt.AdvanceTo(1_000)
	expect(t, "nothing after max", out.take(), "1@1")
}

func TestAssignerTicksAtEpochMultiplesOfTheInterval(t *testing.T) {
	rt := NewRuntime(1_234)
	out := &collector[int64]{}
	a := NewTimestampAssigner(rt, watermark.Strategy{Interval: time.Second}, byValue, Output[int64](out))
	a.Collect(&Record[int64]{Value: 100})
	rt.AdvanceTo(2_000)
	expect(t, "before the tick at 2000", out.take(), "100@100")
	rt.AdvanceTo(2_001)
	expect(t, "tick at 2000", out.take(), "WM(99)")
	if next, ok := rt.NextTimer(); ok {
		t.Fatalf("an idle assigner scheduled a tick at %d", next)
	}
	rt.AdvanceTo(86_400_000) // a day later, in one step
	a.Collect(&Record[int64]{Value: 200})
	if next, _ := rt.NextTimer(); next != 86_400_000 {
		t.Fatalf("next tick at %d, want 86400000 (the first multiple at or after now)", next)
	}
	rt.AdvanceTo(86_400_001)
	expect(t, "tick after the gap", out.take(), "200@200", "WM(199)")
}

func TestRuntimeFiresTimersInTimeThenRegistrationOrder(t *testing.T) {
	rt := NewRuntime(0)
	var fired []int64
	var clock []int64
	rec := func(id int64) func(int64) {
		return func(int64) { fired = append(fired, id); clock = append(clock, rt.Now()) }
	}
	rt.RegisterTimer(20, rec(3))
	rt.RegisterTimer(10, rec(1))
	rt.RegisterTimer(10, rec(2))
	rt.RegisterTimer(10, func(int64) { rt.RegisterTimer(15, rec(4)) }) // registered while firing
	rt.AdvanceTo(10)
	if len(fired) != 0 {
		t.Fatalf("timers at 10 fired before a record at 10: %v", fired)
	}
	rt.AdvanceTo(100)
	if want := []int64{1, 2, 4, 3}; !equal(fired, want) {
		t.Fatalf("fired %v, want %v", fired, want)
	}
	if want := []int64{11, 11, 16, 21}; !equal(clock, want) {
		t.Fatalf("clock while firing %v, want %v", clock, want)
	}
	if rt.Now() != 100 {
		t.Fatalf("clock %d after AdvanceTo(100)", rt.Now())
	}
	rt.AdvanceTo(50)
	if rt.Now() != 100 {
		t.Fatal("the clock went back")
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestIntervalOffDisablesPeriodicWatermarks(t *testing.T) {
	rt := NewRuntime(0)
	out := &collector[int64]{}
	a := NewTimestampAssigner(rt, watermark.Strategy{Interval: watermark.Off}, byValue, Output[int64](out))
	a.Collect(&Record[int64]{Value: 5_000})
	rt.AdvanceTo(3_600_000)
	expect(t, "no periodic emit in an hour", out.take(), "5000@5000")
	if n := rt.PendingTimers(); n != 0 {
		t.Fatalf("%d timers scheduled with the interval off", n)
	}
	a.EmitWatermark(MaxWatermark)
	expect(t, "only the drain moves event time", out.take(), "WM(9223372036854775807)")
}

// TestTheEmitAfterTheLastElementRunsWhenTheClockRunsOn is the end of a Kafka-fed job's
// input: no element comes any more, and the periodic emit that is due within one
// interval of the last one still emits its watermark.
func TestTheEmitAfterTheLastElementRunsWhenTheClockRunsOn(t *testing.T) {
	rt := NewRuntime(0)
	out := &collector[int64]{}
	a := NewTimestampAssigner(rt, watermark.Strategy{Interval: time.Second}, byValue, Output[int64](out))
	rt.AdvanceTo(1_500)
	a.Collect(&Record[int64]{Value: 7_000})
	rt.RunUntilIdle()
	expect(t, "the emit at 2000", out.take(), "7000@7000", "WM(6999)")
	if rt.Now() != 2_001 || rt.PendingTimers() != 0 {
		t.Fatalf("clock %d with %d timers, want 2001 and none", rt.Now(), rt.PendingTimers())
	}
}
