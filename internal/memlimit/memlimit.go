// Package memlimit is the TUI's memory policy: the soft limit it puts on the Go
// runtime's memory. The TUI (cli) applies it, and so does the benchmark that bounds the
// TUI's memory (session's BenchmarkWalk), so the figure it reports is the TUI's.
package memlimit

import (
	"os"
	"runtime/debug"
)

// TUI is the soft limit the TUI puts on the Go runtime's memory, unless GOMEMLIMIT is
// set. What the TUI keeps is bounded on its own; the limit bounds its garbage. Without
// it the collector lets the heap grow to twice the live heap between collections, and a
// replay, which reads and windows the whole recording in half a second, leaves that much
// garbage at once. The limit makes the collector run sooner: a replay loses some speed,
// never a result. The binary's own resident pages (about 18 MB) are beside what it
// bounds. Figures: docs/PERFORMANCE.md, "Memory".
const TUI = 100 << 20

// Apply sets TUI unless GOMEMLIMIT is set, and returns the function that puts the
// previous limit back.
func Apply() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(TUI)
	return func() { debug.SetMemoryLimit(prev) }
}
