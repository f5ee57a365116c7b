package tui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/skew"
)

// minSkewEvery is the least time between two builds of the skew picture; a build that
// took long waits twice as long as it took, so the picture never takes more than a third
// of a core.
const minSkewEvery = 250 * time.Millisecond

// skewMsg is a picture built (model set) or drawn again at a new size (model nil).
type skewMsg struct {
	runID, n int
	w, h     int
	// withRef says a replay's held gateway was taken from its reference run.
	withRef bool
	model   *skew.Model
	title   string
	text    string
	took    time.Duration
}

// skewTitle names the run a picture is of.
func skewTitle(run *session.Run, m *skew.Model) string {
	s := fmt.Sprintf("%s · %s records", run.Title(), session.Count(int64(len(m.Points))))
	if m.Held != "" {
		s += " · " + m.Held + " held apart"
	}
	for _, mk := range m.Marks {
		s += " · " + mk.Label + " " + meter.Clock(mk.At)[:8]
	}
	return s
}

// refreshSkew builds the current run's picture again if its results changed, or draws
// it again if the view's size changed, unless a build is under way or the last one was
// too recent; now forces a build unless one is under way.
func (m Model) refreshSkew(now bool) (Model, tea.Cmd) {
	e := &m.an.skew
	if e.pending {
		return m, nil
	}
	run := m.sess.Current()
	w, h := m.skewView.PictureSize()
	if w < 1 || h < 1 {
		return m, nil
	}
	_, withRef := m.sess.SkewOptions(run)
	stale := e.model == nil || e.runID != run.ID || e.n != run.Results.Len() || withRef && !e.withRef
	wait := max(minSkewEvery, 2*e.took)
	switch {
	case stale && (now || time.Since(e.built) >= wait):
		if run.Results.Len() == 0 {
			m.skewView = m.skewView.SetNote("no record has reached the windows in " + run.Title() + " yet")
			return m, nil
		}
		e.pending = true
		m.skewView = m.skewView.SetNote("")
		return m, m.skewBuildCmd(run, w, h)
	case !stale && (e.w != w || e.h != h):
		e.pending = true
		return m, m.skewDrawCmd(e.model, e.title, w, h)
	}
	return m, nil
}

func (m Model) skewBuildCmd(run *session.Run, w, h int) tea.Cmd {
	snap, open, style := run.Results.Snapshot(), run.StillOpen(), m.skewView.Style()
	opts, withRef := m.sess.SkewOptions(run)
	id, r := run.ID, session.Run{ID: run.ID, Reason: run.Reason, Replay: run.Replay, Timestamp: run.Timestamp}
	return m.tasks.cmd(func() tea.Msg {
		start := time.Now()
		model := skew.Build(session.Output(snap, open), opts)
		text := skew.RenderStyled(model, w, h, style)
		return skewMsg{runID: id, n: len(snap), w: w, h: h, withRef: withRef, model: &model, title: skewTitle(&r, &model), text: text,
			took: time.Since(start)}
	})
}

func (m Model) skewDrawCmd(model *skew.Model, title string, w, h int) tea.Cmd {
	e, style := m.an.skew, m.skewView.Style()
	return m.tasks.cmd(func() tea.Msg {
		return skewMsg{runID: e.runID, n: e.n, w: w, h: h, withRef: e.withRef, title: title, text: skew.RenderStyled(*model, w, h, style)}
	})
}

// skewDrawn shows a picture built or drawn again.
func (m Model) skewDrawn(msg skewMsg) (Model, tea.Cmd) {
	e := &m.an.skew
	e.pending = false
	e.runID, e.n, e.w, e.h, e.title, e.withRef = msg.runID, msg.n, msg.w, msg.h, msg.title, msg.withRef
	if msg.model != nil {
		e.model, e.built, e.took = msg.model, time.Now(), msg.took
	}
	m.skewView = m.skewView.SetPicture(msg.title, msg.text)
	if m.view != viewSkew {
		return m, nil
	}
	// A resize while it was drawn is drawn at once.
	if w, h := m.skewView.PictureSize(); w != e.w || h != e.h {
		return m.refreshSkew(false)
	}
	return m, nil
}
