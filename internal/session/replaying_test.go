package session

import (
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// TestAReplayIsUnderWayFromTheAskUntilTheCallReturns: r forgets the last replay's
// progress and the replay is under way with the field asked for; the restart the
// backend reports for it names the field the run reads; once the call returns the
// replay is over, and a later restart leaves its field alone.
func TestAReplayIsUnderWayFromTheAskUntilTheCallReturns(t *testing.T) {
	l := newLab()
	l.started()
	l.h.Replay = &backend.ReplayProgress{Done: true}
	if l.h.Replaying() {
		t.Fatal("replaying before any was asked for")
	}
	l.h.ReplayAsked("hour.jsonl", jobspec.StartedTS)
	if !l.h.Replaying() || l.h.ReplayField() != jobspec.StartedTS || l.h.Replay != nil {
		t.Errorf("after the ask: replaying %v, field %s, progress %v; want true, started_ts, nil",
			l.h.Replaying(), l.h.ReplayField(), l.h.Replay)
	}
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseReplay, Reason: "replay",
		Timestamp: jobspec.CompletedTS, At: t0 + 60000}})
	if l.h.ReplayField() != jobspec.CompletedTS {
		t.Errorf("after the replay's restart: field %s, want completed_ts", l.h.ReplayField())
	}
	l.h.ReplayReturned()
	l.apply(backend.Update{Run: 3, Restarted: &backend.Restart{Run: 3, Cause: backend.CauseKill, Reason: "kill",
		Timestamp: jobspec.StartedTS, At: t0 + 120000}})
	if l.h.Replaying() || l.h.ReplayField() != jobspec.CompletedTS {
		t.Errorf("after the call returned and a kill: replaying %v, field %s; want false, completed_ts",
			l.h.Replaying(), l.h.ReplayField())
	}
}
