package gateway

import (
	"fmt"
	"math"
)

// CheckWindow refuses a ts whose tumbling window of size ms cannot be held in a long: a
// timestamp within a window's size of the ends of the long range, where Flink's window
// arithmetic (TimeWindow.getWindowStartWithOffset, then start + size) overflows and the
// record is then neither fired, nor dropped as late, nor kept, without a word. The lab's
// job refuses such an event as malformed instead, per line, as its PyFlink job does
// (gateway_meter.py's parse_event): the error wraps ErrMalformed and says what is accepted.
func CheckWindow(ts, size int64) error {
	lo, hi := windowRange(size)
	if lo <= ts && ts <= hi {
		return nil
	}
	return fmt.Errorf("%w: ts %d is out of range for a %s window: a window must start and end within a long, so ts is accepted from %d to %d",
		ErrMalformed, ts, windowName(size), lo, hi)
}

// windowRange is the first and the last ts whose tumbling window of size ms a long holds.
func windowRange(size int64) (lo, hi int64) {
	hi = math.MaxInt64 - math.MaxInt64%size - 1
	lo = math.MinInt64 - math.MinInt64%size // Go's % truncates, as Java's does: the first start
	return lo, hi
}

func windowName(size int64) string {
	if size == 60_000 {
		return "one-minute"
	}
	return fmt.Sprintf("%d ms", size)
}
