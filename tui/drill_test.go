package tui

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// moved is a trace of a record that completed in minute ev and reached the job in
// minute proc (minutes after t0).
func moved(id string, ev, proc int64, late bool) jobspec.Result {
	ts := t0 + ev*60000 + 50000
	r := trace(id, "acme", "gw-1", ts)
	r.Record.EventWindowEnd = t0 + (ev+1)*60000
	r.Record.ProcessingWindowEnd = t0 + (proc+1)*60000
	r.Record.Arrival = t0 + proc*60000 + 15000
	r.Record.Late = late
	return r
}

func TestEnterOnThePanesOpensTheRecordsThatDiffer(t *testing.T) {
	results := []jobspec.Result{
		trace("r-101", "acme", "gw-0", at("00:10")), trace("r-102", "acme", "gw-0", at("00:20")),
		moved("r-103", 0, 1, true), moved("r-104", 0, 1, true), moved("r-105", 1, 1, false),
		fired(jobspec.ProcessingTimeResult, "acme", 0, 0.2, 2), fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2),
		fired(jobspec.ProcessingTimeResult, "acme", 1, 0.3, 3), fired(jobspec.EventTimeResult, "acme", 1, 0.1, 1),
	}
	fb := fakebackend.New(backend.Update{Results: results, Status: status(at("02:10"), at("02:09"))})
	tm := start(t, fb, Config{}, 160, 48)
	waitFor(t, tm, "10:02:09.000")
	press(tm, "enter")
	waitFor(t, tm, "≠ rows: the records that differ", "10:01 acme: 2 records differ")
	fm, view := finalView(t, tm)
	for _, want := range []string{"processing $0.3000 ×3  event $0.1000 ×1", "processing time only 2 ($0.2000)", "r-103", "dropped as late from event time's 10:00"} {
		if !strings.Contains(view, want) {
			t.Errorf("the drill-down lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "r-105 ") || strings.Contains(view, "r-101 ") {
		t.Errorf("a record in both windows is listed:\n%s", view)
	}
	if fm.view != viewDrill {
		t.Errorf("view = %d", fm.view)
	}
}

func TestTheDiffExplainsAReplaysLateRecords(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 160, 48)
	waitFor(t, tm, "replay done")
	fb.Send(backend.Update{Results: []jobspec.Result{late("r-900", "acme", "gw-1", at("00:10"), at("00:50"), 0.1)}})
	st := status(at("06:30"), at("59:59.123"))
	st.Reads = &jobspec.Reads{Late: 1, AheadLate: 1, Max: jobspec.Lead{Ahead: 2, Behind: 0, By: 41300}}
	fb.Send(backend.Update{Status: st})
	waitFor(t, tm, "10:59:59.123")
	press(tm, "l")
	waitFor(t, tm, "1 only because partition 2 ran 41.3 s ahead of 0")
	press(tm, "d")
	waitFor(t, tm, "partition 2 ran up to 41.3 s ahead of partition 0")
	fm, view := finalView(t, tm)
	for _, want := range []string{"with them this record is not late"} {
		if !strings.Contains(view, want) {
			t.Errorf("the diff view lacks %q:\n%s", want, view)
		}
	}
	_ = fm
}

// TestEnterWithNoDifferingRowLeavesNoStaleLine: the walk pressed enter in a quiet minute,
// then esc, and four minutes later a ≠ row stood above "no row of run 1 differs between
// the two windows yet". The drill says it while it is open; nothing says it after.
func TestEnterWithNoDifferingRowLeavesNoStaleLine(t *testing.T) {
	fb := fakebackend.New(backend.Update{Results: both("acme", 0, 0.2, 2), Status: status(at("01:10"), at("01:09"))})
	tm := start(t, fb, Config{}, 160, 48)
	waitFor(t, tm, "10:01:09.000")
	press(tm, "enter")
	waitFor(t, tm, "no row of this run differs between the two windows")
	press(tm, "esc")
	fb.Send(backend.Update{Results: []jobspec.Result{
		fired(jobspec.ProcessingTimeResult, "acme", 1, 0.3, 3), fired(jobspec.EventTimeResult, "acme", 1, 0.1, 1),
	}, Status: status(at("02:10"), at("02:09"))})
	waitFor(t, tm, "10:02:09.000")
	if _, view := finalView(t, tm); strings.Contains(view, "differs between the two windows") {
		t.Errorf("a line says no row differs beside a ≠ row:\n%s", view)
	}
}
