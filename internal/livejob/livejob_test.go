package livejob

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

func produce(t *testing.T, addr string, evs ...gateway.Event) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic("gateway-events"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	recs := make([]*kgo.Record, len(evs))
	for i, ev := range evs {
		recs[i] = &kgo.Record{Key: []byte(ev.RequestID), Value: ev.AppendJSON(nil), Timestamp: time.UnixMilli(ev.TS)}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

type collected struct {
	mu  sync.Mutex
	got []jobspec.Result
}

func (c *collected) add(r jobspec.Result) { c.mu.Lock(); c.got = append(c.got, r); c.mu.Unlock() }
func (c *collected) kinds() map[jobspec.Kind]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[jobspec.Kind]int{}
	for _, r := range c.got {
		m[r.Kind]++
	}
	return m
}

func TestLiveJobWindowsRecordsOnTheWallClockAndStopsCleanly(t *testing.T) {
	before := runtime.NumGoroutine()
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// A fake wall clock 100 ms from a minute's end, moved by the test.
	var mu sync.Mutex
	now := time.UnixMilli(1_795_946_459_900)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	var c collected
	var bad int
	job, err := Start(context.Background(), Config{Brokers: []string{b.Addr()}, Topic: b.Topic(), StartAt: Earliest, Now: clock,
		Job: jobspec.Options{Trace: true}, Malformed: func(int32, int64, error) { bad++ }}, c.add)
	if err != nil {
		t.Fatal(err)
	}
	ts := int64(1_795_946_450_000)
	produce(t, b.Addr(),
		gateway.Event{Type: gateway.RequestStarted, RequestID: "r-1", TenantID: "acme", Model: "flat-10c", Gateway: "gw-0", TS: ts, PromptTokens: 1000},
		gateway.Event{Type: gateway.RequestCompleted, RequestID: "r-1", TenantID: "acme", Model: "flat-10c", Gateway: "gw-0", TS: ts + 1000, CompletionTokens: 1000})
	waitFor(t, func() bool { return c.kinds()[jobspec.TraceResult] == 1 })
	mu.Lock()
	now = now.Add(200 * time.Millisecond) // past 10:00:59.999: the processing-time window fires
	mu.Unlock()
	waitFor(t, func() bool { return c.kinds()[jobspec.ProcessingTimeResult] == 1 })
	// The sink sees a result as it happens; the snapshot is published after the job has
	// processed what it fetched, so it may still be the one from before the clock moved.
	waitFor(t, func() bool { return job.Snapshot().Stats.ProcessingFired == 1 })
	if s := job.Snapshot(); s.Consumed != 2 || s.Stats.Records != 1 || s.Watermark != ts+1000-1 {
		t.Fatalf("snapshot %+v", s)
	}
	final, err := job.Stop()
	if err != nil || len(final.Open) != 1 || final.Open[0].Window != jobspec.EventTimeResult {
		t.Fatalf("stop: %v, open %+v", err, final.Open)
	}
	b.Close()
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before+1 })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // a hang, on a loaded machine
	for !cond() {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("condition not met in 60 s; goroutines:\n%s", buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestChangedSignalsEachPublishedSnapshot is how a replay learns that the job has read
// its last record: it waits on Changed rather than polling Snapshot.
func TestChangedSignalsEachPublishedSnapshot(t *testing.T) {
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	job, err := Start(context.Background(), Config{Brokers: []string{b.Addr()}, Topic: b.Topic(), StartAt: Earliest}, func(jobspec.Result) {})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Stop()
	ts := time.Now().UnixMilli()
	produce(t, b.Addr(),
		gateway.Event{Type: gateway.RequestStarted, RequestID: "r-1", TenantID: "acme", Model: "flat-10c", Gateway: "gw-0", TS: ts, PromptTokens: 1000},
		gateway.Event{Type: gateway.RequestCompleted, RequestID: "r-1", TenantID: "acme", Model: "flat-10c", Gateway: "gw-0", TS: ts + 1, CompletionTokens: 1000})
	deadline := time.After(60 * time.Second) // a hang
	for job.Snapshot().Consumed < 2 {
		select {
		case <-job.Changed():
		case <-deadline:
			t.Fatalf("no snapshot with both records in 60 s: %+v", job.Snapshot())
		}
	}
	if s := job.Snapshot(); s.Stats.Records != 1 {
		t.Fatalf("snapshot %+v", s)
	}
}

// TestTheClockIsReadAtLeastEveryClockEveryRecords: a record's processing time (the
// arrival Consumed sees) is a reading of the wall clock taken at most clockEvery-1
// records before it, and the first record of a fetch always has a reading of its own. The
// fake clock moves a millisecond at each reading, so equal arrivals share one.
func TestTheClockIsReadAtLeastEveryClockEveryRecords(t *testing.T) {
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var mu sync.Mutex
	now := time.UnixMilli(1_795_946_400_000)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Millisecond); return now }
	var arrivals []int64
	var amu sync.Mutex
	job, err := Start(context.Background(), Config{Brokers: []string{b.Addr()}, Topic: b.Topic(), StartAt: Earliest, Now: clock,
		Consumed: func(_ *kgo.Record, arrival int64) { amu.Lock(); arrivals = append(arrivals, arrival); amu.Unlock() }}, func(jobspec.Result) {})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Stop()
	const n = 1000
	evs := make([]gateway.Event, n)
	ts := int64(1_795_946_400_000)
	for i := range evs {
		evs[i] = gateway.Event{Type: gateway.RequestStarted, RequestID: "r-" + strconv.Itoa(i), TenantID: "acme", Model: "flat-10c", Gateway: "gw-0", TS: ts + int64(i), PromptTokens: 1}
	}
	produce(t, b.Addr(), evs...) // in one ProduceSync, so the job fetches many at once
	waitFor(t, func() bool { amu.Lock(); defer amu.Unlock(); return len(arrivals) == n })
	amu.Lock()
	defer amu.Unlock()
	run, readings := 1, 1
	for i := 1; i < n; i++ {
		switch {
		case arrivals[i] < arrivals[i-1]:
			t.Fatalf("record %d arrived at %d, before record %d at %d", i, arrivals[i], i-1, arrivals[i-1])
		case arrivals[i] == arrivals[i-1]:
			run++
		default:
			run = 1
			readings++
		}
		if run > clockEvery {
			t.Fatalf("records %d to %d share one reading of the clock: at most %d may", i-run+1, i, clockEvery)
		}
	}
	if readings > n/2 {
		t.Fatalf("%d readings of the clock for %d records: it is read for (nearly) every record", readings, n)
	}
}
