package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/header"
	"github.com/labtui/labtui/tui/textutil"
)

// The whole guide (o) is the lab panel's selected exercise at the size of the body, read
// with the scrolling keys: at 80x24 the panel has room for only the first lines of the
// check, the runs and what to do.

// guideHeight is the lines the whole guide has on screen.
func (m Model) guideHeight() int { return max(1, m.height-header.Height-footer.Height) }

// guideLines is the whole guide wrapped to the screen's width, read live: the check
// changes as the run goes on.
func (m Model) guideLines() []string { return m.lab.Whole(m.width) }

// guideView draws the whole guide's lines from guideTop.
func (m Model) guideView(lines []string) string {
	top := min(m.guideTop, max(0, len(lines)-m.guideHeight()))
	end := min(len(lines), top+m.guideHeight())
	return textutil.Block(strings.Join(lines[top:end], "\n"), m.width, m.guideHeight())
}

// guidePrompt is the footer's line while the whole guide is open: where it is, and how
// to move and leave; lines are the whole guide's.
func (m Model) guidePrompt(lines []string) string {
	n := len(lines)
	top := min(m.guideTop, max(0, n-m.guideHeight()))
	return fmt.Sprintf("guide of %s · lines %d–%d of %d · ↑/↓ pgdn scroll · ←/→ exercise · esc/q back",
		m.lab.SelectedExercise(), top+1, min(n, top+m.guideHeight()), n)
}

// openGuide opens the whole guide of the exercise the learner is on, showing it in the
// panel too (without making it the learner's choice: the footer goes on following the
// first unmet exercise until ←/→ or ↑/↓ picks one).
func (m Model) openGuide() Model {
	if cur := m.lab.Current(); cur != m.lab.SelectedExercise() {
		m.lab = m.lab.ShowExercise(cur)
	}
	m.screen, m.guideTop = screenGuide, 0
	return m.labRuns()
}

// guideKey scrolls the whole guide, or leaves it.
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
		m.guideTop = 0
		m = m.labRuns()
	case key.Matches(k, km.Up):
		m = m.scrollGuide(-1)
	case key.Matches(k, km.Down):
		m = m.scrollGuide(1)
	case key.Matches(k, km.PageUp):
		m = m.scrollGuide(-m.guideHeight())
	case key.Matches(k, km.PageDown):
		m = m.scrollGuide(m.guideHeight())
	case key.Matches(k, km.Home):
		m.guideTop = 0
	case key.Matches(k, km.End):
		m = m.scrollGuide(len(m.guideLines()))
	}
	return m, nil
}

// scrollGuide moves the whole guide by d lines, within its length.
func (m Model) scrollGuide(d int) Model {
	m.guideTop = max(0, min(m.guideTop+d, len(m.guideLines())-m.guideHeight()))
	return m
}
