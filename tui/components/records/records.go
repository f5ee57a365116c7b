// Package records draws the two lists of RequestRecords: the late records the event-time
// window dropped (request, tenant, timestamp, the watermark it met, USD), and the record
// inspector (each record's gateway, event timestamp, Kafka timestamp, arrival, watermark
// on arrival, the event-time and processing-time minute it went to, late or not). Both
// follow the newest record unless scrolled, and both take the `/` filter.
package records

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/ring"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/theme"
)

// Kind says which list a Model draws.
type Kind uint8

const (
	// Late is the pane of late records.
	Late Kind = iota
	// Inspector is the record inspector.
	Inspector
)

// KeyMap is the keys a list scrolls by.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// Model is one list's size, focus, filter and scroll position, and what it scrolls over.
type Model struct {
	styles  theme.Styles
	kind    Kind
	keys    KeyMap
	width   int
	height  int
	focused bool
	filter  string
	follow  bool
	// anchor is the absolute index (dropped + position) of the newest record shown when
	// not following.
	anchor int
	// over is what Update scrolls over (SetContent); page is how far a page key moves.
	over *ring.Ring[jobspec.RecordTrace]
	page int
}

// New returns a list of kind that follows the newest record and scrolls by keys.
func New(styles theme.Styles, kind Kind, keys KeyMap) Model {
	return Model{styles: styles, kind: kind, keys: keys, follow: true, page: 1}
}

// SetContent sets the records Update scrolls over. View draws what it is given; give
// both the same.
func (m Model) SetContent(r *ring.Ring[jobspec.RecordTrace]) Model {
	m.over = r
	return m
}

// SetPage sets how many matching records pgup and pgdn move by (at least one).
func (m Model) SetPage(n int) Model {
	m.page = max(1, n)
	return m
}

// wheel is how many records a turn of the mouse wheel scrolls.
const wheel = 3

// Update scrolls by the keys and the mouse wheel: a record, a page (SetPage), the
// oldest (home), or the newest, following them again (end). It does nothing before
// SetContent.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if m.over == nil {
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.keys.Up):
			return m.scroll(-1), nil
		case key.Matches(msg, m.keys.Down):
			return m.scroll(1), nil
		case key.Matches(msg, m.keys.PageUp):
			return m.scroll(-m.page), nil
		case key.Matches(msg, m.keys.PageDown):
			return m.scroll(m.page), nil
		case key.Matches(msg, m.keys.Home):
			return m.scroll(-1 << 30), nil
		case key.Matches(msg, m.keys.End):
			return m.bottom(), nil
		}
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			return m.scroll(-wheel), nil
		case tea.MouseButtonWheelDown:
			return m.scroll(wheel), nil
		}
	}
	return m, nil
}

// SetSize sets the cells the list fills.
func (m Model) SetSize(w, h int) Model {
	m.width, m.height = w, h
	return m
}

// SetFocused says whether the list has the focus.
func (m Model) SetFocused(f bool) Model {
	m.focused = f
	return m
}

// SetFilter shows only records whose tenant, gateway or request ID contains f.
func (m Model) SetFilter(f string) Model {
	m.filter = f
	m.follow = true
	return m
}

// Filter is the filter in force.
func (m Model) Filter() string { return m.filter }

// scroll moves the view by delta matching records (negative is up, to older ones).
func (m Model) scroll(delta int) Model {
	r := m.over
	total := r.Dropped() + r.Len()
	if total == 0 {
		return m
	}
	if m.follow {
		m.anchor = total - 1
	}
	m.anchor = max(r.Dropped(), min(m.anchor, total-1))
	step := 1
	if delta < 0 {
		step, delta = -1, -delta
	}
	for i := m.anchor + step; delta > 0 && i >= r.Dropped() && i < total; i += step {
		if rec := r.At(i - r.Dropped()); session.Matches(&rec, m.filter) {
			m.anchor = i
			delta--
		}
	}
	m.follow = m.anchor >= total-1 || m.anchor >= m.lastMatch(r)
	return m
}

// bottom follows the newest record again.
func (m Model) bottom() Model {
	m.follow = true
	return m
}

// lastMatch is the absolute index of the newest matching record.
func (m Model) lastMatch(r *ring.Ring[jobspec.RecordTrace]) int {
	for i := r.Len() - 1; i >= 0; i-- {
		if rec := r.At(i); session.Matches(&rec, m.filter) {
			return r.Dropped() + i
		}
	}
	return -1
}

// visible collects up to n matching records, newest last, ending at the anchor (or the
// newest when following), or starting at the oldest when fewer than n end there.
func (m Model) visible(r *ring.Ring[jobspec.RecordTrace], n int) []jobspec.RecordTrace {
	end := r.Len() - 1
	if !m.follow {
		end = min(end, m.anchor-r.Dropped())
	}
	out := make([]jobspec.RecordTrace, 0, n)
	for i := end; i >= 0 && len(out) < n; i-- {
		if rec := r.At(i); session.Matches(&rec, m.filter) {
			out = append(out, rec)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	// Scrolled near the oldest record, the list fills with the records after the
	// anchor rather than ending in blank lines.
	for i := end + 1; i < r.Len() && len(out) < n; i++ {
		if rec := r.At(i); session.Matches(&rec, m.filter) {
			out = append(out, rec)
		}
	}
	return out
}
