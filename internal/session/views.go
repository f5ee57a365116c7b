package session

import (
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/labs/lab4"
)

// runView is run as the exercises' rules read it (lab4.Run).
type runView struct {
	s   *Session
	run *Run
}

func (v runView) Ref() state.RunRef                            { return v.s.runRef(v.run) }
func (v runView) Why() string                                  { return v.run.why() }
func (v runView) Replay() bool                                 { return v.run.Replay }
func (v runView) ReadsRecording() bool                         { return v.run.ReadsRecording() }
func (v runView) ReplayDone() bool                             { return v.run.ReplayDone }
func (v runView) Killed() bool                                 { return v.run.Cause == backend.CauseKill }
func (v runView) Timestamp() jobspec.TimestampField            { return v.run.Timestamp }
func (v runView) Watermarks() watermark.Strategy               { return v.run.Watermarks }
func (v runView) StartedAt() int64                             { return v.run.StartedAt }
func (v runView) Rows() lab4.Rows                              { return v.run.Table }
func (v runView) Clocks() minutes.Clocks                       { return v.s.ClocksFor(v.run) }
func (v runView) Late() lab4.Records                           { return v.run.Late }
func (v runView) LateCount() int                               { return v.run.LateCount }
func (v runView) LateFacts() state.LateFacts                   { return lateFacts(v.run) }
func (v runView) StillOpen() []jobspec.Result                  { return v.run.StillOpen() }
func (v runView) Latency() time.Duration                       { return v.run.Latency }
func (v runView) TracesComplete() bool                         { return v.run.Results.complete() }
func (v runView) Hiccups() []lab4.Hold                         { return v.run.Hiccups }
func (v runView) Traces(yield func(*jobspec.RecordTrace) bool) { v.run.Results.traces(yield) }

// sessionView is the session as the exercises' rules read it (lab4.Session).
type sessionView struct{ s *Session }

func (v sessionView) Now() int64 { return v.s.Now() }

func (v sessionView) Runs() []lab4.Run {
	out := make([]lab4.Run, len(v.s.runs))
	for i, r := range v.s.runs {
		out[i] = runView{v.s, r}
	}
	return out
}

func (v sessionView) Before(run lab4.Run) lab4.Run {
	r, ok := run.(runView)
	if !ok {
		return nil
	}
	if b := v.s.runBefore(r.run); b != nil {
		return runView{v.s, b}
	}
	return nil
}

func (v sessionView) Comparison(id int) *state.Comparison { return v.s.ev.comparisonOf(id) }

func (v sessionView) Moved() ([]state.Moved, *state.MovedSummary) {
	return v.s.ev.evidence.Moved, v.s.ev.evidence.MovedSummary
}

// traces calls yield with each trace kept, oldest first, until it returns false.
func (r *Results) traces(yield func(*jobspec.RecordTrace) bool) {
	for _, part := range [][]jobspec.Result{r.items, r.after} {
		for i := range part {
			if part[i].Kind == jobspec.TraceResult && !yield(&part[i].Record) {
				return
			}
		}
	}
}
