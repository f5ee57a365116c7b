package engine

// TimeWindow is a window of time: Start inclusive, End exclusive, as Flink's TimeWindow.
type TimeWindow struct {
	Start int64
	End   int64
}

// MaxTimestamp is the largest timestamp that belongs to the window: End - 1.
func (w TimeWindow) MaxTimestamp() int64 { return w.End - 1 }

// WindowStart returns the start of the tumbling window of the given size and offset that
// holds ts (TimeWindow.getWindowStartWithOffset). Go's % truncates like Java's, so
// negative timestamps land in the window below zero, not above it.
func WindowStart(ts, offset, size int64) int64 {
	r := (ts - offset) % size
	if r < 0 {
		return ts - (r + size)
	}
	return ts - r
}

// TumblingWindow returns the tumbling window of the given size and offset holding ts.
func TumblingWindow(ts, offset, size int64) TimeWindow {
	start := WindowStart(ts, offset, size)
	return TimeWindow{Start: start, End: start + size}
}
