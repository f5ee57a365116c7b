package tui

import (
	"time"

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
	if v == viewSkew && !m.an.ticking {
		m.an.ticking = true
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
		m.an.ticking = false
		return m, nil
	case viewSkew:
		m, cmd = m.refreshSkew(false)
	}
	return m, tea.Batch(cmd, viewTickCmd())
}

// viewKey handles the keys of the diff and skew views; ok is false for a key they do
// not take.
func (m Model) viewKey(k tea.KeyMsg) (Model, bool) {
	if m.view == viewPanes || m.focus == areaLab {
		return m, false
	}
	km := m.keys
	switch {
	case key.Matches(k, km.Back):
		m.view = viewPanes
		return m.relayout(), true
	case m.view == viewDiff && key.Matches(k, km.NextTab):
		m.diffView = m.diffView.NextTab(true)
		return m, true
	case m.view == viewDiff && key.Matches(k, km.PrevTab):
		m.diffView = m.diffView.NextTab(false)
		return m, true
	}
	return m, false
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
