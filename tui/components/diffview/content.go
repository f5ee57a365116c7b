package diffview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/session"
)

// Content is what the event and processing tabs show of one replay. Build lays it out
// from a comparison whose report lines the session worked out off the update loop.
type Content struct {
	// Title names the replay and what it was compared with.
	Title string
	// Event and Processing are the two tabs.
	Event, Processing Section
	// Names are what the report lines call the reference (A) and the replay (B): a
	// record's line is laid out on more lines at these labels when it is too wide.
	Names diff.Names
}

// Section is one tab's comparison: a summary that stays on top, and the lines under it.
type Section struct {
	Summary string
	Lines   []string
}

// build lays out a replay's comparison: each sink's summary, then its report, identical
// rows folded and each difference followed by its explanation; the processing tab starts
// with the replay's processing-time minutes.
func build(title string, c session.ReplayDiff) *Content {
	pt := []string{"the replay's processing-time windows, where the whole recording landed:"}
	for _, r := range c.Minutes {
		state := session.Count(r.Minute.Requests) + " requests"
		if r.Kind == jobspec.PendingResult {
			state += ", still open"
		}
		pt = append(pt, fmt.Sprintf("    %s  %-10s $%.4f  %s", jobspec.Clock(r.Minute.WindowStart)[:5], r.Minute.TenantID, r.Minute.USD, state))
	}
	if len(c.Minutes) == 0 {
		pt = append(pt, "    none yet")
	}
	pt = append(pt, "", "against the re-enactment's processing-time windows (the recorded hour at its recorded times):")
	return &Content{
		Title:      title,
		Names:      c.Names,
		Event:      Section{Summary: c.Event.Summary(c.Names), Lines: c.EventLines},
		Processing: Section{Summary: c.Processing.Summary(c.Names), Lines: append(pt, c.ProcessingLines...)},
	}
}

// kind says how a line reads.
type kind uint8

const (
	plain kind = iota
	// same is a run of identical rows.
	same
	// explained is a differing row the traces account for.
	explained
	// unexplained is a differing row they do not.
	unexplained
	// detail is a record under an explanation.
	detail
)

// line is one screen line of a tab.
type line struct {
	text string
	kind kind
}

// classify reads a report line's kind from its mark and indentation, as `labtui diff`
// writes them: "=", "~" or "!" first (or after two spaces for a folded run), sentences
// indented by six spaces, records by eight.
func classify(s string) kind {
	t := strings.TrimPrefix(s, "  ")
	switch {
	case strings.HasPrefix(s, "        "):
		return detail
	case strings.HasPrefix(s, "      "):
		return plain
	case strings.HasPrefix(t, "= "):
		return same
	case strings.HasPrefix(t, "~ "):
		return explained
	case strings.HasPrefix(t, "! "):
		return unexplained
	}
	return plain
}

// rewrap wraps the event and processing tabs' lines to the width, each continuation
// indented like the line it continues.
func (m Model) rewrap() Model {
	m.wrapped = [2][]line{}
	if m.content == nil || m.width < 8 {
		return m
	}
	for i, sec := range []Section{m.content.Event, m.content.Processing} {
		out := make([]line, 0, len(sec.Lines))
		for _, s := range sec.Lines {
			s = safetext.Line(s) // the lines quote the recording's ids
			k := classify(s)
			indent := len(s) - len(strings.TrimLeft(s, " "))
			if k != plain && k != detail {
				indent += 2
			}
			indent = min(indent, m.width/2)
			if ansi.StringWidth(s) <= m.width {
				out = append(out, line{s, k})
				continue
			}
			if k == detail {
				for _, r := range recordLines(s, m.content.Names, m.width) {
					out = append(out, line{r, k})
				}
				continue
			}
			body := ansi.Wrap(strings.TrimLeft(s, " "), m.width-indent, "")
			pad := strings.Repeat(" ", len(s)-len(strings.TrimLeft(s, " ")))
			for j, w := range strings.Split(body, "\n") {
				if j > 0 {
					pad = strings.Repeat(" ", indent)
				}
				out = append(out, line{pad + w, k})
			}
		}
		m.wrapped[i] = out
	}
	return m
}

// recordLines lays out a record's report line that is wider than width, so that what
// each side met (its watermark, LATE) stays on screen: the reference's side on the
// request's line and the replay's under it, aligned; or, where that is too wide (80
// columns), the request alone and each side under it on a row of its own, labelled
// without "the ". A line without both labels is cut at the edge.
func recordLines(s string, names diff.Names, width int) []string {
	a, b := "  "+names.A+": ", "  "+names.B+": "
	ia := strings.Index(s, a)
	ib := strings.Index(s, b)
	if names.A == "" || names.B == "" || ia < 0 || ib < ia {
		return []string{s}
	}
	head, sideA, sideB := s[:ia], s[ia+2:ib], s[ib+2:]
	pad := strings.Repeat(" ", ansi.StringWidth(head)+2)
	if ansi.StringWidth(head)+2+ansi.StringWidth(sideA) <= width && ansi.StringWidth(pad+sideB) <= width {
		return []string{head + "  " + sideA, pad + sideB}
	}
	indent := strings.Repeat(" ", len(head)-len(strings.TrimLeft(head, " ")))
	la, lb := strings.TrimPrefix(names.A, "the "), strings.TrimPrefix(names.B, "the ")
	lw := max(ansi.StringWidth(la), ansi.StringWidth(lb))
	row := func(label, name, side string) string {
		return indent + label + strings.Repeat(" ", lw-ansi.StringWidth(label)+1) + strings.TrimPrefix(side, name+": ")
	}
	return []string{head, row(la, names.A, sideA), row(lb, names.B, sideB)}
}
