package generator

import (
	"context"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/gateway"
)

// TestAStalledPartitionGetsNothingAndNoHalfIsLeftAlone: with partition 2 of 3 stalled the
// fleet makes every scheduled request but those whose key goes to partition 2, both halves
// of each one it makes, and counts the ones it did not make.
func TestAStalledPartitionGetsNothingAndNoHalfIsLeftAlone(t *testing.T) {
	b := startBroker(t)
	cfg := Defaults()
	cfg.Brokers, cfg.Rate = []string{b.Addr()}, 200
	const until = start + 5_000
	g, err := New(cfg, WithClock(NewVirtualClock(time.UnixMilli(start))), WithUntil(until))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopped(t, g) })
	if err := g.StallPartition(Stall{Partition: 3, Of: 3}); err == nil || err.Error() != "a stalled partition must be one of the topic's 3 partitions (0 to 2), not 3" {
		t.Fatalf("a partition out of range: %v", err)
	}
	if err := g.StallPartition(Stall{Partition: 2, Of: 3}); err != nil {
		t.Fatal(err)
	}
	if err := g.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-g.Done()
	stopped(t, g)

	var made, kept int64
	running := map[string]bool{} // started before the end, completing after it
	for _, d := range drawFor(t, cfg, until-start) {
		if d.ev.Type != gateway.RequestStarted {
			continue
		}
		running[d.ev.RequestID] = true
		if partitionOf([]byte(d.ev.RequestID), 3) == 2 {
			kept++
		} else {
			made++
		}
	}
	total := Total(g.Stats())
	if kept == 0 || total.Stalled != kept || total.Requests != made {
		t.Fatalf("stats %+v; want %d requests made and %d stalled", total, made, kept)
	}
	halves := map[string]int{}
	for _, r := range consume(t, b.Addr(), cfg.Topic, int(total.Produced)) {
		if r.Partition == 2 {
			t.Fatalf("record %s reached the stalled partition", r.Value)
		}
		halves[string(r.Key)]++
	}
	for _, d := range drawFor(t, cfg, until-start) {
		if d.ev.Type == gateway.RequestCompleted {
			delete(running, d.ev.RequestID)
		}
	}
	for id, n := range halves {
		if n != 2 && !(n == 1 && running[id]) {
			t.Fatalf("request %s has %d halves in the topic", id, n)
		}
	}
	if p, ok := g.ResumePartition(); !ok || p != 2 {
		t.Fatalf("ResumePartition = %d, %v", p, ok)
	}
	if _, ok := g.Stalled(); ok {
		t.Fatal("still stalled after ResumePartition")
	}
}
