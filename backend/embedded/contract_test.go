package embedded

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/backend/backendtest"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/meter"
)

const seedBurst = "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

// The embedded lab keeps the backend contract: a reader a full channel behind loses no
// restart, hiccup line or replay progress, and reads each in order before the results
// of the run that follows.
func TestTheEmbeddedLabKeepsTheBackendContract(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 200
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen, Job: meter.Options{Trace: true}, StatusEvery: 5 * time.Millisecond})
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
			for deadline := time.Now().Add(60 * time.Second); lab.Status().Job.Records == 0; time.Sleep(5 * time.Millisecond) { // a hang
				if time.Now().After(deadline) {
					t.Fatal("the restarted job assembled no record in 60 s")
				}
			}
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
	// Live events on the topic first (a sleep of 300 ms hoped for them).
	for deadline := time.Now().Add(60 * time.Second); lab.Totals().Acked < 50; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the generator produced %d events in 60 s", lab.Totals().Acked)
		}
	}
	if err := lab.Replay(context.Background(), seedBurst, meter.CompletedTS); err != nil {
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
	var seen, last int64 = meter.MinWatermark, meter.MinWatermark
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
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) { // a hang
		mu.Lock()
		ok := seen > meter.MinWatermark
		mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no status with a watermark in 60 s")
		}
	}
	if err := lab.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if last < seen {
		t.Errorf("the last status's watermark is %d, below the %d a status had shown", last, seen)
	}
}
