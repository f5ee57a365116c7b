package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/skew"
)

// analysis is what the skew view keeps of what it shows: the latest skew picture. It is
// written only from Update; commands get copies of what they need.
type analysis struct {
	skew skewEntry
	// ticking says a view tick is on its way.
	ticking bool
}

func newAnalysis() *analysis { return &analysis{} }

// skewEntry is the latest picture: of run runID with n results, drawn at w x h.
type skewEntry struct {
	runID, n int
	w, h     int
	withRef  bool
	pending  bool
	model    *skew.Model
	title    string
	built    time.Time
	took     time.Duration
}

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
