package tui

import (
	"fmt"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/diff"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
	"github.com/labtui/labtui/tui/compare"
	"github.com/labtui/labtui/tui/components/diffview"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/history"
)

// referenceMsg says a re-enactment finished.
type referenceMsg struct {
	key     refKey
	results []meter.Result
	err     error
}

// comparedMsg says a replay run was compared with its reference, over its first n
// results.
type comparedMsg struct {
	runID    int
	n        int
	content  *diffview.Content
	evidence state.Comparison
}

// movedMsg says a moved-requests list was worked out.
type movedMsg struct {
	key      string
	moved    *diffview.Moved
	summary  state.MovedSummary
	evidence []state.Moved
	err      error
}

func (m Model) referenceCmd(key refKey) tea.Cmd {
	ctx, job := m.ctx, m.cfg.Job
	return m.tasks.cmd(func() tea.Msg {
		rs, err := compare.Reference(ctx, key.path, job, key.field)
		return referenceMsg{key, rs, err}
	})
}

func (m Model) compareCmd(run *history.Run, ref []meter.Result) tea.Cmd {
	id, snap, open := run.ID, run.Results.Snapshot(), run.Open
	path := m.recordingOf(run)
	title := fmt.Sprintf("run %d · replay of %s with %s · against the live run: the recording re-enacted at recorded pace",
		id, filepath.Base(path), run.Timestamp)
	if !run.Results.Complete() {
		title += fmt.Sprintf(" · only the latest %d results of the replay are kept", run.Results.Len())
	}
	reference := fmt.Sprintf("a re-enactment of %s at recorded pace with %s (the live run of the recorded hour)", path, run.Timestamp)
	return m.tasks.cmd(func() tea.Msg {
		c := compare.Compare(ref, compare.Output(snap, open))
		return comparedMsg{runID: id, n: len(snap), content: diffview.Build(title, c), evidence: c.Evidence(reference)}
	})
}

func (m Model) movedCmd(key, title string, a, b []meter.Result) tea.Cmd {
	return m.tasks.cmd(func() tea.Msg {
		mv, err := diff.Moved(a, b)
		if err != nil {
			return movedMsg{key: key, err: err}
		}
		sum, list := compare.MovedEvidence(mv, title)
		return movedMsg{key: key, moved: &diffview.Moved{Title: title, Moves: mv}, summary: sum, evidence: list}
	})
}

// analysisMsg takes in what the analysis commands report; ok is false for any other
// message.
func (m Model) analysisMsg(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case settledMsg:
		m, cmd := m.analyze()
		return m, cmd, true
	case viewTickMsg:
		m, cmd := m.onViewTick()
		return m, cmd, true
	case referenceMsg:
		m.an.refs[msg.key] = &refEntry{results: msg.results, err: msg.err}
		if msg.err != nil {
			m = m.say(footer.Error, "re-enacting the live run: %v", msg.err)
		}
		m, cmd := m.analyze()
		return m, cmd, true
	case comparedMsg:
		e := m.an.diffs[msg.runID]
		if e == nil {
			e = &diffEntry{}
			m.an.diffs[msg.runID] = e
		}
		e.pending, e.n, e.content = false, msg.n, msg.content
		m.tracker.Compared(msg.runID, msg.evidence)
		m, cmd := m.analyze()
		m, save := m.progressChanged()
		return m, tea.Batch(cmd, save), true
	case movedMsg:
		if msg.key != m.an.moved.key {
			return m, nil, true // a newer list is under way
		}
		m.an.moved.pending, m.an.moved.err = false, msg.err
		if msg.err == nil {
			m.an.moved.moved = msg.moved
			m.tracker.MovedFound(msg.summary, msg.evidence)
		}
		m = m.showAnalysis()
		m, save := m.progressChanged()
		return m, save, true
	case skewMsg:
		m, cmd := m.skewDrawn(msg)
		return m, cmd, true
	}
	return m, nil, false
}
