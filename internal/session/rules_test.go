package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/labs/lab4"
)

// started begins the lab's first run at 09:59:55, as a backend reports its start.
func (l *lab) started() {
	l.apply(backend.Update{Run: 1, Restarted: &backend.Restart{Run: 1, Cause: backend.CauseStart, Reason: "started", At: t0 - 5000}})
}

// held is a status at now with gw-1 held or not.
func held(now, wm int64, on bool) *backend.Status {
	s := status(now, wm)
	s.Instances[1].Hiccup = on
	return s
}

// lateFrom is a record of gw-1 completed at ts that reached the windows at arrival,
// dropped as late behind the watermark wm.
func lateFrom(gw, id string, ts, arrival, wm int64) jobspec.Result {
	return jobspec.Result{Kind: jobspec.LateResult, Record: jobspec.RecordTrace{RequestID: id, TenantID: "acme", Gateway: gw,
		Timestamp: ts, Arrival: arrival, Watermark: wm, USD: 0.1}}
}

func TestFivePromptAgreeingMinutesTick41WithTheirRowsAndTheRun(t *testing.T) {
	l := newLab()
	l.started()
	for m := range int64(4) {
		l.minute(m, 0.2, 0.2)
	}
	f := l.h.Finding("4.1")
	if l.t.done("4.1") || f == nil || f.Met || len(f.Rows) != 8 {
		t.Fatalf("after four minutes: done %v, finding %+v", l.t.done("4.1"), f)
	}
	if !strings.Contains(lab4.Sentence(f), "4 of the 5 minutes 4.1 asks for so far") {
		t.Errorf("sentence = %q", lab4.Sentence(f))
	}
	l.minute(4, 0.2, 0.2)
	f = l.h.Finding("4.1")
	if !l.t.done("4.1") || !f.Met || f.Run.ID != 1 || f.Run.Kind != "start" || f.Run.Watermarks != "for_monotonous_timestamps()" {
		t.Fatalf("after five minutes: done %v, finding %+v", l.t.done("4.1"), f)
	}
	want := "In run 1 (start, completed_ts), the 5 minutes 10:00, 10:01, 10:02, 10:03 and 10:04 agree tenant by tenant in both windows " +
		"(10 rows, $1.5000 and 15 requests in each), with no hiccup, restart or late record in them."
	if lab4.Sentence(f) != want {
		t.Errorf("sentence = %q\nwant       %q", lab4.Sentence(f), want)
	}
	var st state.State
	l.t.fill(&st)
	if a := st.Evidence.Agreement; a == nil || len(a.Rows) != 10 || a.Run != 1 {
		t.Errorf("agreement table = %+v", a)
	}
}

func TestAMinuteThatDiffersOrThatARestartBeganDoesNotCountFor41(t *testing.T) {
	l := newLab() // no start reported: the first minute may be the one the job came up in
	for m := range int64(6) {
		usd := 0.2
		if m == 3 {
			usd = 0.3
		}
		l.minute(m, 0.2, usd)
	}
	f := l.h.Finding("4.1")
	if l.t.done("4.1") || f == nil || !strings.Contains(lab4.Sentence(f), "the 4 minutes 10:01, 10:02, 10:04 and 10:05") {
		t.Errorf("done %v, finding %+v", l.t.done("4.1"), f)
	}
	// The sentence says why 10:03 does not count.
	if want := "; 4 of the 5 minutes 4.1 asks for so far (left out: 10:00, the minute the job came up in: records queued before it " +
		"was up; 10:03, the windows differ and the run's traces of it (or its latency) are not there to tell what crossed its " +
		"boundaries)."; !strings.HasSuffix(lab4.Sentence(f), want) {
		t.Errorf("sentence = %q\nwant it to end %q", lab4.Sentence(f), want)
	}
}

// courseHiccup runs the course's table: gw-1 held 10:00:40–10:01:15, its records of
// 10:00:44 and 10:00:52 arriving at 10:01:17 behind a watermark of 10:01:08.999.
func courseHiccup(l *lab) {
	l.started()
	l.minute(0, 0.2, 0.2) // status at 10:01:02: not held yet in this script
	l.apply(backend.Update{Status: held(t0+40000, t0+39000, true)})
	l.apply(backend.Update{Status: held(t0+75000, t0+69000, false)})
	l.apply(backend.Update{Results: []jobspec.Result{
		lateFrom("gw-1", "r-103", t0+44000, t0+77000, t0+68999), lateFrom("gw-1", "r-104", t0+52000, t0+79000, t0+68999),
	}, Status: held(t0+80000, t0+79500, false)})
}

func TestAHiccupAcrossAMinuteWithLateRecordsTicks42AfterTheEffect(t *testing.T) {
	l := newLab()
	courseHiccup(l)
	if l.h.Finding("4.2") != nil || l.t.done("4.2") {
		t.Fatal("4.2 found before both windows closed the minute the hold ended in")
	}
	l.minute(1, 0.4, 0.2)
	f := l.h.Finding("4.2")
	if f == nil || !f.Met || !l.t.done("4.2") {
		t.Fatalf("finding %+v", f)
	}
	want := "In run 1 (start, completed_ts), gw-1 was held 10:00:40–10:01:15, across the 10:01 boundary: 2 of its records ($0.2000) " +
		"arrived 10:01:17–10:01:19 behind the watermark and the event-time window dropped them as late (r-103, timestamp 10:00:44.000, " +
		"met a watermark of 10:01:08.999); processing time billed them in the minute they arrived."
	if lab4.Sentence(f) != want {
		t.Errorf("sentence = %q\nwant       %q", lab4.Sentence(f), want)
	}
	if len(f.Rows) != 4 || f.Rows[2].Cells[minutes.Processing].USD != 0.4 || f.Rows[2].Cells[minutes.Event].USD != 0.2 {
		t.Errorf("rows = %+v", f.Rows)
	}
	var st state.State
	l.t.fill(&st)
	if h := st.Evidence.Hiccup; h == nil || len(h.Late) != 2 || h.Late[0].Watermark != t0+68999 || h.At != t0+40000 || h.DurationMS != 35000 {
		t.Errorf("hiccup evidence = %+v", h)
	}
}

func TestAHiccupThatCrossedNoMinuteNeverTicks42(t *testing.T) {
	l := newLab()
	l.started()
	// Held 10:00:16–10:00:51: no minute boundary inside the hold. The machine stalled
	// meanwhile: nine records slipped across 10:01 and one of gw-0's was late.
	l.apply(backend.Update{Status: held(t0+16000, t0+15000, true)})
	l.apply(backend.Update{Status: held(t0+51000, t0+50000, false)})
	l.apply(backend.Update{Results: []jobspec.Result{lateFrom("gw-0", "r-9", t0+58000, t0+61000, t0+60500),
		fired(jobspec.ProcessingTimeResult, "acme", 0, 0.2, 2), fired(jobspec.EventTimeResult, "acme", 0, 1.1, 11)},
		Status: held(t0+62000, t0+61500, false)})
	l.minute(1, 1.1, 0.2)
	l.minute(2, 0.2, 0.2)
	if f := l.h.Finding("4.2"); f != nil || l.t.done("4.2") {
		t.Errorf("4.2 found on a hiccup that crossed no minute: %+v", f)
	}
}

func TestALaterProperHiccupUpdatesTheEvidenceUnlessTheAnswerPinnedIt(t *testing.T) {
	for _, answered := range []bool{false, true} {
		l := newLab()
		courseHiccup(l)
		l.minute(1, 0.4, 0.2)
		if answered {
			l.h.Answered(map[string]string{"4.2b": "10:01:08.999"})
		}
		// A second hiccup, 10:02:40–10:03:15, with one late record.
		l.apply(backend.Update{Status: held(t0+160000, t0+159000, true)})
		l.apply(backend.Update{Status: held(t0+195000, t0+190000, false)})
		l.apply(backend.Update{Results: []jobspec.Result{lateFrom("gw-1", "r-300", t0+170000, t0+196000, t0+189999)},
			Status: held(t0+197000, t0+196500, false)})
		l.minute(3, 0.3, 0.2)
		f := l.h.Finding("4.2")
		later := strings.Contains(lab4.Sentence(f), "held 10:02:40–10:03:15")
		if later == answered || f.Pinned != answered {
			t.Errorf("answered %v: the finding is %q (pinned %v)", answered, lab4.Sentence(f), f.Pinned)
		}
	}
}

func TestBoundedOutOfOrdernessIsNot42sStrategy(t *testing.T) {
	l := newLabWith(Config{Job: jobspec.Options{Watermarks: watermark.Strategy{OutOfOrderness: 40 * time.Second}}})
	l.minute(0, 0.2, 0.2)
	l.apply(backend.Update{Status: held(t0+40000, t0+39000, true)})
	l.apply(backend.Update{Status: held(t0+75000, t0+69000, false)})
	l.apply(backend.Update{Results: []jobspec.Result{lateFrom("gw-1", "r-103", t0+4000, t0+77000, t0+8999)}, Status: held(t0+80000, t0+79500, false)})
	l.minute(1, 0.4, 0.2)
	if f := l.h.Finding("4.2"); f != nil {
		t.Errorf("4.2 found under bounded out-of-orderness: %+v", f)
	}
}

func TestPinningARunThatShowsNothingSaysWhy(t *testing.T) {
	l := newLab()
	l.started()
	l.minute(0, 0.2, 0.2)
	if err := l.h.pin("4.2", 1); err == nil || !strings.Contains(err.Error(), "shows nothing for 4.2") {
		t.Errorf("Pin = %v", err)
	}
	if err := l.h.pin("4.1", 9); err == nil || !strings.Contains(err.Error(), "no longer kept") {
		t.Errorf("Pin = %v", err)
	}
}

// TestTheLearnersChosenReferenceIsWhat43sDiffIsAgainst: a replay chosen as the reference
// stays whole through the next replay of the hour, which is diffed against it; a replay
// not chosen lets go of its results once a newer one of the same recording, field and
// watermarks is read to the end, and choosing it then says why and what to do instead.
func TestTheLearnersChosenReferenceIsWhat43sDiffIsAgainst(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	replay := func() {
		l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
		l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
		l.minute(0, 9.9, 0.2)
		l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	}
	replay()
	replay()
	if f := l.h.Finding("4.3"); f == nil || f.Run.ID != 2 || !strings.Contains(lab4.Sentence(f), "against the recorded hour re-enacted") {
		t.Fatalf("before choosing: %+v", f)
	}
	if _, err := l.h.chooseReference(9); err == nil {
		t.Error("a run not kept was accepted as the reference")
	}
	_, err := l.h.chooseReference(1)
	if err == nil || !strings.Contains(err.Error(), "when run 2, a replay of the same recording") || !strings.Contains(err.Error(), "choose a replay as the reference before you replay again") {
		t.Fatalf("choosing the replay run 2 took the place of: %v", err)
	}
	// Chosen before the next replay, run 2 stays whole and run 3 is diffed against it.
	tasks, err := l.h.chooseReference(2)
	if err != nil {
		t.Fatal(err)
	}
	l.h.RunTasks(context.Background(), tasks)
	replay()
	if r := l.h.run(2); r == nil || !r.Results.complete() || r.Results.Len() == 0 {
		t.Fatalf("the chosen replay let go of its results: %+v", r)
	}
	f := l.h.Finding("4.3")
	want := "In run 3 (replay of hour.jsonl.gz, completed_ts), the event-time output against run 2 (replay of hour.jsonl.gz, completed_ts) under for_monotonous_timestamps(): " +
		"2 of 2 (tenant, minute) rows identical; its processing-time windows put the whole recording, $10.0000 and 3 requests, " +
		"into the minute 10:00 of the wall clock the replay ran at."
	if f == nil || lab4.Sentence(f) != want {
		t.Errorf("4.3 = %+v\nwant %q", f, want)
	}
	if st := l.h.DiffState(false); st.Diff == nil || st.Diff.Names.A != "run 2" || !strings.Contains(st.Title, "against run 2") {
		t.Errorf("the diff view shows %q with %+v", st.Title, st.Diff)
	}
}

func TestRestoringSavedProgressKeepsItsFindingsUntilThisSessionHasItsOwn(t *testing.T) {
	saved := state.New()
	saved.Answers["4.2a"] = "no"
	saved.Evidence.Findings = map[string]*state.Finding{"4.2": {Run: state.RunRef{ID: 1, Kind: "start"}, Met: true, Pinned: true, Saved: "saved"}}
	l := newLab()
	l.h.Restore(saved)
	if f := l.h.Finding("4.2"); f == nil || lab4.Sentence(f) != "saved" {
		t.Fatalf("after Restore: %+v", f)
	}
	// A pinned saved finding stays whatever this session's runs show.
	courseHiccup(l)
	l.minute(1, 0.4, 0.2)
	if f := l.h.Finding("4.2"); lab4.Sentence(f) != "saved" {
		t.Errorf("a pinned saved finding was replaced by %q", lab4.Sentence(f))
	}
}

// TestASecondHiccupUnderABoundAboveTheHoldIs42sEventTimeColumn: after the course's
// hiccup under for_monotonous_timestamps(), w restarts the job under
// for_bounded_out_of_orderness(40 s) and a second hiccup holds gw-1 10:05:40–10:06:15:
// no held record is late, and 4.2's evidence adds what both windows billed in those
// minutes, the course's event-time column (issue 22, item 5: it was captured nowhere).
func TestASecondHiccupUnderABoundAboveTheHoldIs42sEventTimeColumn(t *testing.T) {
	l := newLab()
	courseHiccup(l)
	l.minute(1, 0.4, 0.2)
	if f := l.h.Finding("4.2"); f == nil || f.Hiccup == nil || f.Hiccup.Bounded != nil {
		t.Fatalf("after the first hiccup: %+v", f)
	}
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseStrategy, Reason: "strategy", At: t0 + 125000,
		Watermarks: watermark.Strategy{OutOfOrderness: 40 * time.Second}}})
	l.minute(3, 0.2, 0.2)
	l.minute(4, 0.2, 0.2)
	l.apply(backend.Update{Status: held(t0+340000, t0+299000, true)})
	l.apply(backend.Update{Status: held(t0+375000, t0+334000, false)})
	l.minute(5, 0.2, 0.4) // the held records arrive in 10:06: event time bills them in 10:05
	l.minute(6, 0.4, 0.2)
	l.apply(backend.Update{Status: status(t0+7*60000+2000, t0+7*60000+1500)})
	f := l.h.Finding("4.2")
	if f == nil || f.Run.ID != 1 || f.Hiccup == nil || f.Hiccup.Bounded == nil {
		t.Fatalf("after the second hiccup: %+v", f)
	}
	b := f.Hiccup.Bounded
	if b.Run.ID != 2 || b.Watermarks != "for_bounded_out_of_orderness(40 s)" || b.Late != 0 || b.From != t0+340000 || b.To != t0+375000 {
		t.Errorf("the bounded hiccup = %+v", b)
	}
	want := "Under for_bounded_out_of_orderness(40 s), in run 2 (restarted with other watermarks, completed_ts), gw-1 was held 10:05:40–10:06:15 with none of the " +
		"held records late: event time billed $0.5000 in 10:05 and $0.3000 in 10:06, processing time $0.3000 and $0.5000: the burst in " +
		"its own minute, the course's event-time column."
	if s := lab4.Sentence(f); !strings.HasSuffix(s, want) {
		t.Errorf("4.2 = %q\nwant it to end %q", s, want)
	}
}

// A live run's last minute whose event-time window had not fired when the run ended (the
// job killed, the TaskManager gone) is not judged: it is neither an agreeing minute nor one
// spoiled by anything the run did.
func TestALastMinuteWhoseEventWindowNeverFiredIsNotJudgedFor41(t *testing.T) {
	l := newLab()
	l.started()
	for m := range int64(3) {
		l.minute(m, 0.2, 0.2)
	}
	// 10:03 in processing time only: the watermark stays in it until the kill.
	l.apply(backend.Update{Results: []jobspec.Result{
		fired(jobspec.ProcessingTimeResult, "acme", 3, 0.2, 2), fired(jobspec.ProcessingTimeResult, "globex", 3, 0.1, 1),
	}, Status: status(t0+4*60000+2000, t0+3*60000+30000)})
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "kill", At: t0 + 4*60000 + 5000}})
	f := l.h.Finding("4.1")
	if f == nil || f.Run.ID != 1 || f.Agreement == nil {
		t.Fatalf("finding %+v", f)
	}
	if got := f.Agreement.Minutes; len(got) != 3 || got[2] != t0+2*60000 {
		t.Errorf("minutes %v, want 10:00-10:02", got)
	}
	for _, m := range f.Agreement.Spoiled {
		if m.Start == t0+3*60000 {
			t.Errorf("10:03, whose event-time window never fired, is judged spoiled (%s): %s", m.Cause, lab4.Sentence(f))
		}
	}
}
