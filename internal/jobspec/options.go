package jobspec

import (
	"fmt"
	"math"
	"time"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/watermark"
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
// default; a Millis field set to zero (Ms(0)) is zero, not the default, and so is a
// watermark interval of watermark.Off.
type Options struct {
	// Prices is PRICE_PER_1K; nil means gateway.DefaultPrices().
	Prices gateway.PriceTable
	// Watermarks is the strategy of the job's assigners; its zero value is the course's,
	// for_monotonous_timestamps() after the parse, emitted every 200 ms.
	Watermarks watermark.Strategy
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

// MinWatermark is the watermark before the first (Long.MIN_VALUE), as the engine's.
const MinWatermark int64 = math.MinInt64

// maxWatermark is the watermark of a drained or finished job (Long.MAX_VALUE), as the engine's.
const maxWatermark int64 = math.MaxInt64

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
	o.Watermarks = o.Watermarks.WithDefaults()
	return o
}

// Validate reports options the job cannot run with.
func (o Options) Validate() error {
	if err := o.Watermarks.Validate(); err != nil {
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
