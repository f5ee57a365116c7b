package labrt

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
	"github.com/labtui/labtui/internal/watermark"
)

// countingJob is a Job that reads nothing and counts its starts and stops.
type countingJob struct {
	mu           sync.Mutex
	starts, stop int
}

func (j *countingJob) Start(context.Context, Spec, func(jobspec.Result)) error {
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

func (j *countingJob) Status() JobStatus { return JobStatus{Watermark: jobspec.MinWatermark} }

func (j *countingJob) counts() (int, int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.starts, j.stop
}

// runningRuntime is a runtime started on an embedded broker, with its job on the live
// topic, and its log lines and restarts as the reader of Updates saw them.
func runningRuntime(t *testing.T) (*Runtime, *countingJob, *broker.Broker, func() (logs []string, restarts int)) {
	t.Helper()
	job := &countingJob{}
	rt, b := startedRuntime(t, job)
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
	t.Cleanup(func() { rt.Closing(); rt.Close(); <-done })
	return rt, job, b, func() ([]string, int) {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), logs...), restarts
	}
}

// startedRuntime is a runtime started on an embedded broker (closed when the test
// ends), with job on the live topic; nothing reads its Updates yet.
func startedRuntime(t *testing.T, job Job) (*Runtime, *broker.Broker) {
	t.Helper()
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	rt, err := New(Config{Name: "test", StatusEvery: 20 * time.Millisecond, TopicEvery: 50 * time.Millisecond}, job)
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
	return rt, b
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	testkit.EventuallyWithin(t, testkit.Hang, what, ok)
}

// Given a running lab, when the topic its job reads is deleted from outside, then the
// runtime says so once, its status names the topic, and x (RestartJob) and a new
// strategy (Reconfigure) refuse in a sentence that says what happened and what to do,
// leaving the job as it was: no stop, no start, no run announced.
func TestATopicDeletedFromOutsideIsSaidAndARestartOnItRefusedLosingNothing(t *testing.T) {
	rt, job, b, seen := runningRuntime(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := kadm.NewClient(cl).DeleteTopics(context.Background(), b.Topic()); err != nil {
		t.Fatal(err)
	}
	said := func() int {
		n := 0
		logs, _ := seen()
		for _, l := range logs {
			if strings.HasPrefix(l, "the job cannot read topic "+b.Topic()+" (the topic is gone from Kafka)") {
				n++
			}
		}
		return n
	}
	waitFor(t, "the deleted topic said and in the status", func() bool { return said() == 1 && rt.Status().TopicGone == b.Topic() })
	// Four more of the watch's checks must not say it again: once a line logged after
	// them has arrived, whatever they said has (updates arrive in order).
	for range 4 {
		rt.checkTopicGone(cl)
	}
	rt.Logf("four checks later")
	waitFor(t, "the line after four more checks", func() bool {
		logs, _ := seen()
		return slices.Contains(logs, "four checks later")
	})
	if n := said(); n != 1 {
		t.Errorf("said %d times, want once", n)
	}
	starts, stops := job.counts()
	for name, call := range map[string]func() error{
		"RestartJob":  func() error { return rt.RestartJob(context.Background()) },
		"Reconfigure": func() error { return rt.Reconfigure(context.Background(), jobspec.StartedTS, watermark.Strategy{}) },
	} {
		err := call()
		if !errors.Is(err, errTopicGone) || err.Error() != "topic "+b.Topic()+" was deleted from outside: the job is left as it is, with its results; to go on, quit and start labtui again" {
			t.Errorf("%s: %v", name, err)
		}
	}
	if s, st := job.counts(); s != starts || st != stops || rt.Run() != 1 {
		t.Errorf("the job was started %d and stopped %d times more, run %d: want it left as it was", s-starts, st-stops, rt.Run())
	}
	if _, restarts := seen(); restarts != 1 {
		t.Errorf("%d restarts announced, want only the start's", restarts)
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
