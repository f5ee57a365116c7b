package export

import (
	"fmt"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/thousands"
)

// writeAppendix writes what each rule counts, the picture, and the replays' diffs,
// each part only while the sheet stays within MaxLines.
func writeAppendix(b *sheet, doc Document) {
	var parts [][]string
	rules := []string{"", "## Appendix", "", "### What labtui counts as evidence", ""}
	for _, e := range doc.Exercises {
		rules = append(rules, fmt.Sprintf("- **%s**: %s.", e.ID, e.Rule))
	}
	parts = append(parts, rules)
	for _, e := range doc.Exercises {
		if e.Evidence != nil && e.Evidence.Picture != nil {
			p := e.Evidence.Picture
			parts = append(parts, []string{"", fmt.Sprintf("### %s: event time against processing time", e.ID), "",
				fmt.Sprintf("![%s](%s)", p.Title, p.File), "",
				fmt.Sprintf("%s: %s records, %s dropped as late. Event time runs across, processing time up; the dashed diagonal is where "+
					"they are equal, the red steps are the watermark.", p.Title, thousands.Format(int64(p.Records)), thousands.Format(int64(p.Late)))})
		}
	}
	for _, e := range doc.Exercises {
		if e.Evidence == nil {
			continue
		}
		for _, r := range e.Evidence.Replays {
			if c := r.Compare; c != nil && (e.Finding == nil || e.Finding.Run.ID == r.Table.Run) {
				parts = append(parts, comparison(e.ID, r, c))
			}
		}
	}
	for i, p := range parts {
		if len(b.lines)+len(p) > maxLines {
			if i > 0 {
				b.line("")
				b.line(fmt.Sprintf("(%d more appendix sections are in %s.)", len(parts)-i, JSONFile))
			}
			return
		}
		b.lines = append(b.lines, p...)
	}
}

// comparison is one replay's diff against its reference, its reports cut short.
func comparison(id string, r state.Replay, c *state.Comparison) []string {
	out := []string{"", fmt.Sprintf("### %s: run %d's diff against %s", id, r.Table.Run, md(c.Reference)), "",
		fmt.Sprintf("**Event time.** %s.", md(c.EventTime.Summary))}
	out = append(out, report(c.EventTime, 20)...)
	out = append(out, "", fmt.Sprintf("**Processing time.** %s.", md(c.ProcessingTime.Summary)))
	return append(out, report(c.ProcessingTime, 10)...)
}

// report is a diff report's first n lines as a preformatted block.
func report(r state.DiffReport, n int) []string {
	if len(r.Lines) == 0 {
		return nil
	}
	lines := make([]string, min(n, len(r.Lines)))
	for i, l := range r.Lines[:len(lines)] {
		lines[i] = safetext.Line(l)
	}
	fence := safetext.Fence(lines)
	out := append([]string{"", fence + "text"}, lines...)
	if more := len(r.Lines) - len(lines) + r.OmittedLines; more > 0 {
		out = append(out, fmt.Sprintf("… %d more lines in the JSON", more))
	}
	return append(out, fence)
}
