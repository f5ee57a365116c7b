package diffview

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/theme"
)

const seedBurst = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

func TestReportLinesReadByTheirMark(t *testing.T) {
	for s, want := range map[string]kind{
		"  = 12 identical rows, 10:00 to 10:11": same,
		"~ 10:20 acme  …":                       explained,
		"! 10:21 acme  …":                       unexplained,
		"      3 records late in the live run":  plain,
		"        r-103 $0.10  the live run: …":  detail,
		"the replay's processing-time windows":  plain,
	} {
		if got := classify(s); got != want {
			t.Errorf("classify(%q) = %d, want %d", s, got, want)
		}
	}
}

// content compares the seed burst's two re-enactments, completed_ts against started_ts:
// a difference in each sink, with explanations long enough to wrap.
func content(t *testing.T) (*Content, *diff.Moves) {
	t.Helper()
	a, err := reenact.Results(context.Background(), seedBurst, reenact.Config{Job: jobspec.Options{Trace: true}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := reenact.Results(context.Background(), seedBurst, reenact.Config{Job: jobspec.Options{Trace: true, Timestamp: jobspec.StartedTS}})
	mv, err := diff.Moved(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return build("run 2 · replay", session.CompareReplay(a, b)), mv
}

func TestEveryLineFitsAndLongSentencesWrap(t *testing.T) {
	c, mv := content(t)
	m := New(theme.New(), KeyMap{}).SetSize(60, 30).setContent(c).setMoved(&movedList{Title: "completed_ts against started_ts", Moves: mv})
	for _, tab := range []Tab{eventTab, ProcessingTab, movedTab} {
		view := m.setTab(tab).View()
		lines := strings.Split(view, "\n")
		if len(lines) != 30 {
			t.Errorf("%s: %d lines", tab, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != 60 {
				t.Errorf("%s line %d is %d cells: %q", tab, i, w, l)
			}
		}
	}
	if n := len(m.wrapped[eventTab]); n <= len(c.Event.Lines) {
		t.Errorf("nothing wrapped at 60 cells: %d lines from %d", n, len(c.Event.Lines))
	}
	if !strings.Contains(m.setTab(movedTab).View(), "r-105") {
		t.Error("the moved tab lacks r-105")
	}
}

func TestScrollingStaysWithinTheLines(t *testing.T) {
	c, _ := content(t)
	m := New(theme.New(), KeyMap{}).SetSize(60, 8).setContent(c)
	m = m.scroll(1 << 30)
	if top, last := m.top[eventTab], len(m.wrapped[eventTab])-m.bodyHeight(eventTab); top != last || top <= 0 {
		t.Errorf("scrolled to the end: top %d, want %d", top, last)
	}
	m = m.scroll(-1 << 30)
	if m.top[eventTab] != 0 {
		t.Errorf("scrolled to the top: %d", m.top[eventTab])
	}
	if m.nextTab(false).Tab() != movedTab || m.nextTab(true).Tab() != ProcessingTab {
		t.Error("tabs do not go round")
	}
}

// TestALongNoteScrollsWithTheReport: at 80x24 the walk's replay note took ten of the
// diff's eleven lines and page down showed none of the report. A note longer than a
// third of the view scrolls with it: the first screen shows the report's first line
// below the note's start, and scrolling reaches every line of both.
func TestALongNoteScrollsWithTheReport(t *testing.T) {
	c, _ := content(t)
	note := strings.Repeat("No record was late in run 2, though partition 0 ran up to 379.7 s ahead of partition 1. ", 8)
	m := New(theme.New(), KeyMap{}).SetSize(80, 12).setContent(c).setNote(eventTab, note)
	if !m.noteScrolls(eventTab) {
		t.Fatal("a ten-line note in twelve lines does not scroll")
	}
	first := m.wrapped[eventTab][0].text
	all := m.lineCount(eventTab)
	if want := len(m.noteLines(eventTab)) + len(m.wrapped[eventTab]); all != want {
		t.Fatalf("%d scrolling lines, want %d", all, want)
	}
	end := m.scroll(1 << 20).View()
	if !strings.Contains(end, "lines ") || !strings.Contains(end, "of "+strconv.Itoa(all)) {
		t.Errorf("the status does not count the note's lines:\n%s", end)
	}
	var seen bool
	for top := m.scroll(-(1 << 20)); ; top = top.scroll(1) {
		if strings.Contains(top.View(), strings.TrimSpace(first)[:20]) {
			seen = true
			break
		}
		if top.top[eventTab] >= all-top.bodyHeight(eventTab) {
			break
		}
	}
	if !seen {
		t.Errorf("scrolling never shows the report's first line %q", first)
	}
	// A short note stays above the report.
	if m.setNote(eventTab, "comparing…").noteScrolls(eventTab) {
		t.Error("a one-line note scrolls")
	}
}

// TestEachRecordShowsTheWatermarkEachSideMet: a record's line wider than the view is
// laid out on two lines at 160 columns and on three at 80, so the watermark the replay
// met (the walk's "…arrived 13:39:35.505 me…" was cut at 160) is on screen at both.
func TestEachRecordShowsTheWatermarkEachSideMet(t *testing.T) {
	rec := "        r-tpdc3n-6625 $0.012345  the re-enactment: ts 10:20:40.281 arrived 10:20:40.300 met 10:20:39.999" +
		"  the replay: ts 10:20:40.281 arrived 13:39:35.505 met 13:39:36.120 LATE"
	c := &Content{Title: "run 2 · replay", Names: session.Names, Event: Section{Summary: "1 row differs",
		Lines: []string{"~ 10:20 acme  $1.00 ×10  $0.99 ×9", "      1 record late in the replay", rec}}}
	for _, tc := range []struct {
		width int
		want  []string
	}{
		{160, []string{
			"        r-tpdc3n-6625 $0.012345  the re-enactment: ts 10:20:40.281 arrived 10:20:40.300 met 10:20:39.999",
			"                                 the replay: ts 10:20:40.281 arrived 13:39:35.505 met 13:39:36.120 LATE",
		}},
		{80, []string{
			"        r-tpdc3n-6625 $0.012345",
			"        re-enactment ts 10:20:40.281 arrived 10:20:40.300 met 10:20:39.999",
			"        replay       ts 10:20:40.281 arrived 13:39:35.505 met 13:39:36.120 LATE",
		}},
	} {
		view := ansi.Strip(New(theme.New(), KeyMap{}).SetSize(tc.width, 20).setContent(c).View())
		lines := strings.Split(view, "\n")
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				if strings.TrimRight(l, " ") == w {
					found = true
				}
			}
			if !found {
				t.Errorf("at %d columns no line %q in\n%s", tc.width, w, view)
			}
		}
	}
}

// TestAt80ColumnsTheTabBarNamesEveryTabWhole: it read "… processing time     moved
// reque…" at 80x24, the tab → leads to cut.
func TestAt80ColumnsTheTabBarNamesEveryTabWhole(t *testing.T) {
	c, _ := content(t)
	for _, w := range []int{80, 160} {
		bar := strings.Split(ansi.Strip(New(theme.New(), KeyMap{}).SetSize(w, 20).setContent(c).View()), "\n")[0]
		if !strings.Contains(bar, "[ event time ]") || !strings.Contains(bar, "processing time") || !strings.Contains(bar, "moved requests") ||
			strings.Contains(bar, "…") {
			t.Errorf("at %d columns the tab bar reads %q", w, bar)
		}
	}
}

// TestAt80ColumnsTheMovedListShowsBothMinutesWhole: 4.4's answer is a request's two
// minutes; at 80 columns the started_ts one was cut to "10:00 (10:…".
func TestAt80ColumnsTheMovedListShowsBothMinutesWhole(t *testing.T) {
	c, mv := content(t)
	view := ansi.Strip(New(theme.New(), KeyMap{}).SetSize(80, 20).setContent(c).setMoved(&movedList{Title: "completed_ts against started_ts", Moves: mv}).
		setTab(movedTab).View())
	found := false
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "r-105") {
			found = true
			if strings.Contains(l, "…") || strings.Count(l, "(") != 2 || !strings.Contains(l, "→") {
				t.Errorf("the moved row is cut or lacks a minute: %q", l)
			}
		}
	}
	if !found {
		t.Errorf("no row for r-105:\n%s", view)
	}
}

// TestKeysAndTheWheelScrollTheTabAndChangeIt: end and home go to the bottom and the top,
// a turn of the wheel moves three lines, → shows the next tab.
func TestKeysAndTheWheelScrollTheTabAndChangeIt(t *testing.T) {
	keys := KeyMap{Home: key.NewBinding(key.WithKeys("home")), End: key.NewBinding(key.WithKeys("end")),
		NextTab: key.NewBinding(key.WithKeys("right"))}
	c, _ := content(t)
	m := New(theme.New(), keys).SetSize(60, 8).setContent(c)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnd})
	if top, last := m.top[eventTab], len(m.wrapped[eventTab])-m.bodyHeight(eventTab); top != last {
		t.Errorf("end: top %d, want %d", top, last)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyHome})
	m, _ = m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown})
	if m.top[eventTab] != 3 {
		t.Errorf("home, then the wheel: top %d, want 3", m.top[eventTab])
	}
	if m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRight}); m.Tab() != ProcessingTab {
		t.Errorf("→ shows %v, want the processing tab", m.Tab())
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestEachTabOfTheSeedBurstsComparison: the seed burst's replay against its started_ts
// re-enactment, each tab at 80x16 with the focus.
func TestEachTabOfTheSeedBurstsComparison(t *testing.T) {
	c, mv := content(t)
	m := New(theme.New(), KeyMap{}).SetSize(80, 16).SetFocused(true).setContent(c).
		setMoved(&movedList{Title: "completed_ts against started_ts", Moves: mv})
	var tabs []string
	for _, tab := range []Tab{eventTab, ProcessingTab, movedTab} {
		tabs = append(tabs, m.setTab(tab).View())
	}
	golden.RequireEqual(t, []byte(strings.Join(tabs, "\n---- next tab ----\n")))
}

// TestShowLaysOutTheComparisonsOnlyWhenTheyChanged: the same version and explanation
// leave the view as it is (a note set since stays); a new explanation of the late
// records is shown on the event tab after the session's note.
func TestShowLaysOutTheComparisonsOnlyWhenTheyChanged(t *testing.T) {
	st := session.DiffState{Note: "comparing run 2 with the recorded hour re-enacted…", Version: 4}
	m := New(theme.New(), KeyMap{}).SetSize(80, 12).Show(st, "")
	if m.notes[eventTab] != st.Note || m.notes[ProcessingTab] != st.Note {
		t.Fatalf("notes %q", m.notes)
	}
	if same := m.setNote(eventTab, "kept").Show(st, ""); same.notes[eventTab] != "kept" {
		t.Errorf("the same comparisons were laid out again: %q", same.notes[eventTab])
	}
	why := "2 records late: the watermark had passed 10:00:59.999."
	if m = m.Show(st, why); m.notes[eventTab] != st.Note+" "+why || m.notes[ProcessingTab] != st.Note {
		t.Errorf("with an explanation: %q", m.notes)
	}
}
