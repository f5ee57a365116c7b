package generator

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/broker"
	"github.com/twmb/franz-go/pkg/kgo"
)

// checkGoroutines fails the test if, after every other cleanup has run, more goroutines
// are alive than when it was called. Register it first so that it runs last.
func checkGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines leaked:\n%s", n-before, buf[:runtime.Stack(buf, true)])
		}
	})
}

func startBroker(t testing.TB) *broker.Broker {
	t.Helper()
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatalf("start broker: %v", err)
	}
	t.Cleanup(b.Close)
	return b
}

// consume reads n records from the start of topic, failing the test on timeout.
func consume(t testing.TB, addr, topic string, n int) []*kgo.Record {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumeTopics(topic))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []*kgo.Record
	for len(out) < n {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("consumed %d of %d records before the deadline", len(out), n)
		}
		out = append(out, fs.Records()...)
	}
	return out
}

// manualClock is a Clock that moves only when the test advances it. Sleepers wake when
// it reaches their deadline; sleeping reports how many are waiting.
type manualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []manualWaiter
}

type manualWaiter struct {
	at   time.Time
	wake chan struct{}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) SleepUntil(ctx context.Context, t time.Time) error {
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

func (c *manualClock) Advance(d time.Duration) {
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

func (c *manualClock) sleeping() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// eventually polls cond for up to 20 s.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
