package engine

import "github.com/labtui/labtui/internal/watermark"

// TimestampAssigner is Flink's TimestampsAndWatermarksOperator: it stamps each record
// with the timestamp extract returns, forwards it, and only then shows the timestamp to
// its watermark generator, so a record never meets a watermark it caused. Every period of
// processing time (the strategy's Period), at epoch multiples of it, it emits the largest
// timestamp seen minus OutOfOrderness minus 1 ms, if that is larger than the last
// watermark it emitted. Watermarks from upstream are ignored, except MaxWatermark, which
// is forwarded. The strategy's lengths count in whole milliseconds, as the engine's
// clocks do (watermark.Strategy.Validate refuses finer ones); its At, Idleness and
// Partitions are a source's (SourceAssigner) and are not read.
//
// A periodic emit can only change the watermark after a new element, so the assigner
// schedules its next emit when an element arrives (at the first multiple of the interval
// at or after that processing time) rather than every interval forever. What it emits is
// the same as a timer that never stops; an idle source costs nothing, and a simulated
// clock can jump across a gap of days. After the last element exactly one emit is still
// scheduled: the one a never-ending Kafka source's job makes within one interval of it
// (Runtime.RunUntilIdle runs it). With the interval watermark.Off nothing is scheduled, as
// in Flink (TimestampsAndWatermarksOperator.open registers no timer when the interval is
// not positive): event time then only moves on MaxWatermark.
type TimestampAssigner[T any] struct {
	extract  func(value *T, recordTimestamp int64) int64
	out      Output[T]
	rt       *Runtime
	bound    int64
	interval int64
	maxTs    int64
	emitted  int64
	armed    bool
	tick     func(int64)
}

// NewTimestampAssigner returns an assigner that stamps records with extract, sends them
// to out, and emits watermarks on rt's processing-time clock as s says.
func NewTimestampAssigner[T any](rt *Runtime, s watermark.Strategy, extract func(value *T, recordTimestamp int64) int64, out Output[T]) *TimestampAssigner[T] {
	bound := s.OutOfOrderness.Milliseconds()
	a := &TimestampAssigner[T]{
		extract:  extract,
		out:      out,
		rt:       rt,
		bound:    bound,
		interval: s.Period().Milliseconds(),
		maxTs:    MinWatermark + bound + 1,
		emitted:  MinWatermark,
	}
	a.tick = a.onPeriodicEmit
	return a
}

// Collect stamps rec, forwards it, then updates the largest timestamp seen.
func (a *TimestampAssigner[T]) Collect(rec *Record[T]) {
	ts := a.extract(&rec.Value, rec.Timestamp)
	rec.Timestamp = ts
	a.out.Collect(rec)
	if ts > a.maxTs {
		a.maxTs = ts
	}
	if !a.armed && a.interval > 0 {
		a.armed = true
		a.rt.RegisterTimer(nextEmit(a.rt.Now(), a.interval), a.tick)
	}
}

// nextEmit is the first multiple of interval at or after now: the periodic emits of an
// assigner fall on a grid at epoch multiples of the interval, so a replay is
// deterministic.
func nextEmit(now, interval int64) int64 {
	next := WindowStart(now, 0, interval)
	if next < now {
		next += interval
	}
	return next
}

// EmitWatermark forwards MaxWatermark and ignores every other upstream watermark.
func (a *TimestampAssigner[T]) EmitWatermark(wm int64) {
	if wm == MaxWatermark {
		a.emit(MaxWatermark)
	}
}

// Watermark returns the last watermark the assigner emitted (MinWatermark before any).
func (a *TimestampAssigner[T]) Watermark() int64 { return a.emitted }

func (a *TimestampAssigner[T]) onPeriodicEmit(int64) {
	a.armed = false
	a.emit(a.maxTs - a.bound - 1)
}

func (a *TimestampAssigner[T]) emit(wm int64) {
	if wm > a.emitted {
		a.emitted = wm
		a.out.EmitWatermark(wm)
	}
}
