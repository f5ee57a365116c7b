package session

import (
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
)

// Timestamp is the timestamp field the job reads now: the latest status's, or the
// current run's before the first status.
func (s *Session) Timestamp() jobspec.TimestampField {
	if s.Status != nil {
		return s.Status.Timestamp
	}
	return s.Current().Timestamp
}

// DifferingRows are run's ≠ rows, newest first: the (minute, tenant) rows whose two
// windows differ, judged by the run's clocks (ClocksFor). Mark lines are not rows.
func (s *Session) DifferingRows(run *Run) []minutes.Row {
	clocks := s.ClocksFor(run)
	var rows []minutes.Row
	for i := run.Table.Len() - 1; i >= 0; i-- {
		if r := run.Table.Row(i); !r.IsMark() && r.Verdict(clocks) == minutes.Differs {
			rows = append(rows, *r)
		}
	}
	return rows
}
