package recording

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/broker"
)

// recordedHourConfig is the command in data/README.md.
func recordedHourConfig(t testing.TB) SimConfig {
	gen := generator.Defaults()
	gen.Seed = 4
	h, err := inject.ParseHiccup("gw-1@20m40s+35s")
	if err != nil {
		t.Fatal(err)
	}
	return SimConfig{Generator: gen, Start: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), Duration: time.Hour, Hiccups: []inject.Hiccup{h}}
}

func simulateToBytes(t testing.TB, cfg SimConfig) []byte {
	var buf bytes.Buffer
	w := newWriter(&buf)
	if _, err := Simulate(context.Background(), cfg, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRecordedHourIsReproducible(t *testing.T) {
	f, err := os.Open(recordedHour)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	got := simulateToBytes(t, recordedHourConfig(t))
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the simulation no longer writes the recorded hour (%d vs %d bytes, first difference at byte %d): "+
			"regenerate it with the command in data/README.md if the change is intended", len(got), len(want), i)
	}
}

func TestSimulationHoldsTheHiccupsEventsAndKeepsTheirOrder(t *testing.T) {
	cfg := recordedHourConfig(t)
	cfg.Duration = 25 * time.Minute
	from, to := cfg.Start.Add(20*time.Minute+40*time.Second).UnixMilli(), cfg.Start.Add(21*time.Minute+15*time.Second).UnixMilli()
	var last int64
	var held int
	r := NewReader(bytes.NewReader(simulateToBytes(t, cfg)), nil)
	for e, err := range r.Records(func(line int, err error) { t.Fatalf("line %d: %v", line, err) }) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Arrival < last {
			t.Fatalf("line %d arrives at %d, before the line above it (%d)", e.Line, e.Arrival, last)
		}
		last = e.Arrival
		isGw1 := bytes.Contains(e.Value, []byte(`"gateway":"gw-1"`))
		if isGw1 && e.Timestamp >= from && e.Timestamp < to {
			held++
			if e.Arrival < to {
				t.Fatalf("a held event arrived at %d, before the hiccup ended at %d", e.Arrival, to)
			}
		} else if e.Arrival-e.Timestamp > 10 {
			t.Fatalf("an event nobody held arrived %d ms late", e.Arrival-e.Timestamp)
		}
	}
	if held < 300 {
		t.Fatalf("only %d events held by a 35 s hiccup at 20 requests/s", held)
	}
}

func TestPartitionIsWhereFranzGoPutsTheKey(t *testing.T) {
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.DefaultProduceTopic(b.Topic()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, key := range []string{"r-1", "r-2", "r-tp9d40-24486", "acme", "a-little-bit-longer-string"} {
		res := cl.ProduceSync(context.Background(), &kgo.Record{Key: []byte(key), Value: []byte("{}")})
		r, err := res.First()
		if err != nil {
			t.Fatal(err)
		}
		if want := int32(kgo.StickyKeyPartitioner(nil).ForTopic("").Partition(&kgo.Record{Key: []byte(key)}, 3)); r.Partition != want {
			t.Errorf("franz-go's producer put %q in partition %d, its partitioner says %d", key, r.Partition, want)
		}
	}
}

func TestSimulateWritesAsItGoesAndStopsWhenCancelled(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 500
	h, _ := inject.ParseHiccup("gw-1@10s+35s")
	cfg := SimConfig{Generator: gen, Start: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC), Duration: 24 * time.Hour, Hiccups: []inject.Hiccup{h}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var written int
	var last int64
	begin := time.Now()
	st, err := Simulate(ctx, cfg, func(e Entry) error {
		if e.Arrival < last {
			t.Fatalf("entry %d arrives before the one above it", written)
		}
		last = e.Arrival
		if written++; written == 200_000 {
			cancel()
		}
		return nil
	})
	if err != context.Canceled || time.Since(begin) > 5*time.Second {
		t.Fatalf("Simulate returned %v after %s", err, time.Since(begin))
	}
	if st.Events != int64(written) || written < 200_000 || written > 200_000+simCheckEvents || st.Held < 10_000 {
		t.Fatalf("stats %+v, %d written", st, written)
	}
}

func TestALongHiccupsHeldEventsWaitOnDiskAndComeOutTheSame(t *testing.T) {
	cfg := recordedHourConfig(t)
	cfg.Duration = 10 * time.Minute
	a, _ := inject.ParseHiccup("gw-1@1m+4m")
	b, _ := inject.ParseHiccup("gw-2@2m+1m")
	c, _ := inject.ParseHiccup("gw-1@3m+30s") // overlaps the first
	cfg.Hiccups = []inject.Hiccup{a, b, c}
	inMemory := simulateToBytes(t, cfg)
	if !bytes.Equal(inMemory, simulateBySorting(t, cfg)) {
		t.Fatal("the streaming simulation differs from making every entry and sorting them")
	}
	defer func(n int) { heldInMemory = n }(heldInMemory)
	heldInMemory = 10
	spilled := simulateToBytes(t, cfg)
	if !bytes.Equal(inMemory, spilled) {
		t.Fatalf("with the held events on disk the recording differs (%d vs %d bytes)", len(spilled), len(inMemory))
	}
	if n := bytes.Count(inMemory, []byte("\n")); n < 20_000 {
		t.Fatalf("only %d lines", n)
	}
}

// simulateBySorting is the simulation as it was written before it streamed: every entry
// made, then one stable sort by arrival. It is the reference for Simulate's order.
func simulateBySorting(t *testing.T, cfg SimConfig) []byte {
	start := cfg.Start.UnixMilli()
	end := start + cfg.Duration.Milliseconds()
	sched, err := generator.NewSchedule(cfg.Generator, start)
	if err != nil {
		t.Fatal(err)
	}
	part := kgo.StickyKeyPartitioner(nil).ForTopic("")
	var all []Entry
	heldCount := map[int]int64{}
	for {
		ev, inst := sched.Next()
		if ev.TS >= end {
			break
		}
		release := ev.TS
		for _, h := range cfg.Hiccups {
			from := h.StartsAt(time.UnixMilli(start)).UnixMilli()
			to := from + h.For.Milliseconds()
			if h.Instance == inst && ev.TS >= from && ev.TS < to {
				heldCount[inst]++
				release = to + heldCount[inst] - 1
			}
		}
		key := []byte(ev.RequestID)
		all = append(all, Entry{Partition: int32(part.Partition(&kgo.Record{Key: key}, 3)), Timestamp: ev.TS,
			Arrival: release + 5, Key: key, Value: ev.AppendJSON(nil)})
	}
	slices.SortStableFunc(all, func(a, b Entry) int { return cmp.Compare(a.Arrival, b.Arrival) })
	var buf bytes.Buffer
	w := newWriter(&buf)
	offsets := make([]int64, 3)
	for _, e := range all {
		e.Offset = offsets[e.Partition]
		offsets[e.Partition]++
		w.Write(e)
	}
	w.Close()
	return buf.Bytes()
}
