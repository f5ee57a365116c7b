package meter

import (
	"fmt"
	"math"

	"github.com/labtui/labtui/gateway"
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

// ParseTimestampField reads "completed_ts" or "started_ts".
func ParseTimestampField(s string) (TimestampField, error) {
	switch s {
	case "completed_ts", "":
		return CompletedTS, nil
	case "started_ts":
		return StartedTS, nil
	}
	return 0, fmt.Errorf("timestamp field must be completed_ts or started_ts, not %q", s)
}

// Options configure a Job. The zero value of each field means the course's default.
type Options struct {
	// Prices is PRICE_PER_1K; nil means gateway.DefaultPrices().
	Prices gateway.PriceTable
	// Watermarks is the strategy of the job's assigners: zero out-of-orderness is
	// for_monotonous_timestamps(), emitted every 200 ms of processing time.
	Watermarks Watermarks
	// Timestamp is the field the event-time window reads.
	Timestamp TimestampField
	// ForgetAfter is how long, in event-time milliseconds after its first half, the
	// RequestAssembler keeps a request whose other half never came; zero means 10 minutes.
	ForgetAfter int64
	// WindowSize is the TenantCost window in milliseconds; zero means one minute.
	WindowSize int64
	// Trace asks for a TraceResult per assembled record.
	Trace bool
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
	// Interval is pipeline.auto-watermark-interval in milliseconds; zero means Flink's
	// default of 200.
	Interval int64
}

// DefaultWatermarkInterval is Flink's pipeline.auto-watermark-interval: 200 ms.
const DefaultWatermarkInterval int64 = 200

// MinWatermark is the watermark before the first (Long.MIN_VALUE), as the engine's.
const MinWatermark int64 = math.MinInt64

// MaxWatermark is the watermark of a drained or finished job (Long.MAX_VALUE), as the engine's.
const MaxWatermark int64 = math.MaxInt64

// Validate reports a strategy Flink would refuse.
func (w Watermarks) Validate() error {
	if w.OutOfOrderness < 0 {
		return fmt.Errorf("out-of-orderness must not be negative, got %d ms", w.OutOfOrderness)
	}
	if w.Interval < 0 {
		return fmt.Errorf("watermark interval must not be negative, got %d ms", w.Interval)
	}
	return nil
}

// WithDefaults returns the options with every zero field set to the course's default.
func (o Options) WithDefaults() Options {
	if o.Prices == nil {
		o.Prices = gateway.DefaultPrices()
	}
	if o.ForgetAfter <= 0 {
		o.ForgetAfter = DefaultForgetAfter
	}
	if o.WindowSize <= 0 {
		o.WindowSize = Minute
	}
	if o.Watermarks.Interval <= 0 {
		o.Watermarks.Interval = DefaultWatermarkInterval
	}
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
	if o.ForgetAfter < 0 || o.WindowSize < 0 {
		return fmt.Errorf("forget-after and window size must not be negative")
	}
	return nil
}
