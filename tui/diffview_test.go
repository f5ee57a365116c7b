package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/tui/components/diffview"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// seedBurst is the course's story as a recording: r-103 and r-104 held on gw-1 across
// the 10:01 boundary.
const seedBurst = "../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

// replayStart is where the fake's replays put processing time: an hour after the burst.
var replayStart = t0 + 3600000

// seedReplay is what a replay of the seed burst into the broker sends: its results as
// fast as they can be read (a millisecond a record on the fake clock), with the windows
// left open at the end in the status, as a backend reports them.
func seedReplay(t testing.TB, field jobspec.TimestampField) (results []jobspec.Result, st *backend.Status) {
	t.Helper()
	src, err := recording.Open(context.Background(), seedBurst)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	now := replayStart
	var open []jobspec.Result
	_, err = reenact.Run(context.Background(), src, reenact.Config{Pace: reenact.Fast, Job: jobspec.Options{Trace: true, Timestamp: field},
		Now: func() int64 { now++; return now }}, func(r jobspec.Result) {
		if r.Kind == jobspec.PendingResult {
			open = append(open, r)
		} else {
			results = append(results, r)
		}
	}, func(int, error) {})
	if err != nil {
		t.Fatal(err)
	}
	// Read in a few milliseconds, the replay never saw a watermark (they are emitted
	// every 200 ms of processing time).
	st = status(now+500, jobspec.MinWatermark, open...)
	st.Generator, st.Timestamp = false, field
	return results, st
}

// replayingBackend is a fake whose Replay sends what the embedded lab does: a restart,
// the replay's results and status, then Done.
func replayingBackend(t *testing.T) *fakebackend.Backend {
	fb := fakebackend.New(backend.Update{Results: both("acme", 0, 0.1, 1), Status: status(at("01:10"), at("01:09"))})
	fb.ReplayFn = func(_ context.Context, path string, field jobspec.TimestampField) error {
		rs, st := seedReplay(t, field)
		fb.Send(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay of " + path, Timestamp: field, At: replayStart}})
		fb.Send(backend.Update{Results: rs, Status: st})
		fb.Send(backend.Update{Replay: &backend.ReplayProgress{Path: path, Records: 12, Total: 12, EventTime: st.Watermark, Rate: 12000, Done: true}})
		return nil
	}
	return fb
}

func TestDiffViewExplainsTheReplayAgainstTheLiveRun(t *testing.T) {
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done")
	press(tm, "d")
	waitFor(t, tm, "every difference explained")
	fm, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	for _, want := range []string{
		"[ event time ]",
		"event-time: 2 (tenant, minute) rows, 1 identical, 1 differ; every difference explained",
		"~ 10:00 acme       the re-enactment $0.20 ×2",
		"2 records ($0.20) late in the re-enactment: the watermark had passed 10:00:59.999",
		"= 1 identical row, 10:01",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the diff view lacks %q", want)
		}
	}
	ev := fm.Snapshot().Evidence.Replays
	if len(ev) != 1 || ev[0].Compare == nil || ev[0].Compare.EventTime.Differ != 1 || len(ev[0].Compare.ProcessingMinutes) == 0 {
		t.Errorf("the replay's evidence lacks its comparison: %+v", ev)
	}
}

func TestDiffViewExplainsTheProcessingTimeOutputInItsSecondTab(t *testing.T) {
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done")
	press(tm, "d")
	waitFor(t, tm, "every difference explained")
	press(tm, "right")
	waitFor(t, tm, "[ processing time ]")
	fm, view := finalView(t, tm)
	if fm.diffView.Tab() != diffview.ProcessingTab {
		t.Fatalf("tab = %v", fm.diffView.Tab())
	}
	for _, want := range []string{
		"processing-time: 3 (tenant, minute) rows, 0 identical, 2 only in the re-enactment, 1 only in the replay",
		"11:00  acme       $0.6000  6 requests, still open",
		"the replay counted every one of them in its",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the processing tab lacks %q:\n%s", want, view)
		}
	}
}

func TestMovedRequestsAfterAStartedTSReplay(t *testing.T) {
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done: 12 records with completed_ts")
	press(tm, "t")
	waitFor(t, tm, "replay done: 12 records with started_ts")
	press(tm, "d")
	press(tm, "left")
	waitFor(t, tm, "[ moved requests ]", "changed minute")
	fm, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	for _, want := range []string{
		"6 requests in both runs; 1 changed minute ($0.10)",
		"completed_ts: run 2 (replay) · started_ts: run 3 (replay)",
		"r-105",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the moved tab lacks %q", want)
		}
	}
	st := fm.Snapshot()
	if s := st.Evidence.MovedSummary; s == nil || s.Moved != 1 || len(st.Evidence.Moved) != 1 || st.Evidence.Moved[0].RequestID != "r-105" {
		t.Errorf("moved evidence %+v, %+v", st.Evidence.MovedSummary, st.Evidence.Moved)
	}
}

func TestDiffViewSaysWhatToDoBeforeAnyReplay(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{Recording: seedBurst}, 100, 30)
	waitFor(t, tm, "running")
	press(tm, "d")
	waitFor(t, tm, "No replay has finished yet")
	press(tm, "esc")
	waitFor(t, tm, "TumblingEventTimeWindows")
	fm, _ := finalView(t, tm)
	if fm.view != viewPanes {
		t.Errorf("esc left view %d", fm.view)
	}
}

// TestArrowsSwitchTheDiffsTabsWithTheLabPanelFocused: with the diff open and the lab
// panel focused (to answer 4.3 while reading it), → and ← still switch the diff's tabs,
// as the footer says (issue 22, item 8).
func TestArrowsSwitchTheDiffsTabsWithTheLabPanelFocused(t *testing.T) {
	fb := replayingBackend(t)
	tm := start(t, fb, Config{Recording: seedBurst}, 120, 40)
	waitFor(t, tm, "running", "10:01:09.000")
	press(tm, "r")
	waitFor(t, tm, "replay done")
	press(tm, "d")
	waitFor(t, tm, "[ event time ]")
	press(tm, "tab")
	waitFor(t, tm, "tab on to the panes")
	press(tm, "right")
	waitFor(t, tm, "[ processing time ]")
	press(tm, "left")
	waitFor(t, tm, "[ event time ]")
	fm, _ := finalView(t, tm)
	if fm.focus != areaLab {
		t.Errorf("the focus moved to %v", fm.focus)
	}
}
