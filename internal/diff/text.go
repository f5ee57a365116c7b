package diff

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/thousands"
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
		case row.Status == identical && !opts.Identical:
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
				plural(j-i, "row"), names.of(g.Missed.other()), r.span(row, &r.Rows[j-1]), plural(int(n), "record"), usd(u),
				names.of(g.Missed), r.sinkWindow(), r.label(g.Window-r.WindowSize))
			i = j
			continue
		case row.Status == pendingOnly && j-i > 1:
			fmt.Fprintf(bw, "  ~ %s with the same sums, %s: %s\n", plural(j-i, "row"), r.span(row, &r.Rows[j-1]), r.pendingRun(row, names))
			i = j
			continue
		}
		fmt.Fprintln(bw, r.rowLine(row, names))
		for _, s := range r.explain(row, names) {
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
	case identical:
		return y.Status == identical
	case pendingOnly:
		return y.Status == pendingOnly && x.A.Open == y.A.Open
	case OnlyA, OnlyB:
		return y.Status == x.Status && movedWhole(x) && movedWhole(y) && x.Why.Groups[0].Window == y.Why.Groups[0].Window
	}
	return false
}

// movedWhole says the row is in one run only because the other counted all its records
// in one other window.
func movedWhole(r *Row) bool {
	return r.explained() && !r.A.Open && !r.B.Open && len(r.Why.Groups) == 1 && r.Why.Groups[0].Cause == elsewhere
}

// sinkWindow names the compared windows: "processing-time minute", "minute".
func (r *Report) sinkWindow() string {
	if r.Sink == jobspec.ProcessingTimeResult {
		return "processing-time " + r.windowWord()
	}
	return r.windowWord()
}

// rowLine returns a row's one-line form: window, tenant, both cells and the difference,
// with a mark: "=" identical, "~" explained, "!" unexplained.
func (r *Report) rowLine(row *Row, names Names) string {
	names = names.orDefault()
	mark := "~"
	switch {
	case row.Status == identical:
		mark = "="
	case !row.explained():
		mark = "!"
	}
	s := fmt.Sprintf("%s %s %-10s %s %-22s %s %-22s", mark, r.label(row.WindowStart), row.TenantID,
		names.A, cellText(row.A), names.B, cellText(row.B))
	if row.Status != identical && row.Status != pendingOnly {
		d := row.deltaRequests()
		sign := "+"
		if d < 0 {
			sign = "" // thousands.Format writes the minus
		}
		s += fmt.Sprintf(" Δ %s %s%s", signedUSD(row.deltaUSD()), sign, thousands.Format(int64(d)))
	}
	return strings.TrimRight(s, " ")
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
	c := jobspec.Clock(start)
	if start%jobspec.Minute == 0 && len(c) > 5 {
		return c[:5]
	}
	return c
}

func cellText(c minutes.Cell) string {
	if !c.Present() {
		return "—"
	}
	s := fmt.Sprintf("%s ×%s", usd(c.USD), thousands.Format(c.Requests))
	if c.Open {
		s += " open"
	}
	return s
}

func recordLine(rec *Record, names Names) string {
	s := rec.RequestID + " " + usd(rec.USD)
	for _, side := range []Side{A, B} {
		t := rec.trace(side)
		s += "  " + names.of(side) + ": "
		if t == nil {
			s += "no trace"
			continue
		}
		s += "ts " + jobspec.Clock(t.Timestamp)
		if t.Arrival != 0 {
			s += " arrived " + jobspec.Clock(t.Arrival)
		}
		s += " met " + jobspec.WatermarkClock(t.Watermark)
		if t.Late {
			s += " LATE"
		}
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return thousands.Format(int64(n)) + " " + word + "s"
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
