package lab4

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// ex41 is exercise 4.1: the course's text and questions, and how it is done in labtui.
var ex41 = Exercise{
	ID: Agreement,
	Instruction: "Add both TenantCost windows to the job side by side, writing to two print sinks, " +
		"and run the live generator for five minutes. Confirm the per-minute sums agree while " +
		"events arrive promptly.",
	Evidence: "five minutes of one live run in which events arrived promptly (no hiccup, restart or late record in them) " +
		"and both windows agree, tenant by tenant, or differ only by requests that completed just before a minute's end and " +
		"reached the job after it within the run's measured latency",
	Questions: []Question{
		{ID: "4.1a", Prompt: "Do the per-minute sums agree while events arrive promptly? Note any minute that did not, and why."},
	},
	Guide: Guide{
		Uses:  []string{"g"},
		Title: "both windows agree while events arrive promptly",
		Keys:  "g on, 5 minutes",
		Short: "Nothing to press: leave the generator on five whole minutes, with no hiccup, restart or replay, and watch each minute close in both panes.",
		Do: "Nothing to press: the generator starts with labtui (g stops and starts it). Leave it five minutes " +
			"without a hiccup (i), a restart (x, w) or a replay, and watch each minute close in both panes.",
		Look: "Rows without ≠: the processing-time and the event-time window bill the same USD and requests, " +
			"minute by minute, tenant by tenant. A ≠ row in a quiet live run is a request that completed in the " +
			"last moments of a minute and reached the job in the next (enter on the row shows it): labtui counts the minute " +
			"when the run's traces show that every difference is such a request, at the job within the run's measured latency " +
			"(the header's \"results N s after their events\"), and names what spoiled any other: a hiccup, a restart's " +
			"re-read minutes, a stall.",
	},
	Tables:  agreementTables,
	Rule:    agreementRule,
	WhyNot:  agreementWhyNot,
	Prefers: moreAgreeing,
}

// agreeingMinutes is how many prompt minutes must agree between the windows for 4.1: the
// course runs the generator for five minutes.
const agreeingMinutes = 5

// maxNamed is how many left-out minutes 4.1's sentence names; it counts the others.
const maxNamed = 5

// agreementRule works out 4.1's finding from a live run: its latest AgreeingMinutes
// prompt agreeing minutes, both windows side by side; nothing when it has none.
func agreementRule(s Session, run Run, _ int64) Found {
	if run.Replay() {
		return Found{}
	}
	c := run.Clocks()
	judged := judgeMinutes(run, c)
	var mins []int64
	var crossed []state.CrossedMinute
	var spoiled []state.SpoiledMinute
	for _, j := range judged {
		switch {
		case j.spoiled != nil:
			spoiled = append(spoiled, *j.spoiled)
		case j.crossed != nil:
			crossed = append(crossed, *j.crossed)
			mins = append(mins, j.start)
		default:
			mins = append(mins, j.start)
		}
	}
	if len(mins) == 0 {
		return Found{}
	}
	mins = mins[max(0, len(mins)-agreeingMinutes):]
	f := &state.Finding{Run: run.Ref(), Met: len(mins) >= agreeingMinutes, TakenAt: s.Now()}
	var usd float64
	var reqs int64
	rows := 0
	for _, m := range mins {
		rs, _ := run.Rows().CopyRange(m, m+minute, 1000, c)
		for _, r := range rs {
			if r.IsMark() {
				continue
			}
			f.Rows = append(f.Rows, r)
			usd += r.Cells[minutes.Event].USD
			reqs += r.Cells[minutes.Event].Requests
			rows++
		}
	}
	a := &state.AgreementFacts{Minutes: mins, Wanted: agreeingMinutes, Rows: rows, USD: usd, Requests: reqs}
	for _, x := range crossed {
		if x.Start >= mins[0] {
			a.Crossed = append(a.Crossed, x)
		}
	}
	if len(a.Crossed) > 0 {
		a.LatencyMS, a.PromptMS = run.Latency().Milliseconds(), promptWithin(run.Latency())
	}
	if !f.Met && len(spoiled) > 0 {
		if n := len(spoiled) - maxNamed; n > 0 {
			spoiled, a.LeftOutBefore = spoiled[n:], n
		}
		a.Spoiled = spoiled
		if slices.ContainsFunc(spoiled, func(m state.SpoiledMinute) bool { return m.Cause == state.SpoilStall }) {
			a.LatencyMS, a.PromptMS = run.Latency().Milliseconds(), promptWithin(run.Latency())
		}
	}
	f.Agreement = a
	return Found{Finding: f}
}

// promptWithin is how long before a minute's end a record may complete and still be
// prompt when it reaches the windows in the next minute, for a run whose results trail
// their records by latency (the median): three times that, and half a second for the
// spread of a machine's scheduling. A hiccup's hold (seconds), a restart's catch-up or a
// stalled job exceed it; the PyFlink job's 0.4 s and the embedded job's milliseconds do
// not.
func promptWithin(latency time.Duration) int64 { return 3*latency.Milliseconds() + 500 }

// judgedMinute is one closed minute of a live run as 4.1 judges it: it counts (crossed
// set when its windows differ by records that crossed its boundaries promptly), or it is
// spoiled, with its cause.
type judgedMinute struct {
	start   int64
	crossed *state.CrossedMinute
	spoiled *state.SpoiledMinute
}

// judgeMinutes judges run's minutes that both clocks have closed, oldest first. A minute
// counts when events arrived promptly in it and both windows agree tenant by tenant, or
// differ only by records that completed within PromptWithin of a boundary and reached
// the windows after it. It is spoiled when the run had not begun before it (records
// queued by a restart land in the minute it came back, and a restarted job re-reads the
// minutes before), a hiccup held records of it or flushed into it, a record of it was
// dropped as late, or its windows differ by anything else. None is judged when late
// records were let go: which minutes they disturbed is not known.
func judgeMinutes(run Run, c minutes.Clocks) []judgedMinute {
	if run.LateCount() > run.Late().Len() {
		return nil
	}
	disturbed := disturbedMinutes(run)
	tb := run.Rows()
	var out []judgedMinute
	var differ []int // indexes in out of the minutes whose windows differ
	for i := 0; i < tb.Len(); {
		start := tb.Row(i).WindowStart
		agree, closed, fired, n := true, true, true, 0
		for ; i < tb.Len() && tb.Row(i).WindowStart == start; i++ {
			r := tb.Row(i)
			if r.IsMark() {
				continue
			}
			n++
			closed = closed && c.Closed(minutes.Processing, r) && c.Closed(minutes.Event, r)
			fired = fired && r.Cells[minutes.Processing].Present() && r.Cells[minutes.Event].Present()
			agree = agree && r.Verdict(c) == minutes.Agree
		}
		d, disturbedOne := disturbed[start]
		// An ended run has every window closed, but a window that had not fired when the
		// run ended (a killed job's last minutes) never will: the minute is not judged,
		// unless what the run did spoiled it.
		if n == 0 || !closed || c.Ended && !fired && !disturbedOne {
			continue
		}
		j := judgedMinute{start: start}
		began := run.StartedAt()
		switch {
		case began != 0 && start < startOf(began):
			j.spoiled = &state.SpoiledMinute{Start: start, Cause: state.SpoilReread, At: began}
		case began == 0 && len(out) == 0 || began != 0 && began > start:
			j.spoiled = &state.SpoiledMinute{Start: start, Cause: state.SpoilBegan, At: began}
		case disturbedOne:
			j.spoiled = &d
		case !agree:
			differ = append(differ, len(out))
		}
		out = append(out, j)
	}
	if len(differ) > 0 {
		explainCrossings(run, c, out, differ)
	}
	return out
}

// disturbedMinutes are run's minutes a hiccup held records of or flushed into, or of
// which a record was dropped as late, each with its cause.
func disturbedMinutes(run Run) map[int64]state.SpoiledMinute {
	disturbed := map[int64]state.SpoiledMinute{}
	for _, h := range run.Hiccups() {
		to := h.To
		if to == 0 {
			to = 1<<62 - 1
		}
		for m := startOf(h.From); m <= startOf(to) && m-startOf(h.From) < 24*60*minute; m += minute {
			disturbed[m] = state.SpoiledMinute{Start: m, Cause: state.SpoilHiccup, At: h.From, Instance: h.Instance}
		}
	}
	late := run.Late()
	for i := range late.Len() {
		r := late.At(i)
		if m := startOf(r.Timestamp); disturbed[m].Cause == "" {
			disturbed[m] = state.SpoiledMinute{Start: m, Cause: state.SpoilLate, At: r.Timestamp}
		}
	}
	return disturbed
}

// explainCrossings judges the minutes out[differ] whose windows differ: by the run's
// traces, each tenant's records in the order they reached labtui, it finds where each
// of the minute's boundaries fell among them such that the records between are exactly
// what processing time billed (requests and USD), and event time's records of the
// minute are all traced. The records of the minute before that fall after its first
// boundary, and those of the minute that fall after its second, crossed: the minute
// counts when each of them completed within PromptWithin of the boundary it crossed.
func explainCrossings(run Run, c minutes.Clocks, out []judgedMinute, differ []int) {
	near := map[int64]bool{} // the event minutes the crossings can come from
	for _, k := range differ {
		m := out[k].start
		near[m-minute], near[m], near[m+minute] = true, true, true
	}
	// The traces of those minutes by tenant and event minute, each with its place in
	// the order labtui read them. They point into the run's results, which nothing
	// changes while a rule runs.
	byMinute := map[tenantMinute][]readTrace{}
	n := 0
	run.Traces(func(r *jobspec.RecordTrace) bool {
		if m := startOf(r.Timestamp); near[m] {
			k := tenantMinute{r.TenantID, m}
			byMinute[k] = append(byMinute[k], readTrace{n, r})
		}
		n++
		return true
	})
	latency := run.Latency()
	prompt := promptWithin(latency)
	for _, k := range differ {
		m := out[k].start
		x := state.CrossedMinute{Start: m}
		var worst *state.SpoiledMinute
		rows, _ := run.Rows().CopyRange(m, m+minute, 1000, c)
		for i := range rows {
			r := &rows[i]
			if r.IsMark() || r.Verdict(c) == minutes.Agree {
				continue
			}
			seq := slices.Concat(byMinute[tenantMinute{r.Tenant, m - minute}], byMinute[tenantMinute{r.Tenant, m}],
				byMinute[tenantMinute{r.Tenant, m + minute}])
			slices.SortFunc(seq, func(a, b readTrace) int { return a.at - b.at })
			spoil := crossedRow(seq, r, latency, prompt, &x)
			if spoil != nil && (worst == nil || spoil.Cause != state.SpoilStall) {
				worst = spoil
			}
		}
		if worst != nil {
			out[k].spoiled = worst
		} else {
			out[k].crossed = &x
		}
	}
}

// tenantMinute is a tenant's event-time minute.
type tenantMinute struct {
	tenant string
	start  int64
}

// readTrace is a trace and its place in the order labtui read the run's traces.
type readTrace struct {
	at int
	t  *jobspec.RecordTrace
}

// crossedRow adds to x the records that crossed row r's minute's boundaries, found
// among its tenant's traces of the minute and the two beside it (in the order they
// reached labtui), or says why the row's
// difference is not prompt records crossing.
func crossedRow(read []readTrace, r *minutes.Row, latency time.Duration, prompt int64, x *state.CrossedMinute) *state.SpoiledMinute {
	m := r.WindowStart
	untraced := &state.SpoiledMinute{Start: m, Cause: state.SpoilUntraced}
	if latency <= 0 {
		return untraced // how long its results trail their records is not measured yet
	}
	seq := make([]*jobspec.RecordTrace, len(read))
	for i, t := range read {
		seq[i] = t.t
	}
	p, e := r.Cells[minutes.Processing], r.Cells[minutes.Event]
	var ev minutes.Cell
	for _, t := range seq {
		if startOf(t.Timestamp) == m && !t.Late {
			ev.Requests++
			ev.USD += t.USD
		}
	}
	if !minutes.Equal(ev, minutes.Cell{Requests: e.Requests, USD: e.USD}) {
		return untraced // event time billed records whose traces are not kept
	}
	sums := make([]float64, len(seq)+1)
	for i, t := range seq {
		sums[i+1] = sums[i] + t.USD
	}
	lo1, hi1 := cutRange(seq, m)
	lo2, hi2 := cutRange(seq, m+minute)
	best, bestLag := -1, int64(0)
	for c1 := lo1; c1 <= hi1; c1++ {
		c2 := c1 + int(p.Requests)
		if c2 < lo2 || c2 > hi2 || c2 > len(seq) || math.Abs(sums[c2]-sums[c1]-p.USD) >= 5e-7 {
			continue
		}
		if lag := crossLag(seq, c1, c2, m); best < 0 || lag < bestLag {
			best, bestLag = c1, lag
		}
	}
	if best < 0 {
		return &state.SpoiledMinute{Start: m, Cause: state.SpoilUnexplained}
	}
	c1, c2 := best, best+int(p.Requests)
	var lagged *jobspec.RecordTrace
	for i, t := range seq {
		var b int64
		switch {
		case i >= c1 && i < c2 && startOf(t.Timestamp) == m-minute:
			b = m
			x.In.Records++
			x.In.USD += t.USD
		case i >= c2 && startOf(t.Timestamp) == m:
			b = m + minute
			x.Out.Records++
			x.Out.USD += t.USD
		default:
			continue
		}
		if lag := delay(t, b); lag > x.LagMS {
			x.LagMS = lag
			if lag > prompt {
				lagged = t
			}
		}
	}
	if lagged != nil {
		return &state.SpoiledMinute{Start: m, Cause: state.SpoilStall, At: lagged.Timestamp, LagMS: x.LagMS}
	}
	return nil
}

// delay is how long after it completed record t reached the job, at most: when labtui
// had its trace (a real job's) or when it reached the windows (the embedded job's); for a
// trace that says neither, how long before boundary b, which it crossed, it completed.
func delay(t *jobspec.RecordTrace, b int64) int64 {
	if t.Arrival != 0 {
		return t.Arrival - t.Timestamp
	}
	return b - t.Timestamp
}

// cutRange is where boundary b can fall among seq, records in the order they reached
// labtui: every record before the cut reached the windows before b, every one from it
// on at or after b. A record surely reached them before b when labtui had it before b
// (it reads a record's trace after the windows had it) or the job said its
// processing-time window ended by b; surely after, when it completed at or after b or
// the job said its window ended after b.
func cutRange(seq []*jobspec.RecordTrace, b int64) (lo, hi int) {
	hi = len(seq)
	for i, t := range seq {
		before := t.ProcessingWindowEnd != 0 && t.ProcessingWindowEnd <= b || t.ProcessingWindowEnd == 0 && t.Arrival != 0 && t.Arrival < b
		if before {
			lo = i + 1
		}
	}
	for i, t := range seq {
		if t.Timestamp >= b || t.ProcessingWindowEnd > b {
			hi = i
			break
		}
	}
	return lo, hi
}

// crossLag is the most any record crossed a boundary late, with the minute m's
// boundaries cut at c1 and c2 among seq.
func crossLag(seq []*jobspec.RecordTrace, c1, c2 int, m int64) int64 {
	var lag int64
	for i, t := range seq {
		switch {
		case i >= c1 && i < c2 && startOf(t.Timestamp) == m-minute:
			lag = max(lag, delay(t, m))
		case i >= c2 && startOf(t.Timestamp) == m:
			lag = max(lag, delay(t, m+minute))
		}
	}
	return lag
}

// moreAgreeing prefers, for 4.1, the live run with the most prompt agreeing minutes (the
// latest of equals), a met finding before any other.
func moreAgreeing(f, best *state.Finding) bool {
	return len(f.Rows) > len(best.Rows) && f.Met == best.Met || f.Met && !best.Met
}

// agreementWhyNot says what run lacks for 4.1: with no minute that counts, what left out
// its latest closed minute, and how many before it were left out.
func agreementWhyNot(_ Session, run Run) string {
	switch {
	case run.Replay():
		return "a replay: 4.1 needs the live generator"
	case run.ReadsRecording():
		return "a restart on the replay's topic: 4.1 needs the live generator"
	}
	const none = "no whole minute yet where both windows agree with prompt events"
	var a state.AgreementFacts
	for _, j := range judgeMinutes(run, run.Clocks()) {
		if j.spoiled != nil {
			a.Spoiled = append(a.Spoiled, *j.spoiled)
		}
	}
	if len(a.Spoiled) == 0 {
		return none + " (the run's first minute does not count)"
	}
	n := len(a.Spoiled) - 1
	a.Spoiled, a.LeftOutBefore = a.Spoiled[n:], n
	if a.Spoiled[0].Cause == state.SpoilStall {
		a.LatencyMS, a.PromptMS = run.Latency().Milliseconds(), promptWithin(run.Latency())
	}
	earlier := ""
	if n > 0 {
		earlier = fmt.Sprintf(", and %s before it", plural(n, "minute"))
	}
	return none + " (left out: " + spoiledClause(a) + earlier + ")"
}

func agreementSentence(run state.RunRef, a state.AgreementFacts) string {
	if len(a.Minutes) == 0 {
		return ""
	}
	verb, them := "agree", "them"
	if len(a.Minutes) == 1 {
		verb, them = "agrees", "it"
	}
	each := "in each"
	if len(a.Crossed) > 0 {
		each = "by event time"
	}
	s := fmt.Sprintf("In %s, %s %s tenant by tenant in both windows (%d rows, $%.4f and %s requests %s), "+
		"with no hiccup, restart or late record in %s", RunName(run), minuteSpan(a.Minutes), verb, a.Rows, a.USD, count(a.Requests), each, them)
	if len(a.Crossed) > 0 {
		s += "; " + crossedClause(a)
	}
	if len(a.Minutes) < a.Wanted {
		s += fmt.Sprintf("; %d of the %d minutes 4.1 asks for so far", len(a.Minutes), a.Wanted)
		switch {
		case len(a.Spoiled) > 0:
			earlier := ""
			if a.LeftOutBefore > 0 {
				earlier = fmt.Sprintf(", and %s before them", plural(a.LeftOutBefore, "minute"))
			}
			s += " (left out: " + spoiledClause(a) + earlier + ")"
		case len(a.LeftOut) > 0:
			d := a.LeftOut
			verb, earlier := "are", ""
			if len(d)+a.LeftOutBefore == 1 {
				verb = "is"
			}
			if a.LeftOutBefore > 0 {
				earlier = fmt.Sprintf(", and %s before them,", plural(a.LeftOutBefore, "minute"))
			}
			s += fmt.Sprintf(" (%s%s %s left out for a ≠ row: a request that completed in the minute's last moments and "+
				"reached the job in the next; enter on the row shows it)", minuteList(d), earlier, verb)
		}
	}
	return s + "."
}

// crossedClause says which agreeing minutes differ between the windows, and by which
// records: those that completed just before a boundary and reached the job after it.
func crossedClause(a state.AgreementFacts) string {
	starts := make([]int64, len(a.Crossed))
	var moved state.Tally
	var lag int64
	for i, x := range a.Crossed {
		starts[i] = x.Start
		moved.Records += x.Out.Records
		moved.USD += x.Out.USD
		if i == 0 || a.Crossed[i-1].Start != x.Start-minute {
			// The requests that crossed into it did not cross out of the minute before,
			// as far as the list goes: counted here, each request once.
			moved.Records += x.In.Records
			moved.USD += x.In.USD
		}
		lag = max(lag, x.LagMS)
	}
	verb := "differ"
	if len(starts) == 1 {
		verb = "differs"
	}
	return fmt.Sprintf("%s %s between the windows only by requests that completed just before a minute's end and reached the job "+
		"after it, which processing time bills in the next minute (%s, $%.4f, each at the job at most %s after it completed); "+
		"the run's results trail their records by %s (the median), so a record that reaches the job within %s is prompt",
		minuteList(starts), verb, plural(moved.Records, "request"), moved.USD, secondsOf(lag), secondsOf(a.LatencyMS), secondsOf(a.PromptMS))
}

// spoiledClause names the minutes left out, the minutes of one cause together.
func spoiledClause(a state.AgreementFacts) string {
	var parts []string
	for i := 0; i < len(a.Spoiled); {
		first := a.Spoiled[i]
		starts := []int64{first.Start}
		for i++; i < len(a.Spoiled) && sameSpoil(a.Spoiled[i], first); i++ {
			starts = append(starts, a.Spoiled[i].Start)
		}
		parts = append(parts, minuteList(starts)+", "+spoilWhy(first, len(starts), a))
	}
	return strings.Join(parts, "; ")
}

// sameSpoil reports whether two left-out minutes have the same cause, said alike.
func sameSpoil(x, y state.SpoiledMinute) bool {
	return x.Cause == y.Cause && x.At == y.At && x.Instance == y.Instance && x.LagMS == y.LagMS
}

// spoilWhy is why n minutes were left out for cause m.Cause, in words.
func spoilWhy(m state.SpoiledMinute, n int, a state.AgreementFacts) string {
	it, its := "it", "its"
	if n > 1 {
		it, its = "them", "their"
	}
	switch m.Cause {
	case state.SpoilBegan:
		if m.At == 0 {
			return "the minute the job came up in: records queued before it was up"
		}
		return fmt.Sprintf("the minute the run began in (%s): records queued before the job was up", seconds(m.At))
	case state.SpoilReread:
		return fmt.Sprintf("re-read from the topic by the job restarted at %s: event time recomputed %s, processing time billed %s "+
			"records in %s, the minute the job came back", seconds(m.At), it, its, hhmm(m.At))
	case state.SpoilHiccup:
		return fmt.Sprintf("%s's hiccup from %s held records of %s or flushed into %s", m.Instance, seconds(m.At), it, it)
	case state.SpoilLate:
		return fmt.Sprintf("a record of %s (completed %s) was dropped as late", it, seconds(m.At))
	case state.SpoilStall:
		return fmt.Sprintf("a request that completed at %s, just before a minute's end, reached the job %s after it, beyond the %s the run's "+
			"latency (%s) allows, and processing time billed it in the next minute: the job or the machine stalled", jobspec.Clock(m.At), secondsOf(m.LagMS), secondsOf(a.PromptMS),
			secondsOf(a.LatencyMS))
	case state.SpoilUntraced:
		return fmt.Sprintf("the windows differ and the run's traces of %s (or its latency) are not there to tell what crossed %s boundaries", it, its)
	}
	return fmt.Sprintf("the windows differ by more than records crossing %s boundaries (enter on a ≠ row shows its records)", its)
}

// secondsOf is ms as seconds: "0.41 s".
func secondsOf(ms int64) string { return fmt.Sprintf("%.2f s", float64(ms)/1000) }

// agreementTables is 4.1's table: its finding's minutes, both windows side by side, or,
// with no finding, the table a file saved before findings existed kept (ev.Agreement).
func agreementTables(f *state.Finding, ev state.Evidence) []Table {
	if f != nil {
		return findingRows(f)
	}
	a := ev.Agreement
	if a == nil {
		return nil
	}
	t := minutesTable(a.Rows)
	t.Title = fmt.Sprintf("Saved before this version of labtui: both windows of run %d (%s, %s) at %s.", a.Run, a.Reason, a.Timestamp,
		jobspec.Clock(a.TakenAt))
	return []Table{t}
}
