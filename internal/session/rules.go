package session

import (
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// minute is a minute window's length in ms.
const minute = 60000

// startOf is the start of the minute ms falls in.
func startOf(ms int64) int64 { return ms - ms%minute }

// hhmm is a time as UTC hh:mm.
func hhmm(ms int64) string { return jobspec.Clock(ms)[:5] }

// hiccupsFromStatus notices a hiccup the status shows that the learner did not inject
// from this TUI (a script, another terminal, a scheduled one), so LastHiccup and marks
// know it too.
func (t *tracker) hiccupsFromStatus(s *Session, st *backend.Status) {
	for _, in := range st.Instances {
		if !in.Hiccup || t.knownHiccup(in.Name, st.Now) {
			continue
		}
		t.injected(s, in.Name, in.HiccupLeft, st.Now)
	}
}

func (t *tracker) knownHiccup(instance string, now int64) bool {
	for _, x := range t.hiccups {
		if x.instance == instance && now <= x.at+x.d.Milliseconds()+2000 {
			return true
		}
	}
	return false
}

// labelled fills in which run a table copy came from.
func labelled(rows []minutes.Row, omitted int, run *Run, at int64) *state.Table {
	return &state.Table{Run: run.ID, Reason: run.why(), Timestamp: run.Timestamp.String(), TakenAt: at, Rows: rows, Omitted: omitted}
}
