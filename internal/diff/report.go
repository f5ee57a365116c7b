package diff

import (
	"fmt"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// Options choose what Compare compares.
type Options struct {
	// Sink is the window compared: jobspec.EventTimeResult (also the zero value's meaning)
	// or jobspec.ProcessingTimeResult.
	Sink jobspec.Kind
	// Strategies are the watermark strategies the two runs ran under, when known: a
	// record late in one run and counted by the other is then put down to its cause
	// (the strategies' bounds, a partition's lead, or the records' arrival).
	Strategies *Strategies
}

// Strategies are the watermark strategies of runs A and B, and whether each read its
// records as fast as the broker served them (a replay), which reads the partitions
// unevenly, or at their recorded times.
type Strategies struct {
	A, B         watermark.Strategy
	FastA, FastB bool
}

func (s *Strategies) fast(side Side) bool {
	if side == B {
		return s.FastB
	}
	return s.FastA
}

func (s *Strategies) of(side Side) watermark.Strategy {
	if side == B {
		return s.B
	}
	return s.A
}

// Counts tallies a Report's rows by Status; Unexplained counts the rows, of any status
// but Identical, whose difference the runs' output does not account for.
type Counts struct {
	Rows, Identical, Differ, OnlyA, OnlyB, PendingOnly, Unexplained int
}

// Report is the comparison of one sink of two runs.
type Report struct {
	Sink jobspec.Kind
	// Rows are every (tenant, window) either run wrote on the sink, fired or pending,
	// sorted by window, then tenant.
	Rows   []Row
	Counts Counts
	// TracedA and TracedB say whether each run's output has a trace per record.
	TracedA, TracedB bool
	// WindowSize is the length of the windows compared, in milliseconds.
	WindowSize int64
	// Strategies are Options.Strategies: nil when not known.
	Strategies *Strategies
}

// Compare lines up the windows of one sink of runs a and b (each run's results in any
// order: fired windows, pending windows, late records, traces) and explains every row
// that differs.
func Compare(a, b []jobspec.Result, opts Options) *Report {
	sink := opts.Sink
	if sink != jobspec.ProcessingTimeResult {
		sink = jobspec.EventTimeResult
	}
	rows := table(a, b, sink)
	r := &Report{Sink: sink, Rows: rows, WindowSize: jobspec.Minute, Strategies: opts.Strategies}
	if len(rows) > 0 && rows[0].WindowEnd > rows[0].WindowStart {
		r.WindowSize = rows[0].WindowEnd - rows[0].WindowStart
	}
	need := make(map[key]struct{})
	for i := range rows {
		row := &rows[i]
		r.Counts.Rows++
		switch row.Status {
		case identical:
			r.Counts.Identical++
			continue
		case differ:
			r.Counts.Differ++
		case OnlyA:
			r.Counts.OnlyA++
		case OnlyB:
			r.Counts.OnlyB++
		case pendingOnly:
			r.Counts.PendingOnly++
		}
		need[key{row.TenantID, row.WindowEnd}] = struct{}{}
	}
	if len(need) == 0 {
		r.TracedA, r.TracedB = traced(a), traced(b)
		return r
	}
	// Index both runs for the differing rows only, find the records each counted and the
	// other did not, then look those records up in both runs, and explain.
	xa, xb := indexRun(a, sink, r.WindowSize, need), indexRun(b, sink, r.WindowSize, need)
	diffs := make([]differing, len(rows))
	nA, nB := 0, 0
	for i := range rows {
		if rows[i].Status != identical {
			diffs[i] = compareRecords(&rows[i], sink, xa, xb)
			a, b := diffs[i].needs()
			nA, nB = nA+a, nB+b
		}
	}
	// The sets are made their size at once: the processing-time report of the recorded
	// hour names nearly every record, and a set grown from nothing left that much again
	// as garbage.
	idsA, idsB := make(map[string]struct{}, nA), make(map[string]struct{}, nB)
	for i := range diffs {
		diffs[i].need(idsA, idsB)
	}
	xa.lookUp(a, idsA)
	xb.lookUp(b, idsB)
	for i := range rows {
		if rows[i].Status != identical {
			rows[i].Why = explain(&rows[i], diffs[i], sink, r.WindowSize, xa, xb)
			if !rows[i].Why.Explained {
				r.Counts.Unexplained++
			}
		}
	}
	r.TracedA, r.TracedB = traced(a), traced(b)
	return r
}

func traced(rs []jobspec.Result) bool {
	for i := range rs {
		if rs[i].Kind == jobspec.TraceResult {
			return true
		}
	}
	return false
}

// Same reports whether every row is identical: the two runs wrote the same sink output.
func (r *Report) Same() bool { return r.Counts.Identical == r.Counts.Rows }

// differences returns the rows that are not identical, in order.
func (r *Report) differences() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Status != identical {
			out = append(out, row)
		}
	}
	return out
}

// unexplained returns the rows whose difference the runs' output does not account for.
func (r *Report) unexplained() []Row {
	var out []Row
	for _, row := range r.Rows {
		if !row.explained() {
			out = append(out, row)
		}
	}
	return out
}

// Summary says in one sentence how the two runs compare, for a header or an export:
// "event-time: 300 (tenant, minute) rows, 290 identical, 5 differ, …; every difference
// explained".
func (r *Report) Summary(names Names) string {
	names = names.orDefault()
	c := r.Counts
	s := fmt.Sprintf("%s: %d (tenant, %s) rows, %d identical", r.Sink, c.Rows, r.windowWord(), c.Identical)
	if c.Differ > 0 {
		s += fmt.Sprintf(", %d differ", c.Differ)
	}
	if c.OnlyA > 0 {
		s += fmt.Sprintf(", %d only in %s", c.OnlyA, names.A)
	}
	if c.OnlyB > 0 {
		s += fmt.Sprintf(", %d only in %s", c.OnlyB, names.B)
	}
	if c.PendingOnly > 0 {
		s += fmt.Sprintf(", %d fired in one run and still open in the other", c.PendingOnly)
	}
	switch {
	case r.Same():
		s += "; the outputs are identical"
	case c.Unexplained == 0:
		s += "; every difference explained"
	default:
		s += fmt.Sprintf("; %d unexplained", c.Unexplained)
	}
	return s
}

func (r *Report) windowWord() string {
	if r.WindowSize == jobspec.Minute {
		return "minute"
	}
	return "window"
}
