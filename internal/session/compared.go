package session

import "github.com/labtui/labtui/internal/state"

// compared keeps a replay's comparison with the reference run of its recording, with
// the evidence of the replay that ran as run runID; it is dropped when that replay's
// evidence was let go. While a pinned finding rests on the replay (the learner picked
// it, or answered while it backed the step), the evidence keeps the comparison the
// finding was worked out from, and the newer one waits beside it: the rules read it,
// so Newer offers what it would make of the step, and Repin or Unpin takes it.
func (t *tracker) compared(s *Session, runID int, c state.Comparison) {
	if r := t.replayOf(runID); r != nil {
		if r.Compare != nil && t.frozen(runID) {
			t.waiting[runID] = &c
		} else {
			r.Compare = &c
			delete(t.waiting, runID)
			t.changed = true
		}
	}
	t.updateFindings(s, true)
}

// replayOf is the evidence of run id's finished replay, or nil.
func (t *tracker) replayOf(id int) *state.Replay {
	for i := len(t.evidence.Replays) - 1; i >= 0; i-- {
		if r := &t.evidence.Replays[i]; r.Table.Run == id && r.Done {
			return r
		}
	}
	return nil
}

// frozen reports whether a pinned finding whose rule is met rests on run id (one pinned
// before its rule was met follows its run until it is).
func (t *tracker) frozen(id int) bool {
	for _, f := range t.evidence.Findings {
		if f != nil && f.Pinned && f.Met && f.Run.ID == id {
			return true
		}
	}
	return false
}

// thaw puts the comparison waiting for run id, if any, in the evidence: the learner
// takes the run's evidence as it stands now.
func (t *tracker) thaw(id int) {
	c := t.waiting[id]
	if c == nil {
		return
	}
	delete(t.waiting, id)
	if r := t.replayOf(id); r != nil {
		r.Compare = c
		t.changed = true
	}
}

// thawUnpinned puts in the evidence each waiting comparison no pinned finding rests on
// any more.
func (t *tracker) thawUnpinned() {
	for id := range t.waiting {
		if !t.frozen(id) {
			t.thaw(id)
		}
	}
}

// comparisonOf is the newest comparison of run id's replay, or nil: the one waiting
// beside the evidence, else the evidence's.
func (t *tracker) comparisonOf(id int) *state.Comparison {
	if c := t.waiting[id]; c != nil {
		return c
	}
	if r := t.replayOf(id); r != nil {
		return r.Compare
	}
	return nil
}

// movedFound keeps the moved requests of a whole comparison of a completed_ts and a
// started_ts run, in place of those noted record by record.
func (t *tracker) movedFound(s *Session, sum state.MovedSummary, list []state.Moved) {
	t.evidence.Moved, t.evidence.MovedSummary = list, &sum
	t.changed = true
	t.updateFindings(s, true)
}
