package minutes

// Copy returns copies of rows from..to (exclusive), each with its verdict under the
// clocks in Differs, and how many rows before from are left out (with those the Table
// dropped).
func (t *Table) Copy(from, to int, c Clocks) (rows []Row, omitted int) {
	from = max(0, min(from, len(t.rows)))
	to = max(from, min(to, len(t.rows)))
	rows = make([]Row, 0, to-from)
	for _, r := range t.rows[from:to] {
		cp := *r
		cp.Differs = !r.IsMark() && r.Verdict(c) == Differs
		rows = append(rows, cp)
	}
	return rows, from + t.dropped
}

// CopyRange copies the rows whose time lies in [from, to), at most n of them (the
// latest n), as Copy does.
func (t *Table) CopyRange(from, to int64, n int, c Clocks) ([]Row, int) {
	i := t.search(from)
	j := t.search(to)
	if j-i > n {
		i = j - n
	}
	return t.Copy(i, j, c)
}

// search returns the index of the first row whose time is at or after ms.
func (t *Table) search(ms int64) int {
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
