package records

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/ring"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/tui/textutil"
)

// View draws the list of r under title.
func (m Model) View(r *ring.Ring[jobspec.RecordTrace], title string) string {
	if m.height < 1 {
		return ""
	}
	st := m.styles.Title
	if m.focused {
		st = m.styles.FocusTitle
	}
	if m.filter != "" {
		title += " · filter " + fmt.Sprintf("%q", m.filter)
	}
	if d := r.Dropped(); d > 0 {
		title += fmt.Sprintf(" · the %s oldest not kept here", thousands.Format(int64(d)))
	}
	if !m.follow {
		title += " · scrolled (end to follow)"
	}
	lines := []string{textutil.Fit(st.Render(title), m.width)}
	narrow := m.kind == Inspector && m.width < 110 || m.kind == Late && m.width < 90
	if m.height > 1 {
		lines = append(lines, m.styles.Dim.Render(textutil.Fit(m.head(narrow), m.width)))
	}
	recs := m.visible(r, max(0, m.height-2))
	for i := range recs {
		line := textutil.Fit(m.line(&recs[i], narrow), m.width)
		if recs[i].Late && m.kind == Inspector {
			line = m.styles.Warn.Render(line)
		}
		lines = append(lines, line)
	}
	if len(recs) == 0 && m.height > 2 {
		empty := "  no late record yet: the event-time window has dropped nothing"
		if m.kind == Inspector {
			empty = "  no record yet"
		}
		if m.filter != "" {
			empty = "  no record matches the filter"
		}
		lines = append(lines, m.styles.Dim.Render(textutil.Fit(empty, m.width)))
	}
	return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
}

// clock formats a time for a column: hh:mm:ss.mmm, or mm:ss.mmm when narrow.
func clock(ms int64, narrow bool) string {
	c := jobspec.Clock(ms)
	if narrow && len(c) == 12 {
		return c[3:]
	}
	return c
}

// watermark is clock for the watermark a record met, jobspec.NoWatermarkYet for one read
// before the run's first watermark.
func watermark(ms int64, narrow bool) string {
	if ms == jobspec.MinWatermark {
		return jobspec.NoWatermarkYet
	}
	return clock(ms, narrow)
}

func minute(ms int64) string {
	c := jobspec.Clock(ms)
	if len(c) < 5 {
		return c
	}
	return c[:5]
}

// widths of the fixed columns.
func clockWidth(narrow bool) int {
	if narrow {
		return 9
	}
	return 12
}

func (m Model) head(narrow bool) string {
	cw := clockWidth(narrow)
	if m.kind == Late {
		return textutil.Fit("request", 16) + " " + textutil.Fit("tenant", 10) + " " + textutil.Fit("gateway", 8) + " " +
			textutil.Fit("timestamp", cw) + " " + textutil.Fit("arrived", cw) + " " + textutil.Fit("watermark met", 13) + " " + textutil.Right("USD", 9)
	}
	kafka := textutil.Fit("written", cw) + " "
	if narrow {
		kafka = ""
	}
	return textutil.Fit("request", m.requestWidth(narrow)) + " " + textutil.Fit("tenant", 8) + " " + textutil.Fit("gw", 5) + " " +
		textutil.Fit("ts", cw) + " " + kafka + textutil.Fit("arrival", cw) + " " +
		textutil.Fit("watermark", cw) + " " + "event proc  late"
}

// requestWidth gives the inspector's request column what the fixed columns leave. A
// narrow inspector leaves out the Kafka timestamp (the producer's clock, which the
// windows do not read) so request ids are shown whole at 80 columns.
func (m Model) requestWidth(narrow bool) int {
	clocks := 4
	if narrow {
		clocks = 3
	}
	fixed := 8 + 1 + 5 + 1 + clocks*(clockWidth(narrow)+1) + 16
	return max(7, min(16, m.width-fixed-1))
}

func (m Model) line(r *jobspec.RecordTrace, narrow bool) string {
	cw := clockWidth(narrow)
	if m.kind == Late {
		return textutil.Fit(safetext.Line(r.RequestID), 16) + " " + textutil.Fit(safetext.Line(r.TenantID), 10) + " " + textutil.Fit(safetext.Line(r.Gateway), 8) + " " +
			textutil.Fit(clock(r.Timestamp, narrow), cw) + " " + textutil.Fit(clock(r.Arrival, narrow), cw) + " " + textutil.Fit(watermark(r.Watermark, narrow), 13) + " " +
			textutil.Right(fmt.Sprintf("$%.4f", r.USD), 9)
	}
	late := "no"
	if r.Late {
		late = "LATE"
	}
	kafka := textutil.Fit(clock(r.KafkaTimestamp, narrow), cw) + " "
	if narrow {
		kafka = ""
	}
	return textutil.Fit(safetext.Line(r.RequestID), m.requestWidth(narrow)) + " " + textutil.Fit(safetext.Line(r.TenantID), 8) + " " + textutil.Fit(safetext.Line(r.Gateway), 5) + " " +
		textutil.Fit(clock(r.Timestamp, narrow), cw) + " " + kafka +
		textutil.Fit(clock(r.Arrival, narrow), cw) + " " + textutil.Fit(watermark(r.Watermark, narrow), cw) + " " +
		minute(r.EventWindowEnd-60000) + " " + minute(r.ProcessingWindowEnd-60000) + " " + late
}
