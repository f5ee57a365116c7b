package reenact

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/watermark"
)

// t10 is 2026-11-29T10:00:00Z; clock(m, s, ms) is m minutes, s seconds and ms after it.
const t10 = int64(1_795_946_400_000)

func clock(m, s, ms int64) int64 { return t10 + m*60_000 + s*1_000 + ms }

// line is one recording line on partition 0: a record that arrived at arrival.
type line struct {
	arrival   int64
	value     string
	partition int32
}

func startedAt(id string, ts int64) line {
	return line{ts, fmt.Sprintf(`{"type":"RequestStarted","request_id":%q,"tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":%d,"prompt_tokens":1000}`, id, ts), 0}
}

func completedAt(id string, ts int64) line {
	return line{ts, fmt.Sprintf(`{"type":"RequestCompleted","request_id":%q,"tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":%d,"completion_tokens":1000}`, id, ts), 0}
}

// malformedAt is a record whose value is no event.
func malformedAt(arrival int64) line { return line{arrival, `"not an event"`, 0} }

// replayLines replays the lines as a recording, in order on partition 0, and returns every
// result but the traces as jsonl, and the number of lines reported bad.
func replayLines(t *testing.T, cfg Config, lines ...line) ([]string, int) {
	t.Helper()
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`+"\n", l.partition, i, l.arrival, l.arrival, l.value)
	}
	var got []string
	bad := 0
	_, err := Run(context.Background(), recording.NewReader(strings.NewReader(b.String()), nil), cfg,
		func(r jobspec.Result) {
			if r.Kind != jobspec.TraceResult {
				got = append(got, string(r.AppendJSON(nil)))
			}
		}, func(int, error) { bad++ })
	if err != nil {
		t.Fatal(err)
	}
	return got, bad
}

func minute(sink string, m int64, usd string, n int) string {
	return tenantMinute(sink, "acme", m, usd, n)
}

func tenantMinute(sink, tenant string, m int64, usd string, n int) string {
	return fmt.Sprintf(`{"sink":%q,"tenant_id":%q,"window_start":%d,"window_end":%d,"usd":%s,"requests":%d}`, sink, tenant, clock(m, 0, 0), clock(m+1, 0, 0), usd, n)
}

func pendingMinute(window string, m int64, usd string, n int) string {
	return pendingTenantMinute(window, "acme", m, usd, n)
}

func pendingTenantMinute(window, tenant string, m int64, usd string, n int) string {
	return fmt.Sprintf(`{"sink":"pending","window":%q,"tenant_id":%q,"window_start":%d,"window_end":%d,"usd":%s,"requests":%d}`, window, tenant, clock(m, 0, 0), clock(m+1, 0, 0), usd, n)
}

// TestTheEmitAfterTheLastRecordFiresTheMinuteItPassed is the example: a request
// at 10:00:10-10:00:11, then a lone RequestStarted at 10:02:10. The Kafka source never
// ends, so the periodic emit due at 10:02:10.000 runs with no record after it and emits
// 10:02:09.999, which fires [10:00, 10:01): Flink prints it, not as pending. The same
// recording with a malformed line after it, at any arrival, gives the same results.
func TestTheEmitAfterTheLastRecordFiresTheMinuteItPassed(t *testing.T) {
	lines := []line{startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)), startedAt("r-2", clock(2, 10, 0))}
	want := []string{minute("processing-time", 0, "0.1", 1), minute("event-time", 0, "0.1", 1)}
	got, _ := replayLines(t, Config{Pace: Recorded}, lines...)
	expectLines(t, got, want...)
	for _, arrival := range []int64{clock(2, 10, 0), clock(2, 10, 300), clock(7, 0, 0)} {
		got, bad := replayLines(t, Config{Pace: Recorded}, append(lines, malformedAt(arrival))...)
		if bad != 1 {
			t.Fatalf("%d bad lines reported, want 1", bad)
		}
		expectLines(t, got, want...)
	}
}

// TestTheLastRecordInTheLastIntervalOfAMinute: r-2 reaches the job at 10:00:59.850 and
// 10:00:59.900; the emit that follows is due at 10:01:00.000, after the processing-time
// window [10:00, 10:01) has fired. It emits 10:00:59.899, which fires [09:59, 10:00) and
// not [10:00, 10:01).
func TestTheLastRecordInTheLastIntervalOfAMinute(t *testing.T) {
	lines := []line{
		startedAt("r-1", clock(-1, 30, 0)), completedAt("r-1", clock(-1, 31, 0)),
		startedAt("r-2", clock(0, 59, 850)), completedAt("r-2", clock(0, 59, 900)),
	}
	got, _ := replayLines(t, Config{Pace: Recorded}, lines...)
	expectLines(t, got,
		minute("processing-time", -1, "0.1", 1),
		minute("processing-time", 0, "0.1", 1),
		minute("event-time", -1, "0.1", 1),
		pendingMinute("event-time", 0, "0.1", 1),
	)
}

// TestAnIntervalLongerThanWhatIsLeft: with a one-minute interval the emit after r-2 is due
// at 10:02:00.000, the very end of r-2's processing-time window; it runs after that
// window's timer (due at 10:01:59.999) and fires [10:00, 10:01).
func TestAnIntervalLongerThanWhatIsLeft(t *testing.T) {
	cfg := Config{Pace: Recorded, Job: jobspec.Options{Watermarks: watermark.Strategy{Interval: time.Minute}}}
	got, _ := replayLines(t, cfg,
		startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)),
		startedAt("r-2", clock(1, 20, 0)), completedAt("r-2", clock(1, 21, 0)))
	expectLines(t, got,
		minute("processing-time", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1),
		minute("event-time", 0, "0.1", 1),
		pendingMinute("event-time", 1, "0.1", 1),
	)
}

// TestFastPaceStandsOneIntervalAfterTheEndOfTheTopic: read on a wall clock that does not
// move (the whole file within one millisecond), the job has made no periodic emit when
// the last record is in; one interval later it has, and [10:00, 10:01) has fired. The
// processing-time window of the wall clock's minute is still open.
func TestFastPaceStandsOneIntervalAfterTheEndOfTheTopic(t *testing.T) {
	wall := clock(30, 0, 0)
	cfg := Config{Pace: Fast, Now: func() int64 { return wall }}
	lines := []line{startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)), startedAt("r-2", clock(2, 10, 0))}
	got, _ := replayLines(t, cfg, lines...)
	expectLines(t, got, minute("event-time", 0, "0.1", 1), pendingMinute("processing-time", 30, "0.1", 1))
	got, _ = replayLines(t, cfg, append(lines, malformedAt(0))...)
	expectLines(t, got, minute("event-time", 0, "0.1", 1), pendingMinute("processing-time", 30, "0.1", 1))
}

// TestIntervalZeroFiresEventTimeOnlyOnTheDrain: pipeline.auto-watermark-interval 0
// disables periodic watermarks, so the event-time window only fires when the drain emits
// the maximum watermark; processing time is unchanged.
func TestIntervalZeroFiresEventTimeOnlyOnTheDrain(t *testing.T) {
	lines := []line{startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)), startedAt("r-2", clock(2, 10, 0))}
	off := jobspec.Options{Watermarks: watermark.Strategy{Interval: watermark.Off}}
	got, _ := replayLines(t, Config{Pace: Recorded, Job: off}, lines...)
	expectLines(t, got, minute("processing-time", 0, "0.1", 1), pendingMinute("event-time", 0, "0.1", 1))
	got, _ = replayLines(t, Config{Pace: Recorded, Job: off, Drain: true}, lines...)
	expectLines(t, got, minute("processing-time", 0, "0.1", 1), minute("event-time", 0, "0.1", 1))
	got, _ = replayLines(t, Config{Pace: Fast, Job: off, Now: func() int64 { return clock(30, 0, 0) }}, lines...)
	expectLines(t, got, pendingMinute("processing-time", 30, "0.1", 1), pendingMinute("event-time", 0, "0.1", 1))
}
