package session

import (
	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// AgreeingMinutes is how many prompt minutes must agree between the windows for 4.1: the
// course runs the generator for five minutes.
const AgreeingMinutes = 5

// minute is a minute window's length in ms.
const minute = 60000

// startOf is the start of the minute ms falls in.
func startOf(ms int64) int64 { return ms - ms%minute }

// promptMinutes lists the starts of run's minutes in which events arrived promptly and
// both windows agree, tenant by tenant: both clocks passed the minute, every row agrees,
// the run had begun before the minute did (records queued by a restart land in the
// minute it came back), no hiccup held records of it or flushed into it, and no record
// of it was dropped as late.
func promptMinutes(run *Run, c minutes.Clocks) []int64 {
	disturbed := disturbedMinutes(run)
	if run.LateCount > run.Late.Len() {
		return nil // late records were let go: which minutes they disturbed is not known
	}
	tb := run.Table
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
			if r.Verdict(c) != minutes.Agree || !c.Closed(minutes.Processing, r) || !c.Closed(minutes.Event, r) {
				all = false
			}
		}
		begun := run.StartedAt == 0 && i > n || run.StartedAt != 0 && run.StartedAt <= start
		if all && n > 0 && begun && !disturbed[start] {
			out = append(out, start)
		}
	}
	return out
}

// disturbedMinutes are the starts of run's minutes a hiccup held records of or flushed
// into, or of which a record was dropped as late.
func disturbedMinutes(run *Run) map[int64]bool {
	disturbed := map[int64]bool{}
	for _, h := range run.Hiccups {
		to := h.To
		if to == 0 {
			to = 1<<62 - 1
		}
		for m := startOf(h.From); m <= startOf(to) && m-startOf(h.From) < 24*60*minute; m += minute {
			disturbed[m] = true
		}
	}
	for i := range run.Late.Len() {
		disturbed[startOf(run.Late.At(i).Timestamp)] = true
	}
	return disturbed
}

// agreement works out 4.1's finding from run: its latest AgreeingMinutes prompt
// agreeing minutes, both windows side by side; nil when it has none.
func (s *Session) agreement(run *Run) *state.Finding {
	if run.Replay {
		return nil
	}
	c := s.ClocksFor(run)
	mins := promptMinutes(run, c)
	if len(mins) == 0 {
		return nil
	}
	mins = mins[max(0, len(mins)-AgreeingMinutes):]
	f := &state.Finding{Run: s.runRef(run), Met: len(mins) >= AgreeingMinutes, TakenAt: s.Now()}
	var usd float64
	var reqs int64
	rows := 0
	for _, m := range mins {
		rs, _ := run.Table.CopyRange(m, m+minute, 1000, c)
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
	a := &state.AgreementFacts{Minutes: mins, Wanted: AgreeingMinutes, Rows: rows, USD: usd, Requests: reqs}
	if !f.Met {
		if d := differingMinutes(run, c); len(d) > 0 {
			if n := len(d) - maxNamed; n > 0 {
				d, a.LeftOutBefore = d[n:], n
			}
			a.LeftOut = d
		}
	}
	f.Agreement = a
	return f
}

// maxNamed is how many left-out minutes 4.1's sentence names; it counts the others.
const maxNamed = 5

// differingMinutes lists the starts of run's minutes that both clocks have
// closed and in which a row differs between the windows, no hiccup or late record
// disturbed: the minutes 4.1 leaves out for a ≠ row alone.
func differingMinutes(run *Run, c minutes.Clocks) []int64 {
	tb := run.Table
	disturbed := disturbedMinutes(run)
	var out []int64
	for i := range tb.Len() {
		r := tb.Row(i)
		if r.IsMark() || disturbed[r.WindowStart] || len(out) > 0 && out[len(out)-1] == r.WindowStart {
			continue
		}
		if r.Verdict(c) == minutes.Differs && c.Closed(minutes.Processing, r) && c.Closed(minutes.Event, r) {
			out = append(out, r.WindowStart)
		}
	}
	return out
}

// hhmm is a time as UTC hh:mm.
func hhmm(ms int64) string { return meter.Clock(ms)[:5] }

// LateSlack is how long after a hiccup ends its held records may still arrive: the
// producer's retries flush the buffer over a few seconds.
const LateSlack = 30000

// heldLate returns the late records of run that h held: from h's instance, arriving
// from when the hold began until LateSlack after it ended.
func heldLate(run *Run, h Hiccup) []meter.RecordTrace {
	var out []meter.RecordTrace
	for i := range run.Late.Len() {
		r := run.Late.At(i)
		if r.Gateway == h.Instance && r.Arrival >= h.From && r.Arrival <= h.To+LateSlack {
			out = append(out, r)
		}
	}
	return out
}

// hiccupFinding works out 4.2's finding from hiccup h of run, or nil when h does not
// count: the run's watermarks are for_monotonous_timestamps(), the hold crossed a minute
// boundary, the event-time window dropped records it held as late, and both windows
// have closed the minute the hold ended in (the finding is taken after the effect).
func (s *Session) hiccupFinding(run *Run, h Hiccup) (*state.Finding, []meter.RecordTrace) {
	if run.Replay || h.To == 0 || run.Watermarks.OutOfOrderness != 0 || startOf(h.From) == startOf(h.To) {
		return nil, nil
	}
	late := heldLate(run, h)
	if len(late) == 0 {
		return nil, nil
	}
	last := startOf(h.To)
	for _, r := range late {
		last = max(last, startOf(r.Arrival))
	}
	c := s.ClocksFor(run)
	end := &minutes.Row{WindowStart: last, WindowEnd: last + minute}
	if !c.Closed(minutes.Processing, end) || !c.Closed(minutes.Event, end) {
		return nil, nil
	}
	f := &state.Finding{Run: s.runRef(run), Met: true, About: h.From, TakenAt: s.Now()}
	f.Rows, _ = run.Table.CopyRange(startOf(h.From), last+minute, 200, c)
	var usd float64
	first, lastAt := late[0].Arrival, late[0].Arrival
	for _, r := range late {
		usd += r.USD
		first, lastAt = min(first, r.Arrival), max(lastAt, r.Arrival)
	}
	x := late[0]
	f.Hiccup = &state.HiccupFacts{Instance: h.Instance, From: h.From, To: h.To, Late: len(late), USD: usd, FirstArrival: first, LastArrival: lastAt,
		Example: state.Late{RequestID: x.RequestID, Tenant: x.TenantID, Gateway: x.Gateway, Timestamp: x.Timestamp, Watermark: x.Watermark,
			Arrival: x.Arrival, USD: x.USD}}
	f.Hiccup.Bounded = s.boundedHiccup()
	return f, late
}

// boundedHiccup is the newest hiccup of a kept live run under for_bounded_out_of_orderness
// with a bound at least its hold, across a minute boundary, once both windows closed the
// minute it ended in: the course's event-time column. nil when there is none.
func (s *Session) boundedHiccup() *state.BoundedHiccup {
	for i := len(s.runs) - 1; i >= 0; i-- {
		run := s.runs[i]
		bound := run.Watermarks.OutOfOrderness
		if run.ReadsRecording() || bound == 0 {
			continue
		}
		c := s.ClocksFor(run)
		for j := len(run.Hiccups) - 1; j >= 0; j-- {
			h := run.Hiccups[j]
			end := &minutes.Row{WindowStart: startOf(h.To), WindowEnd: startOf(h.To) + minute}
			if h.To == 0 || bound < h.To-h.From || startOf(h.From) == startOf(h.To) || !c.Closed(minutes.Processing, end) || !c.Closed(minutes.Event, end) {
				continue
			}
			b := &state.BoundedHiccup{Run: s.runRef(run), Instance: h.Instance, From: h.From, To: h.To, Watermarks: run.WatermarkStrategy(),
				Late: len(heldLate(run, h))}
			for k := range b.Minutes {
				m := &b.Minutes[k]
				m.WindowStart = startOf(h.From) + int64(k)*minute
				rows, _ := run.Table.CopyRange(m.WindowStart, m.WindowStart+minute, 1000, c)
				for _, r := range rows {
					if !r.IsMark() {
						m.Processing += r.Cells[minutes.Processing].USD
						m.Event += r.Cells[minutes.Event].USD
					}
				}
			}
			return b
		}
	}
	return nil
}

// seconds is a time as UTC hh:mm:ss.
func seconds(ms int64) string { return meter.Clock(ms)[:8] }

// hiccupsFromStatus notices a hiccup the status shows that the learner did not inject
// from this TUI (a script, another terminal, a scheduled one), so LastHiccup and marks
// know it too.
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

// labelled fills in which run a table copy came from.
func labelled(rows []minutes.Row, omitted int, run *Run, at int64) *state.Table {
	return &state.Table{Run: run.ID, Reason: run.why(), Timestamp: run.Timestamp.String(), TakenAt: at, Rows: rows, Omitted: omitted}
}
