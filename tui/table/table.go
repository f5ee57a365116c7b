// Package table is the aligned history of one run of the lab: a row per (minute,
// tenant) holding what the processing-time window and the event-time window each wrote
// for it, so the two panes show the same minute and tenant on the same line, and the
// mark lines the learner put in. A Table is bounded: past its limit it drops the oldest
// rows and counts them.
package table

import (
	"cmp"
	"slices"

	"github.com/labtui/labtui/gateway"
)

// Side is one of the two TenantCost windows.
type Side uint8

const (
	// Processing is TumblingProcessingTimeWindows.
	Processing Side = iota
	// Event is TumblingEventTimeWindows.
	Event
)

// Cell is what one window wrote for a (minute, tenant).
type Cell struct {
	USD      float64
	Requests int64
	// Fired says the window fired; a zero Cell means it has not (yet).
	Fired bool
	// Open says the run ended with the window still open (a PendingResult).
	Open bool
}

// Present reports whether the window wrote anything for the row.
func (c Cell) Present() bool { return c.Fired || c.Open }

// Row is one line of both panes.
type Row struct {
	// WindowStart and WindowEnd bound the minute; for a mark line WindowStart is the
	// mark's time.
	WindowStart int64
	WindowEnd   int64
	Tenant      string
	Cells       [2]Cell
	// Mark is the text of a mark line; empty for a minute row.
	Mark string
	seq  uint64
}

// IsMark reports whether the row is a mark line.
func (r *Row) IsMark() bool { return r.Mark != "" }

type key struct {
	start  int64
	tenant string
}

// Table is a bounded, sorted history of rows. It is not safe for concurrent use.
type Table struct {
	rows    []*Row
	index   map[key]*Row
	limit   int
	dropped int
	version uint64
	seq     uint64
}

// DefaultLimit is how many rows a Table keeps unless told otherwise.
const DefaultLimit = 10000

// New returns a Table keeping at most limit rows; limit < 1 means DefaultLimit.
func New(limit int) *Table {
	if limit < 1 {
		limit = DefaultLimit
	}
	return &Table{index: make(map[key]*Row), limit: limit}
}

// Len is the number of rows kept.
func (t *Table) Len() int { return len(t.rows) }

// Row returns the i-th row, oldest first.
func (t *Table) Row(i int) *Row { return t.rows[i] }

// Dropped counts the rows dropped to stay within the limit.
func (t *Table) Dropped() int { return t.dropped }

// Version changes whenever a row is added or changed.
func (t *Table) Version() uint64 { return t.version }

// Add records a fired window (open false) or a window the run ended with open (open
// true) on its (minute, tenant) row, and returns the row. A window that fires again
// replaces its cell; an open report never replaces a fired cell.
func (t *Table) Add(side Side, m gateway.TenantCostMinute, open bool) *Row {
	k := key{m.WindowStart, m.TenantID}
	r, ok := t.index[k]
	if !ok {
		r = &Row{WindowStart: m.WindowStart, WindowEnd: m.WindowEnd, Tenant: m.TenantID}
		if !t.insert(r) {
			return r
		}
		t.index[k] = r
	}
	c := &r.Cells[side]
	if open && c.Fired {
		return r
	}
	*c = Cell{USD: m.USD, Requests: m.Requests, Fired: !open, Open: open}
	t.version++
	return r
}

// Mark puts a mark line at time at: after the rows of minutes that started at or
// before it.
func (t *Table) Mark(at int64, text string) {
	if text == "" {
		text = "mark"
	}
	t.insert(&Row{WindowStart: at, Mark: text})
}

// insert places r in order and trims the table to its limit; it reports whether r was
// kept.
func (t *Table) insert(r *Row) bool {
	t.seq++
	r.seq = t.seq
	i, _ := slices.BinarySearchFunc(t.rows, r, compare)
	if len(t.rows) >= t.limit && i == 0 {
		t.dropped++
		return false
	}
	t.rows = slices.Insert(t.rows, i, r)
	for len(t.rows) > t.limit {
		old := t.rows[0]
		t.rows[0] = nil
		t.rows = t.rows[1:]
		if !old.IsMark() {
			delete(t.index, key{old.WindowStart, old.Tenant})
		}
		t.dropped++
	}
	t.version++
	return true
}

// compare orders rows by time; at the same time minute rows come before marks, minute
// rows by tenant, marks in the order they were put in.
func compare(a, b *Row) int {
	if c := cmp.Compare(a.WindowStart, b.WindowStart); c != 0 {
		return c
	}
	if a.IsMark() != b.IsMark() {
		if a.IsMark() {
			return 1
		}
		return -1
	}
	if c := cmp.Compare(a.Tenant, b.Tenant); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}
