package generator

import (
	"context"
	"fmt"
	"github.com/labtui/labtui/internal/testkit"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/gateway"
)

func stopped(t *testing.T, g *Generator) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := g.Stop(ctx); err != nil {
		t.Errorf("Stop: %v", err)
	}
}

func TestGeneratorWritesItsScheduleToTheTopicOnceInOrder(t *testing.T) {
	testkit.CheckGoroutines(t)
	b := startBroker(t)
	cfg := Defaults()
	cfg.Brokers, cfg.Rate = []string{b.Addr()}, 200
	const until = start + 10_000
	g, err := New(cfg, WithClock(NewVirtualClock(time.UnixMilli(start))), WithUntil(until))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopped(t, g) })

	if err := g.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-g.Done()
	stopped(t, g)

	want := drawFor(t, cfg, until-start)
	n := len(want)
	total := Total(g.Stats())
	requests := 0
	for _, d := range want {
		if d.ev.Type == gateway.RequestStarted {
			requests++
		}
	}
	if total.Produced != int64(n) || total.Acked != int64(n) || total.Failed != 0 || total.InFlight != 0 || total.Requests != int64(requests) {
		t.Errorf("stats after Stop = %+v, want %d produced and acked, %d requests", total, n, requests)
	}

	// Every scheduled event is in the topic exactly once, keyed by request_id, with its
	// ts as the record timestamp.
	order := map[string]int{} // value -> position in the schedule
	for i, d := range want {
		order[string(d.ev.AppendJSON(nil))] = i
	}
	seen := map[int]bool{}
	last := map[[2]int]int{} // (partition, instance) -> last schedule position
	for _, r := range consume(t, b.Addr(), cfg.Topic, n) {
		i, ok := order[string(r.Value)]
		if !ok || seen[i] {
			t.Fatalf("record %s is not a scheduled event or appears twice", r.Value)
		}
		seen[i] = true
		d := want[i]
		if string(r.Key) != d.ev.RequestID || r.Timestamp.UnixMilli() != d.ev.TS {
			t.Errorf("record key %s ts %d, want %s and %d", r.Key, r.Timestamp.UnixMilli(), d.ev.RequestID, d.ev.TS)
		}
		k := [2]int{int(r.Partition), d.instance}
		if p, ok := last[k]; ok && p > i {
			t.Errorf("partition %d: %s's event %d comes after its event %d", r.Partition, d.ev.Gateway, i, p)
		}
		last[k] = i
	}
}

func TestGeneratorReleasesEachEventWhenItsTimeComes(t *testing.T) {
	testkit.CheckGoroutines(t)
	b := startBroker(t)
	cfg := Defaults()
	cfg.Brokers = []string{b.Addr()}
	clock := testkit.NewManualClock(time.UnixMilli(start))
	g, err := New(cfg, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopped(t, g) })
	if err := g.Start(context.Background()); err != nil {
		t.Fatal(err)
	}

	// By each whole second, exactly the events with a ts up to then are released.
	events := drawFor(t, cfg, 10_000)
	for second := int64(0); second <= 10; second++ {
		testkit.Eventually(t, "every instance waits for the clock", func() bool { return clock.Sleeping() == cfg.Instances })
		due := 0
		for _, d := range events {
			if d.ev.TS <= start+second*1000 {
				due++
			}
		}
		if got := Total(g.Stats()).Produced; got != int64(due) {
			t.Fatalf("at %d s, %d events were produced, want %d", second, got, due)
		}
		clock.Advance(time.Second)
	}
	testkit.Eventually(t, "every released event is acknowledged", func() bool { return Total(g.Stats()).InFlight == 0 })
}

func TestStartTwiceAndStopWithoutStart(t *testing.T) {
	testkit.CheckGoroutines(t)
	cfg := Defaults()
	cfg.Brokers = []string{"127.0.0.1:1"} // never dialed
	idle, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	stopped(t, idle)
	if err := idle.Start(context.Background()); err == nil {
		t.Error("Start after Stop succeeded")
	}

	g, err := New(cfg, WithClock(testkit.NewManualClock(time.UnixMilli(start))))
	if err != nil {
		t.Fatal(err)
	}
	defer stopped(t, g)
	if err := g.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := g.Start(context.Background()); err == nil {
		t.Error("a second Start succeeded")
	}
}

func TestNewRejectsAnInvalidConfig(t *testing.T) {
	cfg := Defaults()
	cfg.Rate = 0
	if _, err := New(cfg); err == nil {
		t.Fatal("New accepted a rate of 0")
	}
}

func TestALiveRateAboveTheMaximumIsRefusedInOneSentence(t *testing.T) {
	cfg := Defaults()
	cfg.Rate = 1e9
	_, err := New(cfg)
	if err == nil || err.Error() != "rate 1e+09 requests/s is more than a live lab can produce: at most 50000 (record --simulate makes a recording at any rate)" {
		t.Fatalf("New: %v", err)
	}
	if err := cfg.ValidateSchedule(); err != nil {
		t.Fatalf("a schedule at 1e9 requests/s: %v", err)
	}
}

func TestAnInstanceThatFallsBehindItsScheduleSaysSoAndWhenItCatchesUp(t *testing.T) {
	testkit.CheckGoroutines(t)
	b := startBroker(t)
	cfg := Defaults()
	cfg.Brokers = []string{b.Addr()}
	clock := testkit.NewManualClock(time.UnixMilli(start))
	var mu sync.Mutex
	heard := map[int][]string{}
	g, err := New(cfg, WithClock(clock), WithBehind(func(i int, behind bool, lag time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		heard[i] = append(heard[i], fmt.Sprintf("%v %v", behind, lag > behindAfter))
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopped(t, g) })
	if err := g.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "every instance waits for the clock", func() bool { return clock.Sleeping() == cfg.Instances })
	clock.Advance(5 * time.Second) // the machine stalled for 5 s: every event of them is late
	testkit.Eventually(t, "every instance waits for the clock again", func() bool { return clock.Sleeping() == cfg.Instances })
	mu.Lock()
	defer mu.Unlock()
	for i := range cfg.Instances {
		if got := strings.Join(heard[i], ", "); got != "true true, false false" {
			t.Errorf("instance %d heard %q, want behind by more than BehindAfter, then on schedule", i, got)
		}
	}
}
