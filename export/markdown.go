package export

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// Markdown renders the document for a person: per exercise the instruction, whether its
// evidence exists, the answers, and the evidence tables.
func Markdown(doc Document) string {
	var b strings.Builder
	b.WriteString("# Lab 4: event time and processing time — answers\n\n")
	fmt.Fprintf(&b, "Exported by labtui at %s UTC. Times in the tables are UTC.\n", doc.ExportedAt.Format("2006-01-02 15:04:05"))
	for _, e := range doc.Exercises {
		fmt.Fprintf(&b, "\n## %s\n\n> %s\n\n", e.ID, e.Instruction)
		if e.Done {
			fmt.Fprintf(&b, "Evidence: yes — %s.\n", e.Because)
		} else {
			b.WriteString("Evidence: not captured yet.\n")
		}
		for _, q := range e.Questions {
			fmt.Fprintf(&b, "\n### %s %s\n\n", q.ID, q.Prompt)
			if strings.TrimSpace(q.Answer) == "" {
				b.WriteString("_(no answer yet)_\n")
			} else {
				b.WriteString(strings.TrimRight(q.Answer, "\n") + "\n")
			}
		}
		if e.Evidence != nil {
			writeEvidence(&b, e.Evidence)
		}
	}
	return b.String()
}

func writeEvidence(b *strings.Builder, e *Evidence) {
	if t := e.Agreement; t != nil {
		fmt.Fprintf(b, "\n### Evidence: both panes, run %d (%s, %s), at %s\n\n", t.Run, t.Reason, t.Timestamp, meter.Clock(t.TakenAt))
		writeTable(b, *t)
	}
	if h := e.Hiccup; h != nil {
		fmt.Fprintf(b, "\n### Evidence: a %ds hiccup on %s at %s\n\n", h.DurationMS/1000, h.Instance, meter.Clock(h.At))
		writeTable(b, h.Table)
		if len(h.Late) > 0 {
			b.WriteString("\nLate records the event-time window dropped, and the watermark each met:\n\n")
			b.WriteString("| request | tenant | gateway | timestamp | watermark met | USD |\n|---|---|---|---|---|---|\n")
			for _, l := range h.Late {
				fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %.4f |\n", l.RequestID, l.Tenant, l.Gateway,
					meter.Clock(l.Timestamp), meter.Clock(l.Watermark), l.USD)
			}
		}
	}
	for _, r := range e.Replays {
		fmt.Fprintf(b, "\n### Evidence: replay of %s with %s\n\n", r.Path, r.Timestamp)
		switch {
		case r.Error != "":
			fmt.Fprintf(b, "The replay failed after %d records: %s\n", r.Records, r.Error)
		case r.Done:
			fmt.Fprintf(b, "%d records replayed, finished at %s.\n", r.Records, meter.Clock(r.At))
		default:
			fmt.Fprintf(b, "%d records replayed so far.\n", r.Records)
		}
		if r.Diff == nil && r.Compare == nil && r.Done {
			b.WriteString("\nNo earlier run was kept to compare the event-time output with: run the live generator for a few minutes before replaying.\n")
		}
		// Against a run of another hour nothing lines up; the comparison with the
		// recording's own live run below says what matters.
		if d := r.Diff; d != nil && (d.Compared > 0 || r.Compare == nil) {
			fmt.Fprintf(b, "\nEvent-time output against %s: %d (minute, tenant) pairs compared, %d the same, %d different, %d only in the replay, %d only in %s.\n",
				d.Against, d.Compared, d.Same, d.Different, d.OnlyHere, d.OnlyThere, d.Against)
			if len(d.Examples) > 0 {
				b.WriteString("\n| minute | tenant | replay | " + d.Against + " |\n|---|---|---|---|\n")
				for _, x := range d.Examples {
					fmt.Fprintf(b, "| %s | %s | %s | %s |\n", minute(x.WindowStart), x.Tenant, cell(x.Here), cell(x.There))
				}
			}
		}
		if r.Compare != nil {
			writeComparison(b, r.Compare)
		}
		b.WriteString("\n")
		writeTable(b, r.Table)
	}
	if len(e.Moved) > 0 || e.MovedSummary != nil {
		writeMoved(b, e.Moved, e.MovedSummary)
	}
	if e.Picture != nil {
		writePicture(b, e.Picture)
	}
}

// writeTable writes a Table with the two panes' cells side by side.
func writeTable(b *strings.Builder, t state.Table) {
	b.WriteString("| minute | tenant | processing time | event time | |\n|---|---|---|---|---|\n")
	for _, r := range t.Rows {
		if r.Mark != "" {
			fmt.Fprintf(b, "| — | **%s** | | | |\n", r.Mark)
			continue
		}
		flag := ""
		if r.Differs {
			flag = "differs"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", minute(r.WindowStart), r.Tenant, cellOf(r.Cells[minutes.Processing]), cellOf(r.Cells[minutes.Event]), flag)
	}
	if t.Omitted > 0 {
		fmt.Fprintf(b, "\n(%d older rows left out.)\n", t.Omitted)
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

// cellOf is cell for a row's cell, "—" when its window wrote nothing.
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
	s := fmt.Sprintf("$%.4f (%d)", c.USD, c.Requests)
	if c.Open {
		s += " never fired"
	}
	return s
}
