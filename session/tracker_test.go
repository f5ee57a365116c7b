package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
)

const t0 = 1795946400000 // 10:00:00.000 UTC

func fired(kind meter.Kind, tenant string, m int64, usd float64, n int64) meter.Result {
	return meter.Result{Kind: kind, Minute: gateway.TenantCostMinute{TenantID: tenant,
		WindowStart: t0 + m*60000, WindowEnd: t0 + (m+1)*60000, USD: usd, Requests: n}}
}

func status(now, wm int64) *backend.Status {
	return &backend.Status{Now: now, Watermark: wm, Instances: []backend.Instance{{Name: "gw-0"}, {Name: "gw-1"}}}
}

type lab struct {
	h *Session
	t *tracker
}

func newLab() *lab {
	s := New(Config{})
	return &lab{s, s.ev}
}

func (l *lab) apply(u backend.Update) { l.h.Apply(u) }

// minute fires minute m in both panes for acme and globex, with the given acme USD per
// pane, and moves the clocks past it.
func (l *lab) minute(m int64, ptUSD, etUSD float64) {
	l.apply(backend.Update{Results: []meter.Result{
		fired(meter.ProcessingTimeResult, "acme", m, ptUSD, 2), fired(meter.EventTimeResult, "acme", m, etUSD, 2),
		fired(meter.ProcessingTimeResult, "globex", m, 0.1, 1), fired(meter.EventTimeResult, "globex", m, 0.1, 1),
	}, Status: status(t0+(m+1)*60000+2000, t0+(m+1)*60000+1500)})
}

func TestFiveAgreeingMinutesTick41WithTheTable(t *testing.T) {
	l := newLab()
	for m := range int64(4) {
		l.minute(m, 0.2, 0.2)
	}
	if l.t.done("4.1") {
		t.Fatal("4.1 ticked after four minutes")
	}
	l.minute(4, 0.2, 0.2)
	if !l.t.done("4.1") {
		t.Fatal("4.1 not ticked after five agreeing minutes")
	}
	var st state.State
	l.t.fill(&st)
	if !strings.Contains(st.Steps["4.1"].Because, "10:00, 10:01, 10:02, 10:03, 10:04") {
		t.Errorf("because = %q", st.Steps["4.1"].Because)
	}
	if a := st.Evidence.Agreement; a == nil || len(a.Rows) != 10 || a.Run != 1 {
		t.Errorf("agreement = %+v", a)
	}
}

func TestADifferingMinuteDoesNotCountFor41(t *testing.T) {
	l := newLab()
	for m := range int64(5) {
		usd := 0.2
		if m == 2 {
			usd = 0.3
		}
		l.minute(m, 0.2, usd)
	}
	if l.t.done("4.1") {
		t.Error("4.1 ticked with only four agreeing minutes")
	}
}

func TestAHiccupThenADifferingMinuteTicks42WithLateRecords(t *testing.T) {
	l := newLab()
	l.minute(0, 0.2, 0.2)
	l.h.Injected("gw-1", 35*time.Second, t0+100000) // 10:01:40
	l.minute(1, 0.2, 0.2)
	if l.t.done("4.2") {
		t.Fatal("4.2 ticked with agreeing panes")
	}
	late := meter.Result{Kind: meter.LateResult, Record: meter.RecordTrace{RequestID: "r-103", TenantID: "acme",
		Timestamp: t0 + 104000, Watermark: t0 + 129000, Arrival: t0 + 135000, USD: 0.1}}
	l.apply(backend.Update{Results: []meter.Result{late}})
	l.minute(2, 0.4, 0.2)
	if !l.t.done("4.2") {
		t.Fatal("4.2 not ticked")
	}
	var st state.State
	l.t.fill(&st)
	h := st.Evidence.Hiccup
	if h == nil || h.Instance != "gw-1" || len(h.Late) != 1 || h.Late[0].Watermark != t0+129000 {
		t.Fatalf("hiccup evidence = %+v", h)
	}
	// The evidence follows the run: a minute fired later is in the copy.
	l.minute(3, 0.1, 0.1)
	l.t.fill(&st)
	if n := len(st.Evidence.Hiccup.Table.Rows); n != 8 {
		t.Errorf("hiccup table has %d rows, want 8 (minutes 0 to 3, two tenants)", n)
	}
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

func TestReplaysTick43And44WithDiffsAndMovedRequests(t *testing.T) {
	l := newLab()
	l.minute(0, 0.2, 0.2)
	l.apply(backend.Update{Results: []meter.Result{{Kind: meter.TraceResult, Record: meter.RecordTrace{
		RequestID: "r-7", TenantID: "acme", EventWindowEnd: t0 + 60000}}}})

	l.h.ReplayAsked("hour.jsonl.gz", meter.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: meter.CompletedTS}})
	l.minute(0, 9.9, 0.2)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	if !l.t.done("4.3") || l.t.done("4.4") {
		t.Fatalf("steps = %+v", l.t.steps)
	}
	var st state.State
	l.t.fill(&st)
	r := st.Evidence.Replays[0]
	if r.Diff == nil || r.Diff.Same != 2 || r.Diff.Different != 0 || !strings.Contains(r.Diff.Against, "live") {
		t.Errorf("replay 1 = %+v diff %+v", r, r.Diff)
	}

	l.h.ReplayAsked("hour.jsonl.gz", meter.StartedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: meter.StartedTS}})
	l.apply(backend.Update{Results: []meter.Result{{Kind: meter.TraceResult, Record: meter.RecordTrace{
		RequestID: "r-7", TenantID: "acme", Timestamp: t0 - 2000, EventWindowEnd: t0}}}})
	l.minute(0, 0.1, 0.3)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	if !l.t.done("4.4") {
		t.Fatal("4.4 not ticked")
	}
	l.t.fill(&st)
	if len(st.Evidence.Moved) != 1 || st.Evidence.Moved[0].StartedMinute != t0-60000 || st.Evidence.Moved[0].CompletedMinute != t0 {
		t.Errorf("moved = %+v", st.Evidence.Moved)
	}
	r = st.Evidence.Replays[1]
	if r.Timestamp != "started_ts" || r.Diff == nil || r.Diff.Different != 1 || !strings.Contains(r.Diff.Against, "replay, completed_ts") {
		t.Errorf("replay 2 = %+v diff %+v", r, r.Diff)
	}
}

func TestAFailedReplayIsRecordedButNotTicked(t *testing.T) {
	l := newLab()
	l.h.ReplayAsked("missing.jsonl.gz", meter.CompletedTS)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Err: errors.New("no such file")}})
	var st state.State
	l.t.fill(&st)
	if l.t.done("4.3") || len(st.Evidence.Replays) != 1 || st.Evidence.Replays[0].Error != "no such file" {
		t.Errorf("steps %+v replays %+v", l.t.steps, st.Evidence.Replays)
	}
}

func TestSavedStepsStayTicked(t *testing.T) {
	saved := state.New()
	saved.Steps["4.3"] = state.Step{Done: true, Because: "earlier"}
	if !New(Config{Saved: &saved}).Done("4.3") {
		t.Error("a saved tick was lost")
	}
}

func TestABoundaryRecordAloneDoesNotTick42(t *testing.T) {
	l := newLab()
	l.minute(0, 0.2, 0.2)
	l.h.Injected("gw-1", 35*time.Second, t0+100000)
	// One record that completed just before 10:01 reached the windows just after: the
	// panes differ by one request with no fault involved.
	l.apply(backend.Update{Results: []meter.Result{
		fired(meter.ProcessingTimeResult, "acme", 1, 0.2, 2), fired(meter.EventTimeResult, "acme", 1, 0.3, 3),
	}, Status: status(t0+122000, t0+121500)})
	if l.t.done("4.2") {
		t.Error("4.2 ticked on a one-request boundary difference")
	}
	l.apply(backend.Update{Results: []meter.Result{
		fired(meter.ProcessingTimeResult, "globex", 2, 0.9, 9), fired(meter.EventTimeResult, "globex", 2, 0.3, 3),
	}, Status: status(t0+182000, t0+181500)})
	if !l.t.done("4.2") {
		t.Error("4.2 not ticked on a six-request difference after the hiccup")
	}
}
