// Package drill opens a run's ≠ rows: the (minute, tenant) rows whose two windows
// differ, newest first, one selected, and under them the records that went to that
// minute in one window and not in the other (processing time only, event time only, or
// dropped as late), from the run's traces.
package drill

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/tui/textutil"
	"github.com/labtui/labtui/tui/theme"
)

// KeyMap is the keys that move the selection (up, down) and scroll the records under it
// (page up, page down).
type KeyMap struct {
	Up, Down, PageUp, PageDown key.Binding
}

// Model is the view's size, the rows it offers and the one selected.
type Model struct {
	styles   theme.Styles
	keys     KeyMap
	width    int
	height   int
	rows     []minutes.Row
	selected int
	scroll   int
}

// New returns an empty view moved by keys.
func New(styles theme.Styles, keys KeyMap) Model { return Model{styles: styles, keys: keys} }

// Update moves the selection a row by up and down, and scrolls the selected row's records
// half the height by page up and page down. It takes no other key, nor the mouse.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	half := max(1, m.height/2)
	switch {
	case key.Matches(k, m.keys.Up):
		return m.move(-1), nil
	case key.Matches(k, m.keys.Down):
		return m.move(1), nil
	case key.Matches(k, m.keys.PageUp):
		return m.scrollBy(-half), nil
	case key.Matches(k, m.keys.PageDown):
		return m.scrollBy(half), nil
	}
	return m, nil
}

// SetSize sets the cells the view fills.
func (m Model) SetSize(w, h int) Model {
	m.width, m.height = w, h
	return m
}

// SetRows sets the ≠ rows, newest first, and selects the first.
func (m Model) SetRows(rows []minutes.Row) Model {
	m.rows, m.selected, m.scroll = rows, 0, 0
	return m
}

// move selects the row delta away.
func (m Model) move(delta int) Model {
	if len(m.rows) > 0 {
		m.selected = max(0, min(len(m.rows)-1, m.selected+delta))
		m.scroll = 0
	}
	return m
}

// scrollBy moves the record list by delta lines.
func (m Model) scrollBy(delta int) Model {
	m.scroll = max(0, m.scroll+delta)
	return m
}

// Selected is the selected row, if any.
func (m Model) Selected() (minutes.Row, bool) {
	if len(m.rows) == 0 {
		return minutes.Row{}, false
	}
	return m.rows[m.selected], true
}

// Moved is a record in one window's cell of a (minute, tenant) and not in the other's.
type Moved struct {
	Record jobspec.RecordTrace
	// Where says which: "processing time only", "event time only", or "late" (its
	// event-time minute had closed when it arrived).
	Where string
}

// Differing returns the records of traces that make row's two cells differ: those in
// its processing-time minute and not its event-time minute, and the other way round
// (late records count as in no event-time minute), oldest first.
func Differing(row minutes.Row, traces []jobspec.Result) []Moved {
	var out []Moved
	for i := range traces {
		if traces[i].Kind != jobspec.TraceResult {
			continue
		}
		r := traces[i].Record
		if r.TenantID != row.Tenant {
			continue
		}
		inProc := r.ProcessingWindowEnd == row.WindowEnd
		inEvent := r.EventWindowEnd == row.WindowEnd && !r.Late
		switch {
		case inProc && !inEvent && r.EventWindowEnd == row.WindowEnd:
			out = append(out, Moved{r, "late"})
		case inProc && !inEvent:
			out = append(out, Moved{r, "processing time only"})
		case inEvent && !inProc:
			out = append(out, Moved{r, "event time only"})
		case r.Late && r.EventWindowEnd == row.WindowEnd:
			out = append(out, Moved{r, "late"})
		}
	}
	return out
}

// LetGo says what of a run's traces was let go to keep its memory bounded (a run that
// goes on for hours keeps the traces of its latest stretch): how many, and the arrival
// of the oldest one kept. The zero value says the run holds every trace.
type LetGo struct {
	Traces int
	Since  int64
}

// View draws the rows and the selected row's records; gone says what the run's traces
// no longer hold.
func (m Model) View(moved []Moved, gone LetGo) string {
	s := m.styles
	lines := []string{s.Title.Render(textutil.Fit("≠ rows: the records that differ between the two windows · ↑/↓ row · pgup/pgdn records · esc back", m.width))}
	if len(m.rows) == 0 {
		lines = append(lines, "  no row of this run differs between the two windows")
		return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
	}
	listH := min(len(m.rows), max(3, m.height/4))
	first := max(0, min(m.selected-listH/2, len(m.rows)-listH))
	for i := first; i < first+listH; i++ {
		r := m.rows[i]
		p, e := r.Cells[minutes.Processing], r.Cells[minutes.Event]
		l := fmt.Sprintf("  %s %s  processing $%.4f ×%s  event $%.4f ×%s", minute(r.WindowStart), textutil.Fit(safetext.Line(r.Tenant), 10),
			p.USD, thousands.Format(p.Requests), e.USD, thousands.Format(e.Requests))
		if i == m.selected {
			l = s.Selected.Render("> " + l[2:])
		}
		lines = append(lines, textutil.Fit(l, m.width))
	}
	row := m.rows[m.selected]
	counts := map[string]int{}
	usd := map[string]float64{}
	for _, mv := range moved {
		counts[mv.Where]++
		usd[mv.Where] += mv.Record.USD
	}
	var parts []string
	for _, w := range []string{"processing time only", "event time only", "late"} {
		if counts[w] > 0 {
			parts = append(parts, fmt.Sprintf("%s %s ($%.4f)", w, thousands.Format(int64(counts[w])), usd[w]))
		}
	}
	noun := "records differ"
	if len(moved) == 1 {
		noun = "record differs"
	}
	sum := fmt.Sprintf("%s %s: %s %s", minute(row.WindowStart), safetext.Line(row.Tenant), thousands.Format(int64(len(moved))), noun)
	if len(parts) > 0 {
		sum += " · " + strings.Join(parts, " · ")
	}
	lines = append(lines, "", textutil.Fit(s.Title.Render(sum), m.width))
	if gone.Traces > 0 {
		which := "none of its records are listed here"
		if gone.Since != 0 {
			which = "records that arrived before " + jobspec.Clock(gone.Since) + " are not listed here"
		}
		lines = append(lines, s.Warn.Render(textutil.Fit(fmt.Sprintf("  the run let go of its %d oldest results to bound its memory: %s", gone.Traces, which), m.width)))
	}
	lines = append(lines, s.Dim.Render(textutil.Fit(
		"  "+textutil.Fit("request", 16)+" gw    completed/ts  arrival       watermark met event proc  USD       where", m.width)))
	body := max(0, m.height-len(lines))
	start := min(m.scroll, max(0, len(moved)-body))
	for _, mv := range moved[start:min(len(moved), start+body)] {
		r := mv.Record
		lines = append(lines, textutil.Fit(fmt.Sprintf("  %s %-5s %s  %s  %s  %s %s  $%.4f  %s", textutil.Fit(safetext.Line(r.RequestID), 16), safetext.Line(r.Gateway),
			jobspec.Clock(r.Timestamp), jobspec.Clock(r.Arrival), watermark(r.Watermark), minute(r.EventWindowEnd-jobspec.Minute),
			minute(r.ProcessingWindowEnd-jobspec.Minute), r.USD, where(mv)), m.width))
	}
	return textutil.Block(strings.Join(lines, "\n"), m.width, m.height)
}

// watermark is jobspec.WatermarkClock padded to a clock's width.
func watermark(ms int64) string { return fmt.Sprintf("%-12s", jobspec.WatermarkClock(ms)) }

func minute(ms int64) string {
	c := jobspec.Clock(ms)
	if len(c) < 5 {
		return c
	}
	return c[:5]
}

// where says where a record went, and, for one in this processing-time minute only,
// what became of it in event time.
func where(mv Moved) string {
	r := mv.Record
	if mv.Where == "processing time only" {
		if r.Late {
			return mv.Where + " · dropped as late from event time's " + minute(r.EventWindowEnd-jobspec.Minute)
		}
		return mv.Where + " · event time bills it to " + minute(r.EventWindowEnd-jobspec.Minute)
	}
	if mv.Where == "event time only" {
		return mv.Where + " · processing time billed it to " + minute(r.ProcessingWindowEnd-jobspec.Minute)
	}
	return mv.Where
}
