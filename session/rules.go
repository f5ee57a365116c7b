package session

import (
	"strings"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// checkAgreement ticks 4.1 once the current run has AgreeingMinutes event-time minutes
// in which every tenant's row agrees between the panes.
func (t *tracker) checkAgreement(s *Session) {
	if t.done("4.1") {
		return
	}
	run := s.Current()
	minutes := agreeingMinutes(run.Table, s.ClocksFor(run))
	if len(minutes) < AgreeingMinutes {
		return
	}
	minutes = minutes[len(minutes)-AgreeingMinutes:]
	names := make([]string, len(minutes))
	for i, m := range minutes {
		names[i] = meter.Clock(m)[:5]
	}
	t.tick("4.1", s.Now(), "five event-time minutes agreed tenant by tenant in both panes: "+strings.Join(names, ", "))
	from, to := minutes[0], minutes[len(minutes)-1]+60000
	t.watch(s, run, s.Now(), func() {
		rows, omitted := run.Table.CopyRange(from, to, 200, s.ClocksFor(run))
		t.evidence.Agreement = labelled(rows, omitted, run, s.Now())
	})
}

// agreeingMinutes lists the window starts of the minutes whose rows all agree.
func agreeingMinutes(tb *minutes.Table, c minutes.Clocks) []int64 {
	var out []int64
	for i := 0; i < tb.Len(); {
		start := tb.Row(i).WindowStart
		all, n := true, 0
		for ; i < tb.Len() && tb.Row(i).WindowStart == start; i++ {
			r := tb.Row(i)
			if r.IsMark() {
				continue
			}
			n++
			if r.Verdict(c) != minutes.Agree {
				all = false
			}
		}
		if all && n > 0 {
			out = append(out, start)
		}
	}
	return out
}

// hiccupsFromStatus notices a hiccup the status shows that the learner did not inject
// from this TUI (a script, another terminal), so 4.2 can tick for it too.
func (t *tracker) hiccupsFromStatus(s *Session, st *backend.Status) {
	for _, in := range st.Instances {
		if !in.Hiccup || t.knownHiccup(in.Name, st.Now) {
			continue
		}
		t.injected(s, in.Name, in.HiccupLeft, st.Now)
	}
}

func (t *tracker) knownHiccup(instance string, now int64) bool {
	for _, x := range t.hiccups {
		if x.instance == instance && now <= x.at+x.d.Milliseconds()+2000 {
			return true
		}
	}
	return false
}

// checkHiccups ticks 4.2 once a minute after a hiccup differs between the panes because
// of it, and keeps the minutes around the hiccup and the run's late records as evidence.
func (t *tracker) checkHiccups(s *Session) {
	if t.done("4.2") {
		return
	}
	for _, x := range t.hiccups {
		if x.run.Ended {
			continue
		}
		row := hiccupDifference(x.run, x.at, s.ClocksFor(x.run))
		if row == nil {
			continue
		}
		t.tick("4.2", s.Now(), "a hiccup on "+x.instance+" at "+meter.Clock(x.at)[:8]+", then the panes differ for "+
			row.Tenant+" at "+meter.Clock(row.WindowStart)[:5])
		until := x.at + x.d.Milliseconds() + 3*60000
		t.watch(s, x.run, until, func() { t.takeHiccup(s, x) })
		return
	}
}

// MinHiccupShift is how many requests a minute's panes must differ by, over its tenants,
// to count as the hiccup's doing when no record was dropped late: a record that
// completes a millisecond before a minute ends and reaches the window just after it
// differs by one on its own, with no fault at all.
const MinHiccupShift = 3

// hiccupDifference returns the first row, of a minute ending after at, whose panes
// differ because of the hiccup: the run dropped late records that arrived after at, or
// the minute's requests differ between the panes by MinHiccupShift or more.
func hiccupDifference(run *Run, at int64, c minutes.Clocks) *minutes.Row {
	lateAfter := false
	for i := run.Late.Len() - 1; i >= 0 && !lateAfter; i-- {
		lateAfter = run.Late.At(i).Arrival >= at
	}
	tb := run.Table
	for i := tb.Search(at - 60000); i < tb.Len(); {
		start := tb.Row(i).WindowStart
		var first *minutes.Row
		shift := int64(0)
		for ; i < tb.Len() && tb.Row(i).WindowStart == start; i++ {
			r := tb.Row(i)
			if r.IsMark() || r.WindowEnd <= at || r.Verdict(c) != minutes.Differs {
				continue
			}
			if first == nil {
				first = r
			}
			shift += abs(r.Cells[minutes.Processing].Requests - r.Cells[minutes.Event].Requests)
		}
		if first != nil && (lateAfter || shift >= MinHiccupShift) {
			return first
		}
	}
	return nil
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func (t *tracker) takeHiccup(s *Session, x hiccup) {
	c := s.ClocksFor(x.run)
	rows, omitted := x.run.Table.CopyRange(x.at-2*60000, x.at+x.d.Milliseconds()+4*60000, 200, c)
	ev := &state.Hiccup{Instance: x.instance, DurationMS: x.d.Milliseconds(), At: x.at, Table: *labelled(rows, omitted, x.run, s.Now())}
	late := x.run.Late
	for i := max(0, late.Len()-state.MaxLate); i < late.Len(); i++ {
		r := late.At(i)
		ev.Late = append(ev.Late, state.Late{RequestID: r.RequestID, Tenant: r.TenantID, Gateway: r.Gateway,
			Timestamp: r.Timestamp, Watermark: r.Watermark, Arrival: r.Arrival, USD: r.USD})
	}
	t.evidence.Hiccup = ev
}

// labelled fills in which run a table copy came from.
func labelled(rows []minutes.Row, omitted int, run *Run, at int64) *state.Table {
	return &state.Table{Run: run.ID, Reason: run.Kind(), Timestamp: run.Timestamp.String(), TakenAt: at, Rows: rows, Omitted: omitted}
}
