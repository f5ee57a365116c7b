package session

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

func traceResult(id string) jobspec.Result {
	return jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{RequestID: id}}
}

func TestEachRunKeepsItsOwnResultsAndOldRunsLetThemGo(t *testing.T) {
	h := New(Config{Limits: Limits{ResultRuns: 2}})
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("a")}})
	first := h.Current()
	h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS},
		Results: []jobspec.Result{traceResult("b"), traceResult("c")}})
	h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Done: true}})
	replay := h.Current()
	if first.Results.Len() != 1 || replay.Results.Len() != 2 || !replay.ReplayDone || replay.ReplayPath != "hour.jsonl.gz" {
		t.Fatalf("results %d and %d, replay done %v", first.Results.Len(), replay.Results.Len(), replay.ReplayDone)
	}
	if h.latestReplay(jobspec.CompletedTS) != replay || h.latestReplay(jobspec.StartedTS) != nil {
		t.Error("LatestReplay does not find the finished completed_ts replay alone")
	}
	h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseLive, Reason: "back to the live topic"}})
	if first.Results.Len() != 0 || first.Results.complete() || replay.Results.Len() != 2 {
		t.Errorf("after a third run: first keeps %d, replay %d", first.Results.Len(), replay.Results.Len())
	}
}

func TestAFullResultsBufferLetsTheOldestHalfGoWithoutTouchingASnapshot(t *testing.T) {
	h := New(Config{Limits: Limits{Results: 4}})
	for _, id := range []string{"a", "b", "c", "d"} {
		h.Apply(backend.Update{Results: []jobspec.Result{traceResult(id)}})
	}
	r := h.Current().Results
	snap := r.Snapshot()
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("e")}})
	if r.Len() != 3 || r.Dropped() != 2 || r.Snapshot()[0].Record.RequestID != "c" {
		t.Errorf("kept %d, dropped %d", r.Len(), r.Dropped())
	}
	if len(snap) != 4 || snap[0].Record.RequestID != "a" || snap[3].Record.RequestID != "d" {
		t.Errorf("the snapshot changed: %+v", snap)
	}
}

func TestHiccupsFollowTheStatus(t *testing.T) {
	h := New(Config{})
	st := func(now int64, held bool) *backend.Status {
		return &backend.Status{Now: now, Instances: []backend.Instance{{Name: "gw-0"}, {Name: "gw-1", Hiccup: held}}}
	}
	h.Apply(backend.Update{Status: st(1000, false)})
	h.Apply(backend.Update{Status: st(2000, true)})
	h.Apply(backend.Update{Status: st(3000, true)})
	if x, ok := h.Current().lastHiccup(); !ok || x.From != 2000 || x.To != 0 || x.Instance != "gw-1" {
		t.Fatalf("during the hiccup: %+v", x)
	}
	h.Apply(backend.Update{Status: st(4000, false)})
	if x, _ := h.Current().lastHiccup(); x.To != 4000 || len(h.Current().Hiccups) != 1 {
		t.Errorf("after the hiccup: %+v", h.Current().Hiccups)
	}
}

func TestResultsWrittenBeforeAReplayStartedBelongToTheRunBefore(t *testing.T) {
	h := New(Config{})
	h.Apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, At: 900, Record: jobspec.RecordTrace{RequestID: "live-1"}}}})
	live := h.Current()
	h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", At: 1000}})
	// The live job's last batch arrives after the restart, with the replay's first.
	h.Apply(backend.Update{Results: []jobspec.Result{
		{Kind: jobspec.TraceResult, At: 950, Record: jobspec.RecordTrace{RequestID: "live-2"}},
		{Kind: jobspec.TraceResult, At: 1001, Record: jobspec.RecordTrace{RequestID: "replayed-1"}},
	}})
	if live.Results.Len() != 2 || h.Current().Results.Len() != 1 || h.Current().Results.Snapshot()[0].Record.RequestID != "replayed-1" {
		t.Errorf("live run has %d results, the replay %d", live.Results.Len(), h.Current().Results.Len())
	}
}

func TestAWindowThatFiredAfterTheStatusListedItOpenIsNotOpenInTheOutput(t *testing.T) {
	s := New(Config{})
	open := jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.ProcessingTimeResult,
		Minute: gateway.TenantCostMinute{TenantID: "acme", WindowStart: 0, WindowEnd: 60000, USD: 1, Requests: 1}}
	s.Apply(backend.Update{Status: &backend.Status{Now: 59000, Open: []jobspec.Result{open}}})
	fired := open
	fired.Kind, fired.Window, fired.Minute.USD, fired.Minute.Requests = jobspec.ProcessingTimeResult, 0, 2, 2
	s.Apply(backend.Update{Results: []jobspec.Result{fired}})
	out := s.Current().lendOutput()
	if len(out) != 1 || out[0].Kind != jobspec.ProcessingTimeResult || out[0].Minute.USD != 2 {
		t.Errorf("output = %+v", out)
	}
}

func TestARunsOutputSharesItsResultsAndNoLaterResultWritesOverIt(t *testing.T) {
	h := New(Config{})
	for _, id := range []string{"a", "b", "c"} {
		h.Apply(backend.Update{Results: []jobspec.Result{traceResult(id)}})
	}
	open := jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.EventTimeResult, Minute: gateway.TenantCostMinute{TenantID: "acme", WindowStart: 0, WindowEnd: 60000}}
	h.Apply(backend.Update{Status: &backend.Status{Open: []jobspec.Result{open}}})
	run := h.Current()
	h.an.diffs[run.ID] = &comparison{pending: true} // as a comparison under way holds the output
	out := run.lendOutput()
	if len(out) != 4 || out[3].Kind != jobspec.PendingResult || out[0].Record.RequestID != "a" {
		t.Fatalf("output %+v", out)
	}
	if cap(run.Results.items) >= 4 && &out[0] != &run.Results.items[0] {
		t.Error("the output is a copy of the results, not the results themselves")
	}
	again := run.lendOutput() // the room past the results is lent: a copy
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("d")}})
	if out[3].Kind != jobspec.PendingResult || again[3].Kind != jobspec.PendingResult {
		t.Errorf("a later result wrote over an output: %+v, %+v", out[3], again[3])
	}
	if snap := run.Results.Snapshot(); len(snap) != 4 || snap[3].Record.RequestID != "d" {
		t.Errorf("the results are %+v", snap)
	}
}

func TestAFullRunLetsGoOfItsOldestTracesAndKeepsEveryWindow(t *testing.T) {
	h := New(Config{Limits: Limits{Results: 6}})
	window := jobspec.Result{Kind: jobspec.EventTimeResult, Minute: gateway.TenantCostMinute{TenantID: "acme", WindowStart: 0, WindowEnd: 60000, USD: 1, Requests: 2}}
	a, b := traceResult("a"), traceResult("b")
	a.Record.Arrival, b.Record.Arrival = 1000, 2000
	h.Apply(backend.Update{Results: []jobspec.Result{a, b, window, traceResult("c"), traceResult("d"), traceResult("e")}})
	r := h.Current().Results
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("f")}})
	var ids []string
	windows := 0
	for _, x := range r.Snapshot() {
		if x.Kind == jobspec.TraceResult {
			ids = append(ids, x.Record.RequestID)
		} else {
			windows++
		}
	}
	if windows != 1 || r.Dropped() != 2 || strings.Join(ids, "") != "cdef" || r.complete() {
		t.Errorf("kept %v and %d windows, dropped %d", ids, windows, r.Dropped())
	}
	if _, ok := r.OldestTrace(); !ok {
		t.Error("no oldest trace")
	}
}

func TestAReplayReservesRoomForAsManyResultsAsTheLastReplayOfItsRecording(t *testing.T) {
	h := New(Config{})
	replay := func(path string, n int) *Run {
		h.ReplayAsked(path, jobspec.CompletedTS)
		h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: path}})
		run := h.Current()
		before := cap(run.Results.items)
		rs := make([]jobspec.Result, n)
		for i := range rs {
			rs[i] = traceResult(fmt.Sprint(i))
		}
		h.Apply(backend.Update{Results: rs})
		h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: path, Done: true}})
		if path == "hour.jsonl.gz" && run.ID > 2 && (before < 300 || cap(run.Results.items) != before) {
			t.Errorf("run %d had room for %d results at its start and %d after 300", run.ID, before, cap(run.Results.items))
		}
		if path != "hour.jsonl.gz" && before != 0 {
			t.Errorf("a replay of another recording reserved %d", before)
		}
		return run
	}
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("live")}})
	replay("hour.jsonl.gz", 300)
	replay("hour.jsonl.gz", 300)
	replay("other.jsonl.gz", 10)
	if r := replay("hour.jsonl.gz", 300); r.Results.Len() != 300 || !r.Results.complete() {
		t.Errorf("the replay kept %d results", r.Results.Len())
	}
}

func TestTheFirstReplayOfARecordingReservesRoomOnceItsLinesAreCounted(t *testing.T) {
	h := New(Config{})
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("live")}})
	start := func() *Run {
		h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
		return h.Current()
	}
	run := start()
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("a")}})
	h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Lines: 640}})
	if c := cap(run.Results.items); c < 330 {
		t.Fatalf("a replay of a recording of 640 lines has room for %d results", c)
	}
	if snap := run.Results.Snapshot(); len(snap) != 1 || snap[0].Record.RequestID != "a" {
		t.Fatalf("the results are %+v after the room was made", snap)
	}
	rs := make([]jobspec.Result, 319)
	for i := range rs {
		rs[i] = traceResult(fmt.Sprint(i))
	}
	h.Apply(backend.Update{Results: rs})
	h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Lines: 640, Done: true}})
	// The next replay reserves what this one kept, and the count of lines changes nothing.
	next := start()
	kept := cap(next.Results.items)
	h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Lines: 64000}})
	if kept < 320 || cap(next.Results.items) != kept {
		t.Errorf("the next replay had room for %d results at its start and %d once the lines were counted", kept, cap(next.Results.items))
	}
}

// TestAReplayComparedAgainSharesItsResultsOnceTheFirstComparisonIsDone compares a replay
// twice (the status after its Done lists other open windows): the second comparison's
// output puts its open windows into the room past the results again, as the first did,
// instead of copying every result, because nothing holds the first output any more; while
// a comparison is under way, an output the room is lent to stays as it was.
func TestAReplayComparedAgainSharesItsResultsOnceTheFirstComparisonIsDone(t *testing.T) {
	l := newLabWith(Config{Reenact: twoRequests})
	l.apply(backend.Update{Results: []jobspec.Result{traceOf("live")}})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
	run := l.h.Current()
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Lines: 4}}) // room for the results and windows
	open := func(tenants ...string) *backend.Status {
		st := status(t0+70000, t0+61000)
		for _, tn := range tenants {
			st.Open = append(st.Open, jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.EventTimeResult,
				Minute: gateway.TenantCostMinute{TenantID: tn, WindowStart: t0 + 60000, WindowEnd: t0 + 120000}})
		}
		return st
	}
	l.apply(backend.Update{Results: []jobspec.Result{traceOf("r-1"), traceOf("r-2"), fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2)}, Status: open("acme")})
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 4, Done: true}})
	n := run.Results.Len()
	if run.Results.lent != n+1 {
		t.Fatalf("the first comparison's output lent %d of %d results and 1 open window", run.Results.lent, n)
	}
	// The next status lists two open windows: the run's output changed, it is compared
	// again, and the task that does it holds an output sharing the results' array.
	tasks := l.h.Apply(backend.Update{Status: open("acme", "globex")})
	if len(tasks) == 0 {
		t.Fatal("a changed output was not compared again")
	}
	if run.Results.lent != n+2 {
		t.Fatalf("the second comparison's output was a copy (lent %d, want %d)", run.Results.lent, n+2)
	}
	lent := run.Results.items[:n+2]
	if lent[n].Minute.TenantID != "acme" || lent[n+1].Minute.TenantID != "globex" {
		t.Fatalf("the room past the results holds %+v", lent[n:])
	}
	// Under way, it keeps its output: another output is a copy and writes nothing there.
	again := run.lendOutput()
	if &again[0] == &run.Results.items[0] || lent[n+1].Minute.TenantID != "globex" {
		t.Error("an output while a comparison is under way wrote into the room lent to it")
	}
	l.h.RunTasks(context.Background(), tasks)
	if d := l.h.DiffState(false).Diff; d == nil {
		t.Error("the second comparison did not finish")
	}
	// Done, it holds nothing: a result arriving now goes into the room, and the results
	// stay in their array rather than moving to one a quarter larger.
	before := &run.Results.items[0]
	l.apply(backend.Update{Results: []jobspec.Result{traceOf("late-1")}})
	if &run.Results.items[0] != before || run.Results.Len() != n+1 || run.Results.items[n].Record.RequestID != "late-1" {
		t.Errorf("a result after the comparisons moved the results (%v) or landed elsewhere: %d results", &run.Results.items[0] != before, run.Results.Len())
	}
}

// TestTheLiveRunBehind41LetsItsResultsGoOnceAReplayBehind43HasThePicture: the live run
// backs 4.1 (agreeing minutes, from its table); while the export draws its picture from
// it, it keeps its results, also once older than the run before the current one. When a
// finished replay backs 4.3, the picture is that replay's, and the next replay lets go of
// the live run's results, counted; its table, late records and 4.1's finding stay.
func TestTheLiveRunBehind41LetsItsResultsGoOnceAReplayBehind43HasThePicture(t *testing.T) {
	for _, replayFinishes := range []bool{false, true} {
		l := newLabWith(Config{Reenact: hourReference})
		for m := int64(0); m < 5; m++ {
			l.apply(backend.Update{Results: []jobspec.Result{traceOf(fmt.Sprint("live-", m))}})
			l.minute(m, 0.2, 0.2)
		}
		live := l.h.Current()
		if f := l.h.Finding("4.1"); f == nil || f.Run.ID != live.ID {
			t.Fatalf("4.1's finding is %+v", f)
		}
		kept, rows := live.Results.Len(), live.Table.Len()
		l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
		l.apply(backend.Update{Results: []jobspec.Result{traceOf("r-1")}})
		l.minute(0, 0.2, 0.2)
		if replayFinishes {
			l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
			if f := l.h.Finding("4.3"); f == nil || f.Run.ID != live.ID+1 {
				t.Fatalf("4.3's finding is %+v", f)
			}
		}
		// A third run: the live run is older than the one before the current one.
		l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseKill, Reason: "TaskManager died", Timestamp: jobspec.CompletedTS}})
		l.apply(backend.Update{Results: []jobspec.Result{traceOf("r-2")}})
		pic, ex := l.h.PictureRun()
		switch {
		case !replayFinishes && (live.Results.Len() != kept || pic != live || ex != "4.1"):
			t.Errorf("with no replay behind 4.3, the live run keeps %d of %d results and the picture is run %v's (%s)", live.Results.Len(), kept, pic, ex)
		case replayFinishes && (live.Results.Len() != 0 || live.Results.Dropped() != kept || pic == nil || pic.ID != live.ID+1 || ex != "4.3"):
			t.Errorf("with a replay behind 4.3, the live run keeps %d results, let go of %d of %d, and the picture is run %v's (%s)",
				live.Results.Len(), live.Results.Dropped(), kept, pic, ex)
		}
		if f := l.h.Finding("4.1"); f == nil || f.Run.ID != live.ID || live.Table.Len() != rows {
			t.Errorf("4.1's finding is %+v and the live run's table %d rows of %d", f, live.Table.Len(), rows)
		}
	}
}

// A replay's last windows fire while its comparison reads its output: they wait beside
// the results instead of moving every result to a new array (a second copy of the
// recorded hour's 13 MB at a replay's peak), and join them once the comparison is done.
func TestResultsThatArriveWhileTheOutputIsLentWaitWithoutCopyingTheOthers(t *testing.T) {
	h := New(Config{})
	run := h.Current()
	run.Results.reserve(64)
	for _, id := range []string{"a", "b", "c"} {
		h.Apply(backend.Update{Results: []jobspec.Result{traceResult(id)}})
	}
	open := jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.EventTimeResult, Minute: gateway.TenantCostMinute{TenantID: "acme", WindowStart: 0, WindowEnd: 60000}}
	h.Apply(backend.Update{Status: &backend.Status{Open: []jobspec.Result{open}}})
	h.an.diffs[run.ID] = &comparison{pending: true}
	out := run.lendOutput()
	first := &run.Results.items[0]
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("d"), traceResult("e")}})
	if &run.Results.items[0] != first {
		t.Error("a result that arrived while the output was lent moved every result to a new array")
	}
	if out[3].Kind != jobspec.PendingResult {
		t.Errorf("a later result wrote over the lent output: %+v", out[3])
	}
	ids := func(rs []jobspec.Result) (s string) {
		for _, r := range rs {
			s += r.Record.RequestID
		}
		return s
	}
	if got := ids(run.Results.Snapshot()); got != "abcde" || run.Results.Len() != 5 || !run.Results.traced() {
		t.Errorf("while lent the results are %q (len %d)", got, run.Results.Len())
	}
	if again := run.lendOutput(); ids(again[:5]) != "abcde" || again[5].Kind != jobspec.PendingResult {
		t.Errorf("an output while results wait: %+v", again)
	}
	delete(h.an.diffs, run.ID) // the comparison is done
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("f")}})
	if got := ids(run.Results.Snapshot()); got != "abcdef" || len(run.Results.after) != 0 || &run.Results.items[0] != first {
		t.Errorf("after the comparison the results are %q, %d waiting, same array %v", got, len(run.Results.after), &run.Results.items[0] == first)
	}
}

// TestAReplayWithMoreLateRecordsThanTheLastKeepsItsArray: replays of one recording differ
// by the records they drop as late (each a late result beside its trace): 0 to 14,400 in
// replays of the recorded hour, beside its 71,700 traces. A replay that writes a fifth
// more results than the last one did keeps them in the array it reserved at its start,
// rather than moving them all to one a quarter larger and holding both for a moment (14
// and 18 MB at the session's peak). So does the first replay, whose room comes from the
// recording's lines, when a sixth of its records are late.
func TestAReplayWithMoreLateRecordsThanTheLastKeepsItsArray(t *testing.T) {
	h := New(Config{})
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("live")}})
	replay := func(traces, late int, lines int64) (moved bool) {
		h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
		run := h.Current()
		h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Lines: lines}})
		h.Apply(backend.Update{Results: []jobspec.Result{traceResult("first")}})
		first := &run.Results.items[0]
		for i := 1; i < traces; i++ {
			h.Apply(backend.Update{Results: []jobspec.Result{traceResult(fmt.Sprint(i))}})
		}
		for i := 0; i < late; i++ {
			h.Apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.LateResult, Record: jobspec.RecordTrace{RequestID: fmt.Sprint(i), Late: true}}}})
		}
		// Once read, the run gives back the room it did not use (trim): that move is not
		// the one this test is about.
		moved = &run.Results.items[0] != first
		h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Lines: lines, Done: true}})
		return moved
	}
	// 1,000 requests, 2,000 lines: 1,000 traces, and 160 of the 2,000 records late.
	if replay(1000, 160, 2000) {
		t.Error("the first replay, 16 % of its results late, moved its results to a new array")
	}
	if replay(1000, 0, 2000) {
		t.Error("a replay with no late record moved its results")
	}
	if replay(1000, 200, 2000) {
		t.Error("a replay with a fifth more results than the last (200 late after none) moved its results to a new array")
	}
}

// TestANewerReplayOfTheSameHourTakesThePlaceOfTheLastOnesResults: once a replay is read
// to the end whole, an earlier replay of the same recording, timestamp field and
// watermarks lets go of its results (its comparison stays in the evidence), unless it is
// pinned to an exercise; a replay with other watermarks (4.3's second result) keeps them.
func TestANewerReplayOfTheSameHourTakesThePlaceOfTheLastOnesResults(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.minute(0, 0.2, 0.2)                        // the live run
	replay := func(wm watermark.Strategy) *Run { // run 2, 3, ...
		l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
			Watermarks: wm, Recording: "hour.jsonl.gz"}})
		l.apply(backend.Update{Results: []jobspec.Result{traceOf("r-1")}})
		l.minute(0, 0.2, 0.2)
		l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
		return l.h.Current()
	}
	whole := func(r *Run) bool { return r.Results.complete() && r.Results.Len() > 0 }
	first := replay(watermark.Strategy{})
	second := replay(watermark.Strategy{})
	if whole(first) || !whole(second) {
		t.Fatalf("after the second replay: the first whole %v, the second %v", whole(first), whole(second))
	}
	if f := l.h.Finding("4.3"); f == nil || f.Run.ID != second.ID {
		t.Errorf("4.3 = %+v, want the second replay's", f)
	}
	if err := l.h.pin("4.3", second.ID); err != nil {
		t.Fatal(err)
	}
	third := replay(watermark.Strategy{})
	if !whole(second) || !whole(third) {
		t.Errorf("the pinned replay whole %v, the third %v", whole(second), whole(third))
	}
	other := replay(watermark.Strategy{At: watermark.Source})
	if !whole(third) || !whole(other) {
		t.Errorf("a replay with watermarks per partition let the third go (%v) or is not whole (%v)", whole(third), whole(other))
	}
}

// Given a run that began with a restart (a kill) and has no result yet, when the next
// restart comes (a replay asked for before the killed job wrote anything), then the
// replay is a run of its own: the kill's run keeps its number, reason and start, so
// evidence that named it goes on naming it. Only the session's first run, which no
// restart began, is taken over by the backend's first start.
func TestAnEmptyRunThatARestartBeganKeepsItsNumberWhenTheNextRestartComes(t *testing.T) {
	h := New(Config{})
	h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseStart, Reason: "started", At: 1000}})
	if len(h.Runs()) != 1 || h.Current().ID != 1 || h.Current().Reason != "started" {
		t.Fatalf("the first start made runs %+v, want it to take over the session's first run", h.Runs())
	}
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("a")}})
	h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseKill, Reason: "TaskManager killed", At: 2000}})
	killed := h.Current()
	h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay of hour.jsonl.gz", At: 3000,
		Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
	var got []string
	for _, r := range h.Runs() {
		got = append(got, fmt.Sprintf("%d %s %d", r.ID, r.kind(), r.StartedAt))
	}
	if want := "[1 start 1000 2 kill 2000 3 replay 3000]"; fmt.Sprint(got) != want {
		t.Errorf("runs %v, want %s", got, want)
	}
	if killed.ID != 2 || killed.Reason != "TaskManager killed" || killed.Replay || !killed.Ended {
		t.Errorf("the kill's run became %d %q (replay %v, ended %v)", killed.ID, killed.Reason, killed.Replay, killed.Ended)
	}
}

// TestAFinishedReplayGivesBackTheRoomItDidNotUse: the second replay reserves a quarter
// more than the first wrote; once read, it keeps its results and only a little room past
// them, for the processing-time windows that fire afterwards (with the recorded hour, 3
// MB of each 16 MB replay kept).
func TestAFinishedReplayGivesBackTheRoomItDidNotUse(t *testing.T) {
	h := New(Config{})
	h.Apply(backend.Update{Results: []jobspec.Result{traceResult("live")}})
	replay := func() *Run {
		h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		h.Apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
		rs := make([]jobspec.Result, 10_000)
		for i := range rs {
			rs[i] = traceResult(fmt.Sprint(i))
		}
		h.Apply(backend.Update{Results: rs})
		h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Done: true}})
		return h.Current()
	}
	replay()
	run := replay()
	if c := cap(run.Results.items); c > 10_000+10_000/64+64 {
		t.Errorf("the replay holds room for %d results after writing 10,000", c)
	}
	h.Apply(backend.Update{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 1, 1)}})
	if snap := run.Results.Snapshot(); len(snap) != 10_001 || snap[0].Record.RequestID != "0" || snap[10_000].Kind != jobspec.ProcessingTimeResult {
		t.Errorf("the replay kept %d results", len(snap))
	}
}
