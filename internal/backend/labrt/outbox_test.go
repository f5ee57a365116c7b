package labrt

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
)

// result is the n-th result of a test: a late record whose Timestamp is n.
func result(n int) jobspec.Result {
	return jobspec.Result{Kind: jobspec.LateResult, Record: jobspec.RecordTrace{Timestamp: int64(n)}}
}

// drain reads every update until the channel closes.
func drain(ch <-chan backend.Update) []backend.Update {
	var us []backend.Update
	for u := range ch {
		us = append(us, u)
	}
	return us
}

func TestABehindReaderLosesNoNoticeAndEveryDroppedResultIsCounted(t *testing.T) {
	// Given an outbox with room for 2 updates and 10 results, and a reader that reads
	// nothing until the end.
	o := newOutbox(2, 10, false)
	// When three runs each write 25 results and a log line, with a flush after every
	// result, and the reader only starts reading at close.
	collected := 0
	for run := 1; run <= 3; run++ {
		o.begin(backend.Restart{Run: run, Cause: backend.CauseKill})
		o.notice(backend.Update{Log: "line"})
		for i := range 25 {
			o.collect(run, result(i))
			collected++
			o.flush(&backend.Status{})
		}
	}
	var us []backend.Update
	done := make(chan struct{})
	go func() { us = drain(o.updates); close(done) }()
	lost := o.close(&backend.Status{}, time.Second)
	<-done
	// Then every restart and log line arrives, in order, each restart before any result
	// of its run, and what arrived plus what was counted dropped is what was collected.
	var restarts, logs, got, dropped int
	run := 0
	for _, u := range us {
		if r := u.Restarted; r != nil {
			restarts++
			if r.Run != run+1 {
				t.Fatalf("restart of run %d after run %d", r.Run, run)
			}
			run = r.Run
		}
		if u.Log != "" {
			logs++
			if u.Run != run {
				t.Fatalf("log line of run %d during run %d", u.Run, run)
			}
		}
		if len(u.Results) > 0 && u.Run != run {
			t.Fatalf("results of run %d during run %d", u.Run, run)
		}
		got += len(u.Results)
		dropped += u.Dropped
	}
	if restarts != 3 || logs != 3 {
		t.Fatalf("%d restarts and %d log lines arrived, want 3 and 3", restarts, logs)
	}
	if got+dropped != collected || int64(dropped) != lost.Results || lost.Notices != 0 {
		t.Fatalf("%d results arrived and %d were counted dropped (lost %+v) of %d collected", got, dropped, lost, collected)
	}
	if dropped == 0 {
		t.Fatalf("nothing was dropped: the test did not keep the reader behind")
	}
}

func TestAFailedSendKeepsItsResultsAndItsCount(t *testing.T) {
	// Given a full channel and a batch holding results and a drop count.
	o := newOutbox(1, 3, false)
	o.updates <- backend.Update{}
	for i := range 5 {
		o.collect(1, result(i))
	}
	// When a flush cannot send, and then a flush can.
	o.flush(&backend.Status{})
	<-o.updates
	o.flush(&backend.Status{})
	u := <-o.updates
	// Then the update that goes out carries the three results kept and the two dropped.
	if len(u.Results) != 3 || u.Dropped != 2 || o.lostSoFar().Results != 2 {
		t.Fatalf("%d results, %d dropped, lost %+v; want 3, 2 and 2", len(u.Results), u.Dropped, o.lostSoFar())
	}
}

func TestALosslessOutboxHoldsTheWriterBackInsteadOfDropping(t *testing.T) {
	// Given a lossless outbox with room for 1 update and 4 results.
	o := newOutbox(1, 4, true)
	const n = 200
	// When a writer collects n results while a pump flushes and a slow reader reads.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range n {
			o.collect(1, result(i))
		}
	}()
	stop := make(chan struct{})
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		for {
			select {
			case <-stop:
				return
			default:
				o.flush(nil)
				time.Sleep(time.Millisecond)
			}
		}
	}()
	var got []jobspec.Result
	read := make(chan struct{})
	go func() {
		defer close(read)
		for u := range o.updates {
			time.Sleep(2 * time.Millisecond)
			got = append(got, u.Results...)
		}
	}()
	wg.Wait()
	close(stop)
	<-pumped
	lost := o.close(nil, time.Millisecond)
	<-read
	// Then every result arrives, in order, and nothing is lost.
	if len(got) != n || lost != (Lost{}) {
		t.Fatalf("%d of %d results arrived, lost %+v", len(got), n, lost)
	}
	for i, r := range got {
		if r.Record.Timestamp != int64(i) {
			t.Fatalf("result %d is result %d", i, r.Record.Timestamp)
		}
	}
}

func TestWhatAReaderNeverTakesAtCloseIsCountedLost(t *testing.T) {
	// Given a reader that never reads, a full channel, two notices and five results.
	o := newOutbox(1, 10, false)
	o.updates <- backend.Update{}
	o.notice(backend.Update{Log: "a"})
	o.begin(backend.Restart{Run: 1})
	for i := range 5 {
		o.collect(1, result(i))
	}
	// When the outbox closes with a short wait.
	lost := o.close(&backend.Status{}, 10*time.Millisecond)
	// Then the two notices and the five results are counted lost.
	if lost != (Lost{Results: 5, Notices: 2}) {
		t.Fatalf("lost %+v, want 5 results and 2 notices", lost)
	}
}

func TestAbandonEndsHoldingBackAndCountsWhatItDrops(t *testing.T) {
	// Given a lossless outbox whose reader reads nothing, and a writer held back on it.
	o := newOutbox(1, 4, true)
	const n = 50
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for i := range n {
			o.collect(1, result(i))
			if i%4 == 3 {
				go o.flush(nil)
			}
		}
	}()
	select {
	case <-wrote:
		t.Fatal("the writer was not held back")
	case <-time.After(50 * time.Millisecond):
	}
	// When the outbox is abandoned, as on ctrl-c.
	o.abandon()
	<-wrote
	closed := make(chan Lost)
	go func() { closed <- o.close(nil, 10*time.Millisecond) }()
	var lost Lost
	select {
	case lost = <-closed:
	case <-time.After(60 * time.Second): // a hang: close waits 10 ms
		t.Fatal("close waited for a reader that never reads")
	}
	// Then what the channel holds and what was counted lost add up to what was written.
	got := 0
	for _, u := range drain(o.updates) {
		got += len(u.Results)
	}
	if int64(got)+lost.Results != n || lost.Results == 0 {
		t.Fatalf("%d results in the channel and %d counted lost, of %d", got, lost.Results, n)
	}
}

// sendWaiting waits until a flush of o is waiting for the reader with n results: the
// batch it took is out of the outbox, counted as waiting.
func sendWaiting(t *testing.T, o *outbox, n int) {
	t.Helper()
	testkit.EventuallyWithin(t, testkit.Hang, fmt.Sprintf("a flush waits for the reader with %d results", n), func() bool {
		o.mu.Lock()
		defer o.mu.Unlock()
		return o.waiting == n && len(o.batch) == 0
	})
}

func TestALogLineDoesNotWaitForTheReaderWhileALosslessSendDoes(t *testing.T) {
	// Given a lossless outbox with room for 1 update and 3 results, its channel full, and
	// a flush waiting for the reader to take a batch of one result.
	o := newOutbox(1, 3, true)
	o.updates <- backend.Update{Log: "first"}
	o.collect(1, result(0))
	flushed := make(chan struct{})
	go func() { defer close(flushed); o.flush(nil) }()
	sendWaiting(t, o, 1)
	// When the lab logs a line and the job writes results up to the bound, and one more.
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		o.notice(backend.Update{Log: "second"})
		o.collect(1, result(1))
		o.collect(1, result(2))
	}()
	select {
	case <-wrote:
	case <-time.After(60 * time.Second): // a hang: they would wait for ever
		t.Fatal("the log line and the results under the bound waited for the reader")
	}
	held := make(chan struct{})
	go func() { defer close(held); o.collect(1, result(3)) }()
	select {
	case <-held:
		t.Fatal("a result past the bound did not wait for the reader")
	case <-time.After(50 * time.Millisecond):
	}
	// Then, once the reader reads, everything arrives in order and nothing is lost: the
	// update before, the batch the flush was sending, the log line, the results after.
	var us []backend.Update
	read := make(chan struct{})
	go func() { defer close(read); us = drain(o.updates) }()
	<-flushed
	<-held
	lost := o.close(nil, time.Second)
	<-read
	var got []string
	for _, u := range us {
		if u.Log != "" {
			got = append(got, u.Log)
		}
		for _, r := range u.Results {
			got = append(got, fmt.Sprint(r.Record.Timestamp))
		}
	}
	if want := "first 0 second 1 2 3"; strings.Join(got, " ") != want || lost != (Lost{}) {
		t.Fatalf("arrived %q, lost %+v; want %q and nothing lost", strings.Join(got, " "), lost, want)
	}
}

func TestAReplaysProgressGoesAfterTheResultsCollectedBeforeIt(t *testing.T) {
	// Given an outbox holding two results of run 1.
	o := newOutbox(4, 10, false)
	o.collect(1, result(0))
	o.collect(1, result(1))
	// When the replay's completion is queued, a result follows, and the outbox flushes.
	o.notice(backend.Update{Replay: &backend.ReplayProgress{Done: true}})
	o.collect(1, result(2))
	o.flush(nil)
	lost := o.close(nil, time.Second)
	// Then the two results arrive before the completion, the third after it.
	var got []string
	for _, u := range drain(o.updates) {
		for _, r := range u.Results {
			got = append(got, fmt.Sprint(r.Record.Timestamp))
		}
		if u.Replay != nil {
			got = append(got, "done")
		}
	}
	if want := "0 1 done 2"; strings.Join(got, " ") != want || lost != (Lost{}) {
		t.Fatalf("arrived %q, lost %+v; want %q", strings.Join(got, " "), lost, want)
	}
}

func TestAFailedLosslessSendKeepsItsPlaceBeforeWhatCameMeanwhile(t *testing.T) {
	// Given a lossless outbox whose reader reads nothing, and a flush waiting to send a
	// batch of two results of run 1.
	o := newOutbox(1, 10, true)
	o.updates <- backend.Update{}
	o.collect(1, result(0))
	o.collect(1, result(1))
	flushed := make(chan struct{})
	go func() { defer close(flushed); o.flush(nil) }()
	sendWaiting(t, o, 2)
	// When a restart and a result of run 2 come while it waits, and the outbox is
	// abandoned, so that the send fails.
	o.begin(backend.Restart{Run: 2})
	o.collect(2, result(2))
	o.abandon()
	<-flushed
	// Then the batch is first of what waits, and a reader then gets it all in order.
	<-o.updates
	var us []backend.Update
	read := make(chan struct{})
	go func() { defer close(read); us = drain(o.updates) }()
	lost := o.close(nil, time.Second)
	<-read
	var got []string
	for _, u := range us {
		if u.Restarted != nil {
			got = append(got, "restart")
		}
		for _, r := range u.Results {
			got = append(got, fmt.Sprintf("%d:%d", u.Run, r.Record.Timestamp))
		}
	}
	if want := "1:0 1:1 restart 2:2"; strings.Join(got, " ") != want || lost != (Lost{}) {
		t.Fatalf("arrived %q, lost %+v; want %q", strings.Join(got, " "), lost, want)
	}
}
