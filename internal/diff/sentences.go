package diff

import (
	"fmt"
	"strconv"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// pendingRun says why a run of PendingOnly rows differs, once for all of them.
func (r *Report) pendingRun(row *Row, names Names) string {
	open := B
	if row.A.Open {
		open = A
	}
	return fmt.Sprintf("fired in %s, still open in %s when its run ended%s", names.of(open.other()), names.of(open), r.stoodAt(row, open, names))
}

// pendingNote says that row's window fired in one run (or is absent from it) and was
// still open in the other, open, when that run ended.
func (r *Report) pendingNote(row *Row, open Side, names Names) string {
	s := fmt.Sprintf("open in %s when its run ended: %s", names.of(open), r.notPassed(row))
	if row.cell(open.other()).Present() {
		s = fmt.Sprintf("fired in %s; still %s", names.of(open.other()), s)
	}
	return s + r.stoodAt(row, open, names)
}

// notPassed says what never happened to a window left open.
func (r *Report) notPassed(row *Row) string {
	if r.Sink == jobspec.ProcessingTimeResult {
		return "its clock never reached " + jobspec.Clock(row.WindowEnd)
	}
	return "no watermark passed " + jobspec.Clock(row.WindowEnd-1)
}

// stoodAt says where the open run's watermark (or clock) was last seen, if it is known.
func (r *Report) stoodAt(row *Row, open Side, names Names) string {
	e := row.Why
	if e == nil {
		return ""
	}
	if r.Sink == jobspec.ProcessingTimeResult {
		at := e.ArrivalA
		if open == B {
			at = e.ArrivalB
		}
		if at == 0 {
			return ""
		}
		return fmt.Sprintf(" (the last record reached %s's windows at %s)", names.of(open), jobspec.Clock(at))
	}
	wm := e.WatermarkA
	if open == B {
		wm = e.WatermarkB
	}
	if wm == jobspec.MinWatermark {
		return ""
	}
	return fmt.Sprintf(" (the highest watermark a record met in %s was %s)", names.of(open), jobspec.Clock(wm))
}

// explain returns the sentences that explain a row, one per group of records and one per
// other fact (a window still open, a window fired twice, what is left unexplained); an
// identical row has none.
func (r *Report) explain(row *Row, names Names) []string {
	names = names.orDefault()
	e := row.Why
	if e == nil {
		return nil
	}
	var out []string
	for i := 0; i < len(e.Groups); i++ {
		g := &e.Groups[i]
		j := i + 1
		for j < len(e.Groups) && e.Groups[j].Missed == g.Missed && e.Groups[j].Cause == g.Cause {
			j++
		}
		if g.Cause != elsewhere || j-i <= maxElsewhere {
			out = append(out, r.groupSentence(row, g, names))
			continue
		}
		// Many windows elsewhere (a processing-time replay, say): the first few, then the rest
		// in one sentence.
		for k := i; k < i+maxElsewhere-1; k++ {
			out = append(out, r.groupSentence(row, &e.Groups[k], names))
		}
		var n int64
		var u float64
		for k := i + maxElsewhere - 1; k < j; k++ {
			n, u = n+e.Groups[k].Requests, u+e.Groups[k].USD
		}
		out = append(out, fmt.Sprintf("%s (%s) in %d other %ss of %s instead, %s to %s", plural(int(n), "record"), usd(u),
			j-i-maxElsewhere+1, r.windowWord(), names.of(g.Missed), r.label(e.Groups[i+maxElsewhere-1].Window-r.WindowSize),
			r.label(e.Groups[j-1].Window-r.WindowSize)))
		i = j - 1
	}
	switch {
	case row.A.Open && row.B.Open:
		out = append(out, "open in both runs when they ended: "+r.notPassed(row))
	case row.A.Open:
		out = append(out, r.pendingNote(row, A, names))
	case row.B.Open:
		out = append(out, r.pendingNote(row, B, names))
	}
	if row.A.Fired != row.B.Fired && row.A.Fired > 0 && row.B.Fired > 0 {
		out = append(out, fmt.Sprintf("fired %s in %s and %s in %s: a restarted job windowed the same records again",
			plural(row.A.Fired, "time"), names.A, plural(row.B.Fired, "time"), names.B))
	}
	if !e.Explained {
		switch {
		case row.A.Requests == row.B.Requests && sameUSD(row.A.USD, row.B.USD):
			out = append(out, "UNEXPLAINED: the sums agree, but the window fired a different number of times")
		case e.Evidence == noEvidence && r.Sink == jobspec.ProcessingTimeResult:
			out = append(out, "UNEXPLAINED: a processing-time difference needs a trace of both runs")
		case e.Evidence == noEvidence:
			out = append(out, "UNEXPLAINED: no late record or trace accounts for it")
		default:
			out = append(out, "UNEXPLAINED: the records above do not add up to the difference")
		}
	}
	return out
}

// maxElsewhere is how many windows elsewhere Explain names one by one.
const maxElsewhere = 4

func (r *Report) groupSentence(row *Row, g *Group, names Names) string {
	x, y := names.of(g.Missed), names.of(g.Missed.other())
	they, them := "they", "them"
	if g.Requests == 1 {
		they, them = "it", "it"
	}
	n := fmt.Sprintf("%s (%s)", plural(int(g.Requests), "record"), usd(g.USD))
	mine := func(rec *Record) *jobspec.RecordTrace { return rec.trace(g.Missed) }
	theirs := func(rec *Record) *jobspec.RecordTrace { return rec.trace(g.Missed.other()) }
	switch g.Cause {
	case Late:
		s := fmt.Sprintf("%s late in %s: the watermark had passed %s when %s arrived", n, x, jobspec.Clock(row.WindowEnd-1), they)
		wm := span(g.Records, mine, func(t *jobspec.RecordTrace) int64 { return t.Watermark })
		arr := span(g.Records, mine, func(t *jobspec.RecordTrace) int64 { return t.Arrival })
		switch {
		case wm != "" && arr != "":
			s += fmt.Sprintf(" (it stood at %s; %s arrived %s)", wm, they, arr)
		case wm != "":
			s += fmt.Sprintf(" (it stood at %s)", wm)
		}
		s += fmt.Sprintf("; %s read %s before any watermark passed the %s", y, them, r.windowWord())
		if top, ok := highest(g.Records, theirs, func(t *jobspec.RecordTrace) int64 { return t.Watermark }); ok {
			if top == jobspec.MinWatermark {
				s += " (it had no watermark yet)"
			} else {
				s += fmt.Sprintf(" (its watermark was at most %s)", jobspec.Clock(top))
			}
		}
		return s + r.lateCause(g.Missed, names)
	case elsewhere:
		if r.Sink == jobspec.ProcessingTimeResult {
			s := fmt.Sprintf("%s in %s's processing-time %s %s instead", n, x, r.windowWord(), r.label(g.Window-r.WindowSize))
			a := span(g.Records, mine, func(t *jobspec.RecordTrace) int64 { return t.Arrival })
			b := span(g.Records, theirs, func(t *jobspec.RecordTrace) int64 { return t.Arrival })
			if a != "" && b != "" {
				s += fmt.Sprintf(": %s read %s at %s, %s at %s", x, them, a, y, b)
			}
			return s
		}
		s := fmt.Sprintf("%s in %s's %s %s instead", n, x, r.windowWord(), r.label(g.Window-r.WindowSize))
		a := span(g.Records, mine, func(t *jobspec.RecordTrace) int64 { return t.Timestamp })
		b := span(g.Records, theirs, func(t *jobspec.RecordTrace) int64 { return t.Timestamp })
		if a != "" && b != "" {
			s += fmt.Sprintf(": %s stamped %s %s, %s %s", x, them, a, y, b)
		}
		late := 0
		for i := range g.Records {
			if t := mine(&g.Records[i]); t != nil && t.Late {
				late++
			}
		}
		switch {
		case late > 0 && g.Requests == 1:
			s += " (dropped as late there)"
		case late > 0:
			s += fmt.Sprintf(" (%d of them dropped as late there)", late)
		}
		return s
	}
	return fmt.Sprintf("%s never reached %s's windows: %s has no trace of %s (a half never arrived or was forgotten, or the run stopped first)", n, x, x, them)
}

// span returns "lo" or "lo–hi" of a field over the records' views, skipping records
// without a view and zero values (a late line has no arrival); "" when none has one.
func span(recs []Record, view func(*Record) *jobspec.RecordTrace, f func(*jobspec.RecordTrace) int64) string {
	var lo, hi int64
	seen := false
	for i := range recs {
		t := view(&recs[i])
		if t == nil || f(t) == 0 {
			continue
		}
		v := f(t)
		if !seen {
			lo, hi, seen = v, v, true
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	switch {
	case !seen:
		return ""
	case lo == hi:
		return jobspec.Clock(lo)
	}
	return jobspec.Clock(lo) + "–" + jobspec.Clock(hi)
}

func highest(recs []Record, view func(*Record) *jobspec.RecordTrace, f func(*jobspec.RecordTrace) int64) (int64, bool) {
	top, seen := int64(jobspec.MinWatermark), false
	for i := range recs {
		if t := view(&recs[i]); t != nil {
			top, seen = max(top, f(t)), true
		}
	}
	return top, seen
}

// lateCause puts records late in the missed run and counted by the other down to their
// cause, from the runs' strategies and how they read; "" when they are not known. A
// larger bound holds the other run's watermark further behind its largest timestamp
// (the strategies); watermarks after the parse follow the partition read furthest, so a
// run that read its partitions unevenly (a replay at full speed) drops records only
// because another partition ran ahead, where per partition at the source the watermark
// waits for the slowest (a partition's lead); otherwise the records came behind the
// watermark where they were dropped (their arrival), and a run with watermarks per
// partition at the source that read unevenly kept them because its slowest partition
// held its watermark back.
func (r *Report) lateCause(missed Side, names Names) string {
	st := r.Strategies
	if st == nil {
		return ""
	}
	kept := missed.other()
	x, y := st.of(missed), st.of(kept)
	nx, ny := names.of(missed), names.of(kept)
	switch {
	case y.OutOfOrderness > x.OutOfOrderness:
		return fmt.Sprintf("; cause: the strategies, %s under %s, %s under %s, whose watermark stays %s behind its largest timestamp",
			nx, x.Name(), ny, y.Name(), seconds(y.OutOfOrderness))
	case y.OutOfOrderness == x.OutOfOrderness && x.At != watermark.Source && y.At == watermark.Source && st.fast(missed):
		return fmt.Sprintf("; cause: a partition's lead, %s read its partitions unevenly and its watermark after the parse follows "+
			"the partition read furthest, %s's per partition at the source waits for the slowest", nx, ny)
	case x.Name() == y.Name():
		return fmt.Sprintf("; cause: the records' arrival, both under %s", x.Name())
	case y.At == watermark.Source && st.fast(kept) && !st.fast(missed):
		return fmt.Sprintf("; cause: the records' arrival, behind %s's watermark under %s; %s read its partitions unevenly, "+
			"and its watermark per partition at the source waited for the partition it read slowest", nx, x.Name(), ny)
	}
	return fmt.Sprintf("; cause: the records' arrival (%s under %s, %s under %s)", nx, x.Name(), ny, y.Name())
}

// seconds writes a bound as "40 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Milliseconds())/1000, 'f', -1, 64) + " s"
}
