package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/labs/lab4"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// TestTheWholeGuideOpensWithOAt80x24: at 80x24 the panel has room for the first lines of
// the check, the runs and what to do only (the walk found no way to read "look", the
// course's text or 4.2's course table at that size). The panel says what it leaves out
// and that o shows it; o opens the exercise the learner is on (4.3: 4.1 and 4.2 are met),
// ←/→ moves to another, and the guide scrolls to its end with the course's text.
func TestTheWholeGuideOpensWithOAt80x24(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "replay done")
	press(tm, "tab")
	waitFor(t, tm, "o shows the whole guide: ")
	press(tm, "o")
	waitFor(t, tm, "guide of 4.3 · lines 1–")
	tm.Send(tea.KeyMsg{Type: tea.KeyLeft})
	waitFor(t, tm, "guide of 4.2 · lines 1–")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnd})
	fm, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	if fm.screen != screenGuide {
		t.Fatalf("screen %d, want the whole guide", fm.screen)
	}
	whole := ansi.Strip(strings.Join(fm.lab.Whole(80), "\n"))
	flat := strings.Join(strings.Fields(whole), " ")
	g := lab4.GuideOf("4.2")
	for _, want := range []string{g.Do, g.Look, "course 4.2:", "the course: acme, $0.10 a request", "4.2a (1 of 2)", "4.2b (2 of 2)",
		"p picks the next"} {
		if !strings.Contains(flat, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("the whole guide of 4.2 at 80 columns lacks %q:\n%s", want, whole)
		}
	}
	for i, l := range strings.Split(view, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("line %d is %d cells wide", i, ansi.StringWidth(l))
		}
	}
}

// TestEscLeavesTheWholeGuideAndTheFooterFollowsTheExercise: esc goes back to the panel,
// and the 80-column footer lists the keys the exercise's text names (the walk's footer
// had only g i r t w ? q, while 4.2 says m and l and 4.3 says d and l).
func TestEscLeavesTheWholeGuideAndTheFooterFollowsTheExercise(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "replay done")
	press(tm, "o")
	waitFor(t, tm, "guide of 4.3 · lines")
	press(tm, "esc")
	press(tm, "tab")
	press(tm, "up") // 4.2b: the learner's own choice now
	waitFor(t, tm, "[x] 4.1   [x] 4.2   [ ] 4.3")
	fm, view := finalView(t, tm)
	if fm.screen != screenMain || fm.lab.Current() != "4.2" {
		t.Fatalf("screen %d, exercise %s", fm.screen, fm.lab.Current())
	}
	lines := strings.Split(ansi.Strip(view), "\n")
	footer := lines[len(lines)-1]
	for _, want := range []string{"i hiccup", "m mark", "l late", "o guide", "? all keys", "q quit"} {
		if !strings.Contains(footer, want) {
			t.Errorf("the 80-column footer on 4.2 lacks %q: %q", want, footer)
		}
	}
	if h := (mainHelp{k: fm.keys, uses: lab4.GuideOf("4.3").Uses, diff: true}).ShortHelp(); h[0].Help().Key != "r" || h[1].Help().Key != "d" || h[2].Help().Key != "l" {
		t.Errorf("4.3's footer starts %q %q %q, want r d l", h[0].Help().Key, h[1].Help().Key, h[2].Help().Key)
	}
}

// TestTheFooterOffersOnlyKeysThatActNow: d is offered once a replay has begun (before,
// it opens a view that only says to press r), and r, t and w not while a replay runs
// (each then only says to wait for it).
func TestTheFooterOffersOnlyKeysThatActNow(t *testing.T) {
	keys := func(h mainHelp) string {
		var out []string
		for _, b := range h.ShortHelp() {
			out = append(out, b.Help().Key)
		}
		return strings.Join(out, " ")
	}
	k := defaultKeyMap()
	uses := lab4.GuideOf("4.3").Uses
	for _, c := range []struct {
		h    mainHelp
		want string
	}{
		{mainHelp{k: k, uses: uses}, "r l w o tab g i t e m s x / v ? q"},
		{mainHelp{k: k, uses: uses, replaying: true, diff: true}, "d l o tab g i e m s x / v ? q"},
		{mainHelp{k: k, uses: uses, diff: true}, "r d l w o tab g i t e m s x / v ? q"},
	} {
		if got := keys(c.h); got != c.want {
			t.Errorf("replaying %v, diff %v: the footer offers %q, want %q", c.h.replaying, c.h.diff, got, c.want)
		}
	}
}

// TestTheGuidesFooterListsTheGuidesKeys: in the whole guide the main screen's keys (i, m,
// l, w) do nothing, so the footer lists the guide's own.
func TestTheGuidesFooterListsTheGuidesKeys(t *testing.T) {
	fb := fakebackend.New(labScript()...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "replay done")
	press(tm, "o")
	waitFor(t, tm, "guide of 4.3 · lines")
	_, view := finalView(t, tm)
	lines := strings.Split(ansi.Strip(view), "\n")
	if foot := strings.TrimSpace(lines[len(lines)-1]); foot != "↑/k scroll  pgdn page  ←/→ another exercise  esc/q back  ctrl+c quit" {
		t.Errorf("the guide's footer is %q", foot)
	}
}
