package reenact

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
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
		sum, err := Run(context.Background(), r, Config{Pace: pace, Drain: true}, func(jobspec.Result) {}, func(int, error) { b.Fatal("bad line") })
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

const recordedHour = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

// labFile returns the path of one of the recordings issue 15's replay goals name,
// making it in dir the first time: "hour.gz" the recorded hour as the lab ships it,
// "hour" the same decompressed, "ten" ten hours made as `labtui record --simulate --seed
// 10 --duration 10h` with perf.sh's two hiccups makes them, and "ten.gz" the same
// compressed.
func labFile(b *testing.B, dir, name string) string {
	b.Helper()
	path := filepath.Join(dir, strings.TrimSuffix(name, ".gz")+".jsonl")
	if strings.HasSuffix(name, ".gz") {
		path += ".gz"
	}
	switch _, err := os.Stat(path); {
	case name == "hour.gz":
		return recordedHour
	case err == nil:
		return path
	case name == "hour":
		copyRecording(b, recordedHour, path)
	case name == "ten.gz":
		copyRecording(b, labFile(b, dir, "ten"), path)
	case name == "ten":
		hiccups, err := inject.ParseHiccups([]string{"gw-1@2h20m40s+35s", "gw-2@6h45m40s+35s"})
		if err != nil {
			b.Fatal(err)
		}
		fleet := generator.Defaults()
		fleet.Seed = 10
		w, err := recording.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := recording.Simulate(context.Background(), recording.SimConfig{Generator: fleet,
			Start: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Duration: 10 * time.Hour, Hiccups: hiccups}, w.Write); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// copyRecording copies the recording at from to to, each compressed as its name says.
func copyRecording(b *testing.B, from, to string) {
	b.Helper()
	r, err := recording.Open(context.Background(), from)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	w, err := recording.Create(to)
	if err != nil {
		b.Fatal(err)
	}
	for e, err := range r.Records(nil) {
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Write(e); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReplayLabFiles is `labtui replay --drain` of the lab's files at both paces,
// what `labtui replay` times: from the first read to the last result (the file's open
// is not in it). Issue 15 asks, at fast pace, for 2 M events/s from plain JSONL and
// 1.2 M from .gz, and at recorded pace for at most 1.5 times the fast pace's time.
func BenchmarkReplayLabFiles(b *testing.B) {
	dir := b.TempDir()
	for _, name := range []string{"hour.gz", "hour", "ten", "ten.gz"} {
		for _, pace := range []Pace{Fast, Recorded} {
			b.Run(name+"/"+pace.String(), func(b *testing.B) {
				path := labFile(b, dir, name)
				b.ReportAllocs()
				var events int64
				var elapsed time.Duration
				for b.Loop() {
					r, err := recording.Open(context.Background(), path)
					if err != nil {
						b.Fatal(err)
					}
					sum, err := Run(context.Background(), r, Config{Pace: pace, Drain: true}, func(jobspec.Result) {}, func(int, error) { b.Fatal("bad line") })
					r.Close()
					if err != nil {
						b.Fatal(err)
					}
					events += sum.Entries
					elapsed += sum.Elapsed
				}
				b.ReportMetric(float64(events)/elapsed.Seconds(), "events/s")
			})
		}
	}
}
