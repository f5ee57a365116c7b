package panes

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/tui/textutil"
)

// differsMark is the marker of a row whose value differs between the panes.
const differsMark = "≠"

// View draws both panes for run, judging rows by clocks, with open (PendingResults from
// the status) as the windows still open, right under the fired rows.
func (m Model) View(run *session.Run, clocks minutes.Clocks, open []jobspec.Result) string {
	if m.width < 20 || m.height < 4 {
		return textutil.Block("", m.width, m.height)
	}
	lw, rw := m.split()
	lines := make([]string, 0, m.height)
	lines = m.titles(lines, lw, rw)
	lines = append(lines, m.join(m.styles.Dim.Render(head(lw)), m.styles.Dim.Render(head(rw)), lw, rw))

	tb := run.Table
	aligned := alignOpen(open)
	vis := m.rowsHeight(len(aligned))
	n := tb.Len()
	top := m.top
	if m.follow || m.run != run.ID || top > max(0, n-vis) {
		top = max(0, n-vis)
	}
	for i := top; i < min(n, top+vis); i++ {
		l, r := m.row(tb.Row(i), clocks, lw, rw)
		lines = append(lines, m.join(l, r, lw, rw))
	}
	if n == 0 {
		lines = append(lines, m.join(m.styles.Dim.Render("  no minute has closed yet"), "", lw, rw))
	}
	lines = m.openRows(lines, aligned, lw, rw)
	for len(lines) < m.height-1 {
		lines = append(lines, m.join("", "", lw, rw))
	}
	lines = append(lines[:min(len(lines), m.height-1)], m.status(run, top, min(n, top+vis), n))
	return strings.Join(lines, "\n")
}

func (m Model) titles(lines []string, lw, rw int) []string {
	st := m.styles.Title
	if m.focused {
		st = m.styles.FocusTitle
	}
	if m.wideTitles() {
		return append(lines, m.join(st.Render(processingTitle), st.Render(eventTitle), lw, rw))
	}
	if m.titleLines() == 1 {
		return append(lines, m.join(st.Render("processing time"), st.Render("event time"), lw, rw))
	}
	return append(lines,
		m.join(st.Render("processing time"), st.Render("event time"), lw, rw),
		m.join(st.Render("(TumblingProcessingTimeWindows)"), st.Render("(TumblingEventTimeWindows)"), lw, rw))
}

// join puts the left and right pane lines side by side with the rule between.
func (m Model) join(l, r string, lw, rw int) string {
	return textutil.Fit(l, lw) + m.styles.Rule.Render("│") + textutil.Fit(r, rw)
}

// tenantWidth is the tenant column's width in a pane w cells wide.
func tenantWidth(w int) int { return max(4, w-27) }

func head(w int) string {
	return "  minute " + textutil.Fit("tenant", tenantWidth(w)) + textutil.Right("USD", 10) + textutil.Right("req", 7)
}

// row draws one table row in both panes.
func (m Model) row(r *minutes.Row, c minutes.Clocks, lw, rw int) (string, string) {
	if r.IsMark() {
		l := textutil.Cut("── "+r.Mark+" "+strings.Repeat("─", max(0, lw)), lw)
		rr := textutil.Cut("── "+r.Mark+" "+strings.Repeat("─", max(0, rw)), rw)
		return m.styles.Mark.Render(l), m.styles.Mark.Render(rr)
	}
	v := r.Verdict(c)
	mark := " "
	if v == minutes.Differs {
		mark = differsMark
	}
	l := cellLine(mark, r, minutes.Processing, c, lw)
	rr := cellLine(mark, r, minutes.Event, c, rw)
	if v == minutes.Differs {
		return m.styles.Differs.Render(l), m.styles.Differs.Render(rr)
	}
	return l, rr
}

// cellLine is one pane's side of a row: marker, minute, tenant, USD, requests.
func cellLine(mark string, r *minutes.Row, side minutes.Side, c minutes.Clocks, w int) string {
	cell := r.Cells[side]
	usd, req := "", ""
	switch {
	case cell.Open:
		usd, req = fmt.Sprintf("$%.4f", cell.USD), "open"
	case cell.Fired > 0:
		usd, req = fmt.Sprintf("$%.4f", cell.USD), thousands.Format(cell.Requests)
	case c.Closed(side, r):
		// A missing cell is "—" everywhere (here, the diff, the export); the count
		// column says whether the window closed without it or is still open.
		usd, req = "—", "none"
	default:
		usd, req = "—", "open"
	}
	return mark + " " + minute(r.WindowStart) + "  " + textutil.Fit(safetext.Line(r.Tenant), tenantWidth(w)) +
		textutil.Right(usd, 10) + textutil.Right(req, 7)
}

// openRows draws the windows still open, aligned like the fired rows: in the lines
// reserved for them, or in all the lines the fired rows left free.
func (m Model) openRows(lines []string, rows []openRow, lw, rw int) []string {
	limit := max(m.openLines(len(rows)), m.height-1-len(lines)) - 1
	heading := "  still open, running totals:"
	if len(rows) == 0 {
		heading = "  no window open"
	}
	lines = append(lines, m.join(m.styles.Dim.Render(heading), m.styles.Dim.Render(heading), lw, rw))
	for i, r := range rows {
		if i == limit {
			break
		}
		l, rr := "", ""
		if i == limit-1 && len(rows) > limit {
			more := fmt.Sprintf("  … %d more open", len(rows)-limit+1)
			lines = append(lines, m.join(m.styles.Dim.Render(more), m.styles.Dim.Render(more), lw, rw))
			break
		}
		if c := r.cells[0]; c != nil {
			l = openLine(r, c, lw)
		}
		if c := r.cells[1]; c != nil {
			rr = openLine(r, c, rw)
		}
		lines = append(lines, m.join(m.styles.Dim.Render(l), m.styles.Dim.Render(rr), lw, rw))
	}
	return lines
}

type openRow struct {
	start  int64
	tenant string
	cells  [2]*jobspec.Result
}

// alignOpen pairs the open processing-time and event-time windows by minute and tenant.
func alignOpen(open []jobspec.Result) []openRow {
	var rows []openRow
	for i := range open {
		o := &open[i]
		side := 0
		if o.Window == jobspec.EventTimeResult {
			side = 1
		}
		j := slices.IndexFunc(rows, func(r openRow) bool { return r.start == o.Minute.WindowStart && r.tenant == o.Minute.TenantID })
		if j < 0 {
			rows = append(rows, openRow{start: o.Minute.WindowStart, tenant: o.Minute.TenantID})
			j = len(rows) - 1
		}
		rows[j].cells[side] = o
	}
	slices.SortFunc(rows, func(a, b openRow) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.tenant, b.tenant))
	})
	return rows
}

func openLine(r openRow, o *jobspec.Result, w int) string {
	return "  " + minute(r.start) + "  " + textutil.Fit(safetext.Line(r.tenant), tenantWidth(w)) +
		textutil.Right(fmt.Sprintf("$%.4f", o.Minute.USD), 10) + textutil.Right(thousands.Format(o.Minute.Requests), 7)
}

// status is the panes' last line: the run, where the view is, and what was dropped.
func (m Model) status(run *session.Run, from, to, n int) string {
	s := run.Title() + " · no rows yet"
	if n > 0 {
		s = fmt.Sprintf("%s · rows %s–%s of %s", run.Title(), thousands.Format(int64(from+1)), thousands.Format(int64(to)), thousands.Format(int64(n)))
	}
	if d := run.Table.Dropped(); d > 0 {
		s += fmt.Sprintf(" · %s older rows dropped", thousands.Format(int64(d)))
	}
	if m.follow {
		s += " · following"
	} else {
		s += " · scrolled (end to follow)"
	}
	s += " · " + differsMark + " differs"
	return m.styles.Dim.Render(textutil.Fit(s, m.width))
}

// minute formats a window start as UTC hh:mm.
func minute(ms int64) string {
	c := jobspec.Clock(ms)
	if len(c) < 5 {
		return textutil.Fit(c, 5)
	}
	return c[:5]
}
