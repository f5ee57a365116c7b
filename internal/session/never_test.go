package session

import (
	"context"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// traceOf is a trace of request id of acme, completed in minute 0.
func traceOf(id string) jobspec.Result {
	return jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{RequestID: id, TenantID: "acme", Timestamp: t0 + 1000,
		EventWindowEnd: t0 + 60000, ProcessingWindowEnd: t0 + 60000, USD: 0.1}}
}

// twoRequests is a reference of two requests of acme in minute 0, traced.
func twoRequests(context.Context, string, jobspec.Options) ([]jobspec.Result, error) {
	return []jobspec.Result{traceOf("r-1"), traceOf("r-2"),
		fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2), fired(jobspec.ProcessingTimeResult, "acme", 0, 0.2, 2)}, nil
}

// replayMissingOne replays into l a run that traced and windowed r-1 and not r-2, with
// the counts the backend gave: halves its job let go, results it dropped.
func replayMissingOne(l *lab, forgotten int64, dropped int) {
	replayMissingOneOf(l, forgotten, dropped, false)
}

// replayMissingOneOf is replayMissingOne by a job that counts the halves it lets go, or
// (uncounted) one that does not, as real Flink's.
func replayMissingOneOf(l *lab, forgotten int64, dropped int, uncounted bool) {
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Run: 2, Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
		Recording: "hour.jsonl.gz"}})
	st := status(t0+70000, t0+61000)
	st.Job.Forgotten, st.Job.ForgottenUncounted = forgotten, uncounted
	l.apply(backend.Update{Run: 2, Results: []jobspec.Result{traceOf("r-1"), fired(jobspec.EventTimeResult, "acme", 0, 0.1, 1),
		fired(jobspec.ProcessingTimeResult, "acme", 0, 0.1, 1)}, Dropped: dropped, Status: st})
	l.apply(backend.Update{Run: 2, Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 4, Done: true}})
}

// TestARecordThatNeverReachedTheReplaysWindowsIsAccountedFor: the diff view says where
// a record the reference counted and the replay has no trace of went, with the replay
// run's own counts: request halves its job let go (each such record is then a request
// it never assembled), results the lab dropped because the screen fell behind, or, with
// neither, that it is unaccounted for.
func TestARecordThatNeverReachedTheReplaysWindowsIsAccountedFor(t *testing.T) {
	for _, c := range []struct {
		forgotten int64
		dropped   int
		want      string
	}{
		{2, 0, "1 record the reference counted never reached the replay's windows: none of its output was dropped or let go, " +
			"so each is a request its job never assembled: its job let go of 2 request halves waiting for the other half of their " +
			"request (the RequestAssembler keeps a half 10 minutes of event time, by the watermark: a partition read more than that " +
			"behind the one furthest ahead loses a request's first half before its second is read, then the second, left waiting alone). " +
			"They are requests of the minute 10:00 by event time; when the job let their halves go is not known: it counts the halves it " +
			"lets go, not which or when."},
		{0, 3, "1 record the reference counted never reached the replay's windows: the lab dropped 3 of its results because the " +
			"screen fell behind (their records may well have reached the windows: the diff cannot see them)."},
		{0, 0, "1 record the reference counted never reached the replay's windows: UNACCOUNTED: its job let go of no request half, " +
			"and none of its output was dropped or let go."},
	} {
		l := newLabWith(Config{Reenact: twoRequests})
		replayMissingOne(l, c.forgotten, c.dropped)
		st := l.h.DiffState(false)
		if st.Diff == nil {
			t.Fatalf("no comparison: %q", st.Note)
		}
		if st.Diff.Never != 1 || st.Diff.NeverWhy != c.want {
			t.Errorf("forgotten %d, dropped %d: never %d, %q\nwant %q", c.forgotten, c.dropped, st.Diff.Never, st.Diff.NeverWhy, c.want)
		}
		if len(st.Diff.EventLines) == 0 || st.Diff.EventLines[0] != c.want || st.Diff.ProcessingLines[0] != c.want {
			t.Errorf("the report lines do not begin with it: %q", st.Diff.EventLines)
		}
		if ev := st.Diff.evidence("the hour"); len(ev.EventTime.Lines) == 0 || ev.EventTime.Lines[0] != c.want || ev.ProcessingTime.Lines[0] != c.want {
			t.Errorf("the evidence's report lines do not begin with it: %q", ev.EventTime.Lines)
		}
		if run := l.h.Current(); run.Dropped != c.dropped {
			t.Errorf("the replay's run counts %d dropped results, the backend said %d", run.Dropped, c.dropped)
		}
	}
}

// On a real Flink job, which does not count the request halves it lets go, a record
// that never reached the replay's windows is not "UNACCOUNTED": nothing of the output
// was dropped or let go, so its request was never assembled, and the sentence says the
// job does not count its halves instead of saying it let none go.
func TestARecordThatNeverReachedARealJobsWindowsIsARequestItNeverAssembled(t *testing.T) {
	l := newLabWith(Config{Reenact: twoRequests})
	replayMissingOneOf(l, 0, 0, true)
	st := l.h.DiffState(false)
	if st.Diff == nil {
		t.Fatalf("no comparison: %q", st.Note)
	}
	want := "1 record the reference counted never reached the replay's windows: none of its output was dropped or let go, " +
		"so each is a request its job never assembled: its job (real Flink) does not count the request halves it lets go, " +
		"and a half waits for the other half of its request 10 minutes of event time, by the watermark: a partition read " +
		"more than that behind the one furthest ahead loses a request's first half before its second is read, then the " +
		"second, left waiting alone. They are requests of the minute 10:00 by event time."
	if st.Diff.NeverWhy != want {
		t.Errorf("never %d, %q\nwant %q", st.Diff.Never, st.Diff.NeverWhy, want)
	}
}
