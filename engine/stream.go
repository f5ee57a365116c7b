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

// Broadcast sends every record and watermark to each of its outputs, in order, as a
// stream consumed by two operators does.
type Broadcast[T any] []Output[T]

// Collect sends rec to every output, each seeing the timestamp it came with.
func (b Broadcast[T]) Collect(rec *Record[T]) {
	ts := rec.Timestamp
	for _, o := range b {
		rec.Timestamp = ts
		o.Collect(rec)
	}
}

// EmitWatermark sends wm to every output.
func (b Broadcast[T]) EmitWatermark(wm int64) {
	for _, o := range b {
		o.EmitWatermark(wm)
	}
}

// Discard is an Output that drops everything.
type Discard[T any] struct{}

// Collect drops rec.
func (Discard[T]) Collect(*Record[T]) {}

// EmitWatermark drops wm.
func (Discard[T]) EmitWatermark(int64) {}
