package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/tui/components/skewview"
)

// refreshSkew has the skew view build the current run's picture again, or draw it again
// at its size, when it is due (skewview.Refresh); now forces a build.
func (m Model) refreshSkew(now bool) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.skewView, cmd = m.skewView.Refresh(m.sess.Current(), m.sess, now)
	if cmd == nil {
		return m, nil
	}
	return m, m.tasks.cmd(cmd)
}

// skewDrawn shows a picture built or drawn again, and draws it again at once if the
// view was resized meanwhile.
func (m Model) skewDrawn(msg skewview.DrawnMsg) (Model, tea.Cmd) {
	m.skewView, _ = m.skewView.Update(msg)
	if m.view != viewSkew || !m.skewView.Stale() {
		return m, nil
	}
	return m.refreshSkew(false)
}
