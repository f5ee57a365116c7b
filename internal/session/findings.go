package session

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// RunRef names run as findings and the saved state name it.
func (s *Session) RunRef(run *Run) state.RunRef { return s.runRef(run) }

// runRef names run for a finding.
func (s *Session) runRef(run *Run) state.RunRef {
	ref := state.RunRef{ID: run.ID, Kind: run.kind(), Timestamp: run.Timestamp.String(), Watermarks: run.watermarkStrategy(), StartedAt: run.StartedAt}
	if run.Replay {
		ref.Recording = filepath.Base(s.RecordingOf(run))
	}
	return ref
}

// Finding returns exercise id's finding as it stands (lab4.Agreement to lab4.Moved): the run that backs
// it, whether the rule is met, the sentence that proves it. It is nil while no run has
// shown any of it. The finding is the session's; do not change it.
func (s *Session) Finding(id string) *state.Finding { return s.ev.evidence.Findings[id] }

// pin makes run id back exercise ex's evidence from now on, whatever later runs show; a
// saved finding from an earlier session is replaced by the run's. It fails, saying why,
// when the run is not kept or cannot back the exercise.
func (s *Session) pin(ex string, id int) error {
	run := s.run(id)
	if run == nil {
		return fmt.Errorf("run %d is no longer kept: pick one of %s", id, refList(s.candidates(ex)))
	}
	f := s.findingFor(ex, run, 0)
	if f == nil {
		return fmt.Errorf("run %d (%s) shows nothing for %s: %s", id, lab4.KindWords(run.kind()), ex, ruleOf(ex))
	}
	f.Pinned = true
	s.ev.setFinding(s, ex, f)
	s.ev.thaw(id)
	s.ev.thawUnpinned()
	return nil
}

// Unpin lets exercise ex's evidence follow the rule's pick again.
func (s *Session) Unpin(ex string) {
	if f := s.ev.evidence.Findings[ex]; f != nil && f.Pinned {
		f.Pinned = false
		s.ev.changed = true
		s.ev.updateFindings(s, true)
	}
}

// Answered takes in the learner's answers as they stand. An exercise whose answer
// changed has its evidence pinned to the run that backs it now: the evidence is the run
// the answer describes, not whatever run comes after.
func (s *Session) Answered(answers map[string]string) {
	for q, a := range answers {
		if s.ev.answers[q] == a {
			continue
		}
		s.ev.answers[q] = a
		ex := lab4.ExerciseOf(q)
		if f := s.ev.evidence.Findings[ex]; f != nil && !f.Pinned && strings.TrimSpace(a) != "" {
			f.Pinned = true
			s.ev.changed = true
		}
	}
}

// candidates lists the kept runs that show something for exercise ex, oldest first:
// the runs the learner can pin.
func (s *Session) candidates(ex string) []state.RunRef {
	var out []state.RunRef
	for _, run := range s.runs {
		if s.findingFor(ex, run, 0) != nil {
			out = append(out, s.runRef(run))
		}
	}
	return out
}

func refList(refs []state.RunRef) string {
	if len(refs) == 0 {
		return "none yet"
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = fmt.Sprintf("run %d", r.ID)
	}
	return strings.Join(names, ", ")
}

// ruleOf is exercise ex's evidence rule, as the learner reads it.
func ruleOf(ex string) string {
	return lab4.RuleOf(ex)
}

// findingFor works out exercise ex's finding from run alone, or nil; about, when not 0,
// is the event it must be about (4.2's hiccup start). The hiccup evidence a 4.2
// finding comes with is kept for the sheet beside it.
func (s *Session) findingFor(ex string, run *Run, about int64) *state.Finding {
	got := lab4.RuleFor(ex, sessionView{s}, runView{s, run}, about)
	if got.Finding != nil && got.Held != nil {
		s.ev.held[got.Finding] = got.Held
	}
	return got.Finding
}

// plural is "1 request" or "3 requests".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%s %ss", Count(int64(n)), word)
}

// updateFindings works out each unpinned exercise's finding from the rule's pick, and
// refreshes a pinned one from its run while the run is kept, at most once per
// RefreshEvery unless now.
func (t *tracker) updateFindings(s *Session, now bool) {
	if !now && s.Now()-t.findingsAt < refreshEvery {
		return
	}
	t.findingsAt = s.Now()
	t.thawUnpinned()
	clear(t.held)
	for _, e := range lab4.Exercises() {
		ex := e.ID
		old := t.evidence.Findings[ex]
		if old != nil && old.Pinned {
			// Pinned before its rule was met, it follows its own run until it is: the
			// answer cannot be about evidence that is not there yet.
			if run := s.run(old.Run.ID); !old.Met && run != nil && run.is(old.Run) {
				if f := s.findingFor(ex, run, old.About); f != nil {
					f.Pinned = true
					t.setFinding(s, ex, f)
				}
			}
			t.noteNewer(s, ex)
			continue
		}
		delete(t.newer, ex)
		if f := t.pick(s, ex); f != nil && (old == nil || s.kept(old.Run) || outweighs(f, old)) {
			t.setFinding(s, ex, f)
		}
	}
}

// kept reports whether the run ref names is one of the session's kept runs.
func (s *Session) kept(ref state.RunRef) bool {
	run := s.run(ref.ID)
	return run != nil && run.is(ref)
}

// outweighs reports whether finding f of this session may take the place of an earlier
// session's: when it is met, or neither is and it shows more. A run that has just begun
// does not undo the evidence a learner saved and continued from.
func outweighs(f, old *state.Finding) bool {
	return f.Met || !old.Met && len(f.Rows) > len(old.Rows)
}

// noteNewer notes what the rule would make of ex now, when it differs from the pinned
// finding: a pinned finding is frozen as it stood when it was pinned (by p, or by an
// answer written while it backed the step), and the learner decides whether the newer
// evidence replaces it (Repin). An earlier session's pinned finding is offered only what
// outweighs it (a run that has just begun is no newer evidence).
func (t *tracker) noteNewer(s *Session, ex string) {
	cur, was := t.evidence.Findings[ex], t.newer[ex]
	if f := t.pick(s, ex); f != nil && cur != nil && !sameEvidence(cur, f) && (s.kept(cur.Run) || outweighs(f, cur)) {
		t.newer[ex] = f
		t.changed = t.changed || was == nil || !sameEvidence(was, f)
		return
	}
	if was != nil {
		delete(t.newer, ex)
		t.changed = true
	}
}

// Newer is what the rule would make of exercise ex now, when its finding is pinned and
// later runs (or more of its own run) would change it; nil when nothing would.
func (s *Session) Newer(ex string) *state.Finding { return s.ev.newer[ex] }

// Repin replaces exercise ex's pinned finding with what the rule makes of it now
// (Newer), pinned in turn, and returns it; it fails, saying so, when nothing newer is
// there.
func (s *Session) Repin(ex string) (*state.Finding, error) {
	f := s.ev.newer[ex]
	if f == nil {
		return nil, fmt.Errorf("%s's evidence is already what the runs show: nothing newer to take", ex)
	}
	if run := s.run(f.Run.ID); run != nil && run.is(f.Run) {
		// Worked out again from its run, with the tables the export shows beside it.
		if g := s.findingFor(ex, run, f.About); g != nil {
			f = g
		}
	} else {
		f = f.Clone()
	}
	f.Pinned = true
	delete(s.ev.newer, ex)
	s.ev.setFinding(s, ex, f)
	s.ev.thaw(f.Run.ID)
	s.ev.thawUnpinned()
	return s.Finding(ex), nil
}

// sameEvidence reports whether two findings are the same evidence: the same run, the
// same verdict and the same numbers, whenever each was worked out.
func sameEvidence(a, b *state.Finding) bool {
	return a.Run == b.Run && a.Met == b.Met && lab4.Sentence(a) == lab4.Sentence(b) && sameRows(a.Rows, b.Rows)
}

// pick is the rule's choice of run for ex: the newest run that shows it, unless the
// exercise prefers an older run's finding (4.1: the most prompt agreeing minutes).
func (t *tracker) pick(s *Session, ex string) *state.Finding {
	var best *state.Finding
	for i := len(s.runs) - 1; i >= 0; i-- {
		f := s.findingFor(ex, s.runs[i], 0)
		if f == nil {
			continue
		}
		if best == nil || lab4.Prefers(ex, f, best) {
			best = f
		}
	}
	return best
}

// setFinding keeps f as ex's finding, ticks the step when the rule is met, and keeps
// the tables the export has always shown in step.
func (t *tracker) setFinding(s *Session, ex string, f *state.Finding) {
	if t.evidence.Findings == nil {
		t.evidence.Findings = map[string]*state.Finding{}
	}
	if old := t.evidence.Findings[ex]; old != nil && sameFinding(old, f) {
		return
	}
	t.evidence.Findings[ex] = f
	t.changed = true
	if f.Met {
		t.tick(ex, s.Now())
	}
	if ex == lab4.Agreement {
		t.evidence.Agreement = &state.Table{Run: f.Run.ID, Reason: f.Run.Kind, Timestamp: f.Run.Timestamp, TakenAt: f.TakenAt, Rows: f.Rows}
	}
	if h := t.held[f]; ex == lab4.Hiccup && h != nil {
		t.evidence.Hiccup = h
	}
}

// sameFinding reports whether two findings say the same of the same rows.
func sameFinding(a, b *state.Finding) bool {
	return a.Pinned == b.Pinned && sameEvidence(a, b)
}

// sameRows reports whether two findings' rows say the same.
func sameRows(a, b []minutes.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.WindowStart != y.WindowStart || x.Tenant != y.Tenant || x.Cells != y.Cells || x.Differs != y.Differs || x.Mark != y.Mark {
			return false
		}
	}
	return true
}

// PictureRun is the run whose skew picture the export draws, and the exercise it is
// evidence for: the run that backs 4.2's finding (the picture shows the hiccup), else
// 4.3's, 4.4's or 4.1's, while it is kept with its traced records; else the newest run
// with traced records, for the exercise its kind suggests. It is nil when no run kept
// has any.
func (s *Session) PictureRun() (*Run, string) {
	for _, ex := range []string{lab4.Hiccup, lab4.Replay, lab4.Moved, lab4.Agreement} {
		f := s.ev.evidence.Findings[ex]
		if f == nil {
			continue
		}
		if run := s.run(f.Run.ID); run != nil && run.StartedAt == f.Run.StartedAt && run.Results.traced() {
			return run, ex
		}
	}
	if len(s.ev.evidence.Findings) > 0 {
		// The evidence is of runs no longer kept (an earlier session's): another run's
		// picture would be evidence of nothing; the export refers to the one it wrote.
		return nil, ""
	}
	for i := len(s.runs) - 1; i >= 0; i-- {
		if run := s.runs[i]; run.Results.traced() {
			return run, exerciseOf(run)
		}
	}
	return nil, ""
}

// PictureWritten notes the skew picture an export wrote, so a later export refers to it
// while its run backs its exercise and is no longer kept.
func (s *Session) PictureWritten(p state.Picture) {
	s.ev.evidence.Picture = &p
	s.ev.changed = true
}

// exerciseOf is the exercise a run's picture suggests: a replay is 4.3 or 4.4 by its
// timestamp field, a live run with a hiccup 4.2, any other 4.1.
func exerciseOf(run *Run) string {
	switch {
	case run.Replay && run.Timestamp == jobspec.StartedTS:
		return lab4.Moved
	case run.Replay:
		return lab4.Replay
	case len(run.Hiccups) > 0:
		return lab4.Hiccup
	}
	return lab4.Agreement
}

// traced reports whether rs hold a record's trace, looking from the newest.
func traced(rs []jobspec.Result) bool {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].Kind == jobspec.TraceResult {
			return true
		}
	}
	return false
}
