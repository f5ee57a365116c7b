package diff

import (
	"cmp"
	"math"
	"slices"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
)

// Side names one of the two runs compared.
type Side uint8

const (
	// A is the first run, the reference (a re-enactment at recorded pace, a live run).
	A Side = iota + 1
	// B is the second run, compared against A (a replay).
	B
)

// String returns "A" or "B".
func (s Side) String() string {
	if s == B {
		return "B"
	}
	return "A"
}

// other returns the other side.
func (s Side) other() Side {
	if s == B {
		return A
	}
	return B
}

// Status says how A's and B's rows of one (tenant, window) compare.
type Status uint8

const (
	// identical rows have the same requests and USD, and fired (or stayed open) alike.
	identical Status = iota
	// differ rows are present in both runs with different sums, or fired a different
	// number of times.
	differ
	// OnlyA rows are present in A and absent from B.
	OnlyA
	// OnlyB rows are present in B and absent from A.
	OnlyB
	// pendingOnly rows have the same sums, but the window fired in one run and was
	// still open at the end of the other.
	pendingOnly
)

// String names the status in a word or two.
func (s Status) String() string {
	switch s {
	case differ:
		return "differ"
	case OnlyA:
		return "only in A"
	case OnlyB:
		return "only in B"
	case pendingOnly:
		return "pending in one"
	}
	return "identical"
}

// Row is one (tenant, window) of the compared sink, in both runs.
type Row struct {
	TenantID    string
	WindowStart int64
	WindowEnd   int64
	// A and B are the two runs' cells, in the one row model (package minutes): Fired
	// counts how many times the window fired (more than once only when a restarted job
	// re-read records it had already windowed); Open says it never fired, still open
	// when the run ended and printed as pending.
	A, B   minutes.Cell
	Status Status
	// Why explains a row that is not Identical; it is nil for identical rows.
	Why *Explanation
}

// cell returns the row's cell of side s.
func (r *Row) cell(s Side) minutes.Cell {
	if s == B {
		return r.B
	}
	return r.A
}

// explained reports whether the row needs no explanation (it is identical) or has one
// that accounts for the whole difference.
func (r *Row) explained() bool { return r.Status == identical || (r.Why != nil && r.Why.Explained) }

// deltaUSD returns B's USD minus A's (absent cells count as zero).
func (r *Row) deltaUSD() float64 { return r.B.USD - r.A.USD }

// deltaRequests returns B's requests minus A's.
func (r *Row) deltaRequests() int64 { return r.B.Requests - r.A.Requests }

type key struct {
	tenant string
	end    int64
}

// table lines up the windows of one sink of two runs, sorted by window start, then tenant.
func table(a, b []jobspec.Result, sink jobspec.Kind) []Row {
	idx := make(map[key]int)
	var rows []Row
	add := func(rs []jobspec.Result, side Side) {
		for i := range rs {
			res := &rs[i]
			if res.Kind != sink && (res.Kind != jobspec.PendingResult || res.Window != sink) {
				continue
			}
			m := res.Minute
			k := key{m.TenantID, m.WindowEnd}
			n, ok := idx[k]
			if !ok {
				n = len(rows)
				idx[k] = n
				rows = append(rows, Row{TenantID: m.TenantID, WindowStart: m.WindowStart, WindowEnd: m.WindowEnd})
			}
			c := &rows[n].A
			if side == B {
				c = &rows[n].B
			}
			// The last line of a window wins: after a restart it is the one now billed.
			c.USD, c.Requests = m.USD, m.Requests
			if res.Kind == jobspec.PendingResult {
				c.Open = true
			} else {
				c.Fired++
				c.Open = false
			}
		}
	}
	add(a, A)
	add(b, B)
	slices.SortFunc(rows, func(x, y Row) int {
		return cmp.Or(cmp.Compare(x.WindowStart, y.WindowStart), cmp.Compare(x.WindowEnd, y.WindowEnd), cmp.Compare(x.TenantID, y.TenantID))
	})
	for i := range rows {
		rows[i].Status = status(rows[i].A, rows[i].B)
	}
	return rows
}

func status(a, b minutes.Cell) Status {
	switch {
	case !b.Present():
		return OnlyA
	case !a.Present():
		return OnlyB
	case a.Requests != b.Requests || !sameUSD(a.USD, b.USD) || a.Fired != b.Fired && !a.Open && !b.Open:
		return differ
	case a.Open != b.Open:
		return pendingOnly
	}
	return identical
}

// sameUSD compares two sums to a billionth of a dollar (relative, above a dollar): the
// same records added in another order can differ in the last bit, and no price of the
// lab's table is anywhere near that small.
func sameUSD(x, y float64) bool {
	return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}
