package export

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// maxLines is how long the answer sheet may be: a learner hands it in, so it stays a
// page or four. The appendix is cut to fit; the JSON keeps everything.
const maxLines = 300

// Markdown renders the answer sheet: a summary table, then per exercise the answers,
// the sentence that proves the evidence with the run that backs it, and a small table;
// then an appendix with what the rules count and the diffs, cut to MaxLines in all.
func Markdown(doc Document) string {
	ev := docEvidence(doc)
	b := sheet{names: lab4.NamesIn(ev)}
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
		writeFinding(&b, e, ev.Findings)
	}
	writeUnasked(&b, doc.Unasked)
	writeAppendix(&b, doc)
	return b.String()
}

// sheet is the sheet's lines; an appendix is added only while it fits.
type sheet struct {
	lines []string
	// names names the runs as the exercises' tables do.
	names lab4.RunNames
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
	return s.names.Of(r) + ": " + lab4.JoinSet(what, r.Timestamp, r.Watermarks)
}

// docEvidence is the evidence doc holds, as the exercises' tables read what is not their
// own: every finding, and every replay the learner ran.
func docEvidence(doc Document) state.Evidence {
	ev := state.Evidence{Findings: map[string]*state.Finding{}}
	for _, e := range doc.Exercises {
		if e.Finding != nil {
			ev.Findings[e.ID] = &e.Finding.Finding
		}
		if e.Evidence != nil {
			ev.Replayed = append(ev.Replayed, e.Evidence.Replayed...)
		}
	}
	return ev
}

// writeFinding writes an exercise's evidence: the sentence, or that there is none yet;
// then the exercise's own tables, those the lab panel shows among them (and, with no
// finding, those a file saved before findings existed kept). findings are every
// exercise's, which its tables may name.
func writeFinding(b *sheet, e Exercise, findings map[string]*state.Finding) {
	var f *state.Finding
	if e.Finding == nil {
		b.line("**Evidence:** none yet; labtui counts " + e.Rule + ".")
	} else {
		f = &e.Finding.Finding
		status := "found"
		if !f.Met {
			status = "not complete yet"
		}
		sentence := md(e.Finding.Sentence)
		if e.Finding.Earlier {
			sentence += " _(saved by an earlier labtui as this sentence: its run numbers are that session's own)_"
		}
		b.line(fmt.Sprintf("**Evidence (%s, from %s):** %s", status, b.runLabel(f.Run), sentence))
	}
	for _, t := range lab4.TablesOf(e.ID, f, e.Evidence.tables(findings)) {
		writeTable(b, t)
	}
}

// writeTable writes an exercise's table as its lab panel draws it: its title, the
// table (none without a header or rows), its note. Its text is the evidence's, and
// passes through shown and md.
func writeTable(b *sheet, t lab4.Table) {
	if t.Title != "" {
		b.line("")
		b.line(md(shown(t.Title)))
	}
	if len(t.Header) > 0 || len(t.Rows) > 0 {
		cols := len(t.Header) + t.Unnamed
		// A column with no name is "| |" in the header; a mark line and the row of
		// what is left out fill the first two columns and leave the others so.
		rest := strings.Repeat(" |", max(0, cols-2))
		b.line("")
		b.line("| " + strings.Join(mdCells(t.Header), " | ") + " |" + strings.Repeat(" |", t.Unnamed))
		b.line(strings.Repeat("|---", cols) + "|")
		for _, r := range t.Rows {
			if len(r) == 1 && cols > 1 {
				b.line("| — | **" + md(shown(r[0])) + "** |" + rest)
				continue
			}
			b.line("| " + strings.Join(mdCells(r), " | ") + " |")
		}
		if t.More != "" {
			b.line("| … | " + md(shown(t.More)) + " |" + rest)
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
