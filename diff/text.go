package diff

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/labtui/labtui/engine"
	"github.com/labtui/labtui/meter"
)

// Names are what the two runs are called in sentences: "A" and "B" by default, "the live
// run" and "the replay" in the TUI.
type Names struct{ A, B string }

func (n Names) orDefault() Names {
	if n.A == "" {
		n.A = "A"
	}
	if n.B == "" {
		n.B = "B"
	}
	return n
}

func (n Names) of(s Side) string {
	if s == B {
		return n.B
	}
	return n.A
}

// TextOptions shape WriteText's report.
type TextOptions struct {
	Names Names
	// Records is how many records of each group are listed one per line; 0 lists none,
	// a negative number lists all.
	Records int
	// Identical lists identical rows one per line instead of folding runs of them.
	Identical bool
}

// WriteText writes the report for a person: the summary, then every row in order, with
// runs of identical rows folded into one line and each other row followed by its
// explanation.
func (r *Report) WriteText(w io.Writer, opts TextOptions) error {
	names := opts.Names.orDefault()
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, r.Summary(names))
	if !r.TracedA || !r.TracedB {
		var no []string
		if !r.TracedA {
			no = append(no, names.A)
		}
		if !r.TracedB {
			no = append(no, names.B)
		}
		fmt.Fprintf(bw, "(no trace in %s: differences are explained from late records only; write outputs with `labtui replay --format jsonl --trace`)\n", strings.Join(no, " or "))
	}
	for i := 0; i < len(r.Rows); {
		row := &r.Rows[i]
		j := i + 1
		for j < len(r.Rows) && foldable(row, &r.Rows[j]) {
			j++
		}
		switch {
		case row.Status == Identical && !opts.Identical:
			fmt.Fprintf(bw, "  = %s, %s\n", plural(j-i, "identical row"), r.span(row, &r.Rows[j-1]))
			i = j
			continue
		case (row.Status == OnlyA || row.Status == OnlyB) && j-i > 1:
			var n int64
			var u float64
			for k := i; k < j; k++ {
				n, u = n+r.Rows[k].Why.Groups[0].Requests, u+r.Rows[k].Why.Groups[0].USD
			}
			g := &row.Why.Groups[0]
			fmt.Fprintf(bw, "  ~ %s only in %s, %s (%s, %s): %s counted every one of them in its %s %s instead\n",
				plural(j-i, "row"), names.of(g.Missed.Other()), r.span(row, &r.Rows[j-1]), plural(int(n), "record"), usd(u),
				names.of(g.Missed), r.sinkWindow(), r.label(g.Window-r.WindowSize))
			i = j
			continue
		case row.Status == PendingOnly && j-i > 1:
			fmt.Fprintf(bw, "  ~ %s with the same sums, %s: %s\n", plural(j-i, "row"), r.span(row, &r.Rows[j-1]), r.pendingRun(row, names))
			i = j
			continue
		}
		fmt.Fprintln(bw, r.RowLine(row, names))
		for _, s := range r.Explain(row, names) {
			fmt.Fprintf(bw, "      %s\n", s)
		}
		if row.Why != nil && opts.Records != 0 {
			groups := row.Why.Groups
			if len(groups) > maxElsewhere {
				groups = groups[:maxElsewhere]
			}
			for _, g := range groups {
				n := len(g.Records)
				if opts.Records > 0 && n > opts.Records {
					n = opts.Records
				}
				for _, rec := range g.Records[:n] {
					fmt.Fprintf(bw, "        %s\n", recordLine(&rec, names))
				}
				if n < len(g.Records) {
					fmt.Fprintf(bw, "        … %d more\n", len(g.Records)-n)
				}
			}
		}
		i++
	}
	return bw.Flush()
}

// foldable says whether row y folds into a run of rows starting with x: both identical,
// or both the same sums fired in one run and open in the other, the same way round.
func foldable(x, y *Row) bool {
	switch x.Status {
	case Identical:
		return y.Status == Identical
	case PendingOnly:
		return y.Status == PendingOnly && x.A.Pending == y.A.Pending
	case OnlyA, OnlyB:
		return y.Status == x.Status && movedWhole(x) && movedWhole(y) && x.Why.Groups[0].Window == y.Why.Groups[0].Window
	}
	return false
}

// movedWhole says the row is in one run only because the other counted all its records
// in one other window.
func movedWhole(r *Row) bool {
	return r.Explained() && !r.A.Pending && !r.B.Pending && len(r.Why.Groups) == 1 && r.Why.Groups[0].Cause == Elsewhere
}

// sinkWindow names the compared windows: "processing-time minute", "minute".
func (r *Report) sinkWindow() string {
	if r.Sink == meter.ProcessingTimeResult {
		return "processing-time " + r.windowWord()
	}
	return r.windowWord()
}

// pendingRun says why a run of PendingOnly rows differs, once for all of them.
func (r *Report) pendingRun(row *Row, names Names) string {
	open := B
	if row.A.Pending {
		open = A
	}
	return fmt.Sprintf("fired in %s, still open in %s when its run ended%s", names.of(open.Other()), names.of(open), r.stoodAt(row, open, names))
}

// pendingNote says that row's window fired in one run (or is absent from it) and was
// still open in the other, open, when that run ended.
func (r *Report) pendingNote(row *Row, open Side, names Names) string {
	s := fmt.Sprintf("open in %s when its run ended: %s", names.of(open), r.notPassed(row))
	if row.Cell(open.Other()).Present {
		s = fmt.Sprintf("fired in %s; still %s", names.of(open.Other()), s)
	}
	return s + r.stoodAt(row, open, names)
}

// notPassed says what never happened to a window left open.
func (r *Report) notPassed(row *Row) string {
	if r.Sink == meter.ProcessingTimeResult {
		return "its clock never reached " + meter.Clock(row.WindowEnd)
	}
	return "no watermark passed " + meter.Clock(row.WindowEnd-1)
}

// stoodAt says where the open run's watermark (or clock) was last seen, if it is known.
func (r *Report) stoodAt(row *Row, open Side, names Names) string {
	e := row.Why
	if e == nil {
		return ""
	}
	if r.Sink == meter.ProcessingTimeResult {
		at := e.ArrivalA
		if open == B {
			at = e.ArrivalB
		}
		if at == 0 {
			return ""
		}
		return fmt.Sprintf(" (the last record reached %s's windows at %s)", names.of(open), meter.Clock(at))
	}
	wm := e.WatermarkA
	if open == B {
		wm = e.WatermarkB
	}
	if wm == engine.MinWatermark {
		return ""
	}
	return fmt.Sprintf(" (the highest watermark a record met in %s was %s)", names.of(open), meter.Clock(wm))
}

// RowLine returns a row's one-line form: window, tenant, both cells and the difference,
// with a mark: "=" identical, "~" explained, "!" unexplained.
func (r *Report) RowLine(row *Row, names Names) string {
	names = names.orDefault()
	mark := "~"
	switch {
	case row.Status == Identical:
		mark = "="
	case !row.Explained():
		mark = "!"
	}
	s := fmt.Sprintf("%s %s %-10s %s %-22s %s %-22s", mark, r.label(row.WindowStart), row.TenantID,
		names.A, cellText(row.A), names.B, cellText(row.B))
	if row.Status != Identical && row.Status != PendingOnly {
		s += fmt.Sprintf(" Δ %s %+d", signedUSD(row.DeltaUSD()), row.DeltaRequests())
	}
	return strings.TrimRight(s, " ")
}

// Explain returns the sentences that explain a row, one per group of records and one per
// other fact (a window still open, a window fired twice, what is left unexplained); an
// identical row has none.
func (r *Report) Explain(row *Row, names Names) []string {
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
		if g.Cause != Elsewhere || j-i <= maxElsewhere {
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
	case row.A.Pending && row.B.Pending:
		out = append(out, "open in both runs when they ended: "+r.notPassed(row))
	case row.A.Pending:
		out = append(out, r.pendingNote(row, A, names))
	case row.B.Pending:
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
		case e.Evidence == NoEvidence && r.Sink == meter.ProcessingTimeResult:
			out = append(out, "UNEXPLAINED: a processing-time difference needs a trace of both runs")
		case e.Evidence == NoEvidence:
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
	x, y := names.of(g.Missed), names.of(g.Missed.Other())
	they, them := "they", "them"
	if g.Requests == 1 {
		they, them = "it", "it"
	}
	n := fmt.Sprintf("%s (%s)", plural(int(g.Requests), "record"), usd(g.USD))
	mine := func(rec *Record) *meter.RecordTrace { return rec.Trace(g.Missed) }
	theirs := func(rec *Record) *meter.RecordTrace { return rec.Trace(g.Missed.Other()) }
	switch g.Cause {
	case Late:
		s := fmt.Sprintf("%s late in %s: the watermark had passed %s when %s arrived", n, x, meter.Clock(row.WindowEnd-1), they)
		wm := span(g.Records, mine, func(t *meter.RecordTrace) int64 { return t.Watermark })
		arr := span(g.Records, mine, func(t *meter.RecordTrace) int64 { return t.Arrival })
		switch {
		case wm != "" && arr != "":
			s += fmt.Sprintf(" (it stood at %s; %s arrived %s)", wm, they, arr)
		case wm != "":
			s += fmt.Sprintf(" (it stood at %s)", wm)
		}
		s += fmt.Sprintf("; %s read %s before any watermark passed the %s", y, them, r.windowWord())
		if top, ok := highest(g.Records, theirs, func(t *meter.RecordTrace) int64 { return t.Watermark }); ok {
			if top == engine.MinWatermark {
				s += " (it had no watermark yet)"
			} else {
				s += fmt.Sprintf(" (its watermark was at most %s)", meter.Clock(top))
			}
		}
		return s
	case Elsewhere:
		if r.Sink == meter.ProcessingTimeResult {
			s := fmt.Sprintf("%s in %s's processing-time %s %s instead", n, x, r.windowWord(), r.label(g.Window-r.WindowSize))
			a := span(g.Records, mine, func(t *meter.RecordTrace) int64 { return t.Arrival })
			b := span(g.Records, theirs, func(t *meter.RecordTrace) int64 { return t.Arrival })
			if a != "" && b != "" {
				s += fmt.Sprintf(": %s read %s at %s, %s at %s", x, them, a, y, b)
			}
			return s
		}
		s := fmt.Sprintf("%s in %s's %s %s instead", n, x, r.windowWord(), r.label(g.Window-r.WindowSize))
		a := span(g.Records, mine, func(t *meter.RecordTrace) int64 { return t.Timestamp })
		b := span(g.Records, theirs, func(t *meter.RecordTrace) int64 { return t.Timestamp })
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

// span names the windows from first's to last's: "10:00 to 10:19", or "10:59".
func (r *Report) span(first, last *Row) string {
	if first.WindowStart == last.WindowStart {
		return r.label(first.WindowStart)
	}
	return r.label(first.WindowStart) + " to " + r.label(last.WindowStart)
}

// label writes a window start as hh:mm for minute windows, hh:mm:ss.mmm otherwise.
func (r *Report) label(start int64) string {
	c := meter.Clock(start)
	if start%meter.Minute == 0 && len(c) > 5 {
		return c[:5]
	}
	return c
}

func cellText(c Cell) string {
	if !c.Present {
		return "—"
	}
	s := fmt.Sprintf("%s ×%d", usd(c.USD), c.Requests)
	if c.Pending {
		s += " open"
	}
	return s
}

func recordLine(rec *Record, names Names) string {
	s := rec.RequestID + " " + usd(rec.USD)
	for _, side := range []Side{A, B} {
		t := rec.Trace(side)
		s += "  " + names.of(side) + ": "
		if t == nil {
			s += "no trace"
			continue
		}
		s += "ts " + meter.Clock(t.Timestamp)
		if t.Arrival != 0 {
			s += " arrived " + meter.Clock(t.Arrival)
		}
		s += " met " + meter.Clock(t.Watermark)
		if t.Late {
			s += " LATE"
		}
	}
	return s
}

// span returns "lo" or "lo–hi" of a field over the records' views, skipping records
// without a view and zero values (a late line has no arrival); "" when none has one.
func span(recs []Record, view func(*Record) *meter.RecordTrace, f func(*meter.RecordTrace) int64) string {
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
		return meter.Clock(lo)
	}
	return meter.Clock(lo) + "–" + meter.Clock(hi)
}

func highest(recs []Record, view func(*Record) *meter.RecordTrace, f func(*meter.RecordTrace) int64) (int64, bool) {
	top, seen := int64(engine.MinWatermark), false
	for i := range recs {
		if t := view(&recs[i]); t != nil {
			top, seen = max(top, f(t)), true
		}
	}
	return top, seen
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// usd writes a sum of dollars with at least two decimals and at most six.
func usd(v float64) string {
	s := strconv.FormatFloat(v, 'f', 6, 64)
	for strings.HasSuffix(s, "0") && len(s)-strings.IndexByte(s, '.') > 3 {
		s = s[:len(s)-1]
	}
	return "$" + s
}

func signedUSD(v float64) string {
	if v < 0 {
		return "-" + usd(-v)
	}
	return "+" + usd(v)
}
