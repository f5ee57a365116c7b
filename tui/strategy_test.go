package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func TestTheWatermarkStrategyIsNamedAndSwitchedByRestartingTheJob(t *testing.T) {
	fb := fakebackend.New(backend.Update{Results: both("acme", 0, 0.1, 1), Status: status(at("01:10"), at("01:09"))})
	rb := fakebackend.NewReconfigurable(fb, 2)
	tm := teatestStart(t, rb, fb, Config{}, 160, 48)
	waitFor(t, tm, "event time from completed_ts · for_monotonous_timestamps()")
	press(tm, "w")
	waitFor(t, tm, "watermarks [for_monotonous_timestamps()]", "late, and are dropped")
	press(tm, "right")
	waitFor(t, tm, "[for_bounded_out_of_orderness(40 s)]", "above the 35 s hold: held records are on time")
	burst(tm, "45")
	waitFor(t, tm, "[for_bounded_out_of_orderness(45 s)]")
	press(tm, "enter")
	waitFor(t, tm, "· for_bounded_out_of_orderness(45 s)", "run 2: the job redeployed with for_bounded_out_of_orderness(45 s), empty state")
	fm, _ := finalView(t, tm)
	calls := fb.Called("Reconfigure")
	if len(calls) != 1 || calls[0].Watermarks.OutOfOrderness != 45*time.Second || calls[0].Field != jobspec.CompletedTS {
		t.Fatalf("Reconfigure calls = %+v", calls)
	}
	if wm := fm.sess.Current().Watermarks; wm.OutOfOrderness != 45*time.Second || fm.sess.Current().ID != 2 {
		t.Errorf("after the restart: watermarks %+v, run %d", wm, fm.sess.Current().ID)
	}
}

func TestTheStrategyPickerFitsAt80Columns(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := teatestStart(t, fakebackend.NewReconfigurable(fb, 2), fb, Config{}, 80, 24)
	waitFor(t, tm, "running")
	press(tm, "w")
	press(tm, "down")
	waitFor(t, tm, "[bounded, 35 s]")
	_, view := finalView(t, tm)
	lines := strings.Split(view, "\n")
	for _, l := range lines[len(lines)-2:] {
		if strings.Contains(l, "…") {
			t.Errorf("the picker is cut at 80 columns: %q", l)
		}
	}
	if !strings.Contains(view, "for_monotonous_timestamps()") {
		t.Errorf("the header does not name the strategy at 80 columns:\n%s", view)
	}
}

func TestWithoutAReconfigurerTheStrategyKeyIsOff(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 30)
	waitFor(t, tm, "running")
	press(tm, "w")
	fm, view := finalView(t, tm)
	if fm.screen != screenMain || strings.Contains(view, "watermarks [") {
		t.Errorf("w opened the picker on a backend that cannot restart the job")
	}
}

// TestAt80ColumnsTheHeaderNamesWatermarksPerPartitionWhole: w, p, enter (4.3's second
// result) names a strategy 55 characters long; at 80 columns the header cut it to
// "for_monotonous_timestamps() per parti…".
func TestAt80ColumnsTheHeaderNamesWatermarksPerPartitionWhole(t *testing.T) {
	fb := fakebackend.New(backend.Update{Results: both("acme", 0, 0.1, 1), Status: status(at("01:10"), at("01:09"))})
	tm := teatestStart(t, fakebackend.NewReconfigurable(fb, 2), fb, Config{}, 80, 24)
	waitFor(t, tm, "for_monotonous_timestamps()")
	press(tm, "w")
	press(tm, "p")
	waitFor(t, tm, "p: per partition at the source")
	press(tm, "enter")
	waitFor(t, tm, "for_monotonous_timestamps() per partition at the source")
	_, view := finalView(t, tm)
	if first := strings.Split(view, "\n")[0]; strings.Contains(first, "…") {
		t.Errorf("the header is cut: %q", first)
	}
}

// TestXSaysTheJobWasKilledAndWhatItReadsAgain: after x the status line once read "the job
// restarted (job restarted with empty state)"; it says the job was killed, with empty
// state, and reads the topic again, whole at 80 columns.
func TestXSaysTheJobWasKilledAndWhatItReadsAgain(t *testing.T) {
	fb := fakebackend.New(
		backend.Update{Run: 1, Restarted: &backend.Restart{Run: 1, Cause: backend.CauseStart, Reason: "started", Timestamp: jobspec.CompletedTS}},
		backend.Update{Results: both("acme", 0, 0.1, 1), Status: status(at("01:10"), at("01:09"))},
		backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "job restarted with empty state",
			Timestamp: jobspec.CompletedTS}})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "run 2: job killed, restarted with empty state from the topic's starting offsets")
	finalView(t, tm)
}
