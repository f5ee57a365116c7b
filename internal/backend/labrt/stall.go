package labrt

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/labtui/labtui/generator"
)

// errNoFleet is StallPartition while the generator is off.
var errNoFleet = errors.New("the generator is off: start it (g) to stall a partition of what it writes")

// StallPartition stops the gateway fleet writing to partition p of the live topic for d,
// as when the gateway whose keys all hash there goes quiet (module 5's stalled source):
// with watermarks at the source the partition holds the watermark back and every
// event-time window waits, until it sends again or the job's idleness leaves it out. A
// stall replaces the one before it; it ends after d, or when the generator stops.
func (rt *Runtime) StallPartition(p int32, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("a stall needs a positive duration, not %s", d)
	}
	rt.mu.Lock()
	g := rt.gen
	rt.mu.Unlock()
	if g == nil {
		return errNoFleet
	}
	if err := g.StallPartition(generator.Stall{Partition: p, Of: int32(rt.cfg.Partitions)}); err != nil {
		return err
	}
	until := rt.cfg.Now().Add(d)
	rt.Logf("partition %d stalled for %s, until %s: the fleet writes nothing there", p, d, until.Format("15:04:05"))
	time.AfterFunc(d, func() {
		if s, ok := g.Stalled(); ok && s.Partition == p {
			g.ResumePartition()
			rt.Logf("partition %d written to again", p)
		}
	})
	return nil
}

// startStalls runs the configured stalls from start, logging each; it returns when the
// last has begun or ctx is done.
func (rt *Runtime) startStalls(ctx context.Context, start time.Time) {
	for _, s := range rt.cfg.Stalls {
		at := s.StartsAt(start)
		rt.Logf("stall scheduled: partition %d at %s, %s after start, for %s", s.Partition,
			at.Format("15:04:05"), at.Sub(start).Round(time.Second), s.For)
	}
	for _, s := range rt.cfg.Stalls {
		t := time.NewTimer(time.Until(s.StartsAt(start)))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if err := rt.StallPartition(s.Partition, s.For); err != nil {
			rt.Logf("stall %v: %v", s, err)
		}
	}
}

// checkStalls reports the first configured stall that names no partition of the topic.
func (rt *Runtime) checkStalls() error {
	for _, s := range rt.cfg.Stalls {
		if err := (generator.Stall{Partition: s.Partition, Of: int32(rt.cfg.Partitions)}).Validate(); err != nil {
			return fmt.Errorf("stall %v: %w", s, err)
		}
	}
	return nil
}
