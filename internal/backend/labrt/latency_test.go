package labrt

import (
	"testing"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
)

func trace(at, ts int64) *jobspec.Result {
	return &jobspec.Result{Kind: jobspec.TraceResult, At: at, Record: jobspec.RecordTrace{Timestamp: ts}}
}

// Given a run on the live topic with completed_ts, when its traces arrive, then the
// latency is the median of when each was taken less its completed_ts, over the latest
// traces only; a run on a replay, another run's traces and other results are not
// measured.
func TestLatencyIsTheMedianOfTheLatestTraces(t *testing.T) {
	var l latency
	l.begin(1, true)
	for i, d := range []int64{300, 200, 9000, 400, 250} { // one record held by a hiccup
		l.take(1, trace(int64(10_000+i), int64(10_000+i)-d))
	}
	l.take(1, &jobspec.Result{Kind: jobspec.LateResult, At: 99_999})
	l.take(2, trace(50_000, 0))
	if got := l.median(); got != 300*time.Millisecond {
		t.Fatalf("median %s, want 300ms", got)
	}
	for i := range latencyWindow {
		l.take(1, trace(int64(20_000+i), int64(20_000+i)-100))
	}
	if got := l.median(); got != 100*time.Millisecond {
		t.Fatalf("after a window of 100 ms traces the median is %s", got)
	}
	l.begin(2, false) // a replay
	l.take(2, trace(1_000_000, 0))
	if got := l.median(); got != 0 {
		t.Fatalf("a replay's latency %s, want none", got)
	}
}
