package session

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// pending is window m of tenant still open, with its running totals, as a status lists it.
func pending(window jobspec.Kind, tenant string, m int64, usd float64, n int64) jobspec.Result {
	r := fired(window, tenant, m, usd, n)
	r.Kind, r.Window = jobspec.PendingResult, window
	return r
}

// TestAKillShowsWhatSurvivedWasLostRecomputedAndEmittedTwice is the course's "If a
// TaskManager dies right now" with x: run 1 emits 10:00 and 10:01 in both windows and
// has 10:02 open when it is killed at 10:02:30 (acme's windows written as pending
// results, globex's listed open by the status). Run 2 starts with empty state and
// re-reads the topic: it emits 10:00 again, acme's identical and globex's with a record
// run 1 had dropped as late; 10:01 again, acme's without a record it dropped as late
// while catching up; 10:02, which run 1 had open; and processing time
// bills everything it re-read in 10:02, the minute it came back.
func TestAKillShowsWhatSurvivedWasLostRecomputedAndEmittedTwice(t *testing.T) {
	l := newLab()
	l.started()
	l.minute(0, 0.2, 0.2) // acme $0.2 and globex $0.1 in each window
	l.minute(1, 0.3, 0.3)
	// 10:02 is open: acme's windows as pending results, globex's as the status lists
	// them, as the embedded lab does.
	open := status(t0+145000, t0+144000)
	open.Open = []jobspec.Result{pending(jobspec.ProcessingTimeResult, "globex", 2, 0.1, 1), pending(jobspec.EventTimeResult, "globex", 2, 0.1, 1)}
	l.apply(backend.Update{Results: []jobspec.Result{
		pending(jobspec.ProcessingTimeResult, "acme", 2, 0.4, 4), pending(jobspec.EventTimeResult, "acme", 2, 0.4, 4),
		lateFrom("gw-1", "r-50", t0+10000, t0+130000, t0+125000),
	}, Status: open})
	if f := l.h.Finding(lab4.Failure); f != nil {
		t.Fatalf("a finding before any kill: %+v", f)
	}

	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "kill", At: t0 + 150000}})
	l.apply(backend.Update{Results: []jobspec.Result{
		fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2), fired(jobspec.EventTimeResult, "globex", 0, 0.2, 2),
		fired(jobspec.EventTimeResult, "acme", 1, 0.2, 1), fired(jobspec.EventTimeResult, "globex", 1, 0.1, 1),
		lateFrom("gw-1", "r-77", t0+70000, t0+151000, t0+125000),
	}, Status: status(t0+152000, t0+130000)})
	f := l.h.Finding(lab4.Failure)
	if f == nil || f.Met {
		t.Fatalf("before the minute the job came back in closed: %+v", f)
	}
	l.apply(backend.Update{Results: []jobspec.Result{
		fired(jobspec.EventTimeResult, "acme", 2, 0.5, 5),
		fired(jobspec.ProcessingTimeResult, "acme", 2, 1.2, 12), fired(jobspec.ProcessingTimeResult, "globex", 2, 0.2, 2),
	}, Status: status(t0+182000, t0+181500)})

	f = l.h.Finding(lab4.Failure)
	if f == nil || !f.Met || f.Run.ID != 2 || f.Failure == nil || !l.h.Done(lab4.Failure) {
		t.Fatalf("after the kill: %+v", f)
	}
	x := *f.Failure
	type w = state.Windows
	near := func(a, b w) bool {
		return a.Windows == b.Windows && a.Requests == b.Requests && a.USD-b.USD < 1e-9 && b.USD-a.USD < 1e-9
	}
	for name, c := range map[string][2]w{
		"survived (event time)":      {x.Survived, {Windows: 4, Requests: 6, USD: 0.7}},
		"survived (processing time)": {x.SurvivedProcessing, {Windows: 4, Requests: 6, USD: 0.7}},
		"lost (event time)":          {x.Lost, {Windows: 2, Requests: 5, USD: 0.5}},
		"lost (processing time)":     {x.LostProcessing, {Windows: 2, Requests: 5, USD: 0.5}},
		"recomputed":                 {x.Recomputed, {Windows: 1, Requests: 5, USD: 0.5}},
		"emitted twice":              {x.Twice, {Windows: 4, Requests: 6, USD: 0.7}},
		"processing time at 10:02":   {x.BackProcessing, {Windows: 2, Requests: 14, USD: 1.4}},
		"event time for 10:02":       {x.BackEvent, {Windows: 1, Requests: 5, USD: 0.5}},
	} {
		if !near(c[0], c[1]) {
			t.Errorf("%s = %+v, want %+v", name, c[0], c[1])
		}
	}
	if x.Identical != 2 || x.DifferLate != 1 || x.Fewer != 1 || x.More != 1 || x.KilledLate != 1 || x.Killed.ID != 1 || x.Back != t0+120000 {
		t.Errorf("identical %d, late %d, killed run %d, back %d", x.Identical, x.DifferLate, x.Killed.ID, x.Back)
	}
	if len(x.Examples) != 4 || x.Examples[0].Tenant != "globex" || x.Examples[0].WindowStart != t0 || x.Examples[1].Tenant != "acme" ||
		x.Examples[1].WindowStart != t0+60000 || x.Examples[1].First.USD != 0.3 || x.Examples[1].Second.USD != 0.2 {
		t.Errorf("the windows emitted twice listed are %+v, want globex 10:00 and acme 10:01 first, the two that differ", x.Examples)
	}
	s := lab4.Sentence(f)
	for _, want := range []string{
		"after run 1 was killed: survived, in the sink, the 4 event-time windows it had emitted ($0.7000, 6 requests)",
		"lost with it, the 2 event-time windows and 2 processing-time windows it still had open ($0.5000, 5 requests and $0.5000, 5 requests of running totals)",
		"recomputed from the records re-read from the topic, 1 of those event-time windows ($0.5000, 5 requests)",
		"emitted twice, 4 event-time windows for a (tenant, window_end) run 1 had already emitted",
		"2 identical to the first (the chargeback case) and 2 not (1 with more requests the second time: records run 1 had dropped as late (1 in all",
		"1 with fewer: run 2 dropped 1 record as late while it caught up)",
		"processing time billed $1.4000, 14 requests in 10:02, the minute the job came back, where event time bills $0.5000, 5 requests",
		"$0.9000 of it is records of earlier minutes re-read and folded in, the accounting error",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the sentence lacks %q:\n%s", want, s)
		}
	}
	if sheet := l.sheet(nil); !strings.Contains(sheet, "## TM") || !strings.Contains(sheet, "| 10:01 | acme | $0.3000 (2) | $0.2000 (1) | differs |") ||
		!strings.Contains(sheet, "| emitted twice (2 identical) | 4 | 6 | $0.7000 |") || !strings.Contains(sheet, "| lost: processing time open | 2 | 5 | $0.5000 |") {
		t.Errorf("the sheet lacks the failure section, its numbers or its windows emitted twice:\n%s", sheet)
	}
}
