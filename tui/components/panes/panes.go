// Package panes draws the processing-time and event-time panes side by side: every fired
// TenantCostMinute of the current run as a row, the same minute and tenant on the same
// line in both panes, a row whose value differs between the panes marked, the mark lines,
// and under them the windows still open with their running totals.
package panes

import (
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/tui/theme"
)

// Titles of the two panes, named for the window assigner each uses.
const (
	ProcessingTitle = "processing time (TumblingProcessingTimeWindows)"
	EventTitle      = "event time (TumblingEventTimeWindows)"
)

// Model is the two panes' size, focus and scroll position.
type Model struct {
	styles  theme.Styles
	width   int
	height  int
	focused bool
	// top is the first row shown when not following the newest rows.
	top    int
	follow bool
	run    int
}

// New returns panes that follow the newest rows.
func New(styles theme.Styles) Model { return Model{styles: styles, follow: true} }

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

// Following reports whether the panes show the newest rows as they arrive.
func (m Model) Following() bool { return m.follow }

// Scroll moves the view by delta rows (negative is up, to older rows) over run's table,
// given the open windows the view shows below the rows.
func (m Model) Scroll(run *session.Run, open []meter.Result, delta int) Model {
	n, vis := run.Table.Len(), m.rowsHeight(len(alignOpen(open)))
	last := max(0, n-vis)
	if m.follow || m.run != run.ID {
		m.top = last
	}
	m.run = run.ID
	m.top = max(0, min(last, m.top+delta))
	m.follow = m.top >= last
	return m
}

// Top scrolls to the oldest row.
func (m Model) Top(run *session.Run) Model {
	m.run, m.top, m.follow = run.ID, 0, run.Table.Len() == 0
	return m
}

// Bottom follows the newest rows again.
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
	return lw >= len(ProcessingTitle)+2
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
