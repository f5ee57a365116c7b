package tui

import (
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/skew"
	"github.com/labtui/labtui/internal/state"
)

// pictureSpec is what the export needs to draw a run's skew picture off the update
// loop: the run's output, the options taken from it, or the picture the skew view built.
type pictureSpec struct {
	results, open   []jobspec.Result
	opts            skew.Options
	model           *skew.Model
	title, exercise string
	run             state.RunRef
}

// picture returns the skew picture to export: of the run the session picks as an
// exercise's evidence (session.PictureRun); nil when no run has traced records.
func (m Model) picture() *pictureSpec {
	run, exercise := m.sess.PictureRun()
	if run == nil {
		return nil
	}
	p := &pictureSpec{results: run.Results.Snapshot(), open: run.StillOpen(), title: run.Title(), exercise: exercise, run: m.sess.RunRef(run)}
	if run.Replay {
		p.title += " · " + filepath.Base(m.sess.RecordingOf(run))
	}
	p.opts, _ = m.sess.SkewOptions(run)
	p.model = m.skewView.Built(run.ID, run.Results.Len())
	return p
}

// build draws the picture, unless the skew view already had.
func (p *pictureSpec) build() *export.Picture {
	if p.model == nil {
		mdl := skew.Build(session.Output(p.results, p.open), p.opts)
		p.model = &mdl
	}
	return &export.Picture{Model: *p.model, Title: p.title + " · event time against processing time", Exercise: p.exercise, Run: p.run}
}

func (m Model) exportCmd(st state.State, pic *pictureSpec) tea.Cmd {
	dir, now := m.cfg.ExportDir, m.cfg.Now()
	return m.tasks.cmd(func() tea.Msg {
		var p *export.Picture
		if pic != nil {
			p = pic.build()
		}
		paths, err := export.WriteWith(dir, st, now, p)
		msg := exportedMsg{paths: paths, err: err}
		if p != nil && err == nil {
			saved := p.Saved(export.SkewFile)
			msg.picture = &saved
		}
		return msg
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
