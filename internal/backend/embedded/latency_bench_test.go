package embedded

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
)

// BenchmarkGatewayToWindow is what makes 4.1 long or short: the time from a request's
// completion (its completed_ts, when the generator released the event) to the moment its
// record reached the job's windows (the trace's arrival), on the embedded lab with the
// generator on at the TUI's default 20 requests/s, for 20 s of wall clock. A request
// whose completion falls within that latency of a minute's end is billed to the next
// minute by processing time and to its own by event time: a ≠ row. At 20 requests/s a
// minute is spoiled with probability 1-exp(-20·mean latency), reported as
// spoiled-minute-%; 4.1 needs five clean minutes in a row. bare is the baseline in the
// same run: the same broker, a franz-go producer that sends each record at once (as the
// generator's do) and a consumer with the job's fetch wait, a record's produce time to
// its poll, with nothing of the generator or the job in between: the transport's own
// latency.
func BenchmarkGatewayToWindow(b *testing.B) {
	const d = 20 * time.Second
	b.Run("bare", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			reportLatency(b, bareLatencies(b, d))
		}
	})
	b.Run("lab", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			reportLatency(b, labLatencies(b, d))
		}
	})
}

// labLatencies runs the embedded lab with the generator on for d and returns each
// traced request's arrival minus its completed_ts, in ms.
func labLatencies(b *testing.B, d time.Duration) []float64 {
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Job: jobspec.Options{Trace: true}})
	if err != nil {
		b.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer lab.Close()
	var lat []float64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range lab.Updates() {
			for _, r := range u.Results {
				if r.Kind == jobspec.TraceResult {
					lat = append(lat, float64(r.Record.Arrival-r.Record.Timestamp))
				}
			}
		}
	}()
	if err := lab.SetGenerator(true); err != nil {
		b.Fatal(err)
	}
	time.Sleep(d)
	if err := lab.SetGenerator(false); err != nil {
		b.Fatal(err)
	}
	lab.Close()
	<-done
	return lat
}

// bareLatencies produces a record every 25 ms (the generator's 20 requests/s make 40
// events a second) for d into a broker of its own, with the generator's producer options,
// and consumes them with the job's consumer options; it returns each record's poll time
// minus its produce time, in ms.
func bareLatencies(b *testing.B, d time.Duration) []float64 {
	br, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	cfg := generator.Defaults()
	cfg.Brokers, cfg.Topic = []string{br.Addr()}, br.Topic()
	prod, err := kgo.NewClient(kgo.SeedBrokers(br.Addr()), kgo.DefaultProduceTopic(br.Topic()), kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProducerLinger(0))
	if err != nil {
		b.Fatal(err)
	}
	defer prod.Close()
	cons, err := kgo.NewClient(kgo.SeedBrokers(br.Addr()), kgo.ConsumeTopics(br.Topic()), kgo.FetchMaxWait(100*time.Millisecond),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		b.Fatal(err)
	}
	defer cons.Close()
	ctx, cancel := context.WithTimeout(context.Background(), d+5*time.Second)
	defer cancel()
	n := int(d / (25 * time.Millisecond))
	go func() {
		tick := time.NewTicker(25 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < n; i++ {
			<-tick.C
			prod.Produce(ctx, &kgo.Record{Key: []byte{byte(i)}, Value: []byte(`{}`), Timestamp: time.Now()}, nil)
		}
	}()
	var lat []float64
	for len(lat) < n {
		fs := cons.PollFetches(ctx)
		if ctx.Err() != nil {
			break
		}
		now := time.Now()
		fs.EachRecord(func(r *kgo.Record) { lat = append(lat, float64(now.Sub(r.Timestamp).Microseconds())/1000) })
	}
	return lat
}

func reportLatency(b *testing.B, lat []float64) {
	if len(lat) == 0 {
		b.Fatal("no record reached the windows")
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	var sum float64
	for _, x := range lat {
		sum += x
	}
	mean := sum / float64(len(lat))
	b.ReportMetric(mean, "mean-ms")
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(lat[len(lat)-1], "max-ms")
	b.ReportMetric(float64(len(lat)), "records")
	b.ReportMetric(100*(1-math.Exp(-20*mean/1000)), "spoiled-minute-%")
}
