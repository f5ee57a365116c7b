package minutes

import (
	"cmp"
	"slices"

	"github.com/labtui/labtui/internal/gateway"
)

type key struct {
	start  int64
	tenant string
}

// Table is the aligned history of one run: a bounded, sorted list of rows, so the two
// panes show the same minute and tenant on the same line. Past its limit it drops the
// oldest rows and counts them. It is not safe for concurrent use.
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

// Cell returns side's cell of the row of (window start, tenant), and false when the
// table has no such row.
func (t *Table) Cell(side Side, start int64, tenant string) (Cell, bool) {
	r, ok := t.index[key{start, tenant}]
	if !ok {
		return Cell{}, false
	}
	return r.Cells[side], true
}

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
	if open && c.Fired > 0 {
		return r
	}
	fired := c.Fired
	if !open {
		fired++
	}
	*c = Cell{USD: m.USD, Requests: m.Requests, Fired: fired, Open: open}
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
