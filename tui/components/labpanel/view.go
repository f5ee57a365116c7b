package labpanel

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/labs/lab4"
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
			g := lab4.GuideOf(e.ID)
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
	row := strings.Join(tabs, "   ")
	pin := m.pinHint()
	hint := "   ↑/↓ question · enter write" + pin + " · o whole guide"
	if ansi.StringWidth(row+hint) > m.width {
		hint = "   ↑/↓ · enter write" + pin + " · o guide" // 80 columns
	}
	lines = append(lines, textutil.Fit(row+m.styles.Dim.Render(hint), m.width))
	lines = append(lines, m.detail(m.height-len(lines))...)
	return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
}

// pinHint offers p and P where they act on the selected exercise: p while a kept run can
// back it, P while it is pinned.
func (m Model) pinHint() string {
	can, pinned := false, false
	for _, r := range m.runs[m.SelectedExercise()] {
		can = can || r.Why == ""
		pinned = pinned || r.Backs && r.Pinned
	}
	switch {
	case can && pinned:
		return " · p/P pick"
	case can:
		return " · p pick"
	}
	return ""
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

// Part names, in reading order: what to do, what to look for, the check, the runs, the
// table, the course's text.
const (
	doPart = iota
	lookPart
	checkPart
	runsPart
	tablePart
	coursePart
	numParts
)

// partNames say what a part is in the line that offers the whole guide.
var partNames = [numParts]string{doPart: "do", lookPart: "look", checkPart: "check", runsPart: "runs",
	tablePart: "table", coursePart: "course text"}

// Panel caps: a check or a runs line longer than this shows its first lines, cut, in a
// full-size panel, so what to do and to look for keep their room (4.3's met check is
// eleven lines at 160 columns); the whole guide (o) has them whole.
const (
	maxCheckLines = 4
	maxRunsLines  = 3
)

// parts are the selected exercise's parts wrapped to the panel's width, in part order.
func (m Model) parts() [numParts][]string {
	e := m.exercises[m.stepOf[m.selected]]
	g := lab4.GuideOf(e.ID)
	wrap := func(label, text string) []string {
		return strings.Split(textutil.Wrap(m.styles.Title.Render(label)+text, m.width), "\n")
	}
	return [numParts][]string{
		doPart:     wrap("do    ", g.Do),
		lookPart:   wrap("look  ", g.Look),
		checkPart:  wrap("check ", m.checkText(e.ID, e.Evidence)),
		runsPart:   m.runLines(e.ID),
		tablePart:  m.tableLines(e.ID),
		coursePart: strings.Split(textutil.Wrap(m.styles.Dim.Render("course "+e.ID+": "+e.Instruction), m.width), "\n"),
	}
}

// questionLine is question i's heading: its ID, its place in its exercise, its prompt.
func (m Model) questionLine(i int) []string {
	q := m.questions[i]
	n, of := 0, 0
	for j := range m.questions {
		if m.stepOf[j] == m.stepOf[i] {
			of++
			if j <= i {
				n = of
			}
		}
	}
	return strings.Split(textutil.Wrap(m.styles.Title.Render(fmt.Sprintf("%s (%d of %d) %s", q.ID, n, of, q.Prompt)), m.width), "\n")
}

// detail is the selected exercise in h lines: what to do, the check, the question and
// the answer first; what to look for, the table and the course's text as room allows,
// and a line naming what is left out, which o shows whole.
func (m Model) detail(h int) []string {
	question := m.questionLine(m.selected)

	// The answer keeps at least 3 lines; then, in order of need: the check, the runs,
	// what to do, what to look for, the table (there once the step has its evidence),
	// the course's text. They are shown in reading order: do, look, check, table, course.
	minArea := 3
	compact := m.height <= CompactHeight+2
	if compact {
		minArea = 2 // a compact panel: the answer scrolls in two lines
	}
	parts := m.parts()
	var cut [numParts]bool
	short := false // what to do is the guide's short form
	capAt := func(i, n int) {
		if p := parts[i]; len(p) > n {
			parts[i] = append(append([]string(nil), p[:n-1]...), cutLine(p[n-1], m.width))
			cut[i] = true
		}
	}
	order := []int{checkPart, runsPart, doPart, lookPart, tablePart, coursePart}
	if compact {
		// A compact panel (80x24): what to do in two lines (the guide's short form),
		// then the first two lines of the check (whether it is met, by which run) and
		// of the runs, cut, before anything whole.
		id := m.SelectedExercise()
		if g := lab4.GuideOf(id); g.Short != "" && g.Short != g.Do {
			parts[doPart] = strings.Split(textutil.Wrap(m.styles.Title.Render("do    ")+g.Short, m.width), "\n")
			short = true
		}
		for _, i := range []int{doPart, checkPart, runsPart} {
			capAt(i, 2)
		}
		// An exercise in progress says what to do first; a met one, its check.
		order = []int{doPart, checkPart, runsPart, tablePart, lookPart, coursePart}
		switch {
		case m.done(id) && len(parts[runsPart]) > 0:
			// A met one with runs to pin: whether it is met and by which run in a line,
			// then the runs it can be pinned to (p pins the next: the learner sees which
			// before pressing it), then what to do in a line.
			capAt(checkPart, 1)
			capAt(doPart, 1)
			order = []int{checkPart, runsPart, doPart, tablePart, lookPart, coursePart}
		case m.done(id):
			order = []int{checkPart, doPart, runsPart, tablePart, lookPart, coursePart}
		}
	} else {
		capAt(checkPart, maxCheckLines)
		capAt(runsPart, maxRunsLines)
	}
	room := h - len(question) - minArea - 1 // a line for what is left out
	var shown [numParts]bool
	for _, i := range order {
		if compact && i == runsPart && !shown[checkPart] && room > 0 && len(parts[checkPart]) > 1 {
			// Short of two lines for the check (the replay bar took one): its first
			// line, whether it is met and by which run, before the runs.
			capAt(checkPart, 1)
			shown[checkPart] = true
			room--
		}
		if n := len(parts[i]); n > 0 && n <= room {
			shown[i] = true
			room -= n
		}
	}
	var out, left []string
	for i, p := range parts {
		if shown[i] {
			out = append(out, p...)
		}
		switch {
		case len(p) > 0 && !shown[i]:
			left = append(left, partNames[i])
		case shown[i] && cut[i]:
			left = append(left, partNames[i]+" (cut)")
		case shown[i] && i == doPart && short:
			left = append(left, "do in full")
		}
	}
	if len(left) > 0 {
		out = append(out, textutil.Fit(m.styles.Dim.Render("o shows the whole guide: "+strings.Join(left, ", ")), m.width))
	}
	out = append(out, question...)
	ta := m.areas[m.selected]
	ta.SetHeight(max(minArea, h-len(out)))
	return append(out, strings.Split(ta.View(), "\n")...)
}

// Whole is the selected exercise's whole guide in width cells, for a view of its own
// that scrolls: its title, what to do and to look for, the live check and the runs
// whole, the course's table beside the learner's (a line per row where its columns do
// not fit), the course's text, and each question with the answer written so far.
func (m Model) Whole(width int) []string {
	m.width = max(20, width)
	e := m.exercises[m.stepOf[m.selected]]
	g := lab4.GuideOf(e.ID)
	out := []string{textutil.Fit(m.styles.Title.Render(m.box(e.ID)+" "+e.ID+" "+g.Title), m.width)}
	parts := m.parts()
	if len(parts[tablePart]) == 0 {
		parts[tablePart] = m.tableRows(e.ID)
	}
	for _, i := range []int{doPart, lookPart, checkPart, runsPart, tablePart, coursePart} {
		if len(parts[i]) > 0 {
			out = append(append(out, ""), parts[i]...)
		}
	}
	for i := range m.questions {
		if m.stepOf[i] != m.stepOf[m.selected] {
			continue
		}
		out = append(append(out, ""), m.questionLine(i)...)
		answer := m.areas[i].Value()
		if answer == "" {
			out = append(out, m.styles.Dim.Render("  no answer yet: enter in the panel writes it"))
			continue
		}
		for _, l := range strings.Split(textutil.Wrap(answer, m.width-2), "\n") {
			out = append(out, "│ "+l)
		}
	}
	return out
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
			can = append([]string{m.styles.Selected.Render("▸" + r.Name + ", your pick")}, can...)
		case r.Backs:
			can = append([]string{m.styles.Selected.Render("▸" + r.Name + ", the rule's pick")}, can...)
		case r.Why == "":
			can = append(can, r.Name)
		default:
			cannot = append(cannot, m.styles.Dim.Render(r.Name+" ✗ "+r.Why))
		}
	}
	text := strings.Join(append(can, cannot...), " · ")
	switch m.pinHint() {
	case " · p/P pick":
		text += m.styles.Dim.Render(" · p picks the next, P lets the rule pick")
	case " · p pick":
		text += m.styles.Dim.Render(" · p picks the next")
	}
	return strings.Split(textutil.Wrap(m.styles.Title.Render("runs  ")+text, m.width), "\n")
}

// checkText is the live check: met with its proof, or what is still missing.
func (m Model) checkText(id, rule string) string {
	c, ok := m.checks[id]
	if !ok {
		if s := m.steps[id]; s.Done {
			return m.styles.Good.Render("met (its evidence was saved by an earlier labtui without a finding)")
		}
		return "not yet: labtui ticks this step on " + rule
	}
	text := c.Sentence
	if c.Run != "" {
		text += " (" + c.Run + ")"
	}
	// Evidence that changed since it was pinned is said first, so a compact panel's one
	// line of check says it; what the runs show now follows the pinned evidence.
	changed, newer := "", ""
	if c.Newer != "" {
		changed = m.styles.Warn.Render("changed since picked, u takes "+c.NewerRun+" as it is now · ") + "picked, "
		newer = m.styles.Warn.Render(" · now: " + c.Newer)
	}
	if c.Done {
		return changed + m.styles.Good.Render("met: "+text) + newer
	}
	return changed + "not yet: " + text + newer
}

// tableRows is the exercise's table a row per wrapped line, each cell named by its
// column, for a width its columns do not fit.
func (m Model) tableRows(id string) []string {
	t, ok := m.tables[id]
	if !ok {
		return nil
	}
	lines := strings.Split(textutil.Wrap(m.styles.Title.Render(t.Title), m.width), "\n")
	for _, r := range t.Rows {
		cells := make([]string, 0, len(r))
		for i, c := range r {
			if i < len(t.Header) {
				c = t.Header[i] + " " + c
			}
			cells = append(cells, c)
		}
		lines = append(lines, strings.Split(textutil.Wrap(strings.Join(cells, " · "), m.width), "\n")...)
	}
	if t.Note != "" {
		lines = append(lines, strings.Split(textutil.Wrap(t.Note, m.width), "\n")...)
	}
	return lines
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
