package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func TestHelpScreenListsEveryKey(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 30)
	waitFor(t, tm, "10:00:09.000")
	press(tm, "?")
	waitFor(t, tm, "labtui keys")
	_, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	for _, want := range []string{"generator on/off", "inject a hiccup", "replay the recorded hour",
		"switch the timestamp field and replay", "focus next", "filter records", "mark line in both panes", "export answers", "quit"} {
		if !strings.Contains(view, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

func TestHelpFooterAndInspectorFitAt80x24(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "10:00:09.000")
	press(tm, "?")
	waitFor(t, tm, "all keys · ?, esc or q to go back")
	fm, view := finalView(t, tm)
	for _, g := range (mainHelp{k: fm.keys}).FullHelp() {
		for _, b := range g {
			if b.Enabled() && !strings.Contains(view, b.Help().Desc) {
				t.Errorf("the help screen at 80x24 lacks %q:\n%s", b.Help().Desc, view)
			}
		}
	}
	lines := strings.Split(view, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
	for _, l := range lines {
		if strings.Contains(l, "…") {
			t.Errorf("a line is cut at 80 columns: %q", l)
		}
	}
	// The help screen's own keys, not the main screen's, which do nothing there.
	if foot := strings.TrimSpace(lines[len(lines)-1]); foot != "?/esc/q back  ctrl+c quit" {
		t.Errorf("the help screen's footer is %q", foot)
	}
}

// TestQGoesBackFromTheHelpAndTheGuideAndQuitsOnlyTheMainScreen: q in the help and in
// the whole guide goes back, as it cancels a picker (a learner lost a walk pressing q to
// leave the help); on the main screen q quits.
func TestQGoesBackFromTheHelpAndTheGuideAndQuitsOnlyTheMainScreen(t *testing.T) {
	fb := fakebackend.New()
	tm := start(t, fb, Config{}, 80, 24)
	press(tm, "?")
	waitFor(t, tm, "all keys · ?, esc or q to go back")
	press(tm, "q")
	waitFor(t, tm, "TumblingEventTimeWindows")
	press(tm, "o")
	waitFor(t, tm, "guide of 4.1")
	press(tm, "q")
	waitFor(t, tm, "o guide")
	press(tm, "q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(Model)
	if fm.screen != screenQuitting {
		t.Errorf("screen = %d after q on the main screen, want quitting", fm.screen)
	}
}

func TestHelpClosesWithEscape(t *testing.T) {
	fb := fakebackend.New()
	tm := start(t, fb, Config{}, 80, 24)
	press(tm, "?")
	waitFor(t, tm, "all keys · ?, esc or q to go back")
	press(tm, "esc")
	waitFor(t, tm, "TumblingEventTimeWindows")
	fm, _ := finalView(t, tm)
	if fm.screen != screenMain {
		t.Errorf("screen = %d after esc, want the main screen", fm.screen)
	}
}

func TestSmallTerminalSaysSoPlainly(t *testing.T) {
	fb := fakebackend.New()
	tm := start(t, fb, Config{}, 60, 20)
	waitFor(t, tm, "at least 80x24")
	_, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
}

func TestResizeRedrawsAtTheNewSize(t *testing.T) {
	fb := fakebackend.New(courseScript()...)
	tm := start(t, fb, Config{}, 60, 20)
	waitFor(t, tm, "at least 80x24")
	tm.Send(resize(120, 30))
	waitFor(t, tm, "processing time (TumblingProcessingTimeWindows)")
	_, view := finalView(t, tm)
	lines := strings.Split(view, "\n")
	if len(lines) != 30 {
		t.Errorf("view has %d lines, want 30", len(lines))
	}
}

// labScript gives evidence for 4.1 (five agreeing minutes), 4.2 (a hiccup and a
// differing minute) and 4.3 (a replay that finished).
func labScript() []backend.Update {
	var us []backend.Update
	us = append(us, backend.Update{Run: 1, Restarted: &backend.Restart{Run: 1, Cause: backend.CauseStart, Reason: "started", At: at("-00:05")}},
		backend.Update{Status: status(at("00:01"), at("00:00.5"))})
	for m := range int64(5) {
		rs := append(both("acme", m, 0.3, 3), both("globex", m, 0.2, 2)...)
		us = append(us, backend.Update{Results: rs, Status: status(t0+(m+1)*60000+2000, t0+(m+1)*60000+1500)})
	}
	hs := status(at("05:10"), at("05:09"))
	hs.Instances[1].Hiccup, hs.Instances[1].HiccupLeft = true, 30*time.Second
	us = append(us, backend.Update{Status: hs})
	us = append(us, backend.Update{Results: []jobspec.Result{
		late("r-103", "acme", "gw-1", at("05:44"), at("06:09"), 0.1),
		fired(jobspec.ProcessingTimeResult, "acme", 5, 0.2, 2), fired(jobspec.EventTimeResult, "acme", 5, 0.4, 4),
	}, Status: status(at("06:13"), at("06:12"))})
	us = append(us,
		backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, At: at("06:10")}},
		// The recorded hour is yesterday's: its minutes come before today's, written
		// now, after the replay's job started.
		backend.Update{Results: writtenAt(at("06:15"), both("acme", -24*60, 0.3, 3)), Status: status(at("06:20"), t0-23*3600000)},
		backend.Update{Replay: &backend.ReplayProgress{Path: "recorded-hour.jsonl.gz", Records: 43200, Total: 43200, Done: true}},
	)
	return us
}

// TestAStrategySwitchOnAReplaysTopicKeepsTheRecordingsClock: w on a replay restarts the
// job on the replay's topic (Restart.Recording names it); its watermark is still the
// recording's event time, not hours behind the wall clock.
func TestAStrategySwitchOnAReplaysTopicKeepsTheRecordingsClock(t *testing.T) {
	us := labScript()
	us = append(us,
		backend.Update{Restarted: &backend.Restart{Cause: backend.CauseStrategy, Reason: "watermarks per partition",
			Recording: "recorded-hour.jsonl.gz", Timestamp: jobspec.CompletedTS, At: at("06:30")}},
		backend.Update{Results: writtenAt(at("06:31"), both("globex", -24*60, 0.2, 2)), Status: status(at("06:32"), t0-23*3600000)},
	)
	fb := fakebackend.New(us...)
	tm := start(t, fb, Config{}, 100, 32)
	// The last update's row, on run 3: globex is in the panes from run 1 already, and a
	// view taken before the last update is not the one this test is about (under -race
	// it often was).
	waitFor(t, tm, "run 3 · watermarks per partition · completed_ts · rows 1–1 of 1")
	_, view := finalView(t, tm)
	if strings.Contains(view, "behind the wall clock") {
		t.Errorf("the header sets the watermark of a run on a replay's topic against the wall clock:\n%s", view)
	}
}

func TestLabPanelTicksStepsFromEvidence(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "replay done")
	press(tm, "tab")
	press(tm, "down")
	press(tm, "down")
	press(tm, "enter")
	tm.Type("10:01:09, past the window")
	press(tm, "esc")
	waitFor(t, tm, "past the window")
	fm, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	// 4.3 waits for the replay's diff, and recorded-hour.jsonl.gz is no file to
	// re-enact: the replay finished, but there is nothing to diff it against.
	for id, want := range map[string]bool{"4.1": true, "4.2": true, "4.3": false, "4.4": false} {
		if fm.sess.Done(id) != want {
			t.Errorf("step %s done = %v, want %v", id, !want, want)
		}
	}
	if got := fm.lab.Answers()["4.2b"]; got != "10:01:09, past the window" {
		t.Errorf("answer 4.2b = %q", got)
	}
}

// writtenAt sets the processing time the results were written at.
func writtenAt(at int64, rs []jobspec.Result) []jobspec.Result {
	for i := range rs {
		rs[i].At = at
	}
	return rs
}

func TestAMissingCellIsADashWithOpenOrNone(t *testing.T) {
	fb := fakebackend.New(backend.Update{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 0.3, 3)},
		Status: status(at("01:00.5"), at("00:30"))})
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "10:00:30.000")
	_, view := finalView(t, tm)
	if !strings.Contains(view, "acme                            —   open") {
		t.Errorf("a cell not yet closed is not \"— open\":\n%s", view)
	}
	fb2 := fakebackend.New(backend.Update{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 0.3, 3)},
		Status: status(at("01:10"), at("01:09"))})
	tm2 := start(t, fb2, Config{}, 100, 32)
	waitFor(t, tm2, "10:01:09.000")
	_, view = finalView(t, tm2)
	if !strings.Contains(view, "—   none") {
		t.Errorf("a cell closed without records is not \"— none\":\n%s", view)
	}
}

func TestAReplaysWatermarkIsNotSetAgainstTheWallClock(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "replay done")
	_, view := finalView(t, tm)
	if strings.Contains(view, "behind the wall clock") || !strings.Contains(view, "event time of the recording, not the wall clock") {
		t.Errorf("the header sets a replay's watermark against the wall clock:\n%s", view)
	}
}

// TestAt80x24TheFocusedLabPanelLeavesThePanesInSight focuses the lab panel on the
// smallest terminal labtui draws in: the panes stay, with their minutes, and the panel
// shows the question, its answer and the check, cut rather than dropped.
func TestAt80x24TheFocusedLabPanelLeavesThePanesInSight(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "replay done")
	press(tm, "tab")
	waitFor(t, tm, "tab on to the panes")
	press(tm, "enter")
	tm.Type("they agree")
	waitFor(t, tm, "they agree")
	_, view := finalView(t, tm)
	for _, want := range []string{"processing time", "event time", "minute tenant", "10:00  acme", "check met:", "4.1a (1 of 1)", "│ they agree"} {
		if !strings.Contains(view, want) {
			t.Errorf("at 80x24 with the lab focused the screen lacks %q:\n%s", want, view)
		}
	}
	if n := len(strings.Split(view, "\n")); n != 24 {
		t.Errorf("%d lines, want 24", n)
	}
}

// TestAt80x24TheInspectorGivesWayToThePanesWhileTheLabHasTheFocus opens the inspector,
// then focuses the lab panel: the panes stay in sight, and the inspector is back with
// the focus.
func TestAt80x24TheInspectorGivesWayToThePanesWhileTheLabHasTheFocus(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "replay done")
	press(tm, "v")
	waitFor(t, tm, "record inspector")
	press(tm, "tab") // to the inspector
	press(tm, "tab") // to the lab panel
	waitFor(t, tm, "tab on to the panes")
	fm, view := finalView(t, tm)
	if !strings.Contains(view, "10:00  acme") || strings.Contains(view, "record inspector") {
		t.Errorf("with the lab focused at 80x24 the panes are not in sight, or the inspector is:\n%s", view)
	}
	if fm.layout.panesH < minPanes {
		t.Errorf("the panes have %d lines", fm.layout.panesH)
	}
}
