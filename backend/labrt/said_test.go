package labrt

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/meter"
)

// countingJob is a Job that reads nothing and counts its starts and stops.
type countingJob struct {
	mu           sync.Mutex
	starts, stop int
}

func (j *countingJob) Start(context.Context, Spec, func(meter.Result)) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.starts++
	return nil
}

func (j *countingJob) Stop(context.Context) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.stop++
	return nil
}

func (j *countingJob) Status() JobStatus { return JobStatus{Watermark: meter.MinWatermark} }

func (j *countingJob) counts() (int, int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.starts, j.stop
}

// runningRuntime is a runtime started on an embedded broker, with its job on the live
// topic, and its log lines and restarts as the reader of Updates saw them.
func runningRuntime(t *testing.T) (*Runtime, *countingJob, *broker.Broker, func() (logs []string, restarts int)) {
	t.Helper()
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	job := &countingJob{}
	rt, err := New(Config{Name: "test", StatusEvery: 20 * time.Millisecond}, job)
	if err != nil {
		t.Fatal(err)
	}
	rt.StartPump()
	if err := rt.SetKafka(b.Addr(), []string{b.Addr()}, b.Topic()); err != nil {
		t.Fatal(err)
	}
	if err := rt.Restart(context.Background(), backend.Restart{Cause: backend.CauseStart}, Spec{Topic: b.Topic()}); err != nil {
		t.Fatal(err)
	}
	if err := rt.Started(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	restarts := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range rt.Updates() {
			mu.Lock()
			if u.Log != "" {
				logs = append(logs, u.Log)
			}
			if u.Restarted != nil {
				restarts++
			}
			mu.Unlock()
		}
	}()
	t.Cleanup(func() { rt.Closing(); rt.Close(); <-done; b.Close() })
	return rt, job, b, func() ([]string, int) {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), logs...), restarts
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A flood of malformed records logs the first 20, then one at each power of ten that
// says how many; a source error that comes with every fetch is said once, then at each
// power of ten.
func TestLinesOfOneKindAreCappedWithACount(t *testing.T) {
	rt, _, _, seen := runningRuntime(t)
	for range 5_000 {
		rt.Skipped("topic t partition 0 offset 1", errors.New("malformed event: missing field ts"))
	}
	for range 150 {
		rt.Unreadable("t", errors.New("UNKNOWN_TOPIC_ID"))
	}
	var skipped, unreadable []string
	waitFor(t, "the lines logged", func() bool {
		logs, _ := seen()
		skipped, unreadable = nil, nil
		for _, l := range logs {
			switch {
			case strings.HasPrefix(l, "skipped topic t partition 0 offset 1: malformed event: missing field ts"):
				skipped = append(skipped, l)
			case strings.HasPrefix(l, "the job cannot read topic t (UNKNOWN_TOPIC_ID)"):
				unreadable = append(unreadable, l)
			}
		}
		return len(skipped) == 22 && len(unreadable) == 2
	})
	if !strings.Contains(skipped[21], "(the 1000th record skipped as malformed") {
		t.Errorf("the last line does not say how many: %q", skipped[21])
	}
	if !strings.HasSuffix(unreadable[1], "(seen 100 times)") {
		t.Errorf("the second line does not say how many: %q", unreadable[1])
	}
}
