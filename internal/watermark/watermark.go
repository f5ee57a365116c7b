// Package watermark is a job's watermark strategy: the one type the command line's
// flags bind to, the job's options carry, the strategy picker edits, the backends hand to
// their jobs and the engine's assigners run. It imports nothing of labtui's, so the
// engine and the job's options can share it without either knowing the other.
package watermark

import (
	"fmt"
	"strconv"
	"time"
)

// Strategy is a job's watermark strategy, as Flink's
// WatermarkStrategy.for_bounded_out_of_orderness (for_monotonous_timestamps with a bound
// of zero) with pipeline.auto-watermark-interval and, at the source, withIdleness.
//
// Its lengths of time are durations; the engine and the jobs count whole milliseconds,
// as Flink does, and Validate refuses a finer one. The zero value is the course's Lab 4
// strategy: monotonous, after the parse, every 200 ms.
type Strategy struct {
	// OutOfOrderness is the bound B: the watermark trails the largest timestamp seen by
	// B + 1 ms. Zero is WatermarkStrategy.for_monotonous_timestamps()
	// (AscendingTimestampsWatermarks).
	OutOfOrderness time.Duration
	// Interval is pipeline.auto-watermark-interval, the processing time between periodic
	// emits. Zero means Flink's default, DefaultInterval; Off disables periodic
	// watermarks, as 0 does in Flink: event-time windows then fire only on a drain.
	// Period reads it.
	Interval time.Duration
	// At is where the watermarks are generated: after the parse (Stream, the zero value)
	// or on the Kafka source, one generator per partition (Source).
	At Site
	// Idleness is withIdleness's timeout in processing time, for watermarks at the
	// source: a partition that brings no record for that long is left out of the
	// source's minimum until it sends again. Zero means no idleness (Flink refuses a
	// timeout of zero, so zero is never meant).
	Idleness time.Duration
	// Partitions is how many partitions the topic has: with watermarks at the source,
	// partitions 0 … Partitions-1 are splits from the start, as a KafkaSource assigns
	// every partition when it starts, so one that never brings a record holds the
	// watermark back. A record of another partition adds its split when it comes.
	Partitions int
}

// DefaultInterval is Flink's pipeline.auto-watermark-interval: 200 ms.
const DefaultInterval = 200 * time.Millisecond

// Off is the Interval that disables periodic watermarks (Flink's
// pipeline.auto-watermark-interval: 0). It is the only negative Interval Validate
// accepts.
const Off time.Duration = -1

// Period is how often periodic watermarks are emitted: the Interval, DefaultInterval when
// it is zero, and zero when it is Off.
func (s Strategy) Period() time.Duration {
	switch {
	case s.Interval == 0:
		return DefaultInterval
	case s.Interval == Off:
		return 0
	}
	return s.Interval
}

// WithDefaults returns the strategy with a zero Interval set to DefaultInterval, so that
// two strategies that run the same compare equal.
func (s Strategy) WithDefaults() Strategy {
	if s.Interval == 0 {
		s.Interval = DefaultInterval
	}
	return s
}

// Site says where a job's watermarks are generated.
type Site uint8

const (
	// Stream is assign_timestamps_and_watermarks after the parse, one generator for every
	// partition (the course's Lab 4 job).
	Stream Site = iota
	// Source is the WatermarkStrategy on the Kafka source, one generator per partition
	// and the minimum over them (module 5).
	Source
)

// String names the site as the --watermarks flag does.
func (s Site) String() string {
	if s == Source {
		return "source"
	}
	return "stream"
}

// Name names the strategy as the job's code writes it: for_monotonous_timestamps(), or
// for_bounded_out_of_orderness(40 s), with " per partition at the source" when the
// watermarks are generated there.
func (s Strategy) Name() string {
	site := ""
	if s.At == Source {
		site = " per partition at the source"
	}
	if s.OutOfOrderness <= 0 {
		return "for_monotonous_timestamps()" + site
	}
	secs := strconv.FormatFloat(float64(s.OutOfOrderness.Milliseconds())/1000, 'f', -1, 64)
	return "for_bounded_out_of_orderness(" + secs + " s)" + site
}

// Validate reports a strategy Flink would refuse, or one finer than the whole
// milliseconds the jobs count.
func (s Strategy) Validate() error {
	if s.OutOfOrderness < 0 {
		return fmt.Errorf("out-of-orderness must not be negative, got %s", s.OutOfOrderness)
	}
	if s.Interval < 0 && s.Interval != Off {
		return fmt.Errorf("watermark interval must not be negative, got %s", s.Interval)
	}
	if s.Idleness < 0 {
		return fmt.Errorf("idleness must not be negative, got %s", s.Idleness)
	}
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"out-of-orderness", s.OutOfOrderness}, {"watermark interval", s.Interval}, {"idleness", s.Idleness}} {
		if d.d != Off && d.d%time.Millisecond != 0 {
			return fmt.Errorf("%s must be whole milliseconds, as Flink counts them, got %s", d.name, d.d)
		}
	}
	if s.Idleness > 0 && s.At != Source {
		return fmt.Errorf("idleness needs watermarks at the source (--watermarks source): after the parse one generator sees every partition, so no partition can be left out")
	}
	if s.Partitions < 0 {
		return fmt.Errorf("partitions must not be negative, got %d", s.Partitions)
	}
	if s.Partitions > maxPartitions {
		return fmt.Errorf("with watermarks at the source (--watermarks source) the job keeps a watermark generator for every partition up to the highest, and %d partitions are more than the %d it keeps: a recording naming partition %d needs them all", s.Partitions, maxPartitions, s.Partitions-1)
	}
	return nil
}

// maxPartitions is the most partitions a job watermarks at the source: a split each, so
// a recording naming partition 2147483647 would otherwise ask for 2^31 of them (some
// 18 GB: the kernel kills the replay first). Kafka topics have far fewer.
const maxPartitions = 1 << 16
