package gatewaymeter

import (
	"math"

	"github.com/labtui/labtui/engine"
	"github.com/labtui/labtui/meter"
)

// outOfRange counts the records whose event-time window cannot be held in a long: a
// timestamp within a window's size of the ends of the long range, where Flink's window
// arithmetic (TimeWindow.getWindowStartWithOffset, then start + size) overflows. Flink
// then neither fires, nor drops as late, nor keeps such a record, and says nothing; the
// job does as Flink does (the oracle checks it), and counts them in Stats.OutOfRange, so
// that a summary can say where they went.
type outOfRange struct {
	size  int64
	stats *meter.Stats
	out   engine.Output[Request]
}

func (o *outOfRange) Collect(rec *engine.Record[Request]) {
	if windowOverflows(rec.Timestamp, o.size) {
		o.stats.OutOfRange++
		o.stats.OutOfRangeUSD += rec.Value.USD
	}
	o.out.Collect(rec)
}

func (o *outOfRange) EmitWatermark(wm int64) { o.out.EmitWatermark(wm) }

// windowOverflows reports whether the tumbling window of size that holds ts overflows a
// long, computed as Flink computes it: r = ts % size (Java's truncating remainder); the
// start is ts - r, or ts - (r + size) for a negative r; the end is start + size.
func windowOverflows(ts, size int64) bool {
	r := ts % size
	if r < 0 {
		return ts < math.MinInt64+(r+size)
	}
	return ts-r > math.MaxInt64-size
}
