package labrt

import (
	"slices"
	"sync"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
)

// latencyWindow is how many of a run's latest traces Status.Latency is the median of.
const latencyWindow = 256

// latency measures how far the job's results trail the records they describe: for each
// trace of a run that reads the live topic with completed_ts as its event time, the
// time the result was taken (Result.At: when labtui read the line of a real job) less
// the record's completed_ts. A held record (a hiccup) trails by its hold, so the median
// of the latest traces is what it reports.
type latency struct {
	mu      sync.Mutex
	run     int
	measure bool
	ms      []int64 // a ring of the latest latencies, ms
	next    int
}

// begin starts over for run; measure says whether its traces are measured.
func (l *latency) begin(run int, measure bool) {
	l.mu.Lock()
	l.run, l.measure, l.ms, l.next = run, measure, l.ms[:0], 0
	l.mu.Unlock()
}

// take measures r, when it is a trace of the run being measured.
func (l *latency) take(run int, r *jobspec.Result) {
	if r.Kind != jobspec.TraceResult || r.At == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if run != l.run || !l.measure {
		return
	}
	d := r.At - r.Record.Timestamp
	if len(l.ms) < latencyWindow {
		l.ms = append(l.ms, d)
		return
	}
	l.ms[l.next] = d
	l.next = (l.next + 1) % latencyWindow
}

// median is the median latency of the latest traces, 0 before the first (or when a
// clock ran behind the records' and it came out below 0).
func (l *latency) median() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ms) == 0 {
		return 0
	}
	sorted := slices.Clone(l.ms)
	slices.Sort(sorted)
	return time.Duration(max(sorted[len(sorted)/2], 0)) * time.Millisecond
}
