package generator

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/testkit"
)

// BenchmarkGeneratorIntoBroker measures the generator's producing path into the embedded
// broker: the default fleet (three instances, each its own producer and release loop)
// on a VirtualClock, so events are released as fast as the producers take them, timed
// from Start until Stop has every event acknowledged. The schedule is drawn as the
// loops go; the benchmark only works out beforehand the ts at which b.N events have been
// scheduled.
func BenchmarkGeneratorIntoBroker(b *testing.B) {
	cfg := Defaults()
	br := startBroker(b)
	cfg.Brokers = []string{br.Addr()}
	events := draw(b, cfg, b.N)
	until := events[len(events)-1].ev.TS + 1
	events = nil

	g, err := New(cfg, WithClock(NewVirtualClock(time.UnixMilli(start))), WithUntil(until))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	began, cpu := time.Now(), testkit.CPUTime()
	if err := g.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	<-g.Done()
	if err := g.Stop(context.Background()); err != nil {
		b.Fatal(err)
	}
	got := Total(g.Stats())
	report(b, int(got.Acked), began, cpu)
	if got.Acked < int64(b.N) || got.Failed != 0 {
		b.Fatalf("%d events acknowledged and %d failed, want %d acknowledged", got.Acked, got.Failed, b.N)
	}
}

// BenchmarkBareProduceIntoBroker is the baseline: one franz-go client with default
// options producing records prepared beforehand (the generator's JSON values) into the
// embedded broker, then flushing.
func BenchmarkBareProduceIntoBroker(b *testing.B) {
	const distinct = 1 << 18
	prepared := draw(b, Defaults(), min(b.N, distinct))
	values := make([][]byte, len(prepared))
	for i, d := range prepared {
		values[i] = d.ev.AppendJSON(nil)
	}
	br := startBroker(b)
	cl, err := kgo.NewClient(kgo.SeedBrokers(br.Addr()), kgo.DefaultProduceTopic(br.Topic()))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	records := make([]kgo.Record, b.N)
	for i := range records {
		d := prepared[i%len(prepared)]
		records[i] = kgo.Record{Key: []byte(d.ev.RequestID), Value: values[i%len(values)], Timestamp: time.UnixMilli(d.ev.TS)}
	}
	ctx := context.Background()
	var failed error
	promise := func(_ *kgo.Record, err error) {
		if err != nil && failed == nil {
			failed = err
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	began, cpu := time.Now(), testkit.CPUTime()
	for i := range records {
		cl.Produce(ctx, &records[i], promise)
	}
	if err := cl.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	report(b, b.N, began, cpu)
	if failed != nil {
		b.Fatal(failed)
	}
}

// report stops the timer and reports events per wall-clock second and the CPU time the
// whole process (producers and broker) spent per event. On a shared machine the first
// swings with the neighbours' load; the second much less.
func report(b *testing.B, events int, began time.Time, cpu time.Duration) {
	elapsed, used := time.Since(began), testkit.CPUTime()-cpu
	b.StopTimer()
	b.ReportMetric(float64(events)/elapsed.Seconds(), "events/s")
	if used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(events), "cpu-ns/event")
	}
}
