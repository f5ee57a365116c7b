package lab4

import (
	"fmt"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// Failure is the course's "If a TaskManager dies right now", done with x: not one of
// the numbered "Try it" steps, but a part of the lab with its own evidence.
const Failure = "TM"

// exFailure is the course's failure section: its question, and how x shows it.
var exFailure = Exercise{
	ID: Failure,
	Instruction: "If a TaskManager dies right now: which numbers survive, which are recomputed, and which could be emitted twice? " +
		"Checkpointing is still off, so the job restarts with empty state and its source re-reads from the configured " +
		"starting offsets.",
	Evidence: "a kill (x) of a run that had emitted windows, once the restarted run has closed the minute it came back in, " +
		"in both windows: what the killed run had emitted and had open, and what the restarted run emitted again",
	Questions: []Question{
		{ID: "TMa", Prompt: "Which numbers survived the kill, which were recomputed, and which were emitted twice (and were the duplicates identical)?"},
		{ID: "TMb", Prompt: "What was lost, and where did processing time put the records the restarted job re-read?"},
	},
	Guide: Guide{
		Uses:  []string{"x"},
		Title: "x kills the job: what survives, is redone, comes twice",
		Keys:  "x, a minute",
		Short: "Press x once minutes have closed: the job restarts with empty state and re-reads the topic. Wait for the minute it came back in to close.",
		Do: "Once both panes have closed a few minutes, press x: the job is killed and restarts with empty state, its source " +
			"re-reading the topic from its starting offsets, as a TaskManager's death does with checkpointing off. Wait until " +
			"the minute the job came back in has closed in both panes.",
		Look: "What the killed run emitted is in the sink and survives. Its open windows died with it: the processing-time ones " +
			"for good, the event-time ones are recomputed from the records re-read. The event-time windows it had already " +
			"emitted fire again for the same (tenant, window_end), identical to the first unless records went late while the " +
			"job caught up: the chargeback case, removable because it is identical. Processing time bills every re-read record " +
			"in the minute the job came back: the accounting error.",
	},
	Tables: failureTables,
	Rule:   failureRule,
	WhyNot: failureWhyNot,
}

// failureWhyNot says what run lacks for the failure section.
func failureWhyNot(s Session, run Run) string {
	switch {
	case run.Replay():
		return "a replay: the failure section needs x, a kill of the job"
	case !run.Killed():
		return "not a kill: x kills the job and restarts it"
	case s.Before(run) == nil:
		return "the run the kill ended is no longer kept"
	}
	return "the run the kill ended had emitted no window"
}

// rowKey is a row's (minute, tenant).
type rowKey struct {
	start  int64
	tenant string
}

// failureFinding works out the course's "If a TaskManager dies right now" from run, the
// job restarted by a kill (x), and the run the kill ended, (minute, tenant) by (minute,
// tenant): what the killed run had emitted (it survives, in the sink), what it still had
// open (lost with it), which of those event-time windows the restarted run recomputed
// from the records it re-read, which event-time windows it emitted a second time and
// whether identical, and what its processing-time windows billed in the minute it came
// back. It is nothing for any other run, or when the killed run had emitted nothing; it is
// met once both windows have closed the minute the job came back in.
func failureRule(s Session, run Run, _ int64) Found {
	if run.Replay() || !run.Killed() {
		return Found{}
	}
	killed := s.Before(run)
	if killed == nil {
		return Found{}
	}
	x := state.FailureFacts{Killed: killed.Ref(), Back: startOf(run.StartedAt())}
	kt := killed.Rows()
	before := make(map[rowKey]minutes.Cell, kt.Len())
	for i := range kt.Len() {
		r := kt.Row(i)
		if r.IsMark() {
			continue
		}
		pt, et := r.Cells[minutes.Processing], r.Cells[minutes.Event]
		before[rowKey{r.WindowStart, r.Tenant}] = et
		switch {
		case et.Open:
			x.Lost.Add(et)
		case et.Fired > 0:
			x.Survived.Add(et)
		}
		switch {
		case pt.Open:
			x.LostProcessing.Add(pt)
		case pt.Fired > 0:
			x.SurvivedProcessing.Add(pt)
		}
	}
	// The windows its last status listed open, with their running totals: the
	// accumulators the kill lost (a backend that writes them as pending results put
	// them in the table above).
	for _, o := range killed.StillOpen() {
		k := rowKey{o.Minute.WindowStart, o.Minute.TenantID}
		c := minutes.Cell{USD: o.Minute.USD, Requests: o.Minute.Requests, Open: true}
		if o.Window == jobspec.EventTimeResult {
			if old, ok := before[k]; !ok || !old.Open {
				before[k] = c
				x.Lost.Add(c)
			}
		} else if pt, ok := kt.Cell(minutes.Processing, k.start, k.tenant); !ok || !pt.Open {
			x.LostProcessing.Add(c)
		}
	}
	if x.Survived.Windows+x.SurvivedProcessing.Windows == 0 {
		return Found{}
	}
	var same []state.TwiceRow
	rt := run.Rows()
	for i := range rt.Len() {
		r := rt.Row(i)
		if r.IsMark() {
			continue
		}
		pt, et := r.Cells[minutes.Processing], r.Cells[minutes.Event]
		if r.WindowStart == x.Back {
			if pt.Fired > 0 && !pt.Open {
				x.BackProcessing.Add(pt)
			}
			if et.Fired > 0 && !et.Open {
				x.BackEvent.Add(et)
			}
		}
		if et.Fired == 0 || et.Open {
			continue
		}
		first, ok := before[rowKey{r.WindowStart, r.Tenant}]
		switch {
		case !ok:
		case first.Open:
			x.Recomputed.Add(et)
		case first.Fired > 0:
			x.Twice.Add(et)
			row := state.TwiceRow{WindowStart: r.WindowStart, Tenant: r.Tenant, First: first, Second: et}
			if minutes.Equal(first, et) {
				x.Identical++
				same = append(same, row)
			} else {
				x.Examples = append(x.Examples, row)
				if et.Requests > first.Requests {
					x.More++
				} else if et.Requests < first.Requests {
					x.Fewer++
				}
			}
		}
	}
	// The windows that differ first, then identical ones, as many as the evidence lists.
	x.Examples = append(x.Examples, same...)[:min(len(x.Examples)+len(same), state.MaxTwiceRows)]
	if x.Identical < x.Twice.Windows {
		x.DifferLate, x.KilledLate, x.KilledHiccup = run.LateCount(), killed.LateCount(), len(killed.Hiccups()) > 0
	}
	c := run.Clocks()
	back := &minutes.Row{WindowStart: x.Back, WindowEnd: x.Back + minute}
	met := c.Closed(minutes.Processing, back) && c.Closed(minutes.Event, back)
	if run.ReadsRecording() {
		// On a replay's topic event time is the recording's, hours from the minute the
		// job came back in: only processing time bills that minute.
		x.BackEvent = state.Windows{}
		met = c.Closed(minutes.Processing, back)
	}
	return Found{Finding: &state.Finding{Run: run.Ref(), Met: met, TakenAt: s.Now(), Failure: &x}}
}

// failureTables are the kill's numbers, (the course's three questions), and the windows
// emitted twice, those that differ first.
func failureTables(f *state.Finding, _ state.Evidence) []Table {
	if f == nil || f.Failure == nil {
		return nil
	}
	x := f.Failure
	row := func(what string, v state.Windows) []string {
		return []string{what, count(int64(v.Windows)), count(v.Requests), fmt.Sprintf("$%.4f", v.USD)}
	}
	back := hhmm(x.Back)
	sum := Table{
		Title:  fmt.Sprintf("yours: run %d killed, run %d restarted with empty state and re-read the topic", x.Killed.ID, f.Run.ID),
		Header: []string{"", "windows", "requests", "USD"},
		Rows: [][]string{
			row("survived: event time emitted", x.Survived),
			row("survived: processing time emitted", x.SurvivedProcessing),
			row("lost: event time open", x.Lost),
			row("lost: processing time open", x.LostProcessing),
			row("recomputed: event time", x.Recomputed),
			row(fmt.Sprintf("emitted twice (%s identical)", count(int64(x.Identical))), x.Twice),
			row("processing time in "+back+", the minute back", x.BackProcessing),
		},
	}
	if x.BackEvent.Windows > 0 {
		sum.Rows = append(sum.Rows, row("event time for "+back, x.BackEvent))
		sum.Note = fmt.Sprintf("Processing time billed $%.4f more in %s than event time bills for it: the re-read backlog of earlier minutes.",
			x.BackProcessing.USD-x.BackEvent.USD, back)
	}
	out := []Table{sum}
	if len(x.Examples) == 0 {
		return out
	}
	twice := Table{Title: fmt.Sprintf("Event-time windows emitted twice, by run %d and again after the kill:", x.Killed.ID),
		Header: []string{"minute", "tenant", "first", "again", ""}}
	for _, r := range x.Examples {
		same := "identical"
		if !minutes.Equal(r.First, r.Second) {
			same = "differs"
		}
		twice.Rows = append(twice.Rows, []string{hhmm(r.WindowStart), r.Tenant, cellText(r.First), cellText(r.Second), same})
	}
	if more := x.Twice.Windows - len(x.Examples); more > 0 {
		twice.Rows = append(twice.Rows, []string{"…", count(int64(more)) + " more in the run", "", "", ""})
	}
	return append(out, twice)
}

// cellText is a fired window's cell: "$0.3000 (2)".
func cellText(c minutes.Cell) string { return fmt.Sprintf("$%.4f (%s)", c.USD, count(c.Requests)) }

func failureSentence(run state.RunRef, x state.FailureFacts) string {
	s := fmt.Sprintf("In %s, after run %d was killed: survived, in the sink, the %s it had emitted (%s) and its %s (%s)",
		RunName(run), x.Killed.ID, windows(x.Survived.Windows, "event-time"), usd(x.Survived), windows(x.SurvivedProcessing.Windows, "processing-time"),
		usd(x.SurvivedProcessing))
	s += fmt.Sprintf("; lost with it, the %s and %s it still had open (%s and %s of running totals)", windows(x.Lost.Windows, "event-time"),
		windows(x.LostProcessing.Windows, "processing-time"), usd(x.Lost), usd(x.LostProcessing))
	s += fmt.Sprintf("; recomputed from the records re-read from the topic, %s of those event-time windows (%s), and none of the "+
		"processing-time ones, which nothing can recompute", count(int64(x.Recomputed.Windows)), usd(x.Recomputed))
	s += fmt.Sprintf("; emitted twice, %s for a (tenant, window_end) run %d had already emitted (%s)", windows(x.Twice.Windows, "event-time"),
		x.Killed.ID, usd(x.Twice))
	if x.Twice.Windows > 0 {
		switch differ := x.Twice.Windows - x.Identical; {
		case differ == 0:
			s += ", every one identical to the first: the chargeback case, removable because it is identical"
		default:
			s += fmt.Sprintf(", %s identical to the first (the chargeback case) and %s not", count(int64(x.Identical)), count(int64(differ)))
			var why []string
			if x.More > 0 {
				held := ""
				if x.KilledHiccup {
					held = ", a hiccup's held ones among them"
				}
				why = append(why, fmt.Sprintf("%s with more requests the second time: records run %d had dropped as late "+
					"(%s in all%s) that run %d, re-reading at full speed, read before its watermark passed them",
					count(int64(x.More)), x.Killed.ID, count(int64(x.KilledLate)), held, run.ID))
			}
			if x.Fewer > 0 {
				why = append(why, fmt.Sprintf("%s with fewer: run %d dropped %s as late while it caught up", count(int64(x.Fewer)), run.ID,
					plural(x.DifferLate, "record")))
			}
			if len(why) > 0 {
				s += " (" + strings.Join(why, "; ") + ")"
			}
		}
	}
	if x.BackProcessing.Windows > 0 && x.BackEvent.Windows == 0 && run.Recording != "" {
		s += fmt.Sprintf("; processing time billed %s in %s, the minute the job came back: every record of the recording it re-read, "+
			"whatever its event time", usd(x.BackProcessing), hhmm(x.Back))
	} else if x.BackProcessing.Windows > 0 {
		s += fmt.Sprintf("; processing time billed %s in %s, the minute the job came back, where event time bills %s for that minute: "+
			"$%.4f of it is records of earlier minutes re-read and folded in, the accounting error", usd(x.BackProcessing), hhmm(x.Back),
			usd(x.BackEvent), x.BackProcessing.USD-x.BackEvent.USD)
	}
	return s + "."
}

// windows is "1 event-time window" or "12 event-time windows".
func windows(n int, kind string) string {
	if n == 1 {
		return "1 " + kind + " window"
	}
	return count(int64(n)) + " " + kind + " windows"
}

// usd is "$3.4000, 34 requests".
func usd(w state.Windows) string {
	return fmt.Sprintf("$%.4f, %s", w.USD, plural(int(w.Requests), "request"))
}
