package diff

import (
	"cmp"
	"slices"

	"github.com/labtui/labtui/internal/jobspec"
)

// Cause is why a record one run counted in a window is not in the other run's window.
type Cause uint8

const (
	// Late: the other run dropped it as late; the window had already fired, or was due
	// to, when it arrived.
	Late Cause = iota + 1
	// elsewhere: the other run counted it in another window: a different timestamp (on
	// the event-time sink) or a different arrival minute (on the processing-time sink).
	elsewhere
	// Missing: the other run has no trace of it; it never reached its windows (a half
	// never arrived or was forgotten, or the run stopped before it).
	Missing
)

// String names the cause in a word.
func (c Cause) String() string {
	switch c {
	case Late:
		return "late"
	case elsewhere:
		return "elsewhere"
	case Missing:
		return "missing"
	}
	return "unknown"
}

// Evidence says what an explanation was computed from.
type Evidence uint8

const (
	// noEvidence: neither traces in both runs nor (on the event-time sink) late records
	// that account for the difference.
	noEvidence Evidence = iota
	// Traces: both runs have a trace per record, so the records each run counted in the
	// window are known exactly.
	Traces
	// lateOutput: at least one run has no traces; the explanation comes from the late
	// side outputs alone (records late in one run and not the other).
	lateOutput
)

// Explanation accounts for a row's difference record by record.
type Explanation struct {
	// Groups are the records counted by one run and not the other, grouped by the side
	// that did not count them, the cause, and the window they went to instead.
	Groups []Group
	// Explained says the groups add up exactly to the difference between the rows:
	// requests, and USD to a billionth of a dollar.
	Explained bool
	Evidence  Evidence
	// WatermarkA and WatermarkB are the highest watermark any record met in each run
	// (jobspec.MinWatermark when none, or when the run has neither traces nor late
	// records): where a pending window's run left its watermark, near enough.
	WatermarkA, WatermarkB int64
	// ArrivalA and ArrivalB are the latest processing time at which a traced record
	// reached each run's windows (0 without traces): where a pending processing-time
	// window's run left its clock, near enough.
	ArrivalA, ArrivalB int64
}

// Group is a set of records one run counted in the row's window and the other, Missed,
// did not, for the same Cause.
type Group struct {
	Missed Side
	Cause  Cause
	// Window is the end of the window the Missed run put the records in instead
	// (Elsewhere only).
	Window   int64
	Records  []Record
	Requests int64
	USD      float64
}

// Record is one request in a Group, with what each run's trace (or late side output)
// says of it; a side with neither is nil.
type Record struct {
	RequestID string
	USD       float64
	A, B      *jobspec.RecordTrace
}

// trace returns the side's view of the record, or nil.
func (r *Record) trace(s Side) *jobspec.RecordTrace {
	if s == B {
		return r.B
	}
	return r.A
}

// runIndex is what one run's output says about the records of the rows that differ.
type runIndex struct {
	traced bool
	// counted lists, per (tenant, window end) of a differing row, the records the run
	// counted in it (traced runs only); lateIn lists the records late in each such
	// event-time window, from traces or, without them, from the late side output.
	counted map[key][]*jobspec.RecordTrace
	lateIn  map[key][]*jobspec.RecordTrace
	// traces and late are the run's view of the records an explanation names, by id.
	traces, late map[string]*jobspec.RecordTrace
	maxWM        int64
	lastArr      int64
}

// indexRun indexes rs for the rows whose keys are in need: one pass over the results,
// keeping only what those rows need.
func indexRun(rs []jobspec.Result, sink jobspec.Kind, size int64, need map[key]struct{}) *runIndex {
	x := &runIndex{counted: make(map[key][]*jobspec.RecordTrace), lateIn: make(map[key][]*jobspec.RecordTrace), maxWM: jobspec.MinWatermark}
	for i := range rs {
		if rs[i].Kind == jobspec.TraceResult {
			x.traced = true
			break
		}
	}
	for i := range rs {
		r := &rs[i].Record
		switch {
		case rs[i].Kind == jobspec.TraceResult:
			x.maxWM, x.lastArr = max(x.maxWM, r.Watermark), max(x.lastArr, r.Arrival)
			if r.Late {
				if k := (key{r.TenantID, r.EventWindowEnd}); has(need, k) {
					x.lateIn[k] = append(x.lateIn[k], r)
				}
				if sink == jobspec.EventTimeResult {
					continue
				}
			}
			if k := (key{r.TenantID, windowOf(r, sink)}); has(need, k) {
				x.counted[k] = append(x.counted[k], r)
			}
		case rs[i].Kind == jobspec.LateResult:
			x.maxWM = max(x.maxWM, r.Watermark)
			if k := (key{r.TenantID, eventWindowEnd(r, size)}); !x.traced && has(need, k) {
				x.lateIn[k] = append(x.lateIn[k], r)
			}
		}
	}
	return x
}

func has(set map[key]struct{}, k key) bool {
	_, ok := set[k]
	return ok
}

// lookUp fills the run's view of the records named in ids: its trace, and its late
// side-output line.
func (x *runIndex) lookUp(rs []jobspec.Result, ids map[string]struct{}) {
	x.traces, x.late = make(map[string]*jobspec.RecordTrace, len(ids)), make(map[string]*jobspec.RecordTrace)
	for i := range rs {
		if k := rs[i].Kind; k == jobspec.TraceResult || k == jobspec.LateResult {
			if _, ok := ids[rs[i].Record.RequestID]; !ok {
				continue
			}
			if k == jobspec.TraceResult {
				x.traces[rs[i].Record.RequestID] = &rs[i].Record
			} else {
				x.late[rs[i].Record.RequestID] = &rs[i].Record
			}
		}
	}
}

// windowOf returns the end of the window of the sink a traced record went to.
func windowOf(t *jobspec.RecordTrace, sink jobspec.Kind) int64 {
	if sink == jobspec.ProcessingTimeResult {
		return t.ProcessingWindowEnd
	}
	return t.EventWindowEnd
}

// eventWindowEnd returns a record's event-time window end; late side-output lines do not
// carry it, so it is computed from the timestamp as TimeWindow does.
func eventWindowEnd(t *jobspec.RecordTrace, size int64) int64 {
	if t.EventWindowEnd != 0 {
		return t.EventWindowEnd
	}
	r := t.Timestamp % size
	if r < 0 {
		r += size
	}
	return t.Timestamp - r + size
}

// view returns what the run knows of a record: its trace, else its late line, else nil.
func (x *runIndex) view(id string) *jobspec.RecordTrace {
	if t, ok := x.traces[id]; ok {
		return t
	}
	return x.late[id]
}

// differing holds the records counted by one run and not the other in a row: the
// first phase of an explanation, before the other run's view of them is looked up.
type differing struct {
	evidence Evidence
	// onlyA were counted by A and missed by B, onlyB the other way round, each as the
	// run named by its side saw them: the counting run's traces when both runs are
	// traced, the missing run's late records otherwise.
	onlyA, onlyB     []*jobspec.RecordTrace
	sideOfA, sideOfB Side
}

// compareRecords finds the records counted by one run and not the other in row's window.
func compareRecords(row *Row, sink jobspec.Kind, xa, xb *runIndex) differing {
	k := key{row.TenantID, row.WindowEnd}
	switch {
	case xa.traced && xb.traced:
		return differing{Traces, minus(xa.counted[k], xb.counted[k]), minus(xb.counted[k], xa.counted[k]), A, B}
	case sink == jobspec.EventTimeResult:
		// Without a trace on both sides, only lateness can be compared: a record late in
		// one run and not in the other was counted by the other, if it reached it at all.
		return differing{lateOutput, minus(xb.lateIn[k], xa.lateIn[k]), minus(xa.lateIn[k], xb.lateIn[k]), B, A}
	}
	return differing{}
}

// needs is how many ids need adds to each run's set, at most (an id may be there already).
func (d *differing) needs() (a, b int) {
	for _, l := range []struct {
		n    int
		side Side
	}{{len(d.onlyA), d.sideOfA}, {len(d.onlyB), d.sideOfB}} {
		if l.side == B {
			a += l.n
		} else {
			b += l.n
		}
	}
	return a, b
}

// need adds, to the sets of ids each run must look up, the records whose view d lacks.
func (d *differing) need(idsA, idsB map[string]struct{}) {
	for _, l := range []struct {
		recs []*jobspec.RecordTrace
		side Side
	}{{d.onlyA, d.sideOfA}, {d.onlyB, d.sideOfB}} {
		ids := idsB
		if l.side == B {
			ids = idsA
		}
		for _, r := range l.recs {
			ids[r.RequestID] = struct{}{}
		}
	}
}

// explain accounts for row's difference from the records compareRecords found and the
// runs' views of them.
func explain(row *Row, d differing, sink jobspec.Kind, size int64, xa, xb *runIndex) *Explanation {
	e := &Explanation{Evidence: d.evidence, WatermarkA: xa.maxWM, WatermarkB: xb.maxWM, ArrivalA: xa.lastArr, ArrivalB: xb.lastArr}
	e.Groups = append(group(d.onlyA, d.sideOfA, B, sink, row.WindowEnd, size, xa, xb),
		group(d.onlyB, d.sideOfB, A, sink, row.WindowEnd, size, xa, xb)...)
	var requests int64
	var usd float64
	for _, g := range e.Groups {
		if g.Missed == B {
			requests, usd = requests-g.Requests, usd-g.USD
		} else {
			requests, usd = requests+g.Requests, usd+g.USD
		}
	}
	e.Explained = d.evidence != noEvidence && requests == row.deltaRequests() && sameUSD(usd, row.deltaUSD()) &&
		(row.A.Fired == row.B.Fired || row.A.Open || row.B.Open || !row.A.Present() || !row.B.Present())
	if e.Evidence == lateOutput && len(e.Groups) == 0 {
		e.Evidence = noEvidence
	}
	if row.Status == pendingOnly {
		e.Explained = true // the pending line is the run's own word that the window never fired
	}
	return e
}

// group classifies the records missed by side missed (and counted by the other) in the
// window ending at end, given as side of saw them; size is the window length.
func group(recs []*jobspec.RecordTrace, of, missed Side, sink jobspec.Kind, end, size int64, xa, xb *runIndex) []Group {
	if len(recs) == 0 {
		return nil
	}
	type gk struct {
		cause  Cause
		window int64
	}
	at := make(map[gk]int)
	var gs []Group
	for _, r := range recs {
		rec := Record{RequestID: r.RequestID}
		if of == A {
			rec.A, rec.B = r, xb.view(r.RequestID)
		} else {
			rec.A, rec.B = xa.view(r.RequestID), r
		}
		m, counted := rec.trace(missed), rec.trace(missed.other())
		if counted != nil {
			rec.USD = counted.USD
		} else if m != nil {
			rec.USD = m.USD
		}
		k := gk{cause: Missing}
		switch {
		case m == nil:
		case sink == jobspec.EventTimeResult && m.Late && eventWindowEnd(m, size) == end:
			k.cause = Late
		case sink == jobspec.EventTimeResult:
			k.cause, k.window = elsewhere, eventWindowEnd(m, size)
		default:
			k.cause, k.window = elsewhere, m.ProcessingWindowEnd
		}
		n, ok := at[k]
		if !ok {
			n = len(gs)
			at[k] = n
			gs = append(gs, Group{Missed: missed, Cause: k.cause, Window: k.window})
		}
		g := &gs[n]
		g.Records = append(g.Records, rec)
		g.Requests++
		g.USD += rec.USD
	}
	for i := range gs {
		slices.SortFunc(gs[i].Records, func(x, y Record) int {
			tx, ty := x.trace(missed.other()), y.trace(missed.other())
			if tx == nil {
				tx = x.trace(missed)
			}
			if ty == nil {
				ty = y.trace(missed)
			}
			if tx != nil && ty != nil {
				if c := cmp.Compare(tx.Timestamp, ty.Timestamp); c != 0 {
					return c
				}
			}
			return cmp.Compare(x.RequestID, y.RequestID)
		})
	}
	slices.SortFunc(gs, func(x, y Group) int {
		return cmp.Or(cmp.Compare(x.Missed, y.Missed), cmp.Compare(x.Cause, y.Cause), cmp.Compare(x.Window, y.Window))
	})
	return gs
}

// minus returns the records of xs whose ids are not in ys, in xs's order.
func minus(xs, ys []*jobspec.RecordTrace) []*jobspec.RecordTrace {
	if len(xs) == 0 {
		return nil
	}
	in := make(map[string]struct{}, len(ys))
	for _, y := range ys {
		in[y.RequestID] = struct{}{}
	}
	var out []*jobspec.RecordTrace
	for _, x := range xs {
		if _, ok := in[x.RequestID]; !ok {
			out = append(out, x)
		}
	}
	return out
}
