package skewview

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/skew"
)

// minEvery is the least time between two builds of the picture; a build that took long
// waits twice as long as it took, so the picture never takes more than a third of a
// core.
const minEvery = 250 * time.Millisecond

// Options gives the picture's options for a run (session.Session.SkewOptions), and
// whether a replay's held gateway was taken from its reference run.
type Options interface {
	SkewOptions(run *session.Run) (skew.Options, bool)
}

// built is the latest picture: of run runID with n results, drawn at w x h, and whether
// a build or a drawing is under way.
type built struct {
	runID, n int
	w, h     int
	withRef  bool
	pending  bool
	model    *skew.Model
	title    string
	at       time.Time
	took     time.Duration
}

// DrawnMsg is a picture built (Model set) or drawn again at a new size (Model nil), off
// the update loop; Update shows it.
type DrawnMsg struct {
	runID, n int
	w, h     int
	withRef  bool
	model    *skew.Model
	title    string
	text     string
	took     time.Duration
}

// Refresh builds run's picture again if its results changed, or draws it again if the
// view's size changed, unless a build is under way or the last one was too recent; now
// forces a build unless one is under way. It returns the command that builds or draws
// (its DrawnMsg goes to Update), to run off the loop, or nil.
func (m Model) Refresh(run *session.Run, opts Options, now bool) (Model, tea.Cmd) {
	b := &m.built
	if b.pending {
		return m, nil
	}
	w, h := m.PictureSize()
	if w < 1 || h < 1 {
		return m, nil
	}
	_, withRef := opts.SkewOptions(run)
	stale := b.model == nil || b.runID != run.ID || b.n != run.Results.Len() || withRef && !b.withRef
	wait := max(minEvery, 2*b.took)
	switch {
	case stale && (now || time.Since(b.at) >= wait):
		if run.Results.Len() == 0 {
			return m.setNote("no record has reached the windows in " + run.Title() + " yet"), nil
		}
		b.pending = true
		m = m.setNote("")
		return m, m.buildCmd(run, opts, w, h)
	case !stale && (b.w != w || b.h != h):
		b.pending = true
		return m, m.drawCmd(w, h)
	}
	return m, nil
}

func (m Model) buildCmd(run *session.Run, opts Options, w, h int) tea.Cmd {
	snap, open, style := run.Results.Snapshot(), run.StillOpen(), m.style()
	o, withRef := opts.SkewOptions(run)
	id, r := run.ID, session.Run{ID: run.ID, Reason: run.Reason, Replay: run.Replay, Timestamp: run.Timestamp}
	return func() tea.Msg {
		start := time.Now()
		model := skew.Build(session.Output(snap, open), o)
		text := skew.RenderStyled(model, w, h, style)
		return DrawnMsg{runID: id, n: len(snap), w: w, h: h, withRef: withRef, model: &model, title: title(&r, &model), text: text,
			took: time.Since(start)}
	}
}

func (m Model) drawCmd(w, h int) tea.Cmd {
	b, style := m.built, m.style()
	return func() tea.Msg {
		return DrawnMsg{runID: b.runID, n: b.n, w: w, h: h, withRef: b.withRef, title: b.title, text: skew.RenderStyled(*b.model, w, h, style)}
	}
}

// Update shows a picture built or drawn again (DrawnMsg); it takes no other message
// (the picture does not scroll).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	d, ok := msg.(DrawnMsg)
	if !ok {
		return m, nil
	}
	b := &m.built
	b.pending = false
	b.runID, b.n, b.w, b.h, b.title, b.withRef = d.runID, d.n, d.w, d.h, d.title, d.withRef
	if d.model != nil {
		b.model, b.at, b.took = d.model, time.Now(), d.took
	}
	return m.setPicture(d.title, d.text), nil
}

// Stale reports whether the latest drawing is of another size than the view's: a resize
// came while it was drawn.
func (m Model) Stale() bool {
	w, h := m.PictureSize()
	return w != m.built.w || h != m.built.h
}

// Built is the picture built of run runID with n results, or nil: the export draws it
// again rather than build it twice.
func (m Model) Built(runID, n int) *skew.Model {
	if b := m.built; b.model != nil && b.runID == runID && b.n == n {
		return b.model
	}
	return nil
}

// DrawnSize is the size the latest drawing was made at.
func (m Model) DrawnSize() (w, h int) { return m.built.w, m.built.h }

// title names the run a picture is of.
func title(run *session.Run, m *skew.Model) string {
	s := fmt.Sprintf("%s · %s records", run.Title(), session.Count(int64(len(m.Points))))
	if m.Held != "" {
		s += " · " + m.Held + " held apart"
	}
	for _, mk := range m.Marks {
		s += " · " + mk.Label + " " + jobspec.Clock(mk.At)[:8]
	}
	return s
}
