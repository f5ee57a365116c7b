package tui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/skew"
	"github.com/labtui/labtui/tui/components/diffview"
)

// analysis is what the diff and skew views keep of what they show: the version of the
// session's comparisons last laid out, and the latest skew picture. It is written only
// from Update; commands get copies of what they need.
type analysis struct {
	// diffVersion is the session's DiffState version the diff view shows.
	diffVersion uint64
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
	st := m.sess.DiffState(m.replaying)
	if m.an.shown && st.Version == m.an.diffVersion {
		return m
	}
	m.an.shown, m.an.diffVersion = true, st.Version
	dv := m.diffView
	if st.Diff != nil {
		dv = dv.SetContent(diffview.Build(st.Title, *st.Diff))
	}
	event := st.Note
	if why := m.replayLateWhy(st.Run); why != "" {
		event = strings.TrimSpace(event + " " + why)
	}
	dv = dv.SetNote(diffview.EventTab, event).SetNote(diffview.ProcessingTab, st.Note)
	if st.Moves != nil {
		dv = dv.SetMoved(&diffview.Moved{Title: st.MovedTitle, Moves: st.Moves})
	}
	m.diffView = dv.SetNote(diffview.MovedTab, st.MovedNote)
	return m
}

// replayLateWhy says, for a replay that dropped records as late, why a replay of the
// same hour can differ from its reference and from another replay, and what removes it.
// labtui knows how many were late, not yet how far each partition ran ahead: the job
// reports partitions' watermarks only when they are generated at the source.
func (m Model) replayLateWhy(run *session.Run) string {
	if run == nil || !run.Replay || run.LateCount == 0 {
		return ""
	}
	why := fmt.Sprintf("Run %d dropped %d records ($%.2f) as late. At full speed the job reads the topic's three partitions "+
		"unevenly, and a watermark assigned after the source, as in the course's job, follows the partition read furthest "+
		"ahead: records of the others arrive behind it, as they would in Flink, so successive replays of the same hour "+
		"disagree.", run.ID, run.LateCount, run.LateUSD)
	if run.Timestamp == meter.StartedTS {
		why += " With started_ts some are late for a reason of their own: started_ts is out of order by each request's duration."
	}
	if m.watermarks.At != meter.SourceWatermarks {
		why += " Watermarks per partition at the source (w, then p) take the minimum over the partitions and remove the first effect."
	}
	why += " (labtui does not show yet which partition ran ahead, or by how much.)"
	return why
}
