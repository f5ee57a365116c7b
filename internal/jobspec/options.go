package jobspec

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/labtui/labtui/internal/gateway"
)

// TimestampField names the RequestRecord field the event-time window reads.
type TimestampField uint8

const (
	// CompletedTS is the course's choice: a record inherits the timestamp of the event that
	// completed it, normally the RequestCompleted, with no second assigner.
	CompletedTS TimestampField = iota
	// StartedTS re-stamps each record from started_ts with a second assigner after the
	// assembler, as a PyFlink job has to, with its own watermarks.
	StartedTS
)

// String returns the field's name as flags and the course write it.
func (f TimestampField) String() string {
	if f == StartedTS {
		return "started_ts"
	}
	return "completed_ts"
}

// Options configure a Job. A field left out of an Options literal takes the course's
// default; a Millis field set to zero (Ms(0)) is zero, not the default.
type Options struct {
	// Prices is PRICE_PER_1K; nil means gateway.DefaultPrices().
	Prices gateway.PriceTable
	// Watermarks is the strategy of the job's assigners: zero out-of-orderness is
	// for_monotonous_timestamps(), emitted every 200 ms of processing time unless set.
	Watermarks Watermarks
	// Timestamp is the field the event-time window reads.
	Timestamp TimestampField
	// ForgetAfter is how long, in event-time milliseconds after its first half, the
	// RequestAssembler keeps a request whose other half never came; unset means 10
	// minutes. Ms(0) puts the forget timer at the half's own timestamp, which the next
	// watermark at or past it fires, as the PyFlink job does with --forget-after-ms 0.
	ForgetAfter Millis
	// WindowSize is the TenantCost window in milliseconds; zero means one minute (a
	// window of zero is no window: Flink's assigners refuse it, so zero is never meant).
	WindowSize int64
	// Trace asks for a TraceResult per assembled record.
	Trace bool
}

// Millis is an option's length of time in milliseconds, or unset. Its zero value is
// unset, so the option takes its default; Ms sets it, to zero too.
type Millis struct {
	ms  int64
	set bool
}

// Ms returns ms as a set Millis.
func Ms(ms int64) Millis { return Millis{ms: ms, set: true} }

// IsSet reports whether the option was set.
func (m Millis) IsSet() bool { return m.set }

// Or returns the option's value, or def when it is unset.
func (m Millis) Or(def int64) int64 {
	if m.set {
		return m.ms
	}
	return def
}

// String is the value as a Go duration ("200ms", "0s"), or "unset".
func (m Millis) String() string {
	if !m.set {
		return "unset"
	}
	return (time.Duration(m.ms) * time.Millisecond).String()
}

// DefaultForgetAfter is how long the RequestAssembler waits for a request's other half.
const DefaultForgetAfter int64 = 10 * 60 * 1000

// Minute is the TenantCost window size.
const Minute int64 = 60 * 1000

// Watermarks is the job's watermark strategy, as WatermarkStrategy.for_bounded_out_of_orderness
// (or for_monotonous_timestamps, a bound of zero) with pipeline.auto-watermark-interval.
type Watermarks struct {
	// OutOfOrderness is the bound B in milliseconds. Zero is
	// WatermarkStrategy.for_monotonous_timestamps() (AscendingTimestampsWatermarks).
	OutOfOrderness int64
	// Interval is pipeline.auto-watermark-interval in milliseconds; unset means Flink's
	// default of 200. Ms(0) disables periodic watermarks, as in Flink: event-time windows
	// then fire only on a drain.
	Interval Millis
	// At is where the watermarks are generated: after the parse (StreamWatermarks, the
	// course's Lab 4 shape, the zero value) or on the Kafka source, one generator per
	// partition (SourceWatermarks, module 5's shape).
	At WatermarkSite
	// Idleness is withIdleness's timeout in milliseconds of processing time, for
	// watermarks at the source: a partition that brings no record for that long is left
	// out of the source's minimum until it sends again. Zero means no idleness (Flink
	// refuses a timeout of zero, so zero is never meant).
	Idleness int64
	// Partitions is how many partitions the topic has: with watermarks at the source,
	// partitions 0 … Partitions-1 are splits from the start, as a KafkaSource assigns
	// every partition when it starts, so one that never brings a record holds the
	// watermark back. A record of another partition adds its split when it comes.
	Partitions int
}

// WatermarkSite says where a job's watermarks are generated.
type WatermarkSite uint8

const (
	// StreamWatermarks: assign_timestamps_and_watermarks after the parse, one generator
	// for every partition (the course's Lab 4 job).
	StreamWatermarks WatermarkSite = iota
	// SourceWatermarks: the WatermarkStrategy on the Kafka source, one generator per
	// partition and the minimum over them (module 5).
	SourceWatermarks
)

// String names the site as the --watermarks flag does.
func (s WatermarkSite) String() string {
	if s == SourceWatermarks {
		return "source"
	}
	return "stream"
}

// PartitionWatermark is one partition of a job with watermarks at the source, as the
// source's minimum sees it.
type PartitionWatermark struct {
	Partition int32
	// Watermark is the partition's own watermark (MinWatermark until its first periodic
	// emit after a record).
	Watermark int64
	// Records counts the events the partition brought.
	Records uint64
	// Idle says the partition is left out of the minimum (withIdleness).
	Idle bool
}

// DefaultWatermarkInterval is Flink's pipeline.auto-watermark-interval: 200 ms.
const DefaultWatermarkInterval int64 = 200

// MinWatermark is the watermark before the first (Long.MIN_VALUE), as the engine's.
const MinWatermark int64 = math.MinInt64

// maxWatermark is the watermark of a drained or finished job (Long.MAX_VALUE), as the engine's.
const maxWatermark int64 = math.MaxInt64

// Name names the strategy as the job's code writes it: for_monotonous_timestamps(), or
// for_bounded_out_of_orderness(40 s), with " per partition at the source" when the
// watermarks are generated there.
func (w Watermarks) Name() string {
	site := ""
	if w.At == SourceWatermarks {
		site = " per partition at the source"
	}
	if w.OutOfOrderness <= 0 {
		return "for_monotonous_timestamps()" + site
	}
	s := strconv.FormatFloat(float64(w.OutOfOrderness)/1000, 'f', -1, 64)
	return "for_bounded_out_of_orderness(" + s + " s)" + site
}

// validate reports a strategy Flink would refuse.
func (w Watermarks) validate() error {
	if w.OutOfOrderness < 0 {
		return fmt.Errorf("out-of-orderness must not be negative, got %d ms", w.OutOfOrderness)
	}
	if w.Interval.Or(0) < 0 {
		return fmt.Errorf("watermark interval must not be negative, got %s", w.Interval)
	}
	if w.Idleness < 0 {
		return fmt.Errorf("idleness must not be negative, got %d ms", w.Idleness)
	}
	if w.Idleness > 0 && w.At != SourceWatermarks {
		return fmt.Errorf("idleness needs watermarks at the source (--watermarks source): after the parse one generator sees every partition, so no partition can be left out")
	}
	if w.Partitions < 0 {
		return fmt.Errorf("partitions must not be negative, got %d", w.Partitions)
	}
	if w.Partitions > maxPartitions {
		return fmt.Errorf("with watermarks at the source (--watermarks source) the job keeps a watermark generator for every partition up to the highest, and %d partitions are more than the %d it keeps: a recording naming partition %d needs them all", w.Partitions, maxPartitions, w.Partitions-1)
	}
	return nil
}

// maxPartitions is the most partitions a job watermarks at the source: a split each, so
// a recording naming partition 2147483647 would otherwise ask for 2^31 of them (some
// 18 GB: the kernel kills the replay first). Kafka topics have far fewer.
const maxPartitions = 1 << 16

// MaxPendingHalves is the most request halves the RequestAssembler keeps waiting for
// their other half at once, whatever their event times: about 60 MB of them. The lab's
// generator keeps a few hundred waiting and the recorded hour a few thousand; only a
// flood of request ids that never complete reaches it, and a half dropped there is
// counted (Stats.Overflowed).
const MaxPendingHalves = 100_000

// WithDefaults returns the options with every unset field set to the course's default.
func (o Options) WithDefaults() Options {
	if o.Prices == nil {
		o.Prices = gateway.DefaultPrices()
	}
	o.ForgetAfter = Ms(o.ForgetAfter.Or(DefaultForgetAfter))
	if o.WindowSize <= 0 {
		o.WindowSize = Minute
	}
	o.Watermarks.Interval = Ms(o.Watermarks.Interval.Or(DefaultWatermarkInterval))
	return o
}

// Validate reports options the job cannot run with.
func (o Options) Validate() error {
	if err := o.Watermarks.validate(); err != nil {
		return err
	}
	if o.Prices != nil {
		if err := o.Prices.Validate(); err != nil {
			return err
		}
	}
	if o.ForgetAfter.Or(0) < 0 {
		return fmt.Errorf("forget-after must not be negative, got %s", o.ForgetAfter)
	}
	if o.WindowSize < 0 {
		return fmt.Errorf("window size must not be negative, got %d ms", o.WindowSize)
	}
	return nil
}
