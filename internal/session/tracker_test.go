package session

import (
	"context"
	"errors"
	"github.com/labtui/labtui/labs/lab4"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
)

const t0 = 1795946400000 // 10:00:00.000 UTC

func fired(kind jobspec.Kind, tenant string, m int64, usd float64, n int64) jobspec.Result {
	return jobspec.Result{Kind: kind, Minute: gateway.TenantCostMinute{TenantID: tenant,
		WindowStart: t0 + m*60000, WindowEnd: t0 + (m+1)*60000, USD: usd, Requests: n}}
}

func status(now, wm int64) *backend.Status {
	return &backend.Status{Now: now, Watermark: wm, Instances: []backend.Instance{{Name: "gw-0"}, {Name: "gw-1"}}}
}

type lab struct {
	h *Session
	t *tracker
}

func newLab() *lab { return newLabWith(Config{}) }

func newLabWith(cfg Config) *lab {
	s := New(cfg)
	return &lab{s, s.ev}
}

// apply takes in u and runs the tasks it starts to the end, as a driver would.
func (l *lab) apply(u backend.Update) { l.h.RunTasks(context.Background(), l.h.Apply(u)) }

// minute fires minute m in both panes for acme and globex, with the given acme USD per
// pane, and moves the clocks past it.
func (l *lab) minute(m int64, ptUSD, etUSD float64) {
	l.apply(backend.Update{Results: []jobspec.Result{
		fired(jobspec.ProcessingTimeResult, "acme", m, ptUSD, 2), fired(jobspec.EventTimeResult, "acme", m, etUSD, 2),
		fired(jobspec.ProcessingTimeResult, "globex", m, 0.1, 1), fired(jobspec.EventTimeResult, "globex", m, 0.1, 1),
	}, Status: status(t0+(m+1)*60000+2000, t0+(m+1)*60000+1500)})
}

func TestAHiccupSeenOnlyInTheStatusCounts(t *testing.T) {
	l := newLab()
	s := status(t0+30000, t0+29000)
	s.Instances[0].Hiccup = true
	s.Instances[0].HiccupLeft = 20 * time.Second
	l.apply(backend.Update{Status: s})
	if inst, at, _, ok := l.t.lastHiccup(); !ok || inst != "gw-0" || at != t0+30000 {
		t.Errorf("LastHiccup = %s %d %v", inst, at, ok)
	}
}

// hourReference is the reference run tests re-enact: minute 0 as the live run billed it.
func hourReference(context.Context, string, jobspec.Options) ([]jobspec.Result, error) {
	return []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 0.2, 2), fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2),
		fired(jobspec.ProcessingTimeResult, "globex", 0, 0.1, 1), fired(jobspec.EventTimeResult, "globex", 0, 0.1, 1)}, nil
}

func TestReplaysTick43And44WithDiffsAndMovedRequests(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.minute(0, 0.2, 0.2)
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-7", TenantID: "acme", EventWindowEnd: t0 + 60000}}}})

	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-7", TenantID: "acme", EventWindowEnd: t0 + 60000}}}})
	l.minute(0, 9.9, 0.2)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	if !l.t.done("4.3") || l.t.done("4.4") {
		t.Fatalf("steps = %+v", l.t.steps)
	}
	f := l.h.Finding("4.3")
	want := "In run 2 (replay of hour.jsonl.gz, completed_ts), the event-time output against the recorded hour re-enacted at its recorded times under for_monotonous_timestamps(): " +
		"2 of 2 (tenant, minute) rows identical; its processing-time windows put the whole recording, $10.0000 and 3 requests, " +
		"into the minute 10:00 of the wall clock the replay ran at."
	if f == nil || lab4.Sentence(f) != want || f.Run.Recording != "hour.jsonl.gz" {
		t.Errorf("4.3 finding %+v\nwant %q", f, want)
	}
	var st state.State
	l.t.fill(&st)
	r := st.Evidence.Replays[0]
	if r.Diff == nil || r.Diff.Same != 2 || r.Diff.Different != 0 || !strings.Contains(r.Diff.Against, "live") {
		t.Errorf("replay 1 = %+v diff %+v", r, r.Diff)
	}

	l.h.ReplayAsked("hour.jsonl.gz", jobspec.StartedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.StartedTS}})
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-7", TenantID: "acme", Timestamp: t0 - 2000, EventWindowEnd: t0}}}})
	l.minute(0, 0.1, 0.3)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	if !l.t.done("4.4") {
		t.Fatal("4.4 not ticked")
	}
	f = l.h.Finding("4.4")
	want = "In run 3 (replay of hour.jsonl.gz, started_ts), 1 request changed minute; r-7 (acme, $0.0000) started 09:59:58.000: " +
		"completed_ts bills it in 10:00, started_ts in 09:59."
	if f == nil || lab4.Sentence(f) != want {
		t.Errorf("4.4 finding %+v\nwant %q", f, want)
	}
	l.t.fill(&st)
	if len(st.Evidence.Moved) != 1 || st.Evidence.Moved[0].StartedMinute != t0-60000 || st.Evidence.Moved[0].CompletedMinute != t0 {
		t.Errorf("moved = %+v", st.Evidence.Moved)
	}
	r = st.Evidence.Replays[1]
	if r.Timestamp != "started_ts" || r.Diff == nil || r.Diff.Different != 1 || !strings.Contains(r.Diff.Against, "replay, completed_ts") {
		t.Errorf("replay 2 = %+v diff %+v", r, r.Diff)
	}
	// The hour's live run read completed_ts: only that re-enactment is what it billed.
	if c := st.Evidence.Replays[0].Compare; c == nil || !strings.Contains(c.Reference, "with completed_ts under for_monotonous_timestamps() (what its live run billed)") {
		t.Errorf("replay 1's reference = %+v", c)
	}
	if c := r.Compare; c == nil || strings.Contains(c.Reference, "what its live run billed") ||
		!strings.Contains(c.Reference, "with started_ts under for_monotonous_timestamps() (what a live run reading started_ts would have billed)") {
		t.Errorf("replay 2's reference = %+v", c)
	}
}

func TestAFailedReplayIsRecordedButNotTicked(t *testing.T) {
	l := newLab()
	l.h.ReplayAsked("missing.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Err: errors.New("no such file")}})
	var st state.State
	l.t.fill(&st)
	if l.t.done("4.3") || len(st.Evidence.Replays) != 1 || st.Evidence.Replays[0].Error != "no such file" {
		t.Errorf("steps %+v replays %+v", l.t.steps, st.Evidence.Replays)
	}
}

func TestSavedStepsStayTicked(t *testing.T) {
	saved := state.New()
	saved.Steps["4.3"] = state.Step{Done: true}
	if !New(Config{Saved: &saved}).Done("4.3") {
		t.Error("a saved tick was lost")
	}
}

// TestAComparisonWithAReplayThatWroteNothingIsNoEvidence: on a real backend a replay
// whose job read nothing was compared with the hour's reference, "0 of 2 rows
// identical", and 4.3 ticked from it. A run with no results shows nothing of how the
// outputs compare: the step stays open and the pin choice says why.
func TestAComparisonWithAReplayThatWroteNothingIsNoEvidence(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.minute(0, 0.2, 0.2)
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	l.apply(backend.Update{Status: status(t0+200000, 0)})
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 0, Done: true}})
	var st state.State
	l.t.fill(&st)
	if len(st.Evidence.Replays) != 1 || st.Evidence.Replays[0].Compare == nil || st.Evidence.Replays[0].Compare.EventTime.OnlyA != 2 {
		t.Fatalf("the empty replay was not compared with the reference: %+v", st.Evidence.Replays)
	}
	if f := l.h.Finding("4.3"); f != nil || l.t.done("4.3") {
		t.Errorf("4.3 backed by a replay that wrote nothing: %+v", f)
	}
	var why string
	for _, c := range l.h.PinChoices("4.3") {
		if c.Run.ID == 2 {
			why = c.Why
		}
	}
	if why != "the replay wrote no event-time window: a comparison with an empty run shows nothing" {
		t.Errorf("run 2's pin choice says %q", why)
	}
}

// A real job's results can come after the replay's Done (its source has read the topic,
// its Python stages have not finished with it): the first comparison, of nothing, is no
// evidence, and the results that come after are compared and tick 4.3.
func TestResultsAfterAReplaysDoneAreComparedAndTick43(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.minute(0, 0.2, 0.2)
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}, Status: status(t0+61000, jobspec.MinWatermark)})
	if l.t.done("4.3") {
		t.Fatal("4.3 ticked from a comparison with no result of the replay")
	}
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-7", TenantID: "acme", EventWindowEnd: t0 + 60000}}}})
	l.minute(0, 9.9, 0.2)
	if !l.t.done("4.3") {
		f := l.h.Finding("4.3")
		t.Fatalf("4.3 not ticked once the replay's results came: finding %+v", f)
	}
}

// 4.4 likewise: the started_ts replay's results come after its Done, and the requests
// that moved minutes are listed from them, ticking 4.4.
func TestResultsAfterAStartedTSReplaysDoneListMovedRequestsAndTick44(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	l.minute(0, 0.2, 0.2)
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-7", TenantID: "acme", EventWindowEnd: t0 + 60000}}}})
	l.minute(0, 9.9, 0.2)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.StartedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.StartedTS}})
	// At its Done the job has billed one request, one that did not move.
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-8", TenantID: "globex", Timestamp: t0 + 1000, EventWindowEnd: t0 + 60000}}}})
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}, Status: status(t0+61000, jobspec.MinWatermark)})
	if l.t.done("4.4") {
		t.Fatal("4.4 ticked before the started_ts replay had a moved request")
	}
	l.apply(backend.Update{Results: []jobspec.Result{{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
		RequestID: "r-7", TenantID: "acme", Timestamp: t0 - 2000, EventWindowEnd: t0}}}})
	l.minute(0, 0.1, 0.3)
	if !l.t.done("4.4") {
		t.Fatalf("4.4 not ticked once the started_ts replay's results came: finding %+v", l.h.Finding("4.4"))
	}
}
