package diffview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/session"
)

// Content is what the event and processing tabs show of one replay. Build lays it out
// from a comparison whose report lines the session worked out off the update loop.
type Content struct {
	// Title names the replay and what it was compared with.
	Title string
	// Event and Processing are the two tabs.
	Event, Processing Section
}

// Section is one tab's comparison: a summary that stays on top, and the lines under it.
type Section struct {
	Summary string
	Lines   []string
}

// Build lays out a replay's comparison: each sink's summary, then its report, identical
// rows folded and each difference followed by its explanation; the processing tab starts
// with the replay's processing-time minutes.
func Build(title string, c session.ReplayDiff) *Content {
	pt := []string{"the replay's processing-time windows, where the whole recording landed:"}
	for _, r := range c.Minutes {
		state := fmt.Sprint(r.Minute.Requests, " requests")
		if r.Kind == meter.PendingResult {
			state += ", still open"
		}
		pt = append(pt, fmt.Sprintf("    %s  %-10s $%.4f  %s", meter.Clock(r.Minute.WindowStart)[:5], r.Minute.TenantID, r.Minute.USD, state))
	}
	if len(c.Minutes) == 0 {
		pt = append(pt, "    none yet")
	}
	pt = append(pt, "", "against the re-enactment's processing-time windows (the recorded hour at its recorded times):")
	return &Content{
		Title:      title,
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
			k := classify(s)
			indent := len(s) - len(strings.TrimLeft(s, " "))
			if k != plain && k != detail {
				indent += 2
			}
			indent = min(indent, m.width/2)
			if k == detail || ansi.StringWidth(s) <= m.width {
				// A record is one line, cut at the edge: its columns line up.
				out = append(out, line{s, k})
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
