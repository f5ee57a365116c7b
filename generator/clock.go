package generator

import (
	"context"
	"sync/atomic"
	"time"
)

// Clock is the time a Generator paces its events by and stamps them with. Sleep must
// return early with ctx's error when ctx is done.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// WallClock is the real clock, for live runs.
type WallClock struct{}

// Now returns time.Now().
func (WallClock) Now() time.Time { return time.Now() }

// Sleep waits d, or until ctx is done.
func (WallClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// VirtualClock is a clock that never waits: Sleep moves it forward by d at once. A
// Generator on a VirtualClock releases events as fast as it can produce them while
// still stamping each with its scheduled ts, which is how a simulated recording and the
// throughput benchmark run. It is safe for concurrent use.
type VirtualClock struct{ nanos atomic.Int64 }

// NewVirtualClock returns a virtual clock that reads start.
func NewVirtualClock(start time.Time) *VirtualClock {
	c := new(VirtualClock)
	c.nanos.Store(start.UnixNano())
	return c
}

// Now returns the virtual time.
func (c *VirtualClock) Now() time.Time { return time.Unix(0, c.nanos.Load()) }

// Sleep advances the virtual time by d without waiting, unless ctx is already done.
func (c *VirtualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.nanos.Add(int64(d))
	return nil
}
