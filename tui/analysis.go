package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/session"
)

// taskDoneMsg is a session task's outcome, for the session to take in.
type taskDoneMsg struct{ o session.Outcome }

// sessionCmds runs the session's tasks as commands, off the update loop.
func (m Model) sessionCmds(tasks []session.Task) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(tasks))
	for _, t := range tasks {
		ctx, log := m.ctx, m.cfg.Logger
		cmds = append(cmds, m.tasks.cmd(func() tea.Msg {
			log.Info("session task", "task", t.What)
			return taskDoneMsg{t.Run(ctx)}
		}))
	}
	return tea.Batch(cmds...)
}

// showAnalysis lays out the session's comparisons in the diff view (it redraws only
// when they changed).
func (m Model) showAnalysis() Model {
	st := m.sess.DiffState(m.sess.Replaying())
	m.diffView = m.diffView.Show(st, session.LateWhy(st.Run))
	return m
}
