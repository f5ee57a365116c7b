package session

import "github.com/labtui/labtui/state"

// compared keeps a replay's comparison with the reference run of its recording, with
// the evidence of the replay that ran as run runID; it is dropped when that replay's
// evidence was let go.
func (t *tracker) compared(s *Session, runID int, c state.Comparison) {
	for i := len(t.evidence.Replays) - 1; i >= 0; i-- {
		if r := &t.evidence.Replays[i]; r.Table.Run == runID && r.Done {
			r.Compare = &c
			t.changed = true
			break
		}
	}
	t.updateFindings(s, true)
}

// comparisonOf is the comparison the evidence keeps of run id's replay, or nil.
func (t *tracker) comparisonOf(id int) *state.Comparison {
	for i := len(t.evidence.Replays) - 1; i >= 0; i-- {
		if r := &t.evidence.Replays[i]; r.Table.Run == id && r.Done {
			return r.Compare
		}
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
