package session

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// Names are what a replay's diff calls its two runs. The reference is the recorded hour
// re-enacted at its recorded times (what the hour's live run billed, worked out again
// deterministically), not a run of this session.
var Names = diff.Names{A: "the re-enactment", B: "the replay"}

// MovedNames are what the moved-requests list calls its two runs.
var MovedNames = diff.Names{A: "completed_ts", B: "started_ts"}

// ReplayDiff is one replay compared with the reference run of its recording.
type ReplayDiff struct {
	// Event and Processing compare the event-time and the processing-time sinks, the
	// reference as A and the replay as B. In the comparison a Session keeps (DiffState)
	// they have their counts and summaries, not their rows: EventLines and
	// ProcessingLines are what the rows said.
	Event, Processing *diff.Report
	// Minutes are the replay's processing-time windows, fired or still open, by minute
	// then tenant: where the whole recorded hour landed.
	Minutes []jobspec.Result
	// EventLines and ProcessingLines are the two reports for a person (ReportLines with
	// ReportRecords records under each explanation), worked out with the comparison so a
	// view only lays them out.
	EventLines, ProcessingLines []string
	// Names are what the reports call the reference (A) and the replay (B).
	Names diff.Names
	// Never counts the records the reference counted that never reached the replay's
	// windows on either sink (the replay has no trace of them); NeverWhy accounts for
	// them with the replay run's own counts (see explainNever), and is the first of
	// EventLines and ProcessingLines when there are any.
	Never    int
	NeverWhy string
	// reports are the two reports' evidence, taken from their rows before a light
	// comparison let them go (compareWith); nil when the rows are there to take it from.
	reports *[2]state.DiffReport
	// NeverFrom and NeverTo are the first and the last minute (window start) the
	// reference billed those records in, by their event time; 0 when Never is.
	NeverFrom, NeverTo int64
}

// reportRecords is how many records a ReplayDiff's report lines list under each
// explanation.
const reportRecords = 3

// CompareReplay lines up both sinks of a replay's output against the reference's: the
// recorded hour re-enacted, as Names call it.
func CompareReplay(ref, replay []jobspec.Result) ReplayDiff {
	return compareWith(ref, replay, Names, nil, false)
}

// compareWith is CompareReplay with the runs named by names and, when known, the
// strategies they ran under (the late records' causes then name them). When light, each report's
// rows are let go (lightReport) as soon as its lines, its evidence and the records it
// says never reached B are taken from them, so the two reports' rows are never held at
// once: the processing-time report groups every record of the hour, and with them
// beside the event-time report's rows of a replay that dropped thousands as late, a
// comparison held 40 MB at its peak.
func compareWith(ref, replay []jobspec.Result, names diff.Names, st *diff.Strategies, light bool) ReplayDiff {
	c := ReplayDiff{Minutes: processingMinutes(replay), Names: names}
	var never neverIDs
	var reports [2]state.DiffReport
	sink := func(k int, opts diff.Options) (*diff.Report, []string) {
		r := diff.Compare(ref, replay, opts)
		lines := reportLines(r, names, reportRecords)
		never.add(r, opts.Sink != jobspec.ProcessingTimeResult)
		if light {
			reports[k] = report(r, names)
			r = lightReport(r)
		}
		return r, lines
	}
	c.Event, c.EventLines = sink(0, diff.Options{Strategies: st})
	c.Processing, c.ProcessingLines = sink(1, diff.Options{Sink: jobspec.ProcessingTimeResult, Strategies: st})
	c.Never, c.NeverFrom, c.NeverTo = len(never.ids), never.from, never.to
	if light {
		c.reports = &reports
	}
	return c
}

// neverIDs collects the records reports say never reached B's windows, once each over
// both sinks, and the first and last minute of their event time as A's trace has it (the
// event-time row's minute where A has no trace of one).
type neverIDs struct {
	ids      map[string]struct{}
	from, to int64
	seen     bool
}

func (n *neverIDs) add(r *diff.Report, event bool) {
	if n.ids == nil {
		n.ids = make(map[string]struct{})
	}
	see := func(ms int64) {
		ms -= ms % 60000
		if !n.seen || ms < n.from {
			n.from = ms
		}
		n.to, n.seen = max(n.to, ms), true
	}
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Why == nil {
			continue
		}
		for _, g := range row.Why.Groups {
			if g.Missed != diff.B || g.Cause != diff.Missing {
				continue
			}
			for _, rec := range g.Records {
				if _, ok := n.ids[rec.RequestID]; ok {
					continue
				}
				n.ids[rec.RequestID] = struct{}{}
				switch {
				case rec.A != nil:
					see(rec.A.Timestamp)
				case event:
					see(row.WindowStart)
				}
			}
		}
	}
}

// explainNever says where the records that never reached the replay's windows went,
// from what the replay's run counted: results its backend dropped because the reader
// fell behind (dropped), results the session let go to bound memory (letGo), and request
// halves its job's RequestAssembler let go waiting for their other half (forgotten).
// With nothing dropped or let go, every such record is a request the job never
// assembled, so its halves were let go; with none let go either they are unaccounted
// for, and it says so, unless the job does not count the halves it lets go
// (uncounted, a real Flink job): then that is where they went, uncounted.
func (c *ReplayDiff) explainNever(dropped, letGo int, forgotten int64, uncounted bool) {
	if c.Never == 0 {
		return
	}
	b := c.Names.B
	s := fmt.Sprintf("%s the reference counted never reached %s's windows: ", plural(c.Never, "record"), b)
	span := ""
	switch {
	case c.NeverTo == 0:
	case c.NeverFrom == c.NeverTo:
		span = fmt.Sprintf(" They are requests of the minute %s by event time", hhmm(c.NeverFrom))
	default:
		span = fmt.Sprintf(" They are requests of the minutes %s–%s by event time", hhmm(c.NeverFrom), hhmm(c.NeverTo))
	}
	when := ""
	if span != "" {
		when = span + "; when the job let their halves go is not known: it counts the halves it lets go, not which or when."
		span += "."
	}
	forgot := fmt.Sprintf("its job let go of %s waiting for the other half of their request (the RequestAssembler keeps a half "+
		"10 minutes of event time, by the watermark: a partition read more than that behind the one furthest ahead loses a "+
		"request's first half before its second is read, then the second, left waiting alone)", halves(forgotten))
	switch {
	case dropped == 0 && letGo == 0 && forgotten > 0:
		s += "none of its output was dropped or let go, so each is a request its job never assembled: " + forgot + "." + when
	case dropped == 0 && letGo == 0 && uncounted:
		s += "none of its output was dropped or let go, so each is a request its job never assembled: its job (real Flink) " +
			"does not count the request halves it lets go, and a half waits for the other half of its request 10 minutes of " +
			"event time, by the watermark: a partition read more than that behind the one furthest ahead loses a request's " +
			"first half before its second is read, then the second, left waiting alone." + span
	case dropped == 0 && letGo == 0:
		s += "UNACCOUNTED: its job let go of no request half, and none of its output was dropped or let go."
	default:
		var parts []string
		if dropped > 0 {
			parts = append(parts, fmt.Sprintf("the lab dropped %s of its results because the screen fell behind "+
				"(their records may well have reached the windows: the diff cannot see them)", Count(int64(dropped))))
		}
		if letGo > 0 {
			parts = append(parts, fmt.Sprintf("labtui let go of %s of its results to bound memory", Count(int64(letGo))))
		}
		if forgotten > 0 {
			parts = append(parts, forgot)
		}
		s += strings.Join(parts, "; ") + "."
		if forgotten > 0 {
			s += when
		}
	}
	c.NeverWhy = s
	c.EventLines = append([]string{s}, c.EventLines...)
	c.ProcessingLines = append([]string{s}, c.ProcessingLines...)
}

// light returns the comparison as the session keeps it while the diff view may show it:
// its reports keep their counts (and so their summaries), not their rows, whose
// explanations point at records of both runs' outputs; the report lines for a person
// were written from the rows already. Without this the comparison of the recorded hour
// kept both outputs (every record is in a group of the processing-time report), about
// 30 MB, for as long as it could be shown.
func (c ReplayDiff) light() ReplayDiff {
	c.Event, c.Processing, c.reports = lightReport(c.Event), lightReport(c.Processing), nil
	return c
}

func lightReport(r *diff.Report) *diff.Report {
	if r == nil {
		return nil
	}
	out := *r
	out.Rows = nil
	return &out
}

// processingMinutes returns the processing-time windows of a run, the last line of each
// (tenant, minute) winning, by minute then tenant.
func processingMinutes(rs []jobspec.Result) []jobspec.Result {
	type key struct {
		tenant string
		start  int64
	}
	at := make(map[key]int)
	var out []jobspec.Result
	for _, r := range rs {
		if r.Kind != jobspec.ProcessingTimeResult && (r.Kind != jobspec.PendingResult || r.Window != jobspec.ProcessingTimeResult) {
			continue
		}
		k := key{r.Minute.TenantID, r.Minute.WindowStart}
		if i, ok := at[k]; ok {
			out[i] = r
			continue
		}
		at[k] = len(out)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b jobspec.Result) int {
		return cmp.Or(cmp.Compare(a.Minute.WindowStart, b.Minute.WindowStart), cmp.Compare(a.Minute.TenantID, b.Minute.TenantID))
	})
	return out
}

// reportLines is the report for a person, as `labtui diff` writes it, without its first
// line (the summary): runs of identical rows folded, every other row followed by the
// sentences that explain it and up to records of its records (0 for none).
func reportLines(r *diff.Report, names diff.Names, records int) []string {
	var buf bytes.Buffer
	_ = r.WriteText(&buf, diff.TextOptions{Names: names, Records: records}) // a bytes.Buffer does not fail
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	return lines[1:]
}

// evidence is what the export keeps of the comparison: both summaries, the reports cut
// to state.MaxReportLines between rows (after NeverWhy, when there is one), and the
// replay's processing-time minutes.
func (c ReplayDiff) evidence(reference string) state.Comparison {
	ev := state.Comparison{Reference: reference}
	if c.reports != nil {
		ev.EventTime, ev.ProcessingTime = c.reports[0], c.reports[1]
		ev.EventTime.Lines, ev.ProcessingTime.Lines = slices.Clone(ev.EventTime.Lines), slices.Clone(ev.ProcessingTime.Lines)
	} else {
		ev.EventTime, ev.ProcessingTime = report(c.Event, c.Names), report(c.Processing, c.Names)
	}
	if c.NeverWhy != "" {
		ev.EventTime.Lines = append([]string{c.NeverWhy}, ev.EventTime.Lines...)
		ev.ProcessingTime.Lines = append([]string{c.NeverWhy}, ev.ProcessingTime.Lines...)
	}
	for _, r := range c.Minutes {
		ev.ProcessingUSD += r.Minute.USD
		ev.ProcessingRequests += r.Minute.Requests
		if n := len(ev.ProcessingStarts); n == 0 || ev.ProcessingStarts[n-1] != r.Minute.WindowStart {
			ev.ProcessingStarts = append(ev.ProcessingStarts, r.Minute.WindowStart)
		}
	}
	for i, r := range c.Minutes {
		if i == state.MaxProcessingMinutes {
			break
		}
		open := r.Kind == jobspec.PendingResult
		cell := minutes.Cell{USD: r.Minute.USD, Requests: r.Minute.Requests, Open: open}
		if !open {
			cell.Fired = 1
		}
		ev.ProcessingMinutes = append(ev.ProcessingMinutes, minutes.Row{WindowStart: r.Minute.WindowStart, WindowEnd: r.Minute.WindowEnd,
			Tenant: r.Minute.TenantID, Cells: [2]minutes.Cell{minutes.Processing: cell}})
	}
	return ev
}

func report(r *diff.Report, names diff.Names) state.DiffReport {
	c := r.Counts
	d := state.DiffReport{Summary: r.Summary(names), Rows: c.Rows, Identical: c.Identical, Differ: c.Differ, OnlyA: c.OnlyA,
		OnlyB: c.OnlyB, PendingOnly: c.PendingOnly, Unexplained: c.Unexplained}
	lines := reportLines(r, names, 0)
	d.Lines, d.OmittedLines = cutBetweenRows(lines, state.MaxReportLines)
	return d
}

// cutBetweenRows keeps at most limit lines, ending where a row ends (a row's own line is
// not indented by six spaces; the sentences under it are), and counts the rest.
func cutBetweenRows(lines []string, limit int) ([]string, int) {
	if len(lines) <= limit {
		return lines, 0
	}
	n := limit
	for n > 0 && strings.HasPrefix(lines[n], "      ") {
		n--
	}
	if n == 0 {
		n = limit
	}
	return lines[:n], len(lines) - n
}
