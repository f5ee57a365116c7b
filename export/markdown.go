package export

import (
	"fmt"
	"github.com/labtui/labtui/labs/lab4"
	"strings"
	"time"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// MaxLines is how long the answer sheet may be: a learner hands it in, so it stays a
// page or four. The appendix is cut to fit; the JSON keeps everything.
const MaxLines = 300

// Limits of the summary's tables: the JSON has every row.
const (
	sheetRows = 12
	sheetLate = 5
)

// Markdown renders the answer sheet: a summary table, then per exercise the answers,
// the sentence that proves the evidence with the run that backs it, and a small table;
// then an appendix with what the rules count and the diffs, cut to MaxLines in all.
func Markdown(doc Document) string {
	b := sheet{twice: numberedTwice(doc)}
	b.line("# Lab 4: event time and processing time — answer sheet")
	b.line("")
	// The sheet holds what the evidence holds and nothing of when it was written out,
	// so two exports of the same evidence are the same sheet (the JSON says when).
	b.line(fmt.Sprintf("Exported by labtui; every time below is UTC. Each exercise has your answers, then the evidence "+
		"labtui found in your own runs: the run it comes from, the sentence that proves it, and the minutes it is about. "+
		"What a table here leaves out is in %s (it keeps the first %d late records of a hiccup, and the sheet says how many "+
		"there were).", JSONFile, state.MaxLate))
	b.line("")
	b.line("| exercise | evidence | from |")
	b.line("|---|---|---|")
	for _, e := range doc.Exercises {
		from, done := "—", e.Done
		if f := e.Finding; f != nil {
			// The finding's run is the evidence handed in: a step ticked by another
			// run, then pinned to one that shows less, is not complete on the sheet.
			done = f.Met
			from = b.runLabel(f.Run)
			if f.Pinned {
				from += " (your pick)"
			}
		}
		b.line(fmt.Sprintf("| %s | %s | %s |", e.ID, yesNo(done), from))
	}
	for _, e := range doc.Exercises {
		b.line("")
		b.line("## " + e.ID)
		b.line("")
		b.line("> " + e.Instruction)
		for _, q := range e.Questions {
			b.line("")
			b.line(fmt.Sprintf("**%s** %s", q.ID, q.Prompt))
			b.line("")
			if strings.TrimSpace(q.Answer) == "" {
				b.line("_(no answer yet)_")
			} else {
				for _, l := range safetext.MarkdownLines(q.Answer) {
					b.line(l)
				}
			}
		}
		b.line("")
		writeFinding(&b, e)
		if e.ID == lab4.Replay && e.Evidence != nil {
			writeReplayed(&b, e.Evidence.Replayed, doc)
		}
	}
	writeUnasked(&b, doc.Unasked)
	writeAppendix(&b, doc)
	return b.String()
}

// sheet is the sheet's lines; an appendix is added only while it fits.
type sheet struct {
	lines []string
	// twice are the run numbers the sheet names for two different runs.
	twice map[int]bool
}

func (s *sheet) line(l string) { s.lines = append(s.lines, l) }

func (s *sheet) String() string { return strings.Join(s.lines, "\n") + "\n" }

// md makes text from the lab's data (a tenant id, a request id, a sentence that quotes
// them) safe in a markdown line: shown as it is, never read as markup.
func md(s string) string { return safetext.MarkdownInline(s) }

func yesNo(done bool) string {
	if done {
		return "yes"
	}
	return "not yet"
}

// runLabel names a run in a table cell.
func (s *sheet) runLabel(r state.RunRef) string {
	what := lab4.KindWords(r.Kind)
	if r.Recording != "" {
		what += " of " + md(r.Recording)
	}
	return s.runName(r) + ": " + joinSet(what, r.Timestamp, r.Watermarks)
}

// joinSet joins the parts that are set with ", ": a file saved before a run kept its
// timestamp field or its watermarks leaves them out, not an empty ", ,".
func joinSet(parts ...string) string {
	var set []string
	for _, p := range parts {
		if p != "" {
			set = append(set, p)
		}
	}
	return strings.Join(set, ", ")
}

// runName is "run 4", or "run 1 of 1 Dec 13:20", with when it began, where the sheet
// names two runs of that number: a file saved over several sessions before runs were
// numbered on across them has a run 1 of each.
func (s *sheet) runName(r state.RunRef) string {
	name := fmt.Sprintf("run %d", r.ID)
	if s.twice[r.ID] && r.StartedAt != 0 {
		name += " of " + time.UnixMilli(r.StartedAt).UTC().Format("2 Jan 15:04")
	}
	return name
}

// numberedTwice is the run numbers doc names for two runs that began at different times.
func numberedTwice(doc Document) map[int]bool {
	began := map[int]int64{}
	twice := map[int]bool{}
	see := func(r state.RunRef) {
		if at, ok := began[r.ID]; ok && at != r.StartedAt {
			twice[r.ID] = true
		}
		began[r.ID] = r.StartedAt
	}
	for _, e := range doc.Exercises {
		if e.Finding != nil {
			see(e.Finding.Run)
		}
		if e.Evidence != nil {
			for _, l := range e.Evidence.Replayed {
				see(l.Run)
			}
		}
	}
	return twice
}

// writeFinding writes an exercise's evidence: the sentence and its rows, or, for a
// file saved before findings existed, the tables it kept; then the exercise's own
// tables, as the lab panel shows them.
func writeFinding(b *sheet, e Exercise) {
	f := e.Finding
	if f == nil {
		b.line("**Evidence:** none yet; labtui counts " + e.Rule + ".")
		if e.Evidence != nil {
			writeLegacy(b, e.Evidence)
		}
		for _, t := range lab4.TablesOf(e.ID, nil, e.Evidence.tables()) {
			writeTable(b, t)
		}
		return
	}
	status := "found"
	if !f.Met {
		status = "not complete yet"
	}
	sentence := md(f.Sentence)
	if f.Earlier {
		sentence += " _(saved by an earlier labtui as this sentence: its run numbers are that session's own)_"
	}
	b.line(fmt.Sprintf("**Evidence (%s, from %s):** %s", status, b.runLabel(f.Run), sentence))
	switch e.ID {
	case lab4.Replay:
		if len(f.Rows) > 0 {
			b.line("")
			b.line("The replay's processing-time windows, the wall-clock minutes the whole recording landed in:")
			b.line("")
			writeProcessingMinutes(b, f.Rows)
		}
	case lab4.Moved:
		// Its moved requests are its table.
	default:
		if len(f.Rows) > 0 {
			b.line("")
			writeRows(b, f.Rows)
		}
	}
	for _, t := range lab4.TablesOf(e.ID, &f.Finding, e.Evidence.tables()) {
		writeTable(b, t)
	}
	if e.ID == lab4.Hiccup && e.Evidence != nil && e.Evidence.Hiccup != nil && len(e.Evidence.Hiccup.Late) > 0 {
		writeLate(b, e.Evidence.Hiccup)
	}
}

// writeTable writes an exercise's table as its lab panel draws it: its title, the
// table (none without rows), its note. Its text is the evidence's, and passes through
// shown and md.
func writeTable(b *sheet, t lab4.Table) {
	if t.Title != "" {
		b.line("")
		b.line(md(shown(t.Title)))
	}
	if len(t.Rows) > 0 {
		b.line("")
		b.line("| " + strings.Join(mdCells(t.Header), " | ") + " |")
		b.line(strings.Repeat("|---", len(t.Header)) + "|")
		for _, r := range t.Rows {
			b.line("| " + strings.Join(mdCells(r), " | ") + " |")
		}
	}
	if t.Note != "" {
		b.line("")
		b.line(md(shown(t.Note)))
	}
}

// mdCells are a table's cells, each through shown and md.
func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = md(shown(c))
	}
	return out
}

// writeRows writes minute rows with both windows side by side, at most sheetRows.
func writeRows(b *sheet, rows []minutes.Row) {
	b.line("| minute | tenant | processing time | event time | |")
	b.line("|---|---|---|---|---|")
	n := 0
	for _, r := range rows {
		if n == sheetRows {
			b.line(fmt.Sprintf("| … | %d more rows in the JSON | | | |", len(rows)-n))
			break
		}
		n++
		if r.Mark != "" {
			b.line(fmt.Sprintf("| — | **%s** | | | |", r.Mark))
			continue
		}
		flag := ""
		if r.Differs {
			flag = "differs"
		}
		b.line(fmt.Sprintf("| %s | %s | %s | %s | %s |", minute(r.WindowStart), md(r.Tenant), cellOf(r.Cells[minutes.Processing]),
			cellOf(r.Cells[minutes.Event]), flag))
	}
}

// writeProcessingMinutes writes a replay's processing-time windows.
func writeProcessingMinutes(b *sheet, rows []minutes.Row) {
	b.line("| minute | tenant | USD | requests | |")
	b.line("|---|---|---|---|---|")
	for i, r := range rows {
		if i == sheetRows {
			b.line(fmt.Sprintf("| … | %d more in the JSON | | | |", len(rows)-i))
			break
		}
		p := r.Cells[minutes.Processing]
		open := ""
		if p.Open {
			open = "still open"
		}
		b.line(fmt.Sprintf("| %s | %s | $%.4f | %s | %s |", minute(r.WindowStart), md(r.Tenant), p.USD, thousands.Format(p.Requests), open))
	}
}

// writeLate writes the first late records of a hiccup's evidence and the watermark each
// met, and says how many there were in all and how many the JSON keeps.
func writeLate(b *sheet, h *state.Hiccup) {
	late := h.Late
	b.line("")
	b.line("Late records the event-time window dropped, and the watermark each met:")
	b.line("")
	b.line("| request | tenant | gateway | timestamp | arrived | watermark met | USD |")
	b.line("|---|---|---|---|---|---|---|")
	for i, l := range late {
		if i == sheetLate {
			b.line(fmt.Sprintf("| … | %s more of the %s in the JSON | | | | | |", thousands.Format(int64(len(late)-i)), thousands.Format(int64(len(late)))))
			break
		}
		arrived := ""
		if l.Arrival != 0 {
			arrived = meter.Clock(l.Arrival)
		}
		b.line(fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %.4f |", md(l.RequestID), md(l.Tenant), md(l.Gateway), meter.Clock(l.Timestamp), arrived,
			meter.Clock(l.Watermark), l.USD))
	}
	if h.LateCount > len(late) {
		b.line("")
		b.line(fmt.Sprintf("The run had %s late records ($%.4f) in all; the JSON keeps the first %d.", thousands.Format(int64(h.LateCount)), h.LateUSD, len(late)))
	}
}

// writeLegacy writes evidence saved before findings existed, cut as the rest is.
func writeLegacy(b *sheet, e *Evidence) {
	if t := e.Agreement; t != nil {
		b.line("")
		b.line(fmt.Sprintf("Saved before this version of labtui: both windows of run %d (%s, %s) at %s.", t.Run, md(t.Reason), t.Timestamp, meter.Clock(t.TakenAt)))
		b.line("")
		writeRows(b, t.Rows)
	}
	if h := e.Hiccup; h != nil {
		b.line("")
		b.line(fmt.Sprintf("Saved before this version of labtui: a %ds hiccup on %s at %s.", h.DurationMS/1000, md(h.Instance), meter.Clock(h.At)))
		b.line("")
		writeRows(b, h.Table.Rows)
		if len(h.Late) > 0 {
			writeLate(b, h)
		}
	}
	for _, r := range e.Replays {
		b.line("")
		b.line(fmt.Sprintf("Saved before this version of labtui: a replay of %s with %s, %s records.", md(r.Path), r.Timestamp, thousands.Format(r.Records)))
		if c := r.Compare; c != nil && len(c.ProcessingMinutes) > 0 {
			b.line("")
			writeProcessingMinutes(b, c.ProcessingMinutes)
		}
	}
}

// minute formats a window start as UTC hh:mm.
func minute(ms int64) string {
	c := meter.Clock(ms)
	if len(c) < 5 {
		return c
	}
	return c[:5]
}

// cellOf is a row's cell, "—" when its window wrote nothing.
func cellOf(c minutes.Cell) string {
	if !c.Present() {
		return "—"
	}
	return cell(&c)
}

func cell(c *minutes.Cell) string {
	if c == nil {
		return "—"
	}
	s := fmt.Sprintf("$%.4f (%s)", c.USD, thousands.Format(c.Requests))
	if c.Open {
		s += " never fired"
	}
	return s
}
