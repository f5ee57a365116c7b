package lab4

import (
	"fmt"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
)

func movedSentence(run state.RunRef, m state.MovedFacts) string {
	mv := m.Request
	s := fmt.Sprintf("In %s, %s changed minute; %s (%s, $%.4f) started %s", RunName(run), plural(m.Count, "request"), mv.RequestID, mv.Tenant, mv.USD,
		meter.Clock(mv.StartedTS))
	if mv.CompletedTS != 0 {
		s += " and completed " + meter.Clock(mv.CompletedTS)
	}
	s += fmt.Sprintf(": completed_ts bills it in %s, started_ts in %s", hhmm(mv.CompletedMinute), hhmm(mv.StartedMinute))
	if mv.LateStarted {
		s += ", where it was dropped as late"
	}
	return s + "."
}
