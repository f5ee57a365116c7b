package tui

import (
	"context"
	"sync"
	"time"
)

// testClock is a clock a test moves by hand; SleepUntil returns once the test has moved
// it far enough.
type testClock struct {
	mu    sync.Mutex
	now   time.Time
	moved chan struct{}
	// waits counts the times a sleeper found the clock short of its time and waited.
	waits int
}

func newTestClock(now time.Time) *testClock { return &testClock{now: now, moved: make(chan struct{})} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t and wakes every sleeper.
func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	close(c.moved)
	c.moved = make(chan struct{})
	c.mu.Unlock()
}

// Waits is how many times a sleeper has waited: once it grows after Set, a sleeper has
// seen the new time and gone back to sleep.
func (c *testClock) Waits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waits
}

func (c *testClock) SleepUntil(ctx context.Context, t time.Time) error {
	for {
		c.mu.Lock()
		now, moved := c.now, c.moved
		if now.Before(t) {
			c.waits++
		}
		c.mu.Unlock()
		if !now.Before(t) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-moved:
		}
	}
}
