// Package header draws the status header: the backend and broker, the generator and
// each gateway instance with its rate and any hiccup counting down, the event-time
// watermark against the wall clock, and the late records dropped so far.
package header

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/tui/textutil"
	"github.com/labtui/labtui/tui/theme"
)

// Height is how many lines the header takes.
const Height = 3

// Info is what the header shows before the backend's first status.
type Info struct {
	// Backend names the backend ("embedded").
	Backend string
	// Err is why the lab is not running, if it failed to start.
	Err string
	// Replay says the run shown reads a recording: its event time is the recording's,
	// so the watermark is not set against the wall clock.
	Replay bool
	// Strategy names the job's watermark strategy, such as for_monotonous_timestamps().
	Strategy string
	// Planned is the instance of a hiccup planned but not started, and PlannedAt says
	// when it starts, such as "10:31:40, in 23 s".
	Planned, PlannedAt string
}

// Model draws the header. It is a pure view: it takes no messages, and draws the
// session and the Info it is given at the width it was last given.
type Model struct {
	styles theme.Styles
	width  int
}

// New returns a header drawn with styles.
func New(styles theme.Styles) Model { return Model{styles: styles} }

// SetWidth sets the width the header fills.
func (m Model) SetWidth(w int) Model {
	m.width = w
	return m
}

// View draws the header from the latest status in h.
func (m Model) View(h *session.Session, info Info) string {
	s := m.styles
	var l1, l2, l3 string
	st := h.Status
	switch {
	case st == nil && info.Err != "":
		l1 = s.Title.Render(info.Backend) + " · " + s.Error.Render("the lab is not running: "+info.Err)
	case st == nil:
		l1 = s.Title.Render(info.Backend) + " · starting the lab…"
	default:
		l1 = m.summary(st, info)
		l2 = m.instances(st.Instances, info)
		l3 = m.clocks(st, info.Replay)
		if h.Dropped > 0 {
			l3 += m.styles.Warn.Render(fmt.Sprintf(" · %s results dropped (the screen fell behind)", thousands.Format(int64(h.Dropped))))
		}
	}
	return strings.Join([]string{textutil.Fit(l1, m.width), textutil.Fit(l2, m.width), textutil.Fit(l3, m.width)}, "\n")
}

// summary is the lab in a line: the backend, the broker, the generator, the event-time
// field and the watermark strategy, in shorter words when the line would not fit.
func (m Model) summary(st *backend.Status, info Info) string {
	gen := "generator off"
	if st.Generator {
		gen = "generator on"
	}
	name := st.Backend
	if name == "" {
		name = "lab"
	}
	strategy := ""
	if info.Strategy != "" {
		strategy = " · " + info.Strategy
	}
	for _, l := range []string{
		m.styles.Title.Render(name) + " · broker " + st.Broker + " · " + gen + " · event time from " + st.Timestamp.String() + strategy,
		m.styles.Title.Render(name) + " · " + st.Broker + " · " + gen + " · " + st.Timestamp.String() + strategy,
	} {
		if ansi.StringWidth(l) <= m.width {
			return l
		}
	}
	if l := m.styles.Title.Render(name) + " · " + gen + " · " + st.Timestamp.String() + strategy; ansi.StringWidth(l) <= m.width {
		return l
	}
	// 80 columns with watermarks per partition: the strategy keeps its whole name (the
	// instances' rates below say whether the generator runs).
	if l := gen + " · " + st.Timestamp.String() + strategy; ansi.StringWidth(l) <= m.width {
		return l
	}
	return st.Timestamp.String() + strategy
}

func (m Model) instances(ins []backend.Instance, info Info) string {
	if len(ins) == 0 {
		return "no gateway instances"
	}
	parts := make([]string, len(ins))
	for i, in := range ins {
		p := fmt.Sprintf("%s %.1f req/s", in.Name, in.Rate)
		if in.Hiccup {
			left := (in.HiccupLeft + time.Second - 1) / time.Second
			p += m.styles.Warn.Render(fmt.Sprintf(" HICCUP %ds left, %s held", left, thousands.Format(int64(in.Held))))
		} else if in.Name == info.Planned {
			p += m.styles.Warn.Render(" hiccup at " + info.PlannedAt)
		}
		parts[i] = p
	}
	return strings.Join(parts, " │ ")
}

// clocks is the watermark against the wall clock and the late records; the wall
// clock's own reading is left out when the line would not fit.
func (m Model) clocks(st *backend.Status, replay bool) string {
	late := fmt.Sprintf("late dropped %s ($%.4f)", thousands.Format(int64(st.Job.Late)), st.Job.LateUSD)
	if st.Job.Late > 0 {
		late = m.styles.Warn.Render(late)
	}
	if st.TopicGone != "" {
		// The watermark stands still for good: say why instead.
		return m.styles.Warn.Render("topic "+safetext.Line(st.TopicGone)+" is gone from Kafka: the job reads nothing more; quit and start labtui again") + " · " + late
	}
	if st.Watermark == jobspec.MinWatermark {
		return "watermark none yet (no event seen) · " + late
	}
	if replay {
		// A replay's event time is the recording's hour: hours behind the wall clock
		// says nothing about the job.
		long := fmt.Sprintf("watermark %s · event time of the recording, not the wall clock · ", jobspec.Clock(st.Watermark)) + late
		if ansi.StringWidth(long) <= m.width {
			return long
		}
		return fmt.Sprintf("watermark %s (the recording's) · ", jobspec.Clock(st.Watermark)) + late
	}
	behind := float64(st.Now-st.Watermark) / 1000
	wm := fmt.Sprintf("watermark %s · %.1f s behind the wall clock", jobspec.Clock(st.Watermark), behind)
	short := fmt.Sprintf("watermark %s · %.1f s behind", jobspec.Clock(st.Watermark), behind)
	if behind < 0 {
		wm = fmt.Sprintf("watermark %s · %.1f s ahead of the wall clock", jobspec.Clock(st.Watermark), -behind)
		short = fmt.Sprintf("watermark %s · %.1f s ahead", jobspec.Clock(st.Watermark), -behind)
	}
	if st.Latency > 0 {
		// How far the job's results trail their records: a job seconds behind bills the
		// end of each event-time minute to the next processing-time minute.
		lat := fmt.Sprintf(" · results %.1f s after their events", st.Latency.Seconds())
		if st.Latency >= time.Second {
			lat = m.styles.Warn.Render(lat)
		}
		wm += lat
		short += fmt.Sprintf(" · latency %.1f s", st.Latency.Seconds())
	}
	if long := wm + " (" + jobspec.Clock(st.Now) + ") · " + late; ansi.StringWidth(long) <= m.width {
		return long
	}
	if mid := wm + " · " + late; ansi.StringWidth(mid) <= m.width {
		return mid
	}
	// At 80 columns with a late count the line above would be cut inside the late
	// dollars ("$4.304…"): the wall clock's words go first.
	return short + " · " + late
}
