// Package panes draws the processing-time and event-time panes side by side: every fired
// TenantCostMinute of the current run as a row, the same minute and tenant on the same
// line in both panes, a row whose value differs between the panes marked, the mark lines,
// and under them the windows still open with their running totals.
package panes

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/theme"
)

// Titles of the two panes, named for the window assigner each uses.
const (
	processingTitle = "processing time (TumblingProcessingTimeWindows)"
	eventTitle      = "event time (TumblingEventTimeWindows)"
)

// KeyMap is the keys the panes scroll by.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// Model is the two panes' size, focus and scroll position, and what they scroll over.
type Model struct {
	styles  theme.Styles
	keys    KeyMap
	width   int
	height  int
	focused bool
	// top is the first row shown when not following the newest rows.
	top    int
	follow bool
	run    int
	// over and open are what Update scrolls over (SetContent).
	over *session.Run
	open []jobspec.Result
}

// New returns panes that follow the newest rows and scroll by keys.
func New(styles theme.Styles, keys KeyMap) Model {
	return Model{styles: styles, keys: keys, follow: true}
}

// SetContent sets what Update scrolls over: run's rows and the open windows shown under
// them. View draws what it is given; give both the same.
func (m Model) SetContent(run *session.Run, open []jobspec.Result) Model {
	m.over, m.open = run, open
	return m
}

// wheel is how many rows a turn of the mouse wheel scrolls.
const wheel = 3

// Update scrolls by the keys and the mouse wheel: a row, a page (the height less the
// titles and the status), the oldest row (home), or the newest, following them again
// (end). It does nothing before SetContent.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if m.over == nil {
		return m, nil
	}
	page := max(1, m.height-4)
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.keys.Up):
			return m.scroll(-1), nil
		case key.Matches(msg, m.keys.Down):
			return m.scroll(1), nil
		case key.Matches(msg, m.keys.PageUp):
			return m.scroll(-page), nil
		case key.Matches(msg, m.keys.PageDown):
			return m.scroll(page), nil
		case key.Matches(msg, m.keys.Home):
			return m.toTop(), nil
		case key.Matches(msg, m.keys.End):
			return m.Bottom(), nil
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

// SetSize sets the cells both panes fill together.
func (m Model) SetSize(w, h int) Model {
	m.width, m.height = w, h
	return m
}

// SetFocused says whether the panes have the focus (their title shows it).
func (m Model) SetFocused(f bool) Model {
	m.focused = f
	return m
}

// following reports whether the panes show the newest rows as they arrive.
func (m Model) following() bool { return m.follow }

// scroll moves the view by delta rows (negative is up, to older rows) over the run's
// table, given the open windows the view shows below the rows.
func (m Model) scroll(delta int) Model {
	run := m.over
	n, vis := run.Table.Len(), m.rowsHeight(len(alignOpen(m.open)))
	last := max(0, n-vis)
	if m.follow || m.run != run.ID {
		m.top = last
	}
	m.run = run.ID
	m.top = max(0, min(last, m.top+delta))
	m.follow = m.top >= last
	return m
}

// toTop scrolls to the oldest row.
func (m Model) toTop() Model {
	m.run, m.top, m.follow = m.over.ID, 0, m.over.Table.Len() == 0
	return m
}

// Bottom follows the newest rows again, as a restart's new run does.
func (m Model) Bottom() Model {
	m.follow = true
	return m
}

// titleLines is 1 when both titles fit on one line, else 2.
func (m Model) titleLines() int {
	if m.wideTitles() || m.height < shortPanes {
		return 1
	}
	return 2
}

// wideTitles reports whether the titles with their window classes fit on one line.
func (m Model) wideTitles() bool {
	lw, _ := m.split()
	return lw >= len(processingTitle)+2
}

// shortPanes is the height under which narrow panes leave their window classes out of the
// titles, for one more row of minutes (80x24 with the lab panel focused).
const shortPanes = 12

// split returns the widths of the left and the right pane (a rule sits between).
func (m Model) split() (int, int) {
	lw := (m.width - 1) / 2
	return lw, m.width - 1 - lw
}

// openLines is how many lines open windows (aligned rows) take: a heading and up to a
// quarter of the height.
func (m Model) openLines(open int) int {
	if open == 0 {
		return 1
	}
	return 1 + min(open, max(1, m.height/4))
}

// rowsHeight is how many fired rows fit: the height less titles, column heads, the open
// windows and the status line.
func (m Model) rowsHeight(open int) int {
	return max(1, m.height-m.titleLines()-1-m.openLines(open)-1)
}
