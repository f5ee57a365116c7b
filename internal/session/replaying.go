package session

import (
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// replayRequest is the replay the learner asked for last: whether the backend's Replay
// call for it is still running, and the timestamp field it reads.
type replayRequest struct {
	running bool
	field   jobspec.TimestampField
}

// Replaying reports whether a replay the learner asked for is under way: from
// ReplayAsked until ReplayReturned.
func (s *Session) Replaying() bool { return s.asked.running }

// ReplayField is the timestamp field of the replay asked for last, or, when the job
// restarted while it was under way, the field that restart reads (the backend's word
// on what the replay's run reads).
func (s *Session) ReplayField() jobspec.TimestampField { return s.asked.field }

// ReplayReturned says the backend's Replay call returned, done or failed: the replay is
// no longer under way. Its run and its last progress (Replay) stay.
func (s *Session) ReplayReturned() { s.asked.running = false }

// followReplay takes the field of a restart that comes while a replay is under way.
func (s *Session) followReplay(u backend.Update) {
	if r := u.Restarted; r != nil && s.asked.running {
		s.asked.field = r.Timestamp
	}
}
