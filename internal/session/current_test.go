package session

import (
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// TestTheDifferingRowsAreNewestFirstWithoutMarks: of three minutes, the two whose acme
// cells differ, 10:02 first; the mark line between them is no row.
func TestTheDifferingRowsAreNewestFirstWithoutMarks(t *testing.T) {
	l := newLab()
	l.started()
	l.minute(0, 0.2, 0.2)
	l.minute(1, 0.2, 0.3)
	l.h.Mark(t0+90000, "mark 10:01:30")
	l.minute(2, 0.4, 0.2)
	rows := l.h.DifferingRows(l.h.Current())
	if len(rows) != 2 || rows[0].WindowStart != t0+120000 || rows[1].WindowStart != t0+60000 || rows[0].Tenant != "acme" {
		t.Errorf("the ≠ rows = %+v, want acme 10:02 and 10:01", rows)
	}
}

// TestTheTimestampIsTheStatussOrTheRunsBeforeIt: completed_ts, the first run's, before
// any status; then the field the status says the job reads.
func TestTheTimestampIsTheStatussOrTheRunsBeforeIt(t *testing.T) {
	l := newLab()
	if got := l.h.Timestamp(); got != jobspec.CompletedTS {
		t.Errorf("before a status: %s, want completed_ts", got)
	}
	st := status(t0+1000, t0)
	st.Timestamp = jobspec.StartedTS
	l.apply(backend.Update{Status: st})
	if got := l.h.Timestamp(); got != jobspec.StartedTS {
		t.Errorf("after a status of started_ts: %s", got)
	}
}
