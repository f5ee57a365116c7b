package embedded

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/backend/backendtest"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
)

const seedBurst = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

// The embedded lab keeps the backend contract: a reader a full channel behind loses no
// restart, hiccup line or replay progress, and reads each in order before the results
// of the run that follows.
func TestTheEmbeddedLabKeepsTheBackendContract(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 200
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen, Job: jobspec.Options{Trace: true}, StatusEvery: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	backendtest.NoticesArriveInOrderWhileTheReaderIsBehind(t, backendtest.Subject{Lab: lab, Recording: seedBurst, Restarts: 5,
		Between: func(t *testing.T, _ int) {
			// The new job reads the topic from the earliest offset: wait for its first records.
			testkit.EventuallyWithin(t, testkit.Hang, "the restarted job assembles a record", func() bool { return lab.Status().Job.Records > 0 })
		}})
}

// Closing after a replay does not wait for the job to read the live topic's events: the
// replay's job never will (it waited the whole five seconds of the drain).
func TestCloseAfterAReplayDoesNotWaitForLiveEvents(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 200
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range lab.Updates() {
		}
	}()
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	// Live events on the topic first.
	testkit.EventuallyWithin(t, testkit.Hang, "50 live events are on the topic", func() bool { return lab.Totals().Acked >= 50 })
	if err := lab.Replay(context.Background(), seedBurst, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := lab.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Fatalf("Close took %s", took)
	}
}

// The last status, which Close sends after the job stopped, keeps the job's watermark:
// the job stopped with its clocks where they were, and a session that judged its minutes
// by them (4.1's agreeing minutes) must not see them all open again.
func TestTheLastStatusKeepsTheStoppedJobsWatermark(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 200
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen, StatusEvery: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var seen, last int64 = jobspec.MinWatermark, jobspec.MinWatermark
	done := make(chan struct{})
	var mu sync.Mutex
	go func() {
		defer close(done)
		for u := range lab.Updates() {
			if u.Status != nil {
				mu.Lock()
				last = u.Status.Watermark
				seen = max(seen, last)
				mu.Unlock()
			}
		}
	}()
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	testkit.EventuallyWithin(t, testkit.Hang, "a status has a watermark", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return seen > jobspec.MinWatermark
	})
	if err := lab.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if last < seen {
		t.Errorf("the last status's watermark is %d, below the %d a status had shown", last, seen)
	}
}
