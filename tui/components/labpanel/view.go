package labpanel

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/tui/textutil"
)

// View draws the panel. Without the focus: a title and a line per exercise, its box,
// title and keys. With it: the exercises on one line, then the selected one's guide,
// live check, table, the course's text and the answer being written.
func (m Model) View() string {
	if m.height < 1 {
		return ""
	}
	lines := []string{m.title()}
	if !m.focused || m.height <= CollapsedHeight {
		for _, e := range m.exercises {
			g := GuideOf(e.ID)
			line := m.box(e.ID) + " " + e.ID + " " + g.Title + m.styles.Dim.Render(" · "+g.Keys)
			lines = append(lines, textutil.Fit(line, m.width))
		}
		return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
	}
	var tabs []string
	for i, e := range m.exercises {
		t := m.box(e.ID) + " " + e.ID
		if m.stepOf[m.selected] == i {
			t = m.styles.Selected.Render(t)
		}
		tabs = append(tabs, t)
	}
	lines = append(lines, textutil.Fit(strings.Join(tabs, "   ")+m.styles.Dim.Render("   ↑/↓ question · enter write · p pin"), m.width))
	lines = append(lines, m.detail(m.height-len(lines))...)
	return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
}

func (m Model) box(id string) string {
	if m.done(id) {
		return m.styles.Good.Render("[x]")
	}
	return "[ ]"
}

// done reports whether the exercise's check is met: its Check when set, else its step.
func (m Model) done(id string) bool {
	if c, ok := m.checks[id]; ok {
		return c.Done
	}
	return m.steps[id].Done
}

func (m Model) title() string {
	done := 0
	for _, e := range m.exercises {
		if m.done(e.ID) {
			done++
		}
	}
	st := m.styles.Title
	if m.focused {
		st = m.styles.FocusTitle
	}
	t := fmt.Sprintf("Lab 4 · %d of %d checks met by your runs", done, len(m.exercises))
	switch {
	case m.editing:
		t += " · writing " + m.questions[m.selected].ID + " (esc to stop)"
	case m.focused:
		t += " · tab on to the panes"
	default:
		t += " · tab here: what to do, your answers"
	}
	return textutil.Fit(st.Render(t), m.width)
}

// detail is the selected exercise in h lines: what to do, the check, the question and
// the answer first; what to look for, the table and the course's text as room allows.
func (m Model) detail(h int) []string {
	e := m.exercises[m.stepOf[m.selected]]
	q := m.questions[m.selected]
	g := GuideOf(e.ID)
	wrap := func(label, text string) []string {
		return strings.Split(textutil.Wrap(m.styles.Title.Render(label)+text, m.width), "\n")
	}
	do := wrap("do    ", g.Do)
	check := wrap("check ", m.checkText(e.ID, e.Evidence))
	runs := m.runLines(e.ID)
	look := wrap("look  ", g.Look)
	table := m.tableLines(e.ID)
	course := strings.Split(textutil.Wrap(m.styles.Dim.Render("course "+e.ID+": "+e.Instruction), m.width), "\n")
	n, of := 0, 0
	for i := range m.questions {
		if m.stepOf[i] == m.stepOf[m.selected] {
			of++
			if i <= m.selected {
				n = of
			}
		}
	}
	question := strings.Split(textutil.Wrap(m.styles.Title.Render(fmt.Sprintf("%s (%d of %d) %s", q.ID, n, of, q.Prompt)), m.width), "\n")

	// The answer keeps at least 3 lines; then, in order of need: the check, the table
	// (there once the step has its evidence), what to do, what to look for, the
	// course's text. They are shown in reading
	// order: do, look, check, table, course.
	minArea := 3
	compact := m.height <= CompactHeight+2
	if compact {
		minArea = 2 // a compact panel: the answer scrolls in two lines
	}
	const (
		doPart = iota
		lookPart
		checkPart
		runsPart
		tablePart
		coursePart
	)
	parts := [...][]string{doPart: do, lookPart: look, checkPart: check, runsPart: runs, tablePart: table, coursePart: course}
	order := []int{checkPart, runsPart, tablePart, doPart, lookPart, coursePart}
	if compact {
		// A compact panel (80x24): the first two lines of the check (whether it is met,
		// by which run), of the runs and of what to do, cut, before anything whole.
		for _, i := range []int{checkPart, runsPart, doPart} {
			if p := parts[i]; len(p) > 2 {
				parts[i] = []string{p[0], cutLine(p[1], m.width)}
			}
		}
		order = []int{checkPart, runsPart, doPart, tablePart, lookPart, coursePart}
	}
	room := h - len(question) - minArea
	var shown [len(parts)]bool
	for _, i := range order {
		if n := len(parts[i]); n > 0 && n <= room {
			shown[i] = true
			room -= n
		}
	}
	var out []string
	for i, p := range parts {
		if shown[i] {
			out = append(out, p...)
		}
	}
	out = append(out, question...)
	ta := m.areas[m.selected]
	ta.SetHeight(max(minArea, h-len(out)))
	return append(out, strings.Split(ta.View(), "\n")...)
}

// cutLine ends line with "…" within width: the line goes on beyond it.
func cutLine(line string, width int) string {
	line = strings.TrimRight(line, " ")
	if ansi.StringWidth(line) < width {
		return line + "…"
	}
	return textutil.Fit(line, width-1) // cut, with its own "…"
}

// runLines are the runs the exercise can be pinned to, the one backing it first, then
// those that cannot back it, each with why.
func (m Model) runLines(id string) []string {
	rs := m.runs[id]
	if len(rs) == 0 {
		return nil
	}
	var can, cannot []string
	for _, r := range rs {
		switch {
		case r.Backs && r.Pinned:
			can = append([]string{m.styles.Selected.Render("▸" + r.Name + ", pinned")}, can...)
		case r.Backs:
			can = append([]string{m.styles.Selected.Render("▸" + r.Name + ", the rule's pick")}, can...)
		case r.Why == "":
			can = append(can, r.Name)
		default:
			cannot = append(cannot, m.styles.Dim.Render(r.Name+" ✗ "+r.Why))
		}
	}
	text := strings.Join(append(can, cannot...), " · ")
	if len(can) > 0 {
		text += m.styles.Dim.Render(" · p pins the next, P lets the rule pick")
	}
	return strings.Split(textutil.Wrap(m.styles.Title.Render("runs  ")+text, m.width), "\n")
}

// checkText is the live check: met with its proof, or what is still missing.
func (m Model) checkText(id, rule string) string {
	c, ok := m.checks[id]
	if !ok {
		if s := m.steps[id]; s.Done {
			return m.styles.Good.Render("met: " + s.Because)
		}
		return "not yet: labtui ticks this step on " + rule
	}
	text := c.Sentence
	if c.Run != "" {
		text += " (" + c.Run + ")"
	}
	if c.Done {
		return m.styles.Good.Render("met: " + text)
	}
	return "not yet: " + text
}

// tableLines draws the exercise's table: its title, the header, the rows, the note;
// nothing when the columns do not fit the width.
func (m Model) tableLines(id string) []string {
	t, ok := m.tables[id]
	if !ok {
		return nil
	}
	widths := make([]int, len(t.Header))
	for _, r := range append([][]string{t.Header}, t.Rows...) {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], ansi.StringWidth(c))
			}
		}
	}
	row := func(cells []string) string {
		var b strings.Builder
		for i, w := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			if i == 0 {
				b.WriteString(textutil.Fit(c, w))
			} else {
				b.WriteString("  " + textutil.Right(c, w))
			}
		}
		return b.String()
	}
	if ansi.StringWidth(row(t.Header)) > m.width {
		return nil
	}
	lines := strings.Split(textutil.Wrap(m.styles.Title.Render(t.Title), m.width), "\n")
	lines = append(lines, m.styles.Dim.Render(row(t.Header)))
	for _, r := range t.Rows {
		lines = append(lines, row(r))
	}
	if t.Note != "" {
		lines = append(lines, strings.Split(textutil.Wrap(t.Note, m.width), "\n")...)
	}
	return lines
}
