package lab4

import (
	"fmt"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// ex42 is exercise 4.2: the course's text and questions, and how it is done in labtui.
var ex42 = Exercise{
	ID: Hiccup,
	Instruction: "Inject the 30-second retry delay for one gateway instance. Reproduce the table above " +
		"from the two outputs, and record whether the event-time window still receives the burst " +
		"under for_monotonous_timestamps() — and what the operator's event time was when r-103 arrived.",
	Evidence: "a hiccup whose hold crossed a minute boundary and made the event-time window drop records as late " +
		"under for_monotonous_timestamps(), taken once both windows closed the minute the hold ended in: " +
		"the late records, the watermark each met, and both columns for the minutes it touched",
	Questions: []Question{
		{ID: "4.2a", Prompt: "Does the event-time window still receive the burst under for_monotonous_timestamps()?"},
		{ID: "4.2b", Prompt: "What was the operator's event time (its watermark) when the r-103-style late records arrived?"},
	},
	Guide: Guide{
		Uses:  []string{"i", "m", "l", "w"},
		Title: "a hiccup bills the burst to the wrong minute",
		Keys:  "i enter, m, l, w",
		Short: "Press i, then enter: gw-1 is held 35 s from the next second :40, across a minute. m marks it; l lists the late records once both minutes close.",
		Do: "Press i, then enter: the picker's default holds gw-1 for 35 s from the next second :40, so the hold " +
			"crosses a minute boundary as the course's 10:00:40-10:01:15 does. m marks it in both panes; l opens the " +
			"late records. Later, w switches to for_bounded_out_of_orderness with a bound above the hold (40 s), and a " +
			"second hiccup shows the course's event-time column.",
		Look: "The minutes of the hold once both have closed. Processing time bills the held records in the minute " +
			"they arrived. Under for_monotonous_timestamps() the watermark has run past the held records' minute " +
			"when they arrive, so event time drops them as late: the late pane lists each with the watermark it met, " +
			"which is the operator's event time when r-103 arrived (4.2b).",
	},
	Tables: hiccupTables,
	Rule:   hiccupRule,
	WhyNot: hiccupWhyNot,
}

// lateSlack is how long after a hiccup ends its held records may still arrive: the
// producer's retries flush the buffer over a few seconds.
const lateSlack = 30000

// hiccupRule is 4.2's finding from run's newest hiccup that counts (the one that began
// at about, when not 0), with its evidence for the sheet.
func hiccupRule(s Session, run Run, about int64) Found {
	hs := run.Hiccups()
	for i := len(hs) - 1; i >= 0; i-- {
		if about != 0 && hs[i].From != about {
			continue
		}
		if f, late := hiccupFinding(s, run, hs[i]); f != nil {
			return Found{Finding: f, Held: heldEvidence(run, hs[i], f, late)}
		}
	}
	return Found{}
}

// hiccupWhyNot says what run lacks for 4.2.
func hiccupWhyNot(_ Session, run Run) string {
	hs := run.Hiccups()
	switch {
	case run.Replay():
		return "a replay: 4.2 needs a hiccup of the live run"
	case run.ReadsRecording():
		return "a restart on the replay's topic: 4.2 needs a hiccup of the live run"
	case len(hs) == 0:
		return "no hiccup yet"
	case run.Watermarks().OutOfOrderness != 0:
		return "bounded out-of-orderness: 4.2 asks for for_monotonous_timestamps()"
	}
	h := hs[len(hs)-1]
	switch {
	case h.To == 0:
		return "its hiccup is still on"
	case startOf(h.From) == startOf(h.To):
		return fmt.Sprintf("its hiccup (%s–%s) crossed no minute boundary", seconds(h.From), seconds(h.To))
	case len(heldLate(run, h)) == 0:
		return "its hiccup made no late record"
	}
	return "the minutes of its hiccup have not closed in both windows yet"
}

// heldLate returns the late records of run that h held: from h's instance, arriving
// from when the hold began until LateSlack after it ended.
func heldLate(run Run, h Hold) []jobspec.RecordTrace {
	var out []jobspec.RecordTrace
	late := run.Late()
	for i := range late.Len() {
		r := late.At(i)
		if r.Gateway == h.Instance && r.Arrival >= h.From && r.Arrival <= h.To+lateSlack {
			out = append(out, r)
		}
	}
	return out
}

// hiccupFinding works out 4.2's finding from hiccup h of run, or nil when h does not
// count: the run's watermarks are for_monotonous_timestamps(), the hold crossed a minute
// boundary, the event-time window dropped records it held as late, and both windows
// have closed the minute the hold ended in (the finding is taken after the effect).
func hiccupFinding(s Session, run Run, h Hold) (*state.Finding, []jobspec.RecordTrace) {
	if run.Replay() || h.To == 0 || run.Watermarks().OutOfOrderness != 0 || startOf(h.From) == startOf(h.To) {
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
	c := run.Clocks()
	end := &minutes.Row{WindowStart: last, WindowEnd: last + minute}
	if !c.Closed(minutes.Processing, end) || !c.Closed(minutes.Event, end) {
		return nil, nil
	}
	f := &state.Finding{Run: run.Ref(), Met: true, About: h.From, TakenAt: s.Now()}
	f.Rows, _ = run.Rows().CopyRange(startOf(h.From), last+minute, 200, c)
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
	f.Hiccup.Bounded = boundedHiccup(s)
	return f, late
}

// boundedHiccup is the newest hiccup of a kept live run under for_bounded_out_of_orderness
// with a bound at least its hold, across a minute boundary, once both windows closed the
// minute it ended in: the course's event-time column. nil when there is none.
func boundedHiccup(s Session) *state.BoundedHiccup {
	runs := s.Runs()
	for i := len(runs) - 1; i >= 0; i-- {
		run := runs[i]
		bound := run.Watermarks().OutOfOrderness
		if run.ReadsRecording() || bound == 0 {
			continue
		}
		c := run.Clocks()
		hs := run.Hiccups()
		for j := len(hs) - 1; j >= 0; j-- {
			h := hs[j]
			end := &minutes.Row{WindowStart: startOf(h.To), WindowEnd: startOf(h.To) + minute}
			if h.To == 0 || bound.Milliseconds() < h.To-h.From || startOf(h.From) == startOf(h.To) || !c.Closed(minutes.Processing, end) || !c.Closed(minutes.Event, end) {
				continue
			}
			b := &state.BoundedHiccup{Run: run.Ref(), Instance: h.Instance, From: h.From, To: h.To, Watermarks: run.Watermarks().Name(),
				Late: len(heldLate(run, h))}
			for k := range b.Minutes {
				m := &b.Minutes[k]
				m.WindowStart = startOf(h.From) + int64(k)*minute
				rows, _ := run.Rows().CopyRange(m.WindowStart, m.WindowStart+minute, 1000, c)
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

// heldEvidence is the hiccup evidence the sheet keeps beside 4.2's finding f of run: the
// hold, its table, and its late records, by tenant.
func heldEvidence(run Run, h Hold, f *state.Finding, late []jobspec.RecordTrace) *state.Hiccup {
	ref := run.Ref()
	ev := &state.Hiccup{Instance: h.Instance, DurationMS: h.To - h.From, At: h.From,
		Table: state.Table{Run: ref.ID, Reason: run.Why(), Timestamp: ref.Timestamp, TakenAt: f.TakenAt, Rows: f.Rows}}
	ev.LateCount = len(late)
	ev.LateByTenant = map[string]state.Tally{}
	for _, r := range late {
		ev.LateUSD += r.USD
		t := ev.LateByTenant[r.TenantID]
		t.Records++
		t.USD += r.USD
		ev.LateByTenant[r.TenantID] = t
	}
	for _, r := range late[:min(len(late), state.MaxLate)] {
		ev.Late = append(ev.Late, state.Late{RequestID: r.RequestID, Tenant: r.TenantID, Gateway: r.Gateway,
			Timestamp: r.Timestamp, Watermark: r.Watermark, Arrival: r.Arrival, USD: r.USD})
	}
	return ev
}

func hiccupSentence(run state.RunRef, h state.HiccupFacts) string {
	arrived := "at " + seconds(h.FirstArrival)
	if seconds(h.FirstArrival) != seconds(h.LastArrival) {
		arrived = seconds(h.FirstArrival) + "–" + seconds(h.LastArrival)
	}
	x := h.Example
	s := fmt.Sprintf("In %s, %s was held %s–%s, across the %s boundary: %s of its records ($%.4f) arrived %s behind the watermark "+
		"and the event-time window dropped them as late (%s, timestamp %s, met a watermark of %s); processing time billed them in the minute they arrived.",
		RunName(run), h.Instance, seconds(h.From), seconds(h.To), hhmm(h.To-h.To%60000), count(int64(h.Late)), h.USD, arrived,
		x.RequestID, jobspec.Clock(x.Timestamp), jobspec.Clock(x.Watermark))
	if b := h.Bounded; b != nil {
		late := "none of the held records late"
		if b.Late > 0 {
			late = plural(b.Late, "held record") + " late all the same"
		}
		s += fmt.Sprintf(" Under %s, in %s, %s was held %s–%s with %s: event time billed $%.4f in %s and $%.4f in %s, processing time "+
			"$%.4f and $%.4f: the burst in its own minute, the course's event-time column.", b.Watermarks, RunName(b.Run), b.Instance,
			seconds(b.From), seconds(b.To), late, b.Minutes[0].Event, hhmm(b.Minutes[0].WindowStart), b.Minutes[1].Event,
			hhmm(b.Minutes[1].WindowStart), b.Minutes[0].Processing, b.Minutes[1].Processing)
	}
	return s
}

// hiccupTables are 4.2's tables: the minutes of finding f's hold, both windows side by
// side (the sheet's); the course's (acme, $0.10 a request) beside the learner's two
// minutes of the hold, from the session's table of the hiccup (ev.HiccupTable); and the
// first late records of the hiccup's evidence (ev.Hiccup, the sheet's). Without f, the
// hiccup a file saved before findings existed kept (ev.Hiccup: its minutes and late
// records, the sheet's), then the course's beside the learner's; none without any.
func hiccupTables(f *state.Finding, ev state.Evidence) []Table {
	h := ev.Hiccup
	var out []Table
	if f != nil {
		out = findingRows(f)
	} else if h != nil {
		t := minutesTable(h.Table.Rows)
		t.Title = fmt.Sprintf("Saved before this version of labtui: a %ds hiccup on %s at %s.", h.DurationMS/1000, h.Instance, jobspec.Clock(h.At))
		out = append(out, t)
		if len(h.Late) > 0 {
			out = append(out, lateTable(h))
		}
	}
	if c := ev.HiccupTable; c != nil {
		out = append(out, courseHiccupTable(c))
	}
	if f != nil && h != nil && len(h.Late) > 0 {
		out = append(out, lateTable(h))
	}
	return out
}

// courseHiccupTable is the course's table beside the learner's two minutes of the hold.
func courseHiccupTable(h *state.HiccupTable) Table {
	t := Table{
		Title:  fmt.Sprintf("the course: acme, $0.10 a request · yours: run %d, %s, the hold on %s", h.Run, h.Tenant, h.Instance),
		Header: []string{"minute", "processing", "event", "your minute", "processing", "event"},
		Note:   h.Note,
	}
	for i, m := range h.Minutes {
		c := state.CourseHiccup[i]
		t.Rows = append(t.Rows, []string{fmt.Sprintf("10:0%d", i), fmt.Sprintf("$%.2f", c[0]), fmt.Sprintf("$%.2f", c[1]),
			hhmm(m.WindowStart), usdCell(m.Processing, m.Written[minutes.Processing]), usdCell(m.Event, m.Written[minutes.Event])})
	}
	return t
}

// lateTable is the first late records of hiccup evidence h (at most ListedLate), the
// watermark each met and when it arrived (blank when not known), with how many there
// were in all when the evidence keeps fewer.
func lateTable(h *state.Hiccup) Table {
	late := h.Late
	t := Table{Title: "Late records the event-time window dropped, and the watermark each met:",
		Header: []string{"request", "tenant", "gateway", "timestamp", "arrived", "watermark met", "USD"}, SheetOnly: true}
	for i, l := range late {
		if i == listedLate {
			t.More = fmt.Sprintf("%s more of the %s in the JSON", count(int64(len(late)-i)), count(int64(len(late))))
			break
		}
		arrived := ""
		if l.Arrival != 0 {
			arrived = jobspec.Clock(l.Arrival)
		}
		t.Rows = append(t.Rows, []string{l.RequestID, l.Tenant, l.Gateway, jobspec.Clock(l.Timestamp), arrived, jobspec.Clock(l.Watermark),
			fmt.Sprintf("%.4f", l.USD)})
	}
	if h.LateCount > len(late) {
		t.Note = fmt.Sprintf("The run had %s late records ($%.4f) in all; the JSON keeps the first %d.", count(int64(h.LateCount)), h.LateUSD, len(late))
	}
	return t
}

// usdCell is a cell's USD, or — when the window wrote nothing.
func usdCell(c minutes.Cell, written bool) string {
	if !written {
		return "—"
	}
	return fmt.Sprintf("$%.4f", c.USD)
}
