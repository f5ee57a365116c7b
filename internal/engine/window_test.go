package engine

import "testing"

const minute = 60_000

func TestWindowStartAlignsToTheEpochForNegativeTimestamps(t *testing.T) {
	cases := []struct{ ts, offset, size, want int64 }{
		{0, 0, minute, 0},
		{59_999, 0, minute, 0},
		{60_000, 0, minute, 60_000},
		{-1, 0, minute, -60_000},
		{-60_000, 0, minute, -60_000},
		{-60_001, 0, minute, -120_000},
		{1_795_946_444_000, 0, minute, 1_795_946_400_000},
		{15_000, 10_000, minute, 10_000},
		{5_000, 10_000, minute, -50_000},
	}
	for _, c := range cases {
		if got := WindowStart(c.ts, c.offset, c.size); got != c.want {
			t.Errorf("WindowStart(%d, %d, %d) = %d, want %d", c.ts, c.offset, c.size, got, c.want)
		}
	}
}

func TestEventTimeWindowFiresWhenTheWatermarkReachesEndMinusOne(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
	h.element("a", 1, 0)
	h.element("a", 2, 59_999) // exactly at end-1: still in [0, 60000)
	h.element("a", 4, 60_000) // the next window
	h.op.EmitWatermark(59_998)
	expect(t, "watermark end-2", h.out.take(), "WM(59998)")
	h.op.EmitWatermark(59_999)
	expect(t, "watermark end-1", h.out.take(), "a[0,60000)=3/2@59999", "WM(59999)")
	h.op.EmitWatermark(MaxWatermark)
	expect(t, "max watermark", h.out.take(), "a[60000,120000)=4/1@119999", "WM(9223372036854775807)")
}

func TestEventTimeLateIsEndMinusOneAtOrBelowTheWatermark(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
	h.op.EmitWatermark(59_998)
	h.element("a", 1, 59_999) // end-1 = 59999 > watermark: on time
	expect(t, "on time", h.takeLate())
	expect(t, "watermark", h.out.take(), "WM(59998)")
	h.op.EmitWatermark(59_999)
	expect(t, "fires", h.out.take(), "a[0,60000)=1/1@59999", "WM(59999)")
	h.element("a", 7, 59_999) // end-1 = 59999 <= watermark: late
	h.element("a", 8, 0)
	expect(t, "late", h.takeLate(), "a:7@59999<=WM(59999)", "a:8@0<=WM(59999)")
	h.element("a", 9, 60_000) // next window, on time
	expect(t, "no late", h.takeLate())
	h.op.EmitWatermark(MaxWatermark)
	expect(t, "no refire", h.out.take(), "a[60000,120000)=9/1@119999", "WM(9223372036854775807)")
	if len(h.op.OpenWindows()) != 0 {
		t.Fatalf("windows left open: %v", h.op.OpenWindows())
	}
}

func TestEventTimeWindowFiresWhileAnotherIsLate(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
	h.element("a", 1, 10_000)
	h.element("b", 2, 70_000)
	h.op.EmitWatermark(60_000)
	expect(t, "a fires", h.out.take(), "a[0,60000)=1/1@59999", "WM(60000)")
	h.element("b", 5, 30_000) // late for [0,60000) while b's [60000,120000) is open
	h.element("b", 3, 90_000)
	expect(t, "late", h.takeLate(), "b:5@30000<=WM(60000)")
	h.op.EmitWatermark(119_999)
	expect(t, "b fires", h.out.take(), "b[60000,120000)=5/2@119999", "WM(119999)")
}

func TestEventTimeWindowsWithNegativeTimestamps(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
	h.element("a", 1, -1)
	h.element("a", 2, -60_000)
	h.element("a", 4, 0)
	h.op.EmitWatermark(-1)
	expect(t, "negative window", h.out.take(), "a[-60000,0)=3/2@-1", "WM(-1)")
	h.op.EmitWatermark(59_999)
	expect(t, "zero window", h.out.take(), "a[0,60000)=4/1@59999", "WM(59999)")
}

func TestEventTimeWindowsFireInTimeOrderAcrossKeys(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
	h.element("b", 1, 70_000)
	h.element("a", 1, 10_000)
	h.element("c", 1, 20_000)
	h.op.EmitWatermark(200_000)
	expect(t, "order", h.out.take(), "a[0,60000)=1/1@59999", "c[0,60000)=1/1@59999", "b[60000,120000)=1/1@119999", "WM(200000)")
}

func TestAllowedLatenessRefiresAndCleansUpLater(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute, AllowedLateness: 10_000}, 0)
	h.element("a", 1, 1_000)
	h.op.EmitWatermark(60_000)
	expect(t, "first firing", h.out.take(), "a[0,60000)=1/1@59999", "WM(60000)")
	h.element("a", 2, 2_000) // within lateness: added and fired at once
	expect(t, "late firing", h.out.take(), "a[0,60000)=3/2@59999")
	h.op.EmitWatermark(69_999) // cleanup time: state cleared, no firing
	expect(t, "cleanup", h.out.take(), "WM(69999)")
	h.element("a", 4, 3_000)
	expect(t, "after cleanup: late", h.takeLate(), "a:4@3000<=WM(69999)")
}

func TestProcessingTimeWindowFiresAtEndOnTheClock(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: ProcessingTime, Size: minute}, 0)
	at := func(p int64, k string, v int64) {
		h.rt.AdvanceTo(p)
		h.element(k, v, -999_999) // the timestamp is ignored
	}
	at(1_000, "a", 1)
	at(59_999, "a", 2) // processing time end-1: in [0,60000)
	expect(t, "nothing yet", h.out.take())
	at(60_000, "a", 4) // the timer at 59999 fires before the record at 60000
	expect(t, "fired at end", h.out.take(), "a[0,60000)=3/2@59999")
	h.op.EmitWatermark(MaxWatermark) // watermarks do not fire processing-time windows
	expect(t, "max watermark", h.out.take(), "WM(9223372036854775807)")
	h.rt.AdvanceTo(119_999)
	expect(t, "still open at end-1", h.out.take())
	h.rt.AdvanceTo(120_000)
	expect(t, "second window", h.out.take(), "a[60000,120000)=4/1@119999")
}

func TestNoElementsNoWindow(t *testing.T) {
	h := newWindowHarness(t, Tumbling{Domain: EventTime, Size: minute}, 0)
	h.element("a", 1, 0)
	h.element("a", 1, 180_000)
	h.op.EmitWatermark(MaxWatermark)
	expect(t, "idle minutes emit nothing", h.out.take(),
		"a[0,60000)=1/1@59999", "a[180000,240000)=1/1@239999", "WM(9223372036854775807)")
}
