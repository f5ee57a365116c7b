package lab4

import (
	"fmt"

	"github.com/labtui/labtui/state"
)

// Reenacted is how a replay's default reference reads in a sentence.
const Reenacted = "the recorded hour re-enacted at its recorded times"

// Against names a replay's reference in a sentence: the run the learner chose, or the
// recording re-enacted.
func Against(r *state.RunRef) string {
	if r == nil {
		return Reenacted
	}
	return RunName(*r)
}

func replaySentence(run state.RunRef, r state.ReplayFacts) string {
	s := fmt.Sprintf("In %s, the event-time output against %s: %d of %d (tenant, minute) rows identical", RunName(run), Against(r.AgainstRun),
		r.Identical, r.Rows)
	if n := r.Rows - r.Identical; n > 0 {
		s += fmt.Sprintf(", %d not", n)
		if r.Unexplained == 0 {
			s += ", every difference explained by the records' arrival (see the appendix)"
		} else {
			s += fmt.Sprintf(", %d unexplained", r.Unexplained)
		}
	}
	if len(r.ProcessingStarts) > 0 {
		s += fmt.Sprintf("; its processing-time windows put the whole recording, $%.4f and %s requests, into %s of the wall clock the replay ran at",
			r.ProcessingUSD, Count(r.ProcessingRequests), MinuteSpan(r.ProcessingStarts))
	}
	return s + "."
}
