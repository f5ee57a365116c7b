package table

import "github.com/labtui/labtui/state"

// Snapshot copies rows from..to (exclusive) into a state.Table, judging each row under
// the clocks; rows before from are counted as omitted.
func (t *Table) Snapshot(from, to int, c Clocks) state.Table {
	from = max(0, min(from, len(t.rows)))
	to = max(from, min(to, len(t.rows)))
	st := state.Table{Omitted: from + t.dropped, Rows: make([]state.Row, 0, to-from)}
	for _, r := range t.rows[from:to] {
		st.Rows = append(st.Rows, r.State(c))
	}
	return st
}

// SnapshotTail copies at most the last n rows.
func (t *Table) SnapshotTail(n int, c Clocks) state.Table {
	return t.Snapshot(len(t.rows)-n, len(t.rows), c)
}

// SnapshotRange copies the rows whose time lies in [from, to), at most n of them (the
// latest n).
func (t *Table) SnapshotRange(from, to int64, n int, c Clocks) state.Table {
	i := t.Search(from)
	j := t.Search(to)
	if j-i > n {
		i = j - n
	}
	return t.Snapshot(i, j, c)
}

// Search returns the index of the first row whose time is at or after ms.
func (t *Table) Search(ms int64) int {
	lo, hi := 0, len(t.rows)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.rows[m].WindowStart < ms {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// State converts the row for the saved evidence.
func (r *Row) State(c Clocks) state.Row {
	s := state.Row{WindowStart: r.WindowStart, WindowEnd: r.WindowEnd, Tenant: r.Tenant, Mark: r.Mark}
	if r.IsMark() {
		return s
	}
	s.Processing = stateCell(r.Cells[Processing])
	s.Event = stateCell(r.Cells[Event])
	s.Differs = r.Verdict(c) == Differs
	return s
}

func stateCell(c Cell) *state.Cell {
	if !c.Present() {
		return nil
	}
	return &state.Cell{USD: c.USD, Requests: c.Requests, Open: c.Open}
}
