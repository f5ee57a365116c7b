package engine

import (
	"testing"
	"time"

	"github.com/labtui/labtui/internal/watermark"
)

// TestSourceWatermarkIsTheMinimumOverItsSplits: a split that has brought no record holds
// the source's watermark at Long.MIN_VALUE, so nothing is emitted until every split has;
// then the source emits the smallest split watermark, and only when it grows.
func TestSourceWatermarkIsTheMinimumOverItsSplits(t *testing.T) {
	rt := NewRuntime(1)
	out := &collector[int64]{}
	a := NewSourceAssigner(rt, watermark.Strategy{Interval: 200 * time.Millisecond, Partitions: 2}, byValue, Output[int64](out))
	rt.AdvanceTo(50)
	a.CollectFrom(0, &Record[int64]{Value: 10_000})
	rt.AdvanceTo(1_000)
	expect(t, "split 1 has brought nothing: no watermark", out.take(), "10000@10000")
	a.CollectFrom(1, &Record[int64]{Value: 4_000})
	rt.AdvanceTo(1_001)
	expect(t, "the minimum, 4000-1", out.take(), "4000@4000", "WM(3999)")
	a.CollectFrom(1, &Record[int64]{Value: 30_000})
	rt.AdvanceTo(1_201)
	expect(t, "split 0 now holds the minimum", out.take(), "30000@30000", "WM(9999)")
	a.CollectFrom(0, &Record[int64]{Value: 8_000}) // behind its split's maximum: no change
	rt.RunUntilIdle()
	expect(t, "nothing new", out.take(), "8000@8000")
	if got := a.Splits(); len(got) != 2 || got[0].Watermark != 9_999 || got[1].Watermark != 29_999 || got[0].Records != 2 {
		t.Fatalf("splits %+v", got)
	}
}

// TestIdlenessLeavesAQuietSplitOutOfTheMinimum is WatermarksWithIdleness on a source with
// a split that never brings a record, then both going quiet, then the idle split sending
// again: the countdown starts at the first periodic emit that sees no record since the one
// before, and the split is idle at the first emit strictly more than the timeout later.
func TestIdlenessLeavesAQuietSplitOutOfTheMinimum(t *testing.T) {
	rt := NewRuntime(1)
	out := &collector[int64]{}
	a := NewSourceAssigner(rt, watermark.Strategy{Interval: 200 * time.Millisecond, Idleness: time.Second, Partitions: 2}, byValue, Output[int64](out))
	rt.AdvanceTo(50)
	a.CollectFrom(0, &Record[int64]{Value: 10_000})
	// Split 1: countdown from the emit at 200, idle at 1400 (1400-200 > 1000). Split 0: the
	// emit at 200 sees its record, the countdown starts at 400, idle at 1600.
	rt.AdvanceTo(1_400)
	expect(t, "split 1 still counts", out.take(), "10000@10000")
	rt.AdvanceTo(1_401)
	expect(t, "split 1 idle at 1400", out.take(), "WM(9999)")
	rt.AdvanceTo(1_601)
	if a.Splits()[0].Idle != true || rt.PendingTimers() != 0 {
		t.Fatalf("at 1601 split 0 should be idle and nothing scheduled: %+v, %d timers", a.Splits(), rt.PendingTimers())
	}
	rt.AdvanceTo(2_000)
	a.CollectFrom(1, &Record[int64]{Value: 5_000}) // the idle split sends again
	rt.AdvanceTo(2_100)
	a.CollectFrom(0, &Record[int64]{Value: 20_000})
	rt.AdvanceTo(3_400)
	expect(t, "split 1 is back in the minimum and holds it at 4999", out.take(), "5000@5000", "20000@20000")
	// Split 1: seen at 2000, countdown from 2200, idle at 3400. Split 0: seen at 2200,
	// countdown from 2400, idle at 3600.
	rt.AdvanceTo(3_401)
	expect(t, "split 1 idle again at 3400", out.take(), "WM(19999)")
	rt.RunUntilIdle()
	if rt.Now() != 3_601 || out.take() != nil {
		t.Fatalf("the emits should stop once every split is idle, at 3600: clock %d", rt.Now())
	}
}

func TestSourceAssignerWithoutIntervalEmitsOnlyTheDrain(t *testing.T) {
	rt := NewRuntime(0)
	out := &collector[int64]{}
	a := NewSourceAssigner(rt, watermark.Strategy{Interval: watermark.Off, Idleness: time.Second, Partitions: 1}, byValue, Output[int64](out))
	a.CollectFrom(0, &Record[int64]{Value: 7})
	rt.RunUntilIdle()
	a.EmitWatermark(MaxWatermark)
	expect(t, "no periodic emit, no idleness", out.take(), "7@7", "WM(9223372036854775807)")
}

// TestWhenTheLastActiveSplitGoesIdleTheWatermarkRisesToTheMaximum is
// CombinedWatermarkStatus.updateCombinedWatermark's allIdle ? max : min (FLINK-38454): a
// split far ahead goes idle first and leaves the minimum to the split behind; when that
// one goes idle too, the source's watermark rises to the largest split watermark. It only
// rises: a record of the split behind brings it back into the minimum, which is below
// what was emitted, so nothing is emitted until the minimum passes it.
func TestWhenTheLastActiveSplitGoesIdleTheWatermarkRisesToTheMaximum(t *testing.T) {
	rt := NewRuntime(1)
	out := &collector[int64]{}
	a := NewSourceAssigner(rt, watermark.Strategy{Interval: 200 * time.Millisecond, Idleness: time.Second, Partitions: 2}, byValue, Output[int64](out))
	rt.AdvanceTo(50)
	a.CollectFrom(0, &Record[int64]{Value: 30_000})
	a.CollectFrom(1, &Record[int64]{Value: 10_000})
	rt.AdvanceTo(201)
	expect(t, "the minimum of 29999 and 9999", out.take(), "30000@30000", "10000@10000", "WM(9999)")
	rt.AdvanceTo(500)
	a.CollectFrom(1, &Record[int64]{Value: 12_000})
	// Split 0: seen at 200, countdown from 400, idle at 1600. Split 1: seen at 600,
	// countdown from 800, idle at 2000.
	rt.AdvanceTo(1_601)
	expect(t, "split 0 idle: split 1 alone holds the minimum", out.take(), "12000@12000", "WM(11999)")
	if s := a.Splits(); !s[0].Idle || s[1].Idle {
		t.Fatalf("at 1601 split 0 should be idle and split 1 not: %+v", s)
	}
	rt.AdvanceTo(2_001)
	expect(t, "every split idle: the maximum, split 0's 29999", out.take(), "WM(29999)")
	if rt.PendingTimers() != 0 {
		t.Fatalf("with every split idle nothing should be scheduled, %d timers", rt.PendingTimers())
	}
	rt.AdvanceTo(3_000)
	a.CollectFrom(1, &Record[int64]{Value: 13_000})
	rt.AdvanceTo(3_300)
	a.CollectFrom(0, &Record[int64]{Value: 40_000})
	rt.AdvanceTo(3_401)
	expect(t, "split 1 back in the minimum at 12999, below 29999: no watermark", out.take(), "13000@13000", "40000@40000")
	a.CollectFrom(1, &Record[int64]{Value: 35_000})
	rt.AdvanceTo(3_601)
	expect(t, "the minimum passes 29999", out.take(), "35000@35000", "WM(34999)")
}

// TestEverySplitIdleAfterTheEndEmitsTheMaximum: after the last record the splits go idle
// one by one, the one with the largest watermark first; the last going idle raises the
// source's watermark to that largest one, and a split that never brought a record, at
// Long.MIN_VALUE, takes no part in the maximum.
func TestEverySplitIdleAfterTheEndEmitsTheMaximum(t *testing.T) {
	rt := NewRuntime(1)
	out := &collector[int64]{}
	a := NewSourceAssigner(rt, watermark.Strategy{Interval: 200 * time.Millisecond, Idleness: time.Second, Partitions: 3}, byValue, Output[int64](out))
	rt.AdvanceTo(50)
	a.CollectFrom(0, &Record[int64]{Value: 60_000})
	rt.AdvanceTo(250)
	a.CollectFrom(1, &Record[int64]{Value: 20_000})
	// Split 2: no record, countdown from 200, idle at 1400. Split 0: seen at 200, idle at
	// 1600. Split 1: seen at 400, idle at 1800.
	rt.AdvanceTo(1_401)
	expect(t, "split 2 idle: the minimum of 59999 and 19999", out.take(), "60000@60000", "20000@20000", "WM(19999)")
	rt.AdvanceTo(1_601)
	expect(t, "split 0 idle: split 1 holds 19999", out.take())
	rt.RunUntilIdle()
	expect(t, "every split idle at 1800: the maximum", out.take(), "WM(59999)")
	if rt.Now() != 1_801 {
		t.Fatalf("the emits should stop after the one at 1800, when every split is idle: clock %d", rt.Now())
	}
}

// TestEverySplitIdleWithoutARecordEmitsNothing: the maximum over splits that never brought
// a record is Long.MIN_VALUE, no more than the watermark the source starts with.
func TestEverySplitIdleWithoutARecordEmitsNothing(t *testing.T) {
	rt := NewRuntime(1)
	out := &collector[int64]{}
	a := NewSourceAssigner(rt, watermark.Strategy{Interval: 200 * time.Millisecond, Idleness: time.Second, Partitions: 2}, byValue, Output[int64](out))
	rt.RunUntilIdle()
	expect(t, "no watermark", out.take())
	if s := a.Splits(); !s[0].Idle || !s[1].Idle || a.Watermark() != MinWatermark {
		t.Fatalf("both splits should be idle at Long.MIN_VALUE: %+v, %d", s, a.Watermark())
	}
}
