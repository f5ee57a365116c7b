// Package memlimit is the TUI's memory policy: the soft limit it puts on the Go
// runtime's memory. The TUI (cli) applies it, and so does the benchmark that bounds the
// TUI's memory (session's BenchmarkWalk), so the figure it reports is the TUI's.
package memlimit

import (
	"os"
	"runtime/debug"
)

// TUI is the soft limit the TUI puts on the Go runtime's memory (unless GOMEMLIMIT says
// otherwise). What the TUI keeps is bounded on its own: after an hour of the generator
// and ten replays of the recorded hour its live heap is about 70 MB, and peaks at about
// 100-120 MB while a replay is read and compared (BenchmarkWalk in session/, and heap
// profiles of a real session). Without a limit the collector lets the heap grow to twice
// that between collections, and a replay, which reads, produces, consumes and windows
// 143,400 records in half a second, leaves that much garbage at once: the process
// reached 328 MB (VmHWM) with 78 MB live. The limit makes the collector run before the
// garbage of a replay piles up that high; it costs a replay some speed, never a result.
// The process's resident size is about 18 MB of its binary beside what the limit
// bounds. In a real session of the hour's requests and ten replays (docs/PERFORMANCE.md,
// "Memory"), 100 MiB held 106-111 MB between replays where 120 MiB held 125-131 MB; the
// peaks, while a replay is compared, were 129-139 MiB with either.
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
