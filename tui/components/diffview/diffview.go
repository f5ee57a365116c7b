// Package diffview is the diff view: a replay's output lined up against the reference
// run of its recording (the recorded hour re-enacted at the pace it was recorded, the
// live run), in three tabs. Event time: every (tenant, minute), identical rows folded,
// each difference explained from the traces. Processing time: where the replay's
// processing-time windows put the whole hour, and why no row matches the live run's.
// Moved requests: each request whose event-time minute changed between the completed_ts
// and the started_ts run, with its cost, both minutes, and whether started_ts dropped it.
package diffview

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/theme"
)

// Tab is one of the view's tabs.
type Tab uint8

const (
	// eventTab compares the event-time sinks.
	eventTab Tab = iota
	// ProcessingTab compares the processing-time sinks.
	ProcessingTab
	// movedTab lists the moved requests.
	movedTab
	numTabs
)

// String names the tab as its label shows it.
func (t Tab) String() string {
	switch t {
	case ProcessingTab:
		return "processing time"
	case movedTab:
		return "moved requests"
	}
	return "event time"
}

// movedList is the moved-requests list and what it compared.
type movedList struct {
	// Title says which two runs were compared.
	Title string
	Moves *diff.Moves
}

// KeyMap is the keys the view scrolls by and changes tabs by.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	NextTab, PrevTab                      key.Binding
}

// Model is the diff view: its size, tab, scroll positions and what it shows.
type Model struct {
	styles  theme.Styles
	keys    KeyMap
	width   int
	height  int
	focused bool
	tab     Tab
	top     [numTabs]int

	content *Content
	moved   *movedList
	// notes say, per tab, what is under way or missing; shown instead of the content
	// when there is none, and above it otherwise.
	notes [numTabs]string
	// wrapped are the event and processing tabs' lines wrapped to the width.
	wrapped [2][]line
	// shown says Show has laid out a session's comparisons: of version, with lateWhy.
	shown   bool
	version uint64
	lateWhy string
}

// New returns an empty diff view on the event-time tab, moved by keys.
func New(styles theme.Styles, keys KeyMap) Model { return Model{styles: styles, keys: keys} }

// wheel is how many lines a turn of the mouse wheel scrolls.
const wheel = 3

// Update scrolls the tab shown by the keys and the mouse wheel (a line, a page of the
// height less the tab bar and the heads, the top, the bottom), and shows the next or
// the previous tab.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	page := max(1, m.height-4)
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.keys.NextTab):
			return m.nextTab(true), nil
		case key.Matches(msg, m.keys.PrevTab):
			return m.nextTab(false), nil
		case key.Matches(msg, m.keys.Up):
			return m.scroll(-1), nil
		case key.Matches(msg, m.keys.Down):
			return m.scroll(1), nil
		case key.Matches(msg, m.keys.PageUp):
			return m.scroll(-page), nil
		case key.Matches(msg, m.keys.PageDown):
			return m.scroll(page), nil
		case key.Matches(msg, m.keys.Home):
			return m.scroll(-1 << 30), nil
		case key.Matches(msg, m.keys.End):
			return m.scroll(1 << 30), nil
		}
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			return m.scroll(-wheel), nil
		case tea.MouseButtonWheelDown:
			return m.scroll(wheel), nil
		}
	}
	return m, nil
}

// SetSize sets the cells the view fills.
func (m Model) SetSize(w, h int) Model {
	if w != m.width {
		m.width = w
		m = m.rewrap()
	}
	m.height = h
	return m.clamp()
}

// Show lays out what the session's comparisons are (st), with lateWhy explaining the
// replay's late records (session.LateWhy) on the event tab, when they changed since it
// last did: a new version, or another explanation (it changes with the run's reads,
// which no version counts).
func (m Model) Show(st session.DiffState, lateWhy string) Model {
	if m.shown && st.Version == m.version && lateWhy == m.lateWhy {
		return m
	}
	m.shown, m.version, m.lateWhy = true, st.Version, lateWhy
	if st.Diff != nil {
		m = m.setContent(build(st.Title, *st.Diff))
	}
	event := st.Note
	if lateWhy != "" {
		event = strings.TrimSpace(event + " " + lateWhy)
	}
	m = m.setNote(eventTab, event).setNote(ProcessingTab, st.Note)
	if st.Moves != nil {
		m = m.setMoved(&movedList{Title: st.MovedTitle, Moves: st.Moves})
	}
	return m.setNote(movedTab, st.MovedNote)
}

// SetFocused says whether the view has the focus (its tab bar shows it).
func (m Model) SetFocused(f bool) Model {
	m.focused = f
	return m
}

// setContent shows a replay's comparison in the event and processing tabs; a new replay
// starts both at the top.
func (m Model) setContent(c *Content) Model {
	if c == m.content {
		return m
	}
	if c != nil && (m.content == nil || m.content.Title != c.Title) {
		m.top[eventTab], m.top[ProcessingTab] = 0, 0
	}
	m.content = c
	return m.rewrap().clamp()
}

// Content is the comparison shown, or nil.
func (m Model) Content() *Content { return m.content }

// setMoved shows a moved-requests list in the moved tab.
func (m Model) setMoved(mv *movedList) Model {
	if mv != nil && (m.moved == nil || m.moved.Title != mv.Title) {
		m.top[movedTab] = 0
	}
	m.moved = mv
	return m.clamp()
}

// setNote sets what tab t says of work under way or missing ("" for nothing).
func (m Model) setNote(t Tab, note string) Model {
	m.notes[t] = note
	return m
}

// Tab is the tab shown.
func (m Model) Tab() Tab { return m.tab }

// setTab shows tab t.
func (m Model) setTab(t Tab) Model {
	m.tab = t % numTabs
	return m
}

// nextTab shows the next tab (forward) or the previous one, round the end.
func (m Model) nextTab(forward bool) Model {
	if forward {
		return m.setTab(m.tab + 1)
	}
	return m.setTab(m.tab + numTabs - 1)
}

// scroll moves the tab's view by delta lines (negative is up); a huge delta goes to
// the top or the bottom.
func (m Model) scroll(delta int) Model {
	m.top[m.tab] += delta
	return m.clamp()
}

// clamp keeps every tab's top within its lines.
func (m Model) clamp() Model {
	for t := range numTabs {
		m.top[t] = max(0, min(m.top[t], m.lineCount(t)-m.bodyHeight(t)))
	}
	return m
}

// lineCount is how many scrolling lines tab t has.
func (m Model) lineCount(t Tab) int {
	switch {
	case t == movedTab && m.moved != nil:
		return len(m.moved.Moves.Moves)
	case t != movedTab:
		return len(m.scrolling(t))
	}
	return 0
}
