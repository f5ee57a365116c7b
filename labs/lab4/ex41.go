package lab4

import (
	"fmt"

	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// ex41 is exercise 4.1: the course's text and questions, and how it is done in labtui.
var ex41 = Exercise{
	ID: Agreement,
	Instruction: "Add both TenantCost windows to the job side by side, writing to two print sinks, " +
		"and run the live generator for five minutes. Confirm the per-minute sums agree while " +
		"events arrive promptly.",
	Evidence: "five minutes of one live run in which events arrived promptly (no hiccup, restart or late record in them) " +
		"and both windows agree, tenant by tenant",
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
			"last moments of a minute and reached the job in the next (enter on the row shows it). labtui counts only " +
			"minutes without one, so on a busy machine, where they are more common, the five take longer.",
	},
	Rule:    agreementRule,
	WhyNot:  agreementWhyNot,
	Prefers: moreAgreeing,
}

// AgreeingMinutes is how many prompt minutes must agree between the windows for 4.1: the
// course runs the generator for five minutes.
const AgreeingMinutes = 5

// maxNamed is how many left-out minutes 4.1's sentence names; it counts the others.
const maxNamed = 5

// agreementRule works out 4.1's finding from a live run: its latest AgreeingMinutes
// prompt agreeing minutes, both windows side by side; nothing when it has none.
func agreementRule(s Session, run Run, _ int64) Found {
	if run.Replay() {
		return Found{}
	}
	c := run.Clocks()
	mins := promptMinutes(run, c)
	if len(mins) == 0 {
		return Found{}
	}
	mins = mins[max(0, len(mins)-AgreeingMinutes):]
	f := &state.Finding{Run: run.Ref(), Met: len(mins) >= AgreeingMinutes, TakenAt: s.Now()}
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
	return Found{Finding: f}
}

// moreAgreeing prefers, for 4.1, the live run with the most prompt agreeing minutes (the
// latest of equals), a met finding before any other.
func moreAgreeing(f, best *state.Finding) bool {
	return len(f.Rows) > len(best.Rows) && f.Met == best.Met || f.Met && !best.Met
}

// agreementWhyNot says what run lacks for 4.1.
func agreementWhyNot(_ Session, run Run) string {
	switch {
	case run.Replay():
		return "a replay: 4.1 needs the live generator"
	case run.ReadsRecording():
		return "a restart on the replay's topic: 4.1 needs the live generator"
	}
	return "no whole minute yet where both windows agree with prompt events (the run's first minute does not count)"
}

// promptMinutes lists the starts of run's minutes in which events arrived promptly and
// both windows agree, tenant by tenant: both clocks passed the minute, every row agrees,
// the run had begun before the minute did (records queued by a restart land in the
// minute it came back), no hiccup held records of it or flushed into it, and no record
// of it was dropped as late.
func promptMinutes(run Run, c minutes.Clocks) []int64 {
	disturbed := disturbedMinutes(run)
	if run.LateCount() > run.Late().Len() {
		return nil // late records were let go: which minutes they disturbed is not known
	}
	tb := run.Rows()
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
		begun := run.StartedAt() == 0 && i > n || run.StartedAt() != 0 && run.StartedAt() <= start
		if all && n > 0 && begun && !disturbed[start] {
			out = append(out, start)
		}
	}
	return out
}

// disturbedMinutes are the starts of run's minutes a hiccup held records of or flushed
// into, or of which a record was dropped as late.
func disturbedMinutes(run Run) map[int64]bool {
	disturbed := map[int64]bool{}
	for _, h := range run.Hiccups() {
		to := h.To
		if to == 0 {
			to = 1<<62 - 1
		}
		for m := startOf(h.From); m <= startOf(to) && m-startOf(h.From) < 24*60*minute; m += minute {
			disturbed[m] = true
		}
	}
	late := run.Late()
	for i := range late.Len() {
		disturbed[startOf(late.At(i).Timestamp)] = true
	}
	return disturbed
}

// differingMinutes lists the starts of run's minutes that both clocks have
// closed and in which a row differs between the windows, no hiccup or late record
// disturbed: the minutes 4.1 leaves out for a ≠ row alone.
func differingMinutes(run Run, c minutes.Clocks) []int64 {
	tb := run.Rows()
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

func agreementSentence(run state.RunRef, a state.AgreementFacts) string {
	if len(a.Minutes) == 0 {
		return ""
	}
	verb, them := "agree", "them"
	if len(a.Minutes) == 1 {
		verb, them = "agrees", "it"
	}
	s := fmt.Sprintf("In %s, %s %s tenant by tenant in both windows (%d rows, $%.4f and %s requests in each), "+
		"with no hiccup, restart or late record in %s", RunName(run), MinuteSpan(a.Minutes), verb, a.Rows, a.USD, Count(a.Requests), them)
	if len(a.Minutes) < a.Wanted {
		s += fmt.Sprintf("; %d of the %d minutes 4.1 asks for so far", len(a.Minutes), a.Wanted)
		if d := a.LeftOut; len(d) > 0 {
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
