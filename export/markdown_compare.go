package export

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// writeComparison writes a replay set against the reference run of its recording: each
// sink's summary and report, and the replay's processing-time windows.
func writeComparison(b *strings.Builder, c *state.Comparison) {
	fmt.Fprintf(b, "\n#### The replay against the recorded hour re-enacted\n\nCompared with %s.\n", c.Reference)
	fmt.Fprintf(b, "\n**Event time.** %s.\n", c.EventTime.Summary)
	writeReport(b, c.EventTime)
	fmt.Fprintf(b, "\n**Processing time.** %s.\n", c.ProcessingTime.Summary)
	if len(c.ProcessingMinutes) > 0 {
		b.WriteString("\nThe replay's processing-time windows, where the whole recording landed:\n\n")
		b.WriteString("| minute | tenant | USD | requests | |\n|---|---|---|---|---|\n")
		for _, r := range c.ProcessingMinutes {
			p := r.Cells[minutes.Processing]
			if !p.Present() {
				continue
			}
			open := ""
			if p.Open {
				open = "still open"
			}
			fmt.Fprintf(b, "| %s | %s | $%.4f | %d | %s |\n", minute(r.WindowStart), r.Tenant, p.USD, p.Requests, open)
		}
	}
	writeReport(b, c.ProcessingTime)
}

// writeReport writes a diff report's lines as a preformatted block.
func writeReport(b *strings.Builder, r state.DiffReport) {
	if len(r.Lines) == 0 {
		return
	}
	b.WriteString("\n```text\n")
	for _, l := range r.Lines {
		b.WriteString(l + "\n")
	}
	if r.OmittedLines > 0 {
		fmt.Fprintf(b, "… %d more lines: see `labtui diff`\n", r.OmittedLines)
	}
	b.WriteString("```\n")
}

// writeMoved writes the requests whose event-time minute moved with started_ts, with
// their totals when the runs were compared whole.
func writeMoved(b *strings.Builder, moved []state.Moved, s *state.MovedSummary) {
	b.WriteString("\n### Evidence: requests whose cost moved minutes with started_ts\n\n")
	if s != nil {
		fmt.Fprintf(b, "%s (compared: %s).\n\n", s.Summary, s.Compared)
	}
	if len(moved) == 0 {
		return
	}
	b.WriteString("| request | tenant | gateway | USD | minute by completed_ts | minute by started_ts | completed_ts | started_ts | dropped as late with started_ts |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, m := range moved {
		completed, late := "", "no"
		if m.CompletedTS != 0 {
			completed = meter.Clock(m.CompletedTS)
		}
		if m.LateStarted {
			late = "yes"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %.4f | %s | %s | %s | %s | %s |\n", m.RequestID, m.Tenant, m.Gateway, m.USD,
			minute(m.CompletedMinute), minute(m.StartedMinute), completed, meter.Clock(m.StartedTS), late)
	}
	if s != nil && s.Moved > len(moved) {
		fmt.Fprintf(b, "\n(%d more moved requests not listed.)\n", s.Moved-len(moved))
	}
}

// writePicture refers to the skew picture written beside the answers.
func writePicture(b *strings.Builder, p *PictureRef) {
	fmt.Fprintf(b, "\n### Evidence: event time against processing time\n\n![%s](%s)\n\n", p.Title, p.File)
	fmt.Fprintf(b, "%s: %d records", p.Title, p.Records)
	if p.Held != "" {
		fmt.Fprintf(b, ", %s's held apart", p.Held)
	}
	fmt.Fprintf(b, ", %d dropped as late. Event time runs across, processing time up; the dashed diagonal is where they are equal, "+
		"the red steps are the watermark, the strips are the event-time windows (closed where the watermark crossed them) and "+
		"the bands the processing-time windows with their sums.\n", p.Late)
}
