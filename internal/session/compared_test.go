package session

import (
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
)

func TestAComparisonGoesWithTheReplayOfItsRun(t *testing.T) {
	l := newLab()
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	l.minute(0, 0.2, 0.2)
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 12, Done: true}})
	run := l.h.Current().ID
	l.t.takeChanged()
	l.t.compared(l.h, run+1, state.Comparison{Reference: "another run"})
	l.t.compared(l.h, run, state.Comparison{Reference: "a re-enactment", EventTime: state.DiffReport{Summary: "event-time: 1 row"}})
	if !l.t.takeChanged() {
		t.Error("a comparison did not count as a change")
	}
	var st state.State
	l.t.fill(&st)
	if c := st.Evidence.Replays[0].Compare; c == nil || c.Reference != "a re-enactment" {
		t.Errorf("comparison = %+v", c)
	}
}

func TestMovedFoundReplacesTheRequestsNotedOneByOne(t *testing.T) {
	l := newLab()
	l.t.evidence.Moved = []state.Moved{{RequestID: "r-1"}}
	l.t.movedFound(l.h, state.MovedSummary{Moved: 2, Listed: 2}, []state.Moved{{RequestID: "r-7"}, {RequestID: "r-8"}})
	// A trace arriving later does not add to a list worked out whole.
	l.t.trace(l.h.Current(), jobspec.RecordTrace{RequestID: "r-9"})
	var st state.State
	l.t.fill(&st)
	if len(st.Evidence.Moved) != 2 || st.Evidence.Moved[0].RequestID != "r-7" || st.Evidence.MovedSummary.Moved != 2 {
		t.Errorf("moved = %+v, summary %+v", st.Evidence.Moved, st.Evidence.MovedSummary)
	}
}
