// Package minutes is labtui's one model of a billed minute: a row per (minute, tenant)
// holding what the processing-time window and the event-time window each wrote for it,
// side by side. The panes show these rows, the diff lines up their cells run against
// run, and the saved evidence keeps copies of them (its JSON is this package's). A Table
// is the aligned, bounded history of one run's rows, with the mark lines the learner put
// in.
package minutes

import (
	"encoding/json"
	"math"
)

// Side is one of the two TenantCost windows.
type Side uint8

const (
	// Processing is TumblingProcessingTimeWindows.
	Processing Side = iota
	// Event is TumblingEventTimeWindows.
	Event
)

// String names the side as the course does: "processing time" or "event time".
func (s Side) String() string {
	if s == Event {
		return "event time"
	}
	return "processing time"
}

// Cell is what one window wrote for a (minute, tenant). The zero Cell is a window that
// wrote nothing (yet).
type Cell struct {
	USD      float64 `json:"usd"`
	Requests int64   `json:"requests"`
	// Fired counts how many times the window fired: more than once only when a restarted
	// job re-read records it had already windowed. It is not saved: a saved cell that is
	// not Open fired.
	Fired int `json:"-"`
	// Open says the window has not fired: the run ended with it open, or the latest
	// status listed it open with these running totals (a PendingResult).
	Open bool `json:"open,omitempty"`
}

// Present reports whether the window wrote anything for the row.
func (c Cell) Present() bool { return c.Fired > 0 || c.Open }

// Equal reports whether two cells hold the same requests and, to a millionth of a
// dollar, the same USD: float sums taken in a different order may differ in the last
// bits without the bill differing.
func Equal(a, b Cell) bool {
	return a.Requests == b.Requests && math.Abs(a.USD-b.USD) < 5e-7
}

// Row is one line of both panes: a (minute, tenant) with a cell per window, or a mark
// line when Mark is set.
type Row struct {
	// WindowStart and WindowEnd bound the minute; for a mark line WindowStart is the
	// mark's time.
	WindowStart int64
	WindowEnd   int64
	Tenant      string
	// Cells are the processing-time and the event-time window's cells, by Side.
	Cells [2]Cell
	// Differs is the row's verdict when it was copied out of its Table (Copy): the cells
	// differed under the clocks of that moment. A live Table's rows leave it false; ask
	// Verdict instead.
	Differs bool
	// Mark is the text of a mark line ("hiccup gw-1 10:00:40"); empty for a minute row.
	Mark string
	seq  uint64
}

// IsMark reports whether the row is a mark line.
func (r *Row) IsMark() bool { return r.Mark != "" }

// savedRow is a Row's JSON: the format of the saved evidence since its first version, a
// cell present only when its window wrote something.
type savedRow struct {
	WindowStart int64  `json:"window_start"`
	WindowEnd   int64  `json:"window_end"`
	Tenant      string `json:"tenant_id,omitempty"`
	Processing  *Cell  `json:"processing_time,omitempty"`
	Event       *Cell  `json:"event_time,omitempty"`
	Differs     bool   `json:"differs,omitempty"`
	Mark        string `json:"mark,omitempty"`
}

// MarshalJSON writes the row with a cell only for a window that wrote something.
func (r Row) MarshalJSON() ([]byte, error) {
	s := savedRow{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Tenant: r.Tenant, Differs: r.Differs, Mark: r.Mark}
	if c := r.Cells[Processing]; c.Present() {
		s.Processing = &c
	}
	if c := r.Cells[Event]; c.Present() {
		s.Event = &c
	}
	return json.Marshal(s)
}

// UnmarshalJSON reads a row as MarshalJSON writes it: a saved cell that is not open fired.
func (r *Row) UnmarshalJSON(b []byte) error {
	var s savedRow
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*r = Row{WindowStart: s.WindowStart, WindowEnd: s.WindowEnd, Tenant: s.Tenant, Differs: s.Differs, Mark: s.Mark}
	for side, c := range [2]*Cell{s.Processing, s.Event} {
		if c == nil {
			continue
		}
		if !c.Open {
			c.Fired = 1
		}
		r.Cells[side] = *c
	}
	return nil
}
