package tui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/skew"
	"github.com/labtui/labtui/tui/components/diffview"
)

// analysis is what the diff and skew views keep of what they show: the version of the
// session's comparisons last laid out, and the latest skew picture. It is written only
// from Update; commands get copies of what they need.
type analysis struct {
	// diffVersion is the session's DiffState version the diff view shows, and lateWhy
	// the explanation of its replay's late records it shows (it changes with the run's
	// reads, which no version counts).
	diffVersion uint64
	lateWhy     string
	shown       bool
	skew        skewEntry
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

// showAnalysis lays out the session's comparisons in the diff view when they changed
// since it last did.
func (m Model) showAnalysis() Model {
	st := m.sess.DiffState(m.sess.Replaying())
	why := session.LateWhy(st.Run)
	if m.an.shown && st.Version == m.an.diffVersion && why == m.an.lateWhy {
		return m
	}
	m.an.shown, m.an.diffVersion, m.an.lateWhy = true, st.Version, why
	dv := m.diffView
	if st.Diff != nil {
		dv = dv.SetContent(diffview.Build(st.Title, *st.Diff))
	}
	event := st.Note
	if why != "" {
		event = strings.TrimSpace(event + " " + why)
	}
	dv = dv.SetNote(diffview.EventTab, event).SetNote(diffview.ProcessingTab, st.Note)
	if st.Moves != nil {
		dv = dv.SetMoved(&diffview.Moved{Title: st.MovedTitle, Moves: st.Moves})
	}
	m.diffView = dv.SetNote(diffview.MovedTab, st.MovedNote)
	return m
}
