package session

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/labs/lab4"
)

// unevenReplay replays the hour with the reads given in its last progress, and two late
// records.
func unevenReplay(l *lab, wm watermark.Strategy, reads *jobspec.Reads) {
	unevenReplayAt(l, 0, wm, reads)
}

// unevenReplayAt is unevenReplay with its output in minute m.
func unevenReplayAt(l *lab, m int64, wm watermark.Strategy, reads *jobspec.Reads) {
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
		Recording: "hour.jsonl.gz", Watermarks: wm}})
	l.apply(backend.Update{Results: []jobspec.Result{lateFrom("gw-2", "r-7", t0+3000, t0+65000, t0+61000), lateFrom("gw-0", "r-9", t0+4000, t0+65000, t0+61000)}})
	l.minute(m, 9.9, 0.2)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true, Reads: reads}})
}

func TestA43FindingSaysWhichPartitionRanAheadAndWhatRemovesIt(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	unevenReplay(l, watermark.Strategy{}, &jobspec.Reads{Late: 2, AheadLate: 1, Max: jobspec.Lead{Ahead: 2, Behind: 0, By: 41300, Read: 900}})
	f := l.h.Finding("4.3")
	if f == nil {
		t.Fatal("no 4.3 finding")
	}
	want := "Run 1 dropped 2 records ($0.20) as late. Read as fast as the broker serves it, partition 2 ran up to 41.3 s ahead of partition 0 " +
		"(its largest event timestamp against theirs, as partition 0 was read), and a watermark generated after the source, as in the course's job, " +
		"follows the partition furthest ahead, as in Flink: 1 of them was late only because of that (their own partition's events had not yet " +
		"passed the end of their minute), the other 1 by their own partition's events too. A replay read at another pace leads by another amount, " +
		"so successive replays of the same hour disagree. Real Kafka and Flink do the same: Flink 2.2.1's KafkaSource, reading the lab's recorded hour " +
		"from Kafka 4.1.1 as fast as it could, dropped 43,801 to 46,390 of its 71,641 requests as late in four replays, and this lab's consumer " +
		"on that broker saw one partition up to 3,600 s ahead (measured on 1 Dec 2026). Watermarks per partition on the source (w, p, enter; or start labtui with --watermarks source) take " +
		"the minimum over the partitions, which never runs ahead of a record's own partition: with them this record is not late, whatever the pace."
	if !strings.HasSuffix(lab4.Sentence(f), want) {
		t.Errorf("4.3 = %q\nwant it to end %q", lab4.Sentence(f), want)
	}
	if got := LateLead(l.h.Current()); got != "1 only because partition 2 ran 41.3 s ahead of 0" {
		t.Errorf("LateLead = %q", got)
	}
}

func TestWithWatermarksAtTheSourceNoRecordIsLateBecauseOfALead(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	unevenReplay(l, watermark.Strategy{At: watermark.Source}, &jobspec.Reads{Late: 2, Max: jobspec.Lead{Ahead: 1, Behind: 2, By: 2500}})
	want := "Run 1 dropped 2 records ($0.20) as late. Watermarks are per partition on the source: partition 1 ran up to 2.5 s ahead of partition 2 " +
		"(its largest event timestamp against theirs, as partition 2 was read), and their minimum, the job's watermark, made none of them late " +
		"because of it; they were late by their own partition's events."
	if got := LateWhy(l.h.Current()); got != want {
		t.Errorf("LateWhy = %q\nwant      %q", got, want)
	}
	if got := LateLead(l.h.Current()); got != "" {
		t.Errorf("LateLead = %q", got)
	}
}

func TestABackendThatDoesNotReportReadsIsSaidToNot(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	unevenReplay(l, watermark.Strategy{}, nil)
	if got := LateWhy(l.h.Current()); !strings.Contains(got, "this backend does not report how far each partition ran ahead") ||
		!strings.Contains(got, "(w, p, enter)") {
		t.Errorf("LateWhy = %q", got)
	}
}

func TestTheLatestStatusReadsBelongToTheRunTheyCameWith(t *testing.T) {
	l := newLab()
	st := status(t0, t0)
	st.Reads = &jobspec.Reads{Late: 3, AheadLate: 3, Max: jobspec.Lead{Ahead: 1, Behind: 0, By: 7000}}
	l.apply(backend.Update{Status: st})
	if r := l.h.Current().Reads; r == nil || r.Max.By != 7000 {
		t.Errorf("reads = %+v", r)
	}
	if got := LateWhy(l.h.Current()); got != "" {
		t.Errorf("a live run with no late record: %q", got)
	}
}

func TestAReplayWithWatermarksAtTheSourceAndNoLateRecordSaysSo(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
		Recording: "hour.jsonl.gz", Watermarks: watermark.Strategy{At: watermark.Source}}})
	l.minute(0, 9.9, 0.2)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true,
		Reads: &jobspec.Reads{Max: jobspec.Lead{Ahead: 0, Behind: 2, By: 1321300}}}})
	f := l.h.Finding("4.3")
	want := "With watermarks per partition on the source no record was late, though partition 0 ran up to 1,321.3 s (22 min) ahead of " +
		"partition 2 as the job read them: the job's watermark is the minimum over the partitions."
	if f == nil || !strings.HasSuffix(lab4.Sentence(f), want) || f.Run.Watermarks != "for_monotonous_timestamps() per partition at the source" {
		t.Errorf("4.3 = %+v\nwant it to end %q", f, want)
	}
}

// pendingAt is an open processing-time window of acme in minute m, with its running totals.
func pendingAt(m int64, usd float64, n int64) jobspec.Result {
	r := fired(jobspec.ProcessingTimeResult, "acme", m, usd, n)
	r.Window, r.Kind = jobspec.ProcessingTimeResult, jobspec.PendingResult
	return r
}

// TestAReplaysComparisonFollowsTheStatusThatListsItsLastOpenWindows finishes a replay
// whose Done comes before the status that lists its processing-time window whole (the
// status before it had read part of the hour): 4.3's finding is worked out again with the
// whole window, not left with the part.
func TestAReplaysComparisonFollowsTheStatusThatListsItsLastOpenWindows(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
	st := status(t0+2000, t0+1000)
	st.Open = []jobspec.Result{pendingAt(90, 5, 1)}
	l.apply(backend.Update{Results: []jobspec.Result{fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2)}, Status: st})
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	if f := l.h.Finding("4.3"); f == nil || !strings.Contains(lab4.Sentence(f), "$5.0000 and 1 requests") {
		t.Fatalf("before the last status: %+v", f)
	}
	st = status(t0+2300, t0+1000)
	st.Open = []jobspec.Result{pendingAt(90, 9.9, 3)}
	l.apply(backend.Update{Status: st})
	if f := l.h.Finding("4.3"); f == nil || !strings.Contains(lab4.Sentence(f), "$9.9000 and 3 requests") {
		t.Errorf("after the status with the whole window: %+v", f)
	}
}

// TestTheLastStatusOfThePreviousJobIsNotTheNewRuns restarts the job and then sends the
// previous job's last status, as a backend can: its open windows stay the previous run's,
// so a replay that finishes next is not compared with them.
func TestTheLastStatusOfThePreviousJobIsNotTheNewRuns(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.apply(backend.Update{Run: 4, Restarted: &backend.Restart{Run: 4, Cause: backend.CauseStrategy, Reason: "strategy", Timestamp: jobspec.StartedTS,
		Recording: "hour.jsonl.gz"}})
	l.apply(backend.Update{Run: 4, Results: []jobspec.Result{fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2)}})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Run: 5, Restarted: &backend.Restart{Run: 5, Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
		Recording: "hour.jsonl.gz"}})
	stale := status(t0+2000, t0+1000)
	stale.Open = []jobspec.Result{pendingAt(90, 5, 1)}
	l.apply(backend.Update{Run: 4, Status: stale})
	l.apply(backend.Update{Run: 5, Results: []jobspec.Result{fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2)}})
	l.apply(backend.Update{Run: 5, Replay: &backend.ReplayProgress{Run: 5, Path: "hour.jsonl.gz", Records: 12, Done: true}})
	if open := l.h.Current().Open; len(open) != 0 {
		t.Errorf("the new run took the previous job's open windows: %+v", open)
	}
	if prev := l.h.Runs()[len(l.h.Runs())-2]; len(prev.Open) != 1 {
		t.Errorf("the previous run's last open windows: %+v", prev.Open)
	}
}

func TestALeadPastTheAssemblersWaitSaysItsForgottenRequests(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	unevenReplay(l, watermark.Strategy{}, &jobspec.Reads{Late: 2, AheadLate: 2, Max: jobspec.Lead{Ahead: 1, Behind: 0, By: 1321300}})
	st := status(t0+70000, t0+61000)
	st.Job.Forgotten = 75
	l.apply(backend.Update{Status: st})
	want := " The job also let go of 75 request halves waiting for the other half of their request (the RequestAssembler keeps a half " +
		"10 minutes of event time, by the watermark): a partition more than that behind can lose a request's first half before its " +
		"second is read, the second then waits alone and is let go in turn, and the request reaches neither window. When it let " +
		"them go is not known: the job counts the halves it lets go, not which or when; the diff (d) names the minutes of the " +
		"requests that never reached the windows."
	if got := LateWhy(l.h.Current()); !strings.Contains(got, want) {
		t.Errorf("LateWhy = %q\nwant it to contain %q", got, want)
	}
}

// TestAReplayWithNoLateRecordThoughAPartitionRanAheadSaysItWasLuck replays the hour after
// the parse, as the course's job does, with one partition read far ahead and no record
// late: the finding says why none was late and that real Flink drops many; with periodic
// watermarks off (interval 0) no watermark passes during the replay and it says nothing.
func TestAReplayWithNoLateRecordThoughAPartitionRanAheadSaysItWasLuck(t *testing.T) {
	replay := func(wm watermark.Strategy) *Session {
		l := newLabWith(Config{Reenact: hourReference})
		l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
			Recording: "hour.jsonl.gz", Watermarks: wm}})
		l.minute(0, 9.9, 0.2)
		l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true,
			Reads: &jobspec.Reads{Max: jobspec.Lead{Ahead: 1, Behind: 0, By: 254000}}}})
		return l.h
	}
	want := "No record was late in run 1, as the course says of a replay, though partition 1 ran up to 254.0 s (4 min) ahead of partition 0 " +
		"as the job read them: a watermark generated after the source follows the partition furthest ahead, but it is emitted only every " +
		"200 ms of the wall clock, and in this run none was emitted where it would have made a record of a slower partition late. " +
		"Read at another pace the same hour can drop many, as it did on real Kafka and Flink: Flink 2.2.1's KafkaSource, reading the lab's " +
		"recorded hour from Kafka 4.1.1 as fast as it could, dropped 43,801 to 46,390 of its 71,641 requests as late in four replays, and " +
		"this lab's consumer on that broker saw one partition up to 3,600 s ahead (measured on 1 Dec 2026)."
	if got := LateWhy(replay(watermark.Strategy{}).Current()); got != want {
		t.Errorf("LateWhy = %q\nwant      %q", got, want)
	}
	if got := LateWhy(replay(watermark.Strategy{Interval: watermark.Off}).Current()); got != "" {
		t.Errorf("with periodic watermarks off LateWhy = %q, want nothing", got)
	}
	// Under a 300 s bound, more than the 254 s lead, the bound kept every record from
	// being late, not where the watermarks fell.
	want = "No record was late in run 1, as the course says of a replay, though partition 1 ran up to 254.0 s (4 min) ahead of partition 0 " +
		"as the job read them: the watermark, generated after the source, follows the partition furthest ahead, but " +
		"for_bounded_out_of_orderness holds it 300.0 s (5 min) behind the largest timestamp, and that bound is more than the lead, so it " +
		"never passed the events of a partition behind. Read at another pace a partition can run further ahead than 300.0 s (5 min), and " +
		"the same hour can drop many records as late: with for_monotonous_timestamps, Flink 2.2.1's KafkaSource"
	if got := LateWhy(replay(watermark.Strategy{OutOfOrderness: 5 * time.Minute}).Current()); !strings.HasPrefix(got, want) {
		t.Errorf("under a 300 s bound LateWhy = %q\nwant      %q…", got, want)
	}
	// Under a 40 s bound, less than the lead, the bound covered 40 s of it and the
	// periodic watermarks the rest.
	want = "No record was late in run 1, as the course says of a replay, though partition 1 ran up to 254.0 s (4 min) ahead of partition 0 " +
		"as the job read them: a watermark generated after the source follows the partition furthest ahead less the 40.0 s bound, " +
		"which covers only that much of the lead, but it is emitted only every 200 ms of the wall clock"
	if got := LateWhy(replay(watermark.Strategy{OutOfOrderness: 40 * time.Second}).Current()); !strings.HasPrefix(got, want) {
		t.Errorf("under a 40 s bound LateWhy = %q\nwant      %q…", got, want)
	}
}

// TestARestartThatReReadsTheLiveTopicSaysWhyItsRecordsWereLate: w after a live run
// restarts the job on the live topic from the oldest record kept; read at full speed, one
// partition runs ahead and records go late under a 40 s bound (1,954 in a walk, with no
// word why). LateWhy, LateLead and the status line's note say it; the live run before it,
// with the same reads, says nothing of the kind.
func TestARestartThatReReadsTheLiveTopicSaysWhyItsRecordsWereLate(t *testing.T) {
	l := newLab()
	l.started()
	l.minute(0, 0.2, 0.2)
	reads := &jobspec.Reads{Late: 3, AheadLate: 2, Max: jobspec.Lead{Ahead: 1, Behind: 0, By: 412000}}
	st := status(t0+62000, t0+61000)
	st.Reads = reads
	l.apply(backend.Update{Status: st})
	if got := LateWhy(l.h.Current()) + LateLead(l.h.Current()) + CatchUpNote(l.h.Current()); got != "" {
		t.Errorf("the live run says %q", got)
	}
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseStrategy, Reason: "new watermark strategy",
		Timestamp: jobspec.CompletedTS, Watermarks: watermark.Strategy{OutOfOrderness: 40 * time.Second}}})
	l.apply(backend.Update{Run: 2, Results: []jobspec.Result{lateFrom("gw-2", "r-7", t0+3000, t0+65000, t0+61000),
		lateFrom("gw-0", "r-9", t0+4000, t0+65000, t0+61000), lateFrom("gw-0", "r-11", t0+5000, t0+65000, t0+61000)}})
	st = status(t0+66000, t0+61000)
	st.Reads = reads
	l.apply(backend.Update{Run: 2, Status: st})
	run := l.h.Current()
	want := "Run 2 dropped 3 records ($0.30) as late. It began with empty state and read the live topic again from the oldest record " +
		"the broker keeps, as fast as the broker serves it: partition 1 ran up to 412.0 s (6 min) ahead of partition 0 (its largest " +
		"event timestamp against theirs, as partition 0 was read), and a watermark generated after the source, as in the course's job, " +
		"follows the partition furthest ahead, as in Flink: 2 of them were late only because of that (their own partition's events had " +
		"not yet passed the end of their minute), the other 1 by their own partition's events too. Once it has caught up it reads at " +
		"the generator's pace, and what is late again is what a bound or a hiccup makes late. Watermarks per partition on the source " +
		"(w, p, enter) take the minimum over the partitions: with them none of these 2 records is late."
	if got := LateWhy(run); got != want {
		t.Errorf("LateWhy = %q\nwant      %q", got, want)
	}
	if got := LateLead(run); got != "2 only because partition 1 ran 6 min ahead of 0" {
		t.Errorf("LateLead = %q", got)
	}
	if got := CatchUpNote(run); got != "run 2 re-reads the topic at full speed: one partition runs ahead, the watermark follows it, and the records "+
		"behind it go late (l; per partition on the source: w, p, enter)" {
		t.Errorf("CatchUpNote = %q", got)
	}
}
