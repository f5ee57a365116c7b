package session

import (
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// TestAHiccupStaysClearOfARestartsCatchUpMinute: after x at 10:02:30 the restarted job
// re-reads the backlog and processing time bills it all to 10:02, so a hiccup planned
// in 10:02 counts from 10:03:00 (the hold then begins at 10:03:40 and crosses into
// 10:04, both clear of the backlog). Once 10:03 has begun there is nothing to keep
// clear of; the live run before any restart, and a replay, have no catch-up minute.
func TestAHiccupStaysClearOfARestartsCatchUpMinute(t *testing.T) {
	l := newLab()
	l.started()
	l.minute(0, 0.2, 0.2)
	if from, c := l.h.hiccupClearOf(t0 + 70000); from != t0+70000 || c != 0 {
		t.Errorf("the first run: from %s, catch-up %d; want now and none", jobspec.Clock(from), c)
	}
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "kill", At: t0 + 150000}})
	st := status(t0+152000, t0+130000)
	st.Job.Events = 40
	l.apply(backend.Update{Status: st})
	if from, c := l.h.hiccupClearOf(t0 + 155000); from != t0+180000 || c != t0+120000 {
		t.Errorf("in the catch-up minute: from %s, catch-up %s; want 10:03:00 and 10:02:00", jobspec.Clock(from), jobspec.Clock(c))
	}
	if from, c := l.h.hiccupClearOf(t0 + 181000); from != t0+181000 || c != 0 {
		t.Errorf("after the catch-up minute: from %s, catch-up %d; want now and none", jobspec.Clock(from), c)
	}

	// A restart whose job has read nothing yet catches up in a later minute: the next
	// one at the earliest.
	l.apply(backend.Update{Run: 3, Restarted: &backend.Restart{Run: 3, Cause: backend.CauseStrategy, Reason: "w", At: t0 + 200000}})
	st = status(t0+205000, 0)
	l.apply(backend.Update{Status: st})
	if from, c := l.h.hiccupClearOf(t0 + 206000); from != t0+300000 || c != t0+240000 {
		t.Errorf("before the restarted job read anything: from %s, catch-up %s; want 10:05:00 and 10:04:00", jobspec.Clock(from), jobspec.Clock(c))
	}

	l.apply(backend.Update{Run: 4, Restarted: &backend.Restart{Run: 4, Cause: backend.CauseReplay, Reason: "replay", At: t0 + 400000, Recording: "hour.jsonl.gz"}})
	if from, c := l.h.hiccupClearOf(t0 + 401000); from != t0+401000 || c != 0 {
		t.Errorf("a replay: from %s, catch-up %d; want now and none", jobspec.Clock(from), c)
	}
}
