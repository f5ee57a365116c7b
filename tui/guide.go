package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The whole guide (o) is the lab panel's selected exercise at the size of the body
// (labpanel.Guide), read with the scrolling keys.

// wholeGuide is the guide with the selected exercise's lines wrapped to the screen's
// width, read live: the check changes as the run goes on.
func (m Model) wholeGuide() Model {
	m.guide = m.guide.SetLines(m.lab.Whole(m.width))
	return m
}

// openGuide opens the whole guide of the exercise the learner is on, showing it in the
// panel too (without making it the learner's choice: the footer goes on following the
// first unmet exercise until ←/→ or ↑/↓ picks one).
func (m Model) openGuide() Model {
	if cur := m.lab.Current(); cur != m.lab.SelectedExercise() {
		m.lab = m.lab.ShowExercise(cur)
	}
	m.screen, m.guide = screenGuide, m.guide.Rewind()
	return m.labRuns()
}

// guideKey leaves the whole guide, shows another exercise's, or hands the key to it.
func (m Model) guideKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	km := m.keys
	switch {
	case k.String() == "q", key.Matches(k, km.Lab.Guide), k.Type == tea.KeyEsc:
		// q goes back, as it cancels a picker; ctrl+c quits (Model.key).
		m.screen = screenMain
	case key.Matches(k, km.PrevTab), key.Matches(k, km.NextTab):
		d := 1
		if key.Matches(k, km.PrevTab) {
			d = -1
		}
		m.lab = m.lab.StepExercise(d)
		m.guide = m.guide.Rewind()
		m = m.labRuns()
	default:
		m = m.wholeGuide()
		m.guide, _ = m.guide.Update(k)
	}
	return m, nil
}
