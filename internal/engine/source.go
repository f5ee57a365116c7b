package engine

import "github.com/labtui/labtui/internal/watermark"

// SourceAssigner is a WatermarkStrategy on the source, as Flink's KafkaSource runs one
// (ProgressiveTimestampsAndWatermarks): every split (Kafka partition) has a generator of
// its own, and the source's watermark is the minimum over the splits that are not idle
// (WatermarkOutputMultiplexer, CombinedWatermarkStatus).
//
// Each record is stamped, forwarded, and only then shown to its split's generator
// (SourceOutputWithWatermarks.collect). Every period of processing time (the strategy's
// Period), at epoch multiples of it, each split's generator makes its periodic emit, largest
// timestamp seen minus OutOfOrderness minus 1 ms, which also marks the split active
// again; then the minimum over the active splits is emitted if it is larger than the last
// watermark emitted. A split that has seen no record emits Long.MIN_VALUE and so holds the
// minimum back: splits are registered when the source starts (AddSplit), as a KafkaSource
// assigns every partition of its topic, not when their first record comes.
//
// With Idleness set, each split's generator is WatermarksWithIdleness: the periodic emit
// that first sees no record of the split since the previous one starts a countdown, and the
// first periodic emit more than Idleness later marks the split idle, out of the minimum,
// until its next record (IdlenessTimer.checkIfIdle). When every split is idle, the
// combined watermark is the maximum over every split's partial watermark instead
// (CombinedWatermarkStatus.updateCombinedWatermark: allIdle ? max : min), emitted if it is
// larger than the last: the last active split going idle raises the source's watermark to
// the split furthest ahead, and records of the splits behind it are late from then on.
// Flink then marks the source's output idle; downstream of it the lab's job has one input
// channel, where an idle status changes no watermark and no timer, so it is not modelled.
//
// The periodic emit runs only while it can change something: after a record, and, with
// Idleness, until every split is idle. The interval watermark.Off disables it, as for
// TimestampAssigner.
type SourceAssigner[T any] struct {
	extract  func(value *T, recordTimestamp int64) int64
	out      Output[T]
	rt       *Runtime
	bound    int64
	interval int64
	idleness int64
	splits   []sourceSplit
	emitted  int64
	armed    bool
	tick     func(int64)
}

// sourceSplit is one split's generator: BoundedOutOfOrdernessWatermarks, its partial
// watermark in the multiplexer, and its IdlenessTimer.
type sourceSplit struct {
	registered bool
	maxTs      int64
	watermark  int64 // the partial watermark: what its last periodic emit set
	idle       bool  // the multiplexer's view: out of the minimum
	idleNow    bool  // WatermarksWithIdleness.isIdleNow
	counter    uint64
	lastSeen   uint64
	inactive   bool  // the countdown runs
	inactiveAt int64 // since this periodic emit
}

// SplitStatus is one split as the source's watermark sees it.
type SplitStatus struct {
	Split int32
	// Watermark is the split's partial watermark: MinWatermark until its first periodic
	// emit after a record.
	Watermark int64
	// Records counts the records the split has brought.
	Records uint64
	// Idle says the split is left out of the minimum (withIdleness).
	Idle bool
}

// NewSourceAssigner returns a source assigner with splits 0 … s.Partitions-1 registered,
// that stamps records with extract, sends them to out, and emits watermarks on rt's clock
// as s says, with s.Idleness as withIdleness's timeout (zero: none). Its At is the job's
// choice of assigner and is not read.
func NewSourceAssigner[T any](rt *Runtime, s watermark.Strategy, extract func(value *T, recordTimestamp int64) int64, out Output[T]) *SourceAssigner[T] {
	a := &SourceAssigner[T]{extract: extract, out: out, rt: rt, bound: s.OutOfOrderness.Milliseconds(),
		interval: s.Period().Milliseconds(), idleness: s.Idleness.Milliseconds(), emitted: MinWatermark}
	a.tick = a.onPeriodicEmit
	for i := 0; i < s.Partitions; i++ {
		a.AddSplit(int32(i))
	}
	return a
}

// AddSplit registers a split, if it is not registered yet: from now on it takes part in
// the minimum. With idleness, the periodic emit starts running to find it idle.
func (a *SourceAssigner[T]) AddSplit(split int32) {
	for int(split) >= len(a.splits) {
		a.splits = append(a.splits, sourceSplit{})
	}
	s := &a.splits[split]
	if s.registered {
		return
	}
	*s = sourceSplit{registered: true, maxTs: MinWatermark + a.bound + 1, watermark: MinWatermark}
	if a.idleness > 0 {
		a.arm()
	}
}

// CollectFrom stamps rec, a record of split, forwards it, then shows its timestamp to the
// split's generator. A split not registered yet is registered first.
func (a *SourceAssigner[T]) CollectFrom(split int32, rec *Record[T]) {
	if int(split) >= len(a.splits) || !a.splits[split].registered {
		a.AddSplit(split)
	}
	ts := a.extract(&rec.Value, rec.Timestamp)
	rec.Timestamp = ts
	a.out.Collect(rec)
	s := &a.splits[split]
	s.maxTs = max(s.maxTs, ts)
	s.counter++
	s.idleNow = false
	a.arm()
}

// EmitWatermark forwards MaxWatermark (a drain) and ignores every other watermark.
func (a *SourceAssigner[T]) EmitWatermark(wm int64) {
	if wm == MaxWatermark && wm > a.emitted {
		a.emitted = wm
		a.out.EmitWatermark(wm)
	}
}

// Watermark returns the last watermark the source emitted (MinWatermark before any).
func (a *SourceAssigner[T]) Watermark() int64 { return a.emitted }

// Splits returns every registered split's state, in split order.
func (a *SourceAssigner[T]) Splits() []SplitStatus {
	var st []SplitStatus
	for i, s := range a.splits {
		if s.registered {
			st = append(st, SplitStatus{Split: int32(i), Watermark: s.watermark, Records: s.counter, Idle: s.idle})
		}
	}
	return st
}

// arm schedules the next periodic emit at the first multiple of the interval at or after
// now, unless one is scheduled or the interval is zero.
func (a *SourceAssigner[T]) arm() {
	if a.armed || a.interval <= 0 {
		return
	}
	a.armed = true
	a.rt.RegisterTimer(nextEmit(a.rt.Now(), a.interval), a.tick)
}

// onPeriodicEmit is emitPeriodicWatermark: every split's generator, then the multiplexer.
func (a *SourceAssigner[T]) onPeriodicEmit(at int64) {
	a.armed = false
	again := false
	for i := range a.splits {
		s := &a.splits[i]
		if !s.registered {
			continue
		}
		if a.idleness > 0 && s.checkIfIdle(at, a.idleness) {
			if !s.idleNow {
				s.idle, s.idleNow = true, true
			}
			continue
		}
		s.watermark = max(s.watermark, s.maxTs-a.bound-1)
		s.idle = false
		if a.idleness > 0 {
			again = true // the countdown needs the next emit
		}
	}
	lowest, highest, allIdle := MaxWatermark, MinWatermark, true
	for _, s := range a.splits {
		if !s.registered {
			continue
		}
		highest = max(highest, s.watermark)
		if !s.idle {
			lowest, allIdle = min(lowest, s.watermark), false
		}
	}
	combined := lowest
	if allIdle {
		combined = highest
	}
	if combined > a.emitted {
		a.emitted = combined
		a.out.EmitWatermark(combined)
	}
	if again {
		a.armNext(at)
	}
}

// armNext schedules the emit one interval after the one at at.
func (a *SourceAssigner[T]) armNext(at int64) {
	if !a.armed {
		a.armed = true
		a.rt.RegisterTimer(at+a.interval, a.tick)
	}
}

// checkIfIdle is IdlenessTimer.checkIfIdle at processing time now.
func (s *sourceSplit) checkIfIdle(now, timeout int64) bool {
	switch {
	case s.counter != s.lastSeen:
		s.lastSeen, s.inactive = s.counter, false
		return false
	case !s.inactive:
		s.inactive, s.inactiveAt = true, now
		return false
	}
	return now-s.inactiveAt > timeout
}
