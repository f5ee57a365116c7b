package diff

import (
	"context"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
)

const (
	seedBurst    = "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"
	recordedHour = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"
	// t0 is 10:00:00.000 on the seed burst's day.
	t0 int64 = 1_795_946_400_000
)

// replayFile replays a recording with traces and returns every result, in order.
func replayFile(t testing.TB, path string, cfg reenact.Config) []jobspec.Result {
	t.Helper()
	r, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg.Job.Trace = true
	var out []jobspec.Result
	_, err = reenact.Run(context.Background(), r, cfg, func(x jobspec.Result) { out = append(out, x) },
		func(line int, err error) { t.Errorf("%s:%d: %v", path, line, err) })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ticking returns a wall clock for a Fast replay that starts at start and moves 1 ms each
// time it is read, so a fast replay is deterministic.
func ticking(start int64) func() int64 {
	now := start
	return func() int64 { now++; return now }
}

// minute returns the event-time result of a tenant's minute starting at t0+m minutes.
func minute(kind jobspec.Kind, tenant string, m int64, usd float64, requests int64) jobspec.Result {
	start := t0 + m*jobspec.Minute
	r := jobspec.Result{Kind: kind, Minute: gateway.TenantCostMinute{TenantID: tenant, WindowStart: start, WindowEnd: start + jobspec.Minute, USD: usd, Requests: requests}}
	if kind == jobspec.PendingResult {
		r.Window = jobspec.EventTimeResult
	}
	return r
}

// trace returns a trace result for a record of tenant with timestamp ts arriving at
// arrival, having met watermark wm.
func trace(id, tenant string, ts, arrival, wm int64, usd float64) jobspec.Result {
	end := ts - ts%jobspec.Minute + jobspec.Minute
	return jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{RequestID: id, TenantID: tenant, Gateway: "gw-0",
		Timestamp: ts, KafkaTimestamp: ts, Arrival: arrival, Watermark: wm, EventWindowEnd: end,
		ProcessingWindowEnd: arrival - arrival%jobspec.Minute + jobspec.Minute, Late: end-1 <= wm, USD: usd}}
}
