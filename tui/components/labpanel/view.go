package labpanel

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/tui/textutil"
)

// View draws the panel: collapsed to the steps without the focus, and with the
// selected step's instruction, its evidence and the answer with it.
func (m Model) View() string {
	if m.height < 1 {
		return ""
	}
	lines := []string{m.title()}
	for i, e := range m.exercises {
		box := "[ ]"
		if m.steps[e.ID].Done {
			box = m.styles.Good.Render("[x]")
		}
		sel := "  "
		if m.focused && m.stepOf[m.selected] == i {
			sel = "> "
		}
		lines = append(lines, textutil.Fit(sel+box+" "+e.ID+" "+e.Instruction, m.width))
	}
	if !m.focused || m.height <= CollapsedHeight {
		return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
	}
	lines = append(lines, m.styles.Rule.Render(strings.Repeat("─", m.width)))
	lines = append(lines, m.detail(m.height-len(lines))...)
	return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
}

func (m Model) title() string {
	done := 0
	for _, e := range m.exercises {
		if m.steps[e.ID].Done {
			done++
		}
	}
	st := m.styles.Title
	if m.focused {
		st = m.styles.FocusTitle
	}
	t := fmt.Sprintf("Lab 4 · Try it · %d of %d steps have evidence", done, len(m.exercises))
	switch {
	case m.editing:
		t += " · writing " + m.questions[m.selected].ID + " (esc to stop)"
	case m.focused:
		t += " · ↑/↓ question · enter to write"
	default:
		t += " · tab here to answer"
	}
	return textutil.Fit(st.Render(t), m.width)
}

// detail is the selected step's instruction, its evidence, the question and the
// answer, in h lines; the instruction gives way first when space is short.
func (m Model) detail(h int) []string {
	e := m.exercises[m.stepOf[m.selected]]
	q := m.questions[m.selected]
	ev := "ticks when: " + e.Evidence
	if s := m.steps[e.ID]; s.Done {
		ev = m.styles.Good.Render("evidence: " + s.Because)
	}
	n, of := 0, 0
	for i := range m.questions {
		if m.stepOf[i] == m.stepOf[m.selected] {
			of++
			if i <= m.selected {
				n = of
			}
		}
	}
	question := fmt.Sprintf("%s (%d of %d) %s", q.ID, n, of, q.Prompt)
	instr := strings.Split(textutil.Wrap(e.ID+" "+e.Instruction, m.width), "\n")
	evl := strings.Split(textutil.Wrap(ev, m.width), "\n")
	ql := strings.Split(textutil.Wrap(m.styles.Title.Render(question), m.width), "\n")
	area := max(3, h-len(instr)-len(evl)-len(ql))
	if spare := h - len(evl) - len(ql) - area; spare < len(instr) {
		instr = instr[:max(0, spare)]
	}
	ta := m.areas[m.selected]
	ta.SetHeight(area)
	out := append(append(append(instr, evl...), ql...), strings.Split(ta.View(), "\n")...)
	return out
}
