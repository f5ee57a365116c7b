package session

import (
	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// failureFinding works out the course's "If a TaskManager dies right now" from run, the
// job restarted by a kill (x), and the run the kill ended, (minute, tenant) by (minute,
// tenant): what the killed run had emitted (it survives, in the sink), what it still had
// open (lost with it), which of those event-time windows the restarted run recomputed
// from the records it re-read, which event-time windows it emitted a second time and
// whether identical, and what its processing-time windows billed in the minute it came
// back. It is nil for any other run, or when the killed run had emitted nothing; it is
// met once both windows have closed the minute the job came back in.
func (s *Session) failureFinding(run *Run) *state.Finding {
	if run.Replay || run.Cause != backend.CauseKill {
		return nil
	}
	killed := s.runBefore(run)
	if killed == nil {
		return nil
	}
	x := state.FailureFacts{Killed: s.runRef(killed), Back: startOf(run.StartedAt)}
	before := make(map[rowKey]minutes.Cell, killed.Table.Len())
	for i := range killed.Table.Len() {
		r := killed.Table.Row(i)
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
		if o.Window == meter.EventTimeResult {
			if old, ok := before[k]; !ok || !old.Open {
				before[k] = c
				x.Lost.Add(c)
			}
		} else if pt, ok := killed.Table.Cell(minutes.Processing, k.start, k.tenant); !ok || !pt.Open {
			x.LostProcessing.Add(c)
		}
	}
	if x.Survived.Windows+x.SurvivedProcessing.Windows == 0 {
		return nil
	}
	var same []state.TwiceRow
	for i := range run.Table.Len() {
		r := run.Table.Row(i)
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
		x.DifferLate, x.KilledLate, x.KilledHiccup = run.LateCount, killed.LateCount, len(killed.Hiccups) > 0
	}
	c := s.ClocksFor(run)
	back := &minutes.Row{WindowStart: x.Back, WindowEnd: x.Back + minute}
	met := c.Closed(minutes.Processing, back) && c.Closed(minutes.Event, back)
	if run.ReadsRecording() {
		// On a replay's topic event time is the recording's, hours from the minute the
		// job came back in: only processing time bills that minute.
		x.BackEvent = state.Windows{}
		met = c.Closed(minutes.Processing, back)
	}
	return &state.Finding{Run: s.runRef(run), Met: met, TakenAt: s.Now(), Failure: &x}
}

// runBefore is the run the session kept just before run, nil when none is kept.
func (s *Session) runBefore(run *Run) *Run {
	for i, r := range s.runs {
		if r == run && i > 0 {
			return s.runs[i-1]
		}
	}
	return nil
}
