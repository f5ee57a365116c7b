package lab4

import (
	"fmt"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
)

// ex44 is exercise 4.4: the course's text and questions, and how it is done in labtui.
var ex44 = Exercise{
	ID: Moved,
	Instruction: "Switch EventTsAssigner to started_ts, replay again, and find a request whose cost " +
		"moved minutes. State in one sentence each why TenantCost and module 6's ModelLatency both " +
		"use completed_ts.",
	Evidence: "a replay with started_ts read to the end, and a request whose cost moved to another minute",
	Questions: []Question{
		{ID: "4.4a", Prompt: "Which request's cost moved minutes, from which minute to which?"},
		{ID: "4.4b", Prompt: "In one sentence: why does TenantCost use completed_ts?"},
		{ID: "4.4c", Prompt: "In one sentence: why does module 6's ModelLatency use completed_ts?"},
	},
	Guide: Guide{
		Uses:  []string{"t", "d"},
		Title: "started_ts moves a request's cost",
		Keys:  "t, then d and →",
		Short: "Press t: the job replays the recorded hour reading started_ts. Then d and → to the moved requests: find one whose cost moved minutes.",
		Do: "Press t: the job restarts with started_ts as its event time and replays the recorded hour. Then d " +
			"and → to the moved requests tab: the requests whose minute changed between the completed_ts replay " +
			"and this one.",
		Look: "A request that started in one minute and completed in the next: with started_ts its cost moves " +
			"to the earlier minute. Long requests move most; a request is billed when it completes, which is " +
			"why TenantCost (and ModelLatency, whose latency ends then) read completed_ts.",
	},
	Tables: movedTables,
	Rule:   movedRule,
	WhyNot: func(s Session, run Run) string { return replayWhyNot(s, run, Moved, jobspec.StartedTS, "t") },
}

// movedRule is 4.4's finding from a finished started_ts replay and the latest
// moved-requests list, or nothing until a request is found whose cost moved.
func movedRule(s Session, run Run, _ int64) Found {
	if !run.ReplayDone() || run.Timestamp() != jobspec.StartedTS {
		return Found{}
	}
	moved, sum := s.Moved()
	if len(moved) == 0 {
		return Found{}
	}
	mv := moved[0]
	for _, m := range moved {
		if !m.LateStarted {
			mv = m
			break
		}
	}
	f := &state.Finding{Run: run.Ref(), Met: true, TakenAt: s.Now()}
	n := len(moved)
	if sum != nil {
		n = sum.Moved
	}
	f.Moved = &state.MovedFacts{Count: n, Request: mv}
	explainLate(f, run)
	return Found{Finding: f}
}

func movedSentence(run state.RunRef, m state.MovedFacts) string {
	mv := m.Request
	s := fmt.Sprintf("In %s, %s changed minute; %s (%s, $%.4f) started %s", RunName(run), plural(m.Count, "request"), mv.RequestID, mv.Tenant, mv.USD,
		jobspec.Clock(mv.StartedTS))
	if mv.CompletedTS != 0 {
		s += " and completed " + jobspec.Clock(mv.CompletedTS)
	}
	s += fmt.Sprintf(": completed_ts bills it in %s, started_ts in %s", hhmm(mv.CompletedMinute), hhmm(mv.StartedMinute))
	if mv.LateStarted {
		s += ", where it was dropped as late"
	}
	return s + "."
}

// movedListed is how many moved requests 4.4's table lists; the JSON has every one kept.
const movedListed = 5

// movedTables is 4.4's table: the first requests whose cost moved minutes between the
// completed_ts and the started_ts replay (ev.Moved), with their summary when the runs
// were compared whole (ev.MovedSummary); none when there is neither. Without a finding,
// the started_ts replays a file saved before findings existed kept come first (the
// sheet's).
func movedTables(f *state.Finding, ev state.Evidence) []Table {
	var saved []Table
	if f == nil {
		saved = savedReplays(ev.Replays, jobspec.StartedTS)
	}
	moved, s := ev.Moved, ev.MovedSummary
	if len(moved) == 0 && s == nil {
		return saved
	}
	t := Table{Title: "yours: requests whose cost moved minutes with started_ts"}
	if s != nil {
		t.Title += fmt.Sprintf(": %s (compared: %s).", s.Summary, s.Compared)
	}
	if len(moved) == 0 {
		return append(saved, t)
	}
	t.Header = []string{"request", "tenant", "USD", "started_ts", "completed_ts", "minute by completed_ts", "minute by started_ts", "late with started_ts"}
	listed := moved[:min(len(moved), movedListed)]
	for _, m := range listed {
		completed, late := "", "no"
		if m.CompletedTS != 0 {
			completed = jobspec.Clock(m.CompletedTS)
		}
		if m.LateStarted {
			late = "yes"
		}
		t.Rows = append(t.Rows, []string{m.RequestID, m.Tenant, fmt.Sprintf("%.4f", m.USD), jobspec.Clock(m.StartedTS), completed,
			hhmm(m.CompletedMinute), hhmm(m.StartedMinute), late})
	}
	total := len(moved)
	if s != nil {
		total = s.Moved
	}
	if total > len(listed) {
		t.Note = fmt.Sprintf("(%s more moved requests in the JSON.)", count(int64(total-len(listed))))
	}
	return append(saved, t)
}
