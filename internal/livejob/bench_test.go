package livejob

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

// benchLiveRequests is how many requests BenchmarkLiveJob's topic holds: two events each.
const benchLiveRequests = 20_000

// BenchmarkLiveJob is the live job's whole path: each op starts a job at the earliest
// offset of an embedded broker's topic, which fetches, parses and processes its 40,000
// events (20,000 requests over five tenants and the priced models, in timestamp order,
// most completing within a second), and stops it once its snapshot has consumed them all.
// The topic is produced once, before the clock starts. ns/event is the figure to compare.
func BenchmarkLiveJob(b *testing.B) {
	br, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	produceBench(b, br.Addr(), br.Topic())
	events := int64(2 * benchLiveRequests)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		job, err := Start(context.Background(), Config{Brokers: []string{br.Addr()}, Topic: br.Topic(), StartAt: Earliest,
			Job: jobspec.Options{}}, func(jobspec.Result) {})
		if err != nil {
			b.Fatal(err)
		}
		deadline := time.After(time.Minute)
		for job.Snapshot().Consumed < events {
			select {
			case <-job.Changed():
			case <-deadline:
				b.Fatalf("the job consumed %d of %d events in a minute", job.Snapshot().Consumed, events)
			}
		}
		if _, err := job.Stop(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*events), "ns/event")
	b.ReportMetric(float64(int64(b.N)*events)/b.Elapsed().Seconds(), "events/s")
}

// produceBench writes BenchmarkLiveJob's events to topic and waits until they are stored.
func produceBench(b *testing.B, addr, topic string) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DefaultProduceTopic(topic))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	tenants := []string{"acme", "globex", "initech", "umbrella", "hooli"}
	models := gateway.DefaultPrices().Models()
	start := int64(1_795_946_400_000)
	var evs []gateway.Event
	for i := range benchLiveRequests {
		id, t, m := "r-"+strconv.Itoa(i), tenants[i%len(tenants)], models[i%len(models)]
		s := start + int64(i)*10
		evs = append(evs,
			gateway.Event{Type: gateway.RequestStarted, RequestID: id, TenantID: t, Model: m, Gateway: "gw-0", TS: s, PromptTokens: 500 + int64(i%2000)},
			gateway.Event{Type: gateway.RequestCompleted, RequestID: id, TenantID: t, Model: m, Gateway: "gw-0", TS: s + 200 + int64(i%9)*100, CompletionTokens: 100 + int64(i%1000)})
	}
	// In timestamp order, as a gateway writes them.
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0 && evs[j].TS < evs[j-1].TS; j-- {
			evs[j], evs[j-1] = evs[j-1], evs[j]
		}
	}
	for _, ev := range evs {
		cl.Produce(context.Background(), &kgo.Record{Key: []byte(ev.RequestID), Value: ev.AppendJSON(nil), Timestamp: time.UnixMilli(ev.TS)}, nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
}
