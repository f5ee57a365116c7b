package session

import (
	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/state"
)

// maxMoved is how many moved requests the evidence lists.
const maxMoved = 20

// movedEvidence is what the export keeps of a moved-requests list: the totals, with
// compared naming the two runs, and the first MaxMoved requests.
func movedEvidence(m *diff.Moves, compared string) (state.MovedSummary, []state.Moved) {
	late, lateUSD := m.Late(diff.B)
	s := state.MovedSummary{Summary: m.Summary(MovedNames), Compared: compared, Both: m.Both, Moved: len(m.Moves), USD: m.USD(),
		LateStarted: late, LateStartedUSD: lateUSD}
	var list []state.Moved
	for i := range m.Moves {
		if i == maxMoved {
			break
		}
		mv := &m.Moves[i]
		list = append(list, state.Moved{RequestID: mv.RequestID, Tenant: mv.TenantID, Gateway: mv.Gateway, USD: mv.USD,
			CompletedMinute: m.WindowStart(mv, diff.A), StartedMinute: m.WindowStart(mv, diff.B),
			CompletedTS: mv.A.Timestamp, StartedTS: mv.B.Timestamp, LateStarted: mv.B.Late})
	}
	s.Listed = len(list)
	return s, list
}
