package replay

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
)

// writeRecording writes n requests (2n records) in labtui's recording format: 100
// requests a second over five tenants and three gateways, heavy-tailed latencies.
func writeRecording(b *testing.B, n int) string {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	tenants := []string{"acme", "globex", "initech", "umbrella", "hooli"}
	models := gateway.DefaultPrices().Models()
	evs := make([]gateway.Event, 0, 2*n)
	start := int64(1_795_946_400_000)
	for i := range n {
		id := "r-" + strconv.Itoa(i)
		t, m, gw := tenants[rng.IntN(5)], models[rng.IntN(len(models))], "gw-"+strconv.Itoa(rng.IntN(3))
		s := start + int64(i)*10
		c := s + int64(math.Exp(rng.NormFloat64()+0.3)*1000)
		evs = append(evs,
			gateway.Event{Type: gateway.RequestStarted, RequestID: id, TenantID: t, Model: m, Gateway: gw, TS: s, PromptTokens: 500 + rng.Int64N(2000)},
			gateway.Event{Type: gateway.RequestCompleted, RequestID: id, TenantID: t, Model: m, Gateway: gw, TS: c, CompletionTokens: 100 + rng.Int64N(1000)})
	}
	slices.SortStableFunc(evs, func(a, b gateway.Event) int { return int(a.TS - b.TS) })
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	w, err := recording.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	offsets := make([]int64, 3)
	for _, ev := range evs {
		p := int32(len(ev.RequestID)+int(ev.RequestID[len(ev.RequestID)-1])) % 3
		w.Write(recording.Entry{Partition: p, Offset: offsets[p], Timestamp: ev.TS, Arrival: ev.TS, Key: []byte(ev.RequestID), Value: ev.AppendJSON(nil)})
		offsets[p]++
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

func benchReplay(b *testing.B, pace Pace) {
	path := writeRecording(b, 100_000)
	b.ReportAllocs()
	b.ResetTimer()
	var events int64
	for i := 0; i < b.N; i++ {
		r, err := recording.Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := Run(context.Background(), r, Config{Pace: pace, Drain: true}, func(meter.Result) {}, func(int, error) { b.Fatal("bad line") })
		r.Close()
		if err != nil || sum.Stats.Records != 100_000 {
			b.Fatalf("%v %+v", err, sum)
		}
		events += sum.Entries
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReplayFast is `labtui replay --pace fast --drain` over a 100,000-request
// recording (200,000 records): reading, JSON decoding, and both windows.
func BenchmarkReplayFast(b *testing.B) { benchReplay(b, Fast) }

// BenchmarkReplayRecorded is the same recording re-enacted on the simulated clock.
func BenchmarkReplayRecorded(b *testing.B) { benchReplay(b, Recorded) }
