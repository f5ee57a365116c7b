package diffview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/textutil"
)

// View draws the tab bar, the tab's title and summary, its lines from the scroll
// position, and a status line.
func (m Model) View() string {
	if m.width < 20 || m.height < 4 {
		return textutil.Block("", m.width, m.height)
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.tabBar())
	head, body, total := m.tabLines()
	lines = append(lines, head...)
	lines = append(lines, body...)
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	lines = lines[:m.height-1]
	status := "nothing to show yet"
	if total > 0 {
		what := "lines"
		if m.tab == movedTab {
			what = "requests"
		}
		status = fmt.Sprintf("%s %s–%s of %s", what, session.Count(int64(m.top[m.tab]+1)), session.Count(int64(m.top[m.tab]+len(body))),
			session.Count(int64(total)))
	}
	keys := " · ↑/↓ pgup/pgdn scroll · ←/→ tab · d or esc back to the panes"
	if ansi.StringWidth(status+keys) > m.width {
		keys = " · ↑/↓ pgdn · ←/→ tab · esc back" // 80 columns
	}
	lines = append(lines, m.styles.Dim.Render(status+keys))
	for i, l := range lines {
		lines[i] = textutil.Fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// tabBar names the tabs, the one shown in brackets.
func (m Model) tabBar() string {
	st := m.styles.Title
	if m.focused {
		st = m.styles.FocusTitle
	}
	parts := make([]string, 0, numTabs)
	for t := range numTabs {
		if t == m.tab {
			parts = append(parts, st.Render("[ "+t.String()+" ]"))
		} else {
			parts = append(parts, m.styles.Dim.Render("  "+t.String()+"  "))
		}
	}
	bar := st.Render("diff against the re-enactment") + "  " + strings.Join(parts, " ")
	if ansi.StringWidth(bar) > m.width {
		// 80 columns: every tab's name whole, the title shorter.
		bar = st.Render("diff") + " " + strings.Join(parts, "")
	}
	return bar
}

// headHeight is how many lines stay above tab t's scrolling lines: title, note, summary
// (up to two lines) and, for the moved list, its column heads.
func (m Model) headHeight(t Tab) int {
	return len(m.head(t))
}

// bodyHeight is how many scrolling lines tab t shows.
func (m Model) bodyHeight(t Tab) int { return max(1, m.height-2-m.headHeight(t)) }

// head is the lines of tab t that do not scroll.
func (m Model) head(t Tab) []string {
	var out []string
	title, summary := "", ""
	switch {
	case t == movedTab && m.moved != nil:
		title, summary = m.moved.Title, m.moved.Moves.Summary(session.MovedNames)
	case t == eventTab && m.content != nil:
		title, summary = m.content.Title, m.content.Event.Summary
	case t == ProcessingTab && m.content != nil:
		title, summary = m.content.Title, m.content.Processing.Summary
	}
	title, summary = safetext.Line(title), safetext.Line(summary)
	if title != "" {
		out = append(out, m.styles.Dim.Render(title))
	}
	if !m.noteScrolls(t) {
		for _, l := range m.noteLines(t) {
			out = append(out, m.styles.Warn.Render(l))
		}
	}
	if summary != "" {
		sl := strings.Split(textutil.Wrap(summary, m.width), "\n")
		for _, l := range sl[:min(2, len(sl))] {
			out = append(out, m.styles.Title.Render(l))
		}
	}
	if t == movedTab && m.moved != nil && len(m.moved.Moves.Moves) > 0 {
		head := movedHead
		if m.narrowMoved() {
			head = movedHeadNarrow
		}
		out = append(out, m.styles.Dim.Render(head))
	}
	return out
}

// tabLines returns the tab's fixed lines, its visible scrolling lines, and how many
// scrolling lines it has in all.
func (m Model) tabLines() (head, body []string, total int) {
	head = m.head(m.tab)
	n := m.bodyHeight(m.tab)
	top := m.top[m.tab]
	if m.tab == movedTab {
		if m.moved == nil {
			return head, nil, 0
		}
		mv := m.moved.Moves
		for i := top; i < min(len(mv.Moves), top+n); i++ {
			body = append(body, m.movedLine(mv, &mv.Moves[i]))
		}
		return head, body, len(mv.Moves)
	}
	w := m.scrolling(m.tab)
	for i := top; i < min(len(w), top+n); i++ {
		body = append(body, m.styled(w[i]))
	}
	return head, body, len(w)
}

// noteLines is tab t's note wrapped to the width.
func (m Model) noteLines(t Tab) []string {
	if m.notes[t] == "" {
		return nil
	}
	return strings.Split(textutil.Wrap(m.notes[t], m.width), "\n")
}

// noteScrolls reports whether tab t's note scrolls with the report instead of staying
// above it: when it would take more than a third of the view (at 80x24 a replay's
// note of ten lines left one line for the diff, and page down showed none of it).
func (m Model) noteScrolls(t Tab) bool {
	return t != movedTab && len(m.noteLines(t)) > (m.height-2)/3
}

// scrolling is the event or processing tab's scrolling lines: its note first when the
// note scrolls, then the report.
func (m Model) scrolling(t Tab) []line {
	if !m.noteScrolls(t) {
		return m.wrapped[t]
	}
	notes := m.noteLines(t)
	out := make([]line, 0, len(notes)+len(m.wrapped[t]))
	for _, l := range notes {
		out = append(out, line{l, explained})
	}
	return append(out, m.wrapped[t]...)
}

// styled draws a report line in the style of its kind.
func (m Model) styled(l line) string {
	s := m.styles
	switch l.kind {
	case same, detail:
		return s.Dim.Render(l.text)
	case explained:
		return s.Warn.Render(l.text)
	case unexplained:
		return s.Error.Render(l.text)
	}
	return l.text
}

// narrowMoved reports whether the moved list's wide rows do not fit the view.
func (m Model) narrowMoved() bool { return ansi.StringWidth(movedHead) > m.width }

// movedHeadNarrow is the moved list's column heads at 80 columns.
var movedHeadNarrow = fmt.Sprintf("%-15s %-8s %8s %-20s %-20s %s", "request", "tenant", "usd", "completed_ts minute", "started_ts minute", "late")

// movedHead is the moved list's column heads.
var movedHead = fmt.Sprintf("%-18s %-9s %-6s %9s  %-21s %-21s %s", "request", "tenant", "gw", "usd",
	"completed_ts minute", "started_ts minute", "dropped as late")

// movedLine is one moved request: id, tenant, gateway, cost, both minutes with the
// timestamps that put it there, and whether either run dropped it as late.
func (m Model) movedLine(mv *diff.Moves, x *diff.Move) string {
	late := "no"
	switch {
	case x.A.Late && x.B.Late:
		late = "with both"
	case x.B.Late:
		late = "with started_ts (watermark " + jobspec.Clock(x.B.Watermark) + ")"
	case x.A.Late:
		late = "with completed_ts (watermark " + jobspec.Clock(x.A.Watermark) + ")"
	}
	s := fmt.Sprintf("%-18s %-9s %-6s %9s  %-21s %-21s %s", safetext.Line(x.RequestID), safetext.Line(x.TenantID), safetext.Line(x.Gateway), fmt.Sprintf("$%.4f", x.USD),
		minute(mv.WindowStart(x, diff.A), x.A.Timestamp), minute(mv.WindowStart(x, diff.B), x.B.Timestamp), late)
	if m.narrowMoved() {
		// 80 columns: both minutes and timestamps whole; the gateway and the late
		// watermark give way (the sheet and the JSON keep them).
		late = "no"
		if x.B.Late || x.A.Late {
			late = "late"
		}
		s = fmt.Sprintf("%-15s %-8s %8s %s→%s %s", safetext.Line(x.RequestID), textutil.Fit(safetext.Line(x.TenantID), 8), fmt.Sprintf("$%.4f", x.USD),
			minute(mv.WindowStart(x, diff.A), x.A.Timestamp), minute(mv.WindowStart(x, diff.B), x.B.Timestamp), late)
	}
	if x.B.Late {
		return m.styles.Warn.Render(s)
	}
	return s
}

// minute is a window start as hh:mm with the timestamp that put the request there.
func minute(start, ts int64) string {
	return jobspec.Clock(start)[:5] + " (" + jobspec.Clock(ts) + ")"
}
