package cli

import (
	"os"
	"runtime/debug"
)

// tuiMemoryLimit is the soft limit the TUI puts on the Go runtime's memory (unless
// GOMEMLIMIT says otherwise). What the TUI keeps is bounded on its own: after an hour of
// the generator and ten replays of the recorded hour its live heap is about 70 MB
// (BenchmarkHourAndTenReplays in session/). Without a limit the collector lets the heap
// grow to twice that between collections, and a replay, which reads, produces, consumes
// and windows 143,400 records in half a second, leaves that much garbage at once: the
// process reached 328 MB (VmHWM) with 78 MB live. The limit makes the collector run
// before the garbage of a replay piles up that high; it costs a replay some speed, never
// a result.
const tuiMemoryLimit = 120 << 20

// limitMemory sets tuiMemoryLimit unless GOMEMLIMIT is set, and returns the function that
// puts the previous limit back.
func limitMemory() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(tuiMemoryLimit)
	return func() { debug.SetMemoryLimit(prev) }
}
