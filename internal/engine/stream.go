package engine

import "math"

const (
	// MinWatermark is the watermark before any was emitted (Long.MIN_VALUE in Flink). It is
	// never emitted.
	MinWatermark int64 = math.MinInt64
	// MaxWatermark ends event time: a drained or finished job emits it, and every event-time
	// window fires.
	MaxWatermark int64 = math.MaxInt64
)

// Record is one element on a stream with the event timestamp it carries.
type Record[T any] struct {
	Value     T
	Timestamp int64
}

// Output receives the records and watermarks an operator emits. Every operator is the
// Output of the operator before it.
//
// A record is handed over by reference, as Flink hands StreamRecords down a chain with
// object reuse on: the sender owns it, it is valid only during the call, the receiver
// copies whatever it keeps, and it may restamp the record (an assigner does) but never
// changes its value. No record is copied between chained operators.
type Output[T any] interface {
	Collect(rec *Record[T])
	EmitWatermark(wm int64)
}
