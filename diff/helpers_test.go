package diff

import (
	"context"
	"testing"

	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
	"github.com/labtui/labtui/replay"
)

const (
	seedBurst    = "../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"
	recordedHour = "../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"
	// t0 is 10:00:00.000 on the seed burst's day.
	t0 int64 = 1_795_946_400_000
)

// replayFile replays a recording with traces and returns every result, in order.
func replayFile(t testing.TB, path string, cfg replay.Config) []meter.Result {
	t.Helper()
	r, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg.Job.Trace = true
	var out []meter.Result
	_, err = replay.Run(context.Background(), r, cfg, func(x meter.Result) { out = append(out, x) },
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
func minute(kind meter.Kind, tenant string, m int64, usd float64, requests int64) meter.Result {
	start := t0 + m*meter.Minute
	r := meter.Result{Kind: kind, Minute: gateway.TenantCostMinute{TenantID: tenant, WindowStart: start, WindowEnd: start + meter.Minute, USD: usd, Requests: requests}}
	if kind == meter.PendingResult {
		r.Window = meter.EventTimeResult
	}
	return r
}

// trace returns a trace result for a record of tenant with timestamp ts arriving at
// arrival, having met watermark wm.
func trace(id, tenant string, ts, arrival, wm int64, usd float64) meter.Result {
	end := ts - ts%meter.Minute + meter.Minute
	return meter.Result{Kind: meter.TraceResult, Record: meter.RecordTrace{RequestID: id, TenantID: tenant, Gateway: "gw-0",
		Timestamp: ts, KafkaTimestamp: ts, Arrival: arrival, Watermark: wm, EventWindowEnd: end,
		ProcessingWindowEnd: arrival - arrival%meter.Minute + meter.Minute, Late: end-1 <= wm, USD: usd}}
}
