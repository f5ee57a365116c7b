package session

import (
	"fmt"

	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// PinChoice is one kept run as the learner may pin it to an exercise: whether it can back
// the exercise, and why not when it cannot.
type PinChoice struct {
	Run state.RunRef
	// Why says what the run lacks for the exercise's rule; "" when it can back it.
	Why string
	// Backs says the run backs the exercise's finding now; Pinned says the learner (or
	// an answer) pinned it.
	Backs, Pinned bool
}

// PinChoices lists every kept run, oldest first, as a choice for exercise ex: those that
// can back it, and those that cannot, with why.
func (s *Session) PinChoices(ex string) []PinChoice {
	f := s.ev.evidence.Findings[ex]
	var out []PinChoice
	for _, run := range s.runs {
		c := PinChoice{Run: s.runRef(run)}
		if s.findingFor(ex, run, 0) == nil {
			c.Why = s.whyNot(ex, run)
		}
		if f != nil && run.is(f.Run) {
			c.Backs, c.Pinned = true, f.Pinned
		}
		out = append(out, c)
	}
	return out
}

// PinNext pins exercise ex to the next kept run after the one that backs it now that can
// back it, oldest first; after the newest, or when no other run can, the exercise follows
// the rule's pick again (Unpin). Evidence saved by an earlier session, or of a run no
// longer kept, is replaced by the first run that can back ex. It returns the finding as it then stands (nil when
// none), or an error, saying why, when no kept run can back ex.
func (s *Session) PinNext(ex string) (*state.Finding, error) {
	cur := s.ev.evidence.Findings[ex]
	var can []int
	for _, c := range s.PinChoices(ex) {
		if c.Why == "" {
			can = append(can, c.Run.ID)
		}
	}
	if len(can) == 0 {
		return nil, fmt.Errorf("no run kept can back %s yet: labtui counts %s", ex, ruleOf(ex))
	}
	if cur != nil {
		if run := s.run(cur.Run.ID); run == nil || run.StartedAt != cur.Run.StartedAt {
			cur = nil // saved from an earlier session, or of a run let go: pin the first
		}
	}
	next := can[0]
	if cur != nil {
		if cur.Pinned {
			next = 0 // after the newest: follow the rule again
		}
		// The run after the one that backs ex now; unpinned and with none after it, the
		// first press pins the first that can.
		for _, id := range can {
			if id > cur.Run.ID {
				next = id
				break
			}
		}
	}
	if next == 0 {
		s.Unpin(ex)
		return s.Finding(ex), nil
	}
	if err := s.pin(ex, next); err != nil {
		return nil, err
	}
	return s.Finding(ex), nil
}

// whyNot says what run lacks for exercise ex's rule, in a few words.
func (s *Session) whyNot(ex string, run *Run) string {
	return lab4.WhyNot(ex, sessionView{s}, runView{s, run})
}
