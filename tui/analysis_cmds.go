package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/tui/components/skewview"
)

// analysisMsg takes in what the session's tasks and the views' ticks report; ok is
// false for any other message.
func (m Model) analysisMsg(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case taskDoneMsg:
		tasks := m.sess.Finish(msg.o)
		m = m.showAnalysis()
		m, save := m.progressChanged()
		var exp tea.Cmd
		if m.exportDue && !m.sess.Comparing() {
			mm, cmd := m.export()
			m, exp = mm.(Model), cmd
		}
		return m, tea.Batch(m.sessionCmds(tasks), save, exp), true
	case viewTickMsg:
		m, cmd := m.onViewTick()
		return m, cmd, true
	case skewview.DrawnMsg:
		m, cmd := m.skewDrawn(msg)
		return m, cmd, true
	}
	return m, nil, false
}
