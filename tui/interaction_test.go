package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func trace(id, tenant, gw string, ts int64) jobspec.Result {
	return jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{RequestID: id, TenantID: tenant, Gateway: gw,
		Timestamp: ts, KafkaTimestamp: ts + 3, Arrival: ts + 20, Watermark: ts - 200, EventWindowEnd: ts - ts%60000 + 60000,
		ProcessingWindowEnd: ts - ts%60000 + 60000, USD: 0.1}}
}

func TestFilterShowsOnlyMatchingRecordsInTheInspector(t *testing.T) {
	fb := fakebackend.New(
		backend.Update{Status: status(at("00:10"), at("00:09"))},
		backend.Update{Results: []jobspec.Result{
			trace("r-101", "acme", "gw-0", at("00:01")), trace("r-102", "globex", "gw-1", at("00:02")),
			trace("r-103", "acme", "gw-1", at("00:03")), trace("r-104", "initech", "gw-2", at("00:04")),
		}},
	)
	tm := start(t, fb, Config{}, 120, 40)
	waitFor(t, tm, "10:00:09.000")
	press(tm, "/")
	waitFor(t, tm, "record inspector", "filter (tenant, gateway or request id)")
	tm.Type("gw-1")
	press(tm, "enter")
	waitFor(t, tm, `filter "gw-1"`)
	fm, view := finalView(t, tm)
	for _, id := range []string{"r-102", "r-103"} {
		if !strings.Contains(view, id) {
			t.Errorf("the inspector lacks %s:\n%s", id, view)
		}
	}
	for _, id := range []string{"r-101", "r-104"} {
		if strings.Contains(view, id) {
			t.Errorf("the filter let %s through", id)
		}
	}
	if fm.inspector.Filter() != "gw-1" {
		t.Errorf("filter = %q", fm.inspector.Filter())
	}
}

func TestReplayAndTimestampKeysCallTheBackend(t *testing.T) {
	recording := filepath.Join(t.TempDir(), "hour.jsonl.gz")
	if err := state.WriteFileAtomic(recording, []byte("x")); err != nil {
		t.Fatal(err)
	}
	fb := fakebackend.New(backend.Update{Results: both("acme", 0, 0.1, 1), Status: status(at("01:10"), at("01:09"))})
	tm := start(t, fb, Config{Recording: recording}, 80, 24)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replaying")
	fb.Send(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	fb.Send(backend.Update{Replay: &backend.ReplayProgress{Path: recording, Records: 10, Total: 10, Done: true}})
	waitFor(t, tm, "replay done")
	press(tm, "t")
	waitFor(t, tm, "with started_ts")
	fm, _ := finalView(t, tm)
	calls := fb.Called("Replay")
	if len(calls) != 2 || calls[0].Field != jobspec.CompletedTS || calls[1].Field != jobspec.StartedTS || calls[0].Path != recording {
		t.Fatalf("Replay calls = %+v", calls)
	}
	if fm.sess.Done("4.3") {
		t.Error("4.3 ticked after a replay of a file that is no recording: there is no re-enactment to diff it against")
	}
	if runs := fm.sess.Runs(); len(runs) != 2 || !runs[1].Replay || !runs[0].Ended {
		t.Errorf("runs = %+v", runs)
	}
}

func TestAMissingRecordingIsAPlainError(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{Recording: filepath.Join(t.TempDir(), "none.jsonl.gz")}, 100, 24)
	waitFor(t, tm, "running", "10:00:09.000")
	press(tm, "r")
	waitFor(t, tm, "no recording at")
	finalView(t, tm)
	if len(fb.Called("Replay")) != 0 {
		t.Error("Replay was called for a missing file")
	}
}

func TestGeneratorKeyTogglesFromTheStatus(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "running", "generator on")
	press(tm, "g")
	waitFor(t, tm, "generator off")
	finalView(t, tm)
	if c := fb.Called("SetGenerator"); len(c) != 1 || c[0].On {
		t.Errorf("SetGenerator calls = %+v", c)
	}
}

func TestMouseWheelScrollsThePaneUnderIt(t *testing.T) {
	var rs []jobspec.Result
	for m := range int64(40) {
		rs = append(rs, both("acme", m, 0.1, 1)...)
	}
	fb := fakebackend.New(backend.Update{Results: rs, Status: status(at("41:00"), at("40:59"))})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "rows 33–40 of 40")
	tm.Send(tea.MouseMsg{X: 10, Y: 8, Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	waitFor(t, tm, "rows 30–37 of 40", "scrolled")
	// The wheel over the lab panel does not move the panes.
	tm.Send(tea.MouseMsg{X: 10, Y: 20, Button: tea.MouseButtonWheelUp, Action: tea.MouseActionPress})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnd})
	waitFor(t, tm, "rows 33–40 of 40 · following")
	finalView(t, tm)
}

func TestPanesKeepABoundedHistoryAndSayWhatTheyDropped(t *testing.T) {
	var rs []jobspec.Result
	for m := range int64(150) {
		rs = append(rs, both("acme", m, 0.1, 1)...)
	}
	fb := fakebackend.New(backend.Update{Results: rs, Status: status(at("151:00"), at("150:59"))})
	tm := start(t, fb, Config{Limits: session.Limits{Rows: 100}}, 100, 24)
	waitFor(t, tm, "50 older rows dropped")
	fm, _ := finalView(t, tm)
	if n := fm.sess.Current().Table.Len(); n != 100 {
		t.Errorf("the table keeps %d rows, want 100", n)
	}
}

func TestARestartStartsANewRunAndKeepsThePreviousOne(t *testing.T) {
	fb := fakebackend.New(
		backend.Update{Results: both("acme", 0, 0.2, 2), Status: status(at("01:02"), at("01:01"))},
		backend.Update{Restarted: &backend.Restart{Cause: backend.CauseFailure, Reason: "TaskManager died", Timestamp: jobspec.CompletedTS, At: at("01:05")}},
		backend.Update{Results: both("globex", 1, 0.3, 3), Status: status(at("02:02"), at("02:01"))},
	)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "run 2 · TaskManager died")
	fm, view := finalView(t, tm)
	if strings.Contains(view, "10:00  acme") {
		t.Errorf("run 1's row is in run 2's panes:\n%s", view)
	}
	runs := fm.sess.Runs()
	if len(runs) != 2 || runs[0].Table.Len() != 1 || runs[1].Table.Len() != 1 {
		t.Errorf("runs: %d, tables %v", len(runs), fmt.Sprint(runs[0].Table.Len()))
	}
}

func TestLateRecordsPaneListsWhatTheWatermarkDropped(t *testing.T) {
	fb := fakebackend.New(courseScript()...)
	tm := start(t, fb, Config{}, 100, 30)
	waitFor(t, tm, "02:01.500")
	press(tm, "l")
	waitFor(t, tm, "late records dropped by the event-time window")
	_, view := finalView(t, tm)
	if !strings.Contains(view, "r-103            acme       gw-1     10:00:44.000 10:01:11.000 10:01:09.000") {
		t.Errorf("the late pane lacks r-103 with when it arrived and the watermark it met:\n%s", view)
	}
}

func TestAFirstRestartReplacesTheEmptyStartingRun(t *testing.T) {
	fb := fakebackend.New(
		backend.Update{Restarted: &backend.Restart{Cause: backend.CauseStart, Reason: "started", Timestamp: jobspec.CompletedTS}},
		backend.Update{Results: both("acme", 0, 0.2, 2), Status: status(at("01:02"), at("01:01"))},
	)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "run 1 · started")
	fm, _ := finalView(t, tm)
	if n := len(fm.sess.Runs()); n != 1 {
		t.Errorf("%d runs, want the one that started", n)
	}
}

func TestStartGeneratorTurnsItOnOnceTheLabIsUp(t *testing.T) {
	fb := fakebackend.New()
	tm := start(t, fb, Config{StartGenerator: true}, 80, 24)
	waitFor(t, tm, "generator on")
	finalView(t, tm)
	if c := fb.Called("SetGenerator"); len(c) != 1 || !c[0].On {
		t.Errorf("SetGenerator calls = %+v", c)
	}
}

// restartable is the fake with a job that can be killed and restarted.
type restartable struct {
	*fakebackend.Backend
	restarts int
}

func (r *restartable) RestartJob(context.Context) error {
	r.restarts++
	r.Send(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseKill, Reason: "job killed", Timestamp: jobspec.CompletedTS}})
	return nil
}

func TestKillRestartsTheJobWhenTheBackendCan(t *testing.T) {
	rb := &restartable{Backend: fakebackend.New(backend.Update{Results: both("acme", 0, 0.2, 2), Status: status(at("01:02"), at("01:01"))})}
	tm := teatest.NewTestModel(t, New(rb, Config{}), teatest.WithInitialTermSize(80, 24))
	t.Cleanup(func() { rb.Close() })
	waitFor(t, tm, "running", "10:01:01.000")
	press(tm, "x")
	waitFor(t, tm, "run 2 · job killed")
	fm, _ := finalView(t, tm)
	if rb.restarts != 1 || len(fm.sess.Runs()) != 2 {
		t.Errorf("restarts %d, runs %d", rb.restarts, len(fm.sess.Runs()))
	}
}

func TestKillIsOffWhenTheBackendCannot(t *testing.T) {
	m := New(fakebackend.New(), Config{})
	if m.keys.Kill.Enabled() {
		t.Error("x is offered for a backend that cannot restart its job")
	}
}

// TestLWithTheLabPanelFocusedAt80x24ShowsTheLateRecords: at 80x24 the focused lab panel
// has the late pane's room; l shows the late records at once, with the focus, instead of
// nothing until another tab (issue 22, item 8).
func TestLWithTheLabPanelFocusedAt80x24ShowsTheLateRecords(t *testing.T) {
	fb := fakebackend.New(courseScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "02:01.500")
	press(tm, "tab")
	waitFor(t, tm, "tab on to the panes")
	press(tm, "l")
	waitFor(t, tm, "late records dropped by the event-time window", "r-103")
	fm, _ := finalView(t, tm)
	if fm.focus != areaLate {
		t.Errorf("the focus is %v, want the late pane", fm.focus)
	}
}
