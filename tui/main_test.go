package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func TestMainScreenShowsBothPanesWithAlignedAndMarkedRows(t *testing.T) {
	fb := fakebackend.New(courseScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "02:01.500")
	_, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))

	lines := strings.Split(view, "\n")
	row := func(minute, tenant string) string {
		for _, l := range lines {
			if strings.Contains(l, minute) && strings.Contains(l, tenant) {
				return l
			}
		}
		t.Fatalf("no line with %s %s in\n%s", minute, tenant, view)
		return ""
	}
	// The same minute and tenant sit on one line in both panes.
	if l := row("10:01", "acme"); strings.Count(l, "10:01") != 2 || strings.Count(l, "acme") != 2 {
		t.Errorf("10:01 acme is not aligned: %q", l)
	}
	// The differing minute is marked in both panes; the agreeing ones are not.
	if l := row("10:01", "acme"); strings.Count(l, "≠") != 2 {
		t.Errorf("10:01 acme is not marked: %q", l)
	}
	if l := row("10:00", "acme"); strings.Contains(l, "≠") {
		t.Errorf("10:00 acme is marked: %q", l)
	}
}

func TestPanesAtAWideTerminal(t *testing.T) {
	fb := fakebackend.New(courseScript()...)
	tm := start(t, fb, Config{}, 140, 40)
	waitFor(t, tm, "02:01.500")
	_, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	if !strings.Contains(view, "processing time (TumblingProcessingTimeWindows)") || !strings.Contains(view, "event time (TumblingEventTimeWindows)") {
		t.Error("the pane titles do not name the window assigners")
	}
}
