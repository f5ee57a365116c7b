package lab4

import (
	"fmt"

	"github.com/labtui/labtui/state"
)

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
