package session

import (
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
)

// tracker decides the steps and keeps their evidence. It is driven from the update
// loop only.
type tracker struct {
	steps    map[string]state.Step
	evidence state.Evidence
	changed  bool

	hiccups []hiccup
	// refresh re-takes evidence copies while their run is still producing rows.
	refresh []refresher
	// pendingReplay is the replay the learner asked for, until it reports Done.
	pendingReplay *replayAsk
	moved         *movedIndex
	// answers are the learner's answers as Answered last saw them.
	answers map[string]string
	// findingsAt is when the findings were last worked out.
	findingsAt int64
	// held is the 4.2 table the export has always shown, for each 4.2 finding worked
	// out since then.
	held map[*state.Finding]*state.Hiccup
	// newer is what the rule would make of a pinned exercise now, where that differs
	// from its frozen finding (Session.Newer).
	newer map[string]*state.Finding
	// waiting is, by run, a replay's newer comparison held back from the evidence while
	// a pinned finding rests on the one the evidence keeps (see compared).
	waiting map[int]*state.Comparison
}

// hiccup is one injected hiccup, in the run it happened in.
type hiccup struct {
	instance string
	d        time.Duration
	at       int64
	run      *Run
}

// refresher re-takes one piece of evidence until the lab's processing time passes until
// or its run ends, at most once per RefreshEvery.
type refresher struct {
	run     *Run
	until   int64
	version uint64
	taken   int64
	take    func()
}

// refreshEvery is how often, in the lab's processing time, evidence that follows a run is
// copied again while the run produces rows.
const refreshEvery = 1000

type replayAsk struct {
	path  string
	field jobspec.TimestampField
}

// newTracker returns a tracker starting from saved progress (steps and evidence).
func newTracker(saved state.State) *tracker {
	t := &tracker{steps: map[string]state.Step{}, evidence: saved.Clone().Evidence, moved: newMovedIndex(movedIndexLimit),
		answers: map[string]string{}, held: map[*state.Finding]*state.Hiccup{},
		newer: map[string]*state.Finding{}, waiting: map[int]*state.Comparison{}}
	for q, a := range saved.Answers {
		t.answers[q] = a
	}
	for k, v := range saved.Steps {
		t.steps[k] = v
	}
	return t
}

// done reports whether step id is ticked.
func (t *tracker) done(id string) bool { return t.steps[id].Done }

// takeChanged reports whether steps or evidence changed since the last call.
func (t *tracker) takeChanged() bool {
	c := t.changed
	t.changed = false
	return c
}

// fill copies the steps and the evidence into st, for saving or exporting; evidence
// that follows a run is copied afresh first.
func (t *tracker) fill(st *state.State) {
	t.flush()
	st.Steps = make(map[string]state.Step, len(t.steps))
	for k, v := range t.steps {
		st.Steps[k] = v
	}
	st.Evidence = state.State{Evidence: t.evidence}.Clone().Evidence
}

// injected records a hiccup the learner injected, at processing time at.
func (t *tracker) injected(s *Session, instance string, d time.Duration, at int64) {
	t.hiccups = append(t.hiccups, hiccup{instance: instance, d: d, at: at, run: s.Current()})
	if len(t.hiccups) > 16 {
		t.hiccups = t.hiccups[1:]
	}
	t.changed = true
}

// lastHiccup returns the latest hiccup injected, if any.
func (t *tracker) lastHiccup() (instance string, at int64, d time.Duration, ok bool) {
	if len(t.hiccups) == 0 {
		return "", 0, 0, false
	}
	x := t.hiccups[len(t.hiccups)-1]
	return x.instance, x.at, x.d, true
}

// replayAsked records that the learner asked for a replay of path with field.
func (t *tracker) replayAsked(path string, field jobspec.TimestampField) {
	t.pendingReplay = &replayAsk{path: path, field: field}
}

// observe takes in one update after the runs took it in, and re-checks the steps.
func (t *tracker) observe(s *Session, u backend.Update) {
	for i := range u.Results {
		if r := &u.Results[i]; r.Kind == jobspec.TraceResult {
			t.trace(s.Current(), r.Record)
		}
	}
	if u.Status != nil {
		t.hiccupsFromStatus(s, u.Status)
	}
	if u.Replay != nil && (u.Replay.Done || u.Replay.Err != nil) {
		t.replayFinished(s, *u.Replay)
	}
	if len(u.Results) > 0 || u.Status != nil || u.Restarted != nil {
		t.updateFindings(s, u.Restarted != nil)
		t.runRefreshers(s)
	}
}

// tick marks step id done, once: its evidence is the finding's.
func (t *tracker) tick(id string, at int64) {
	if t.steps[id].Done {
		return
	}
	t.steps[id] = state.Step{Done: true, At: at}
	t.changed = true
}

// watch adds a refresher and takes the evidence once now.
func (t *tracker) watch(s *Session, run *Run, until int64, take func()) {
	take()
	t.changed = true
	t.refresh = append(t.refresh, refresher{run: run, until: until, version: run.Table.Version(), taken: s.Now(), take: take})
}

// runRefreshers re-takes the evidence whose run changed, at most once per RefreshEvery,
// and lets go of the ones whose time is up, after a last copy.
func (t *tracker) runRefreshers(s *Session) {
	n := s.Now()
	kept := t.refresh[:0]
	for _, r := range t.refresh {
		over := r.run.Ended || n > r.until
		if v := r.run.Table.Version(); v != r.version && (over || n-r.taken >= refreshEvery) {
			r.version, r.taken = v, n
			r.take()
			t.changed = true
		}
		if !over {
			kept = append(kept, r)
		}
	}
	clear(t.refresh[len(kept):])
	t.refresh = kept
}

// flush re-takes every watched evidence whose run changed since its last copy.
func (t *tracker) flush() {
	for i := range t.refresh {
		r := &t.refresh[i]
		if v := r.run.Table.Version(); v != r.version {
			r.version = v
			r.take()
		}
	}
}

// restore lays saved progress under what this session found: a step ticked before stays
// ticked, and saved evidence fills in what this session has not captured yet.
func (t *tracker) restore(saved state.State) {
	s := saved.Clone()
	for id, st := range s.Steps {
		if st.Done && !t.steps[id].Done {
			t.steps[id] = st
		}
	}
	e := &t.evidence
	if e.Agreement == nil {
		e.Agreement = s.Evidence.Agreement
	}
	if e.Hiccup == nil {
		e.Hiccup = s.Evidence.Hiccup
	}
	if len(e.Moved) == 0 {
		e.Moved, e.MovedSummary = s.Evidence.Moved, s.Evidence.MovedSummary
	}
	if e.Picture == nil {
		e.Picture = s.Evidence.Picture
	}
	for id, f := range s.Evidence.Findings {
		if e.Findings == nil {
			e.Findings = map[string]*state.Finding{}
		}
		if e.Findings[id] == nil {
			e.Findings[id] = f
		}
	}
	for q, a := range saved.Answers {
		t.answers[q] = a
	}
	rs := append(s.Evidence.Replays, e.Replays...)
	if len(rs) > state.MaxReplays {
		rs = rs[len(rs)-state.MaxReplays:]
	}
	e.Replays = rs
	var lines []state.ReplayRun
	for _, r := range s.Evidence.Replayed {
		if !replayedIn(e.Replayed, r.Run) {
			lines = append(lines, r)
		}
	}
	e.Replayed = lastOf(append(lines, e.Replayed...), state.MaxReplayed)
	t.changed = true
}

// replayedIn reports whether lines has a line for run.
func replayedIn(lines []state.ReplayRun, run state.RunRef) bool {
	for _, l := range lines {
		if l.Run.ID == run.ID && l.Run.StartedAt == run.StartedAt {
			return true
		}
	}
	return false
}
