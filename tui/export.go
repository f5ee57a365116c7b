package tui

import (
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/export"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/skew"
	"github.com/labtui/labtui/state"
)

// pictureSpec is what the export needs to draw a run's skew picture off the update
// loop: the run's output, the options taken from it, or the picture the skew view built.
type pictureSpec struct {
	results, open   []meter.Result
	opts            skew.Options
	ref             []meter.Result
	model           *skew.Model
	title, exercise string
}

// picture returns the skew picture to export: of the current run, or of the newest run
// with traced records if the current one has none yet; nil when no run has any (a
// picture without records has nothing to show).
func (m Model) picture() *pictureSpec {
	runs := m.sess.Runs()
	var run *session.Run
	for i := len(runs) - 1; i >= 0 && run == nil; i-- {
		if traced(runs[i].Results.Snapshot()) {
			run = runs[i]
		}
	}
	if run == nil {
		return nil
	}
	p := &pictureSpec{results: run.Results.Snapshot(), open: run.Open, title: run.Title(), exercise: exerciseOf(run)}
	if run.Replay {
		p.title += " · " + filepath.Base(m.sess.RecordingOf(run))
	}
	p.opts, p.ref = m.skewOptions(run)
	if e := m.an.skew; e.model != nil && e.runID == run.ID && e.n == run.Results.Len() {
		p.model = e.model
	}
	return p
}

// exerciseOf is the exercise a run's picture is evidence for: a replay is 4.3 or 4.4 by
// its timestamp field, a live run with a hiccup 4.2, any other 4.1.
func exerciseOf(run *session.Run) string {
	switch {
	case run.Replay && run.Timestamp == meter.StartedTS:
		return "4.4"
	case run.Replay:
		return "4.3"
	case len(run.Hiccups) > 0:
		return "4.2"
	}
	return "4.1"
}

// build draws the picture, unless the skew view already had.
func (p *pictureSpec) build() *export.Picture {
	if p.model == nil {
		if p.ref != nil {
			p.opts.Held = heldIn(p.ref)
		}
		mdl := skew.Build(session.Output(p.results, p.open), p.opts)
		p.model = &mdl
	}
	return &export.Picture{Model: *p.model, Title: p.title + " · event time against processing time", Exercise: p.exercise}
}

func (m Model) exportCmd(st state.State, pic *pictureSpec) tea.Cmd {
	dir, now := m.cfg.ExportDir, m.cfg.Now()
	return m.tasks.cmd(func() tea.Msg {
		var p *export.Picture
		if pic != nil {
			p = pic.build()
		}
		paths, err := export.WriteWith(dir, st, now, p)
		return exportedMsg{paths, err}
	})
}

// pathList is "a, b and c".
func pathList(paths []string) string {
	switch len(paths) {
	case 0:
		return "nothing"
	case 1:
		return paths[0]
	}
	return strings.Join(paths[:len(paths)-1], ", ") + " and " + paths[len(paths)-1]
}

// traced reports whether rs hold a record's trace, looking from the newest.
func traced(rs []meter.Result) bool {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Kind == meter.TraceResult {
			return true
		}
	}
	return false
}
