package generator

import (
	"context"
	"sync/atomic"
	"time"
)

// Clock is the time a Generator paces its events by and stamps them with. SleepUntil
// must return early with ctx's error when ctx is done, and at once if t has passed.
type Clock interface {
	Now() time.Time
	SleepUntil(ctx context.Context, t time.Time) error
}

// WallClock is the real clock, for live runs.
type WallClock struct{}

// Now returns time.Now().
func (WallClock) Now() time.Time { return time.Now() }

// SleepUntil waits until t, or until ctx is done.
func (WallClock) SleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// VirtualClock is a clock that never waits: SleepUntil moves it forward to t at once,
// unless it is already past t. A Generator on a VirtualClock releases events as fast as
// its producers take them while still stamping each with its scheduled ts, which is how
// a simulated recording and the throughput benchmark run. It is safe for concurrent use;
// with several sleepers it reads the latest time any of them slept until.
type VirtualClock struct{ nanos atomic.Int64 }

// NewVirtualClock returns a virtual clock that reads start.
func NewVirtualClock(start time.Time) *VirtualClock {
	c := new(VirtualClock)
	c.nanos.Store(start.UnixNano())
	return c
}

// Now returns the virtual time.
func (c *VirtualClock) Now() time.Time { return time.Unix(0, c.nanos.Load()) }

// SleepUntil advances the virtual time to t without waiting, unless ctx is done.
func (c *VirtualClock) SleepUntil(ctx context.Context, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	target := t.UnixNano()
	for {
		now := c.nanos.Load()
		if now >= target || c.nanos.CompareAndSwap(now, target) {
			return nil
		}
	}
}
