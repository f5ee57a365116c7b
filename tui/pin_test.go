package tui

import (
	"testing"

	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// TestPInTheLabPanelPinsTheStepToARunAndSaysWhichCannot pins 4.1 with p and lets the
// rule pick again with P: the panel lists the runs, the one backing the step first, and
// the replay that cannot back it with why.
func TestPInTheLabPanelPinsTheStepToARunAndSaysWhichCannot(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 120, 40)
	waitFor(t, tm, "replay done")
	press(tm, "tab")
	waitFor(t, tm, "▸run 1 start, the rule's pick", "run 2 replay ✗ a replay: 4.1 needs the live generator")
	press(tm, "p")
	waitFor(t, tm, "4.1's evidence is run 1, your pick (P lets the rule pick; the sheet names it): start, completed_ts", "▸run 1 start, your pick")
	press(tm, "P")
	waitFor(t, tm, "4.1 follows the rule again: run 1, start, completed_ts", "▸run 1 start, the rule's pick")
	press(tm, "down")
	press(tm, "down")
	waitFor(t, tm, "run 2 replay ✗ a replay: 4.2 needs a hiccup of the live run")
	fm, _ := finalView(t, tm)
	if f := fm.sess.Finding("4.1"); f == nil || f.Pinned || f.Run.ID != 1 {
		t.Errorf("4.1 = %+v", f)
	}
}
