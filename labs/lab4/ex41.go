package lab4

import (
	"fmt"

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
