package session

import (
	"fmt"
	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/labs/lab4"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/state"
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
		if run := s.Run(cur.Run.ID); run == nil || run.StartedAt != cur.Run.StartedAt {
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
	if err := s.Pin(ex, next); err != nil {
		return nil, err
	}
	return s.Finding(ex), nil
}

// whyNot says what run lacks for exercise ex's rule, in a few words.
func (s *Session) whyNot(ex string, run *Run) string {
	switch ex {
	case lab4.Agreement:
		switch {
		case run.Replay:
			return "a replay: 4.1 needs the live generator"
		case run.ReadsRecording():
			return "a restart on the replay's topic: 4.1 needs the live generator"
		}
		return "no whole minute yet where both windows agree with prompt events (the run's first minute does not count)"
	case lab4.Hiccup:
		switch {
		case run.Replay:
			return "a replay: 4.2 needs a hiccup of the live run"
		case run.ReadsRecording():
			return "a restart on the replay's topic: 4.2 needs a hiccup of the live run"
		case len(run.Hiccups) == 0:
			return "no hiccup yet"
		case run.Watermarks.OutOfOrderness != 0:
			return "bounded out-of-orderness: 4.2 asks for for_monotonous_timestamps()"
		}
		h := run.Hiccups[len(run.Hiccups)-1]
		switch {
		case h.To == 0:
			return "its hiccup is still on"
		case startOf(h.From) == startOf(h.To):
			return fmt.Sprintf("its hiccup (%s–%s) crossed no minute boundary", seconds(h.From), seconds(h.To))
		case len(heldLate(run, h)) == 0:
			return "its hiccup made no late record"
		}
		return "the minutes of its hiccup have not closed in both windows yet"
	case lab4.Replay, lab4.Moved:
		field := meter.CompletedTS
		if ex == lab4.Moved {
			field = meter.StartedTS
		}
		key := "r"
		if ex == lab4.Moved {
			key = "t"
		}
		switch {
		case !run.Replay && run.ReadsRecording():
			// A w or x restart on the replay's topic reads the recorded hour again from the
			// earliest offset, but reports no replay progress and has no comparison: see
			// RestartNote.
			return "a restart on the replay's topic, not a replay: " + key + " replays with this strategy"
		case !run.Replay:
			return "not a replay"
		case run.Timestamp != field:
			return fmt.Sprintf("reads %s: %s replays with %s", run.Timestamp, ex, field)
		case !run.ReplayDone:
			return "its replay has not finished"
		case ex == lab4.Moved:
			return "no request found yet whose cost moved minutes"
		case s.ev.comparisonOf(run.ID) == nil:
			return "its comparison with the reference is not worked out (or was let go)"
		}
		if side := emptySide(s.ev.comparisonOf(run.ID).EventTime); side != "" {
			return side + " wrote no event-time window: a comparison with an empty run shows nothing"
		}
	case lab4.Failure:
		switch {
		case run.Replay:
			return "a replay: the failure section needs x, a kill of the job"
		case run.Cause != backend.CauseKill:
			return "not a kill: x kills the job and restarts it"
		case s.runBefore(run) == nil:
			return "the run the kill ended is no longer kept"
		}
		return "the run the kill ended had emitted no window"
	}
	return "nothing for " + ex
}
