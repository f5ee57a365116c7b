package tui

import (
	"time"

	"github.com/labtui/labtui/tui/components/drill"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// view is what the main screen shows between the header and the lab panel.
type view uint8

const (
	// viewPanes is both panes, with the late records and the inspector when open.
	viewPanes view = iota
	// viewDiff is the replay's output against the live run (diffview).
	viewDiff
	// viewSkew is the event-time/processing-time picture (skewview).
	viewSkew
	// viewDrill is the current run's ≠ rows and the records that differ (drill).
	viewDrill
)

// viewTick is how often an open skew view looks for fresh results.
const viewTick = 250 * time.Millisecond

// viewTickMsg says an open view's tick came round.
type viewTickMsg struct{}

// toggleView shows v, or the panes again when v is already shown.
func (m Model) toggleView(v view) (Model, tea.Cmd) {
	if m.view == v {
		v = viewPanes
	}
	m.view = v
	if m.focus == areaLate || m.focus == areaInspector {
		m.focus = areaPanes
	}
	m = m.relayout()
	var cmds []tea.Cmd
	switch v {
	case viewDiff:
		m = m.showAnalysis()
	case viewSkew:
		var cmd tea.Cmd
		m, cmd = m.refreshSkew(true)
		cmds = append(cmds, cmd)
	}
	if v == viewSkew && !m.viewTicking {
		m.viewTicking = true
		cmds = append(cmds, viewTickCmd())
	}
	return m, tea.Batch(cmds...)
}

func viewTickCmd() tea.Cmd {
	return tea.Tick(viewTick, func(time.Time) tea.Msg { return viewTickMsg{} })
}

// onViewTick refreshes the open view from the results that arrived since, and ticks
// again while a view is open.
func (m Model) onViewTick() (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m.view {
	case viewPanes, viewDiff:
		m.viewTicking = false
		return m, nil
	case viewSkew:
		m, cmd = m.refreshSkew(false)
	}
	return m, tea.Batch(cmd, viewTickCmd())
}

// viewKey takes the keys of a view shown in the panes' place that do not scroll it: the
// diff's tabs, and esc back to the panes; ok is false for any other key (scrollKey
// hands the scrolling keys to the view).
func (m Model) viewKey(k tea.KeyMsg) (Model, bool) {
	km := m.keys
	if m.view == viewPanes {
		return m, false
	}
	if m.view == viewDiff && (key.Matches(k, km.NextTab) || key.Matches(k, km.PrevTab)) {
		// ←/→ are the diff's tabs whatever has the focus, as its footer says (an answer
		// being written has every key before this).
		m.diffView, _ = m.diffView.Update(k)
		return m, true
	}
	if m.focus != areaLab && key.Matches(k, km.Back) {
		// The lab panel with the focus takes esc.
		m.view = viewPanes
		return m.relayout(), true
	}
	return m, false
}

// openDrill shows the current run's ≠ rows, newest first, and the records that differ.
func (m Model) openDrill() Model {
	m.drill = m.drill.SetRows(m.sess.DifferingRows(m.sess.Current()))
	m.view = viewDrill
	// With no ≠ row the drill itself says so; a footer line would stay after esc and
	// contradict the first ≠ row to appear.
	return m.relayout()
}

// drillView draws the ≠ rows with the selected row's differing records.
func (m Model) drillView() string {
	run := m.sess.Current()
	var moved []drill.Moved
	if row, ok := m.drill.Selected(); ok {
		moved = drill.Differing(row, run.Results.Snapshot())
	}
	var gone drill.LetGo
	if n := run.Results.Dropped(); n > 0 {
		gone.Traces = n
		gone.Since, _ = run.Results.OldestTrace()
	}
	return m.drill.View(moved, gone)
}

// panesFirst brings the panes back before a key that works on them (the late records,
// the inspector, the filter).
func (m Model) panesFirst() Model {
	if m.view == viewPanes {
		return m
	}
	m.view = viewPanes
	return m.relayout()
}
