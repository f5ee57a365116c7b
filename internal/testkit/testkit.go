// Package testkit holds what the packages' tests share: a goroutine-leak check, a clock
// that moves only when a test says so, and a poll for a condition.
package testkit

import (
	"bytes"
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// NewManualClock returns a ManualClock reading now.
func NewManualClock(now time.Time) *ManualClock { return &ManualClock{now: now} }

// lifetime marks the goroutines that live as long as the process by design: the reaper
// of labtui's cluster watchdog (localcluster.startWatchdog) waits for the watchdog, which
// outlives every test. The first test that starts a cluster process starts it, so
// counting it would fail that test when it runs alone, and no other.
var lifetime = [][]byte{[]byte("created by github.com/labtui/labtui/internal/localcluster.startWatchdog")}

// Goroutines is runtime.NumGoroutine without the goroutines that live as long as the
// process (lifetime): what a leak check compares before and after.
func Goroutines() int {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if len(bytes.TrimSpace(g)) == 0 {
			continue
		}
		count++
		for _, mark := range lifetime {
			if bytes.Contains(g, mark) {
				count--
				break
			}
		}
	}
	return count
}

// CheckGoroutines fails the test if, after every other cleanup has run, more goroutines
// are alive than when it was called (Goroutines). Register it first so that it runs last.
func CheckGoroutines(t *testing.T) {
	t.Helper()
	before := Goroutines()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for Goroutines() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := Goroutines(); n > before {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines leaked:\n%s", n-before, buf[:runtime.Stack(buf, true)])
		}
	})
}

// ManualClock is a clock (generator.Clock) that moves only when the test advances it.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []manualWaiter
}

type manualWaiter struct {
	at   time.Time
	wake chan struct{}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// SleepUntil waits until the clock reaches t, or ctx is done.
func (c *ManualClock) SleepUntil(ctx context.Context, t time.Time) error {
	c.mu.Lock()
	w := manualWaiter{at: t, wake: make(chan struct{})}
	if !w.at.After(c.now) {
		c.mu.Unlock()
		return nil
	}
	c.waiters = append(c.waiters, w)
	c.mu.Unlock()
	select {
	case <-w.wake:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, o := range c.waiters {
			if o.wake == w.wake {
				c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
				break
			}
		}
		return ctx.Err()
	}
}

// Advance moves the clock by d and wakes every sleeper it passes.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		close(w.wake)
	}
	c.waiters = kept
}

// Sleeping returns how many goroutines wait in SleepUntil.
func (c *ManualClock) Sleeping() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// Hang is how long a test waits for a broker, a job or a process before it calls the
// wait a hang: on a loaded 2-core machine a few hundred records or a child's start can
// take tens of seconds.
const Hang = time.Minute

// Eventually polls cond for up to 20 s and fails the test if it never holds.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	EventuallyWithin(t, 20*time.Second, what, cond)
}

// EventuallyWithin polls cond every 5 ms for up to limit and fails the test, saying
// what it waited for, if it never holds.
func EventuallyWithin(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s", limit, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// SyncBuffer is a bytes.Buffer that one goroutine may write while another reads it: a
// program's log or stderr, read by the test as it runs.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
