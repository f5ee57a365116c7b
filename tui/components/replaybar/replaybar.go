// Package replaybar draws a replay's progress as one line: a bar, the records the job has
// read of those written, the event time its watermark has reached, the rate and the time
// left; once the replay is over, what it did and where to look next.
package replaybar

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/textutil"
	"github.com/labtui/labtui/tui/theme"
)

// Height is how many lines the bar takes.
const Height = 1

// Bar widths, in cells: the bar takes what the text leaves, within these bounds.
const (
	minBar = 10
	maxBar = 40
)

// Model is the bar's width and styles, and what it remembers of the replay under way
// (Update): the most records written so far, and whether that count still grows (the
// recording is still being written while the job reads it). What it shows is given to
// View.
type Model struct {
	styles  theme.Styles
	width   int
	run     int
	written int64
	writing bool
}

// Update takes in a replay's progress report (a backend.ReplayProgress), so View can
// tell a count of records still being written from the recording's whole count. The
// bar takes no other message.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	p, ok := msg.(backend.ReplayProgress)
	if !ok {
		return m, nil
	}
	if p.Run != m.run {
		m.run, m.written, m.writing = p.Run, 0, true
	}
	if p.Writing || p.Lines > 0 {
		m.writing = p.Writing && !p.Done // the backend says
	} else {
		m.writing = p.Total > m.written && !p.Done // the count written still grows
	}
	m.written = max(m.written, p.Total)
	return m, nil
}

// New returns a bar drawn with styles.
func New(styles theme.Styles) Model { return Model{styles: styles} }

// SetWidth sets the cells the line fills.
func (m Model) SetWidth(w int) Model {
	m.width = w
	return m
}

// View draws the line for a replay reading field: p is its latest progress, nil before
// the first report; reached is the event time the job's watermark has reached, as the
// header shows it, or MinWatermark to take the report's.
func (m Model) View(p *backend.ReplayProgress, field jobspec.TimestampField, reached int64) string {
	s := m.styles
	head := s.Title.Render("replay " + field.String())
	switch {
	case p == nil:
		return textutil.Fit(head+" · writing the recording into the broker…", m.width)
	case p.Err != nil:
		return textutil.Fit(head+" "+s.Error.Render(fmt.Sprintf("failed after %s records: %v", count(p.Records), p.Err)), m.width)
	case p.Done:
		line := fmt.Sprintf("%s %s %s records of %s", head, s.Good.Render("done:"), count(p.Records), filepath.Base(p.Path))
		if reached == jobspec.MinWatermark {
			reached = p.EventTime
		}
		if et := eventTime(reached); et != noneYet {
			line += " · event time reached " + et
		}
		if p.Rate > 0 {
			line += " · " + count(int64(p.Rate)) + " records/s"
		}
		return textutil.Fit(line+" · d diff · s skew", m.width)
	}
	if p.Finishing {
		// A real Flink job's operators trail its source: read is not yet billed.
		text := fmt.Sprintf(" read all %s records · the job is still processing them · event time %s",
			count(p.Total), eventTime(p.EventTime))
		return m.bar(head, 1, text)
	}
	if m.writing {
		if p.Lines > 0 {
			// The recording is still being written, its lines counted: the bar is what
			// the job read of them, which never goes back once the count of records
			// (at most the lines) is final.
			frac := min(1, float64(p.Records)/float64(p.Lines))
			text := fmt.Sprintf(" %3.0f%% · read %s of %s records · written %s · event time %s",
				frac*100, count(p.Records), count(p.Lines), count(max(p.Written, p.Records)), eventTime(p.EventTime))
			return m.bar(head, frac, text)
		}
		// The recording's size is not known yet: a fraction of what is written so far
		// would go backwards as more is written, so there is no bar yet.
		text := fmt.Sprintf(" · writing the recording: %s records written so far, %s read by the job · event time %s",
			count(max(m.written, p.Written)), count(p.Records), eventTime(p.EventTime))
		return textutil.Fit(head+text, m.width)
	}
	frac := 0.0
	if p.Total > 0 {
		frac = min(1, float64(p.Records)/float64(p.Total))
	}
	pace := count(int64(p.Rate)) + " records/s · " + left(p.Left) + " left"
	if p.Rate <= 0 {
		// Nothing read yet (a real job starting): no pace, so no time left to say.
		pace = "the job has not read yet"
	}
	text := fmt.Sprintf(" %3.0f%% · read %s of %s records · event time %s · %s", frac*100,
		count(p.Records), count(p.Total), eventTime(p.EventTime), pace)
	return m.bar(head, frac, text)
}

// bar is head, a bar filled to frac and text, fitted to the width.
func (m Model) bar(head string, frac float64, text string) string {
	s := m.styles
	bw := max(minBar, min(maxBar, m.width-ansi.StringWidth(head)-ansi.StringWidth(text)-3))
	fill := int(frac*float64(bw) + 0.5)
	bar := "[" + s.Good.Render(strings.Repeat("█", fill)) + s.Dim.Render(strings.Repeat("░", bw-fill)) + "]"
	return textutil.Fit(head+" "+bar+text, m.width)
}

const noneYet = jobspec.NoWatermarkYet

// eventTime is the watermark reached, or "none yet" before the first.
func eventTime(wm int64) string {
	if wm == jobspec.MinWatermark || wm <= 0 {
		return noneYet
	}
	return jobspec.Clock(wm)
}

// left is the time left, to a tenth of a second under a minute.
func left(d time.Duration) string {
	if d < time.Minute {
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return d.Round(time.Second).String()
}

// count writes n with thousands separated by commas: 143,400 (session.Count).
func count(n int64) string { return session.Count(n) }
