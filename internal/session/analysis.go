package session

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// analysis is what the session works out from the runs off the loop, and keeps: the
// reference run of each (recording, timestamp field), each finished replay's comparison
// with its reference, and the latest moved-requests list.
type analysis struct {
	refs  map[refKey]*reference
	diffs map[int]*comparison
	// chosen is the run the learner chose as the replays' reference; 0 is the recorded
	// hour re-enacted at its recorded times.
	chosen int
	moved  movedList
	// version changes whenever any of it changes, so a view rebuilds only then.
	version uint64
}

func newAnalysis() analysis {
	return analysis{refs: map[refKey]*reference{}, diffs: map[int]*comparison{}}
}

// refKey names a reference run: a recording re-enacted with one timestamp field.
type refKey struct {
	path  string
	field jobspec.TimestampField
}

// reference is a reference run, or its re-enactment under way. Its results are kept
// from the re-enactment until the next replay starts, and made again when a comparison
// asks for them after that: a replay's reading is the session's peak (the replay's
// pipeline, its results, the run before it and the live run), and the recorded hour's
// re-enactment is 12 MB more there that nothing reads. What the session reads of it
// between re-enactments (its size, its held gateway) is kept.
type reference struct {
	// results is the re-enactment's output; nil once let go (letGoReferences), or
	// when it wrote nothing.
	results []jobspec.Result
	// n is how many results the re-enactment wrote, and held the gateway held apart in it
	// (HeldIn): both outlast results.
	n    int
	held string
	// made says the re-enactment was made once without error: n and held are known.
	made    bool
	err     error
	pending bool
	// waiting are the runs whose comparison waits for the re-enactment under way.
	waiting []int
}

// kept reports whether the re-enactment's results are at hand: made, and not let go
// since (one that wrote nothing has nothing to let go).
func (r *reference) kept() bool { return r.made && (r.results != nil || r.n == 0) }

// wait has run id's comparison wait for the re-enactment under way.
func (r *reference) wait(id int) {
	if !slices.Contains(r.waiting, id) {
		r.waiting = append(r.waiting, id)
	}
}

// letGoReferences lets go of every re-enactment's results, keeping what the session
// reads of them: a replay is starting.
func (s *Session) letGoReferences() {
	for _, ref := range s.an.refs {
		if !ref.pending {
			ref.results = nil
		}
	}
}

// comparison is a finished replay's comparison with its reference. A run's output can
// still change after its replay finished (its processing-time window fires at the next
// minute of the wall clock): output is the run's output version compared, and a newer
// one is compared again when the one under way is done.
type comparison struct {
	pending bool
	output  uint64
	diff    *ReplayDiff
	title   string
	// against names the reference in a sentence.
	against string
}

// movedList is the latest moved-requests list; key names the two outputs it compared.
type movedList struct {
	key     string
	pending bool
	err     error
	moves   *diff.Moves
	title   string
}

// RecordingOf is the recording a replay run read.
func (s *Session) RecordingOf(r *Run) string {
	if r.ReplayPath != "" {
		return r.ReplayPath
	}
	return s.cfg.Recording
}

// analyze starts what an update makes due: a replay's comparison and the moved
// requests when it finishes, and a finished replay's comparison again when its output
// changed.
func (s *Session) analyze(u backend.Update) []Task {
	var tasks []Task
	if p := u.Replay; p != nil && p.Done && p.Err == nil {
		if run := s.Current(); run.ReplayDone {
			tasks = append(tasks, s.compare(run)...)
			tasks = append(tasks, s.findMoved()...)
		}
	}
	if len(u.Results) > 0 || u.Status != nil {
		changed := false
		for _, run := range s.runs {
			if c := s.an.diffs[run.ID]; c != nil && !c.pending && c.output != run.output {
				tasks = append(tasks, s.compare(run)...)
				changed = true
			}
		}
		if changed {
			// A replay's output changed after its Done (a real job's results come after
			// its source has read the topic): the moved requests are listed again too.
			tasks = append(tasks, s.findMoved()...)
		}
	}
	return tasks
}

// reference returns the reference run of key when its results are kept; else it starts
// its re-enactment (again, if they were let go) and returns the task, or nothing when it
// is under way or failed. While it is made, the comparison of run waiter (0 for none)
// waits for it.
func (s *Session) reference(key refKey, waiter int) (*reference, []Task) {
	ref := s.an.refs[key]
	var tasks []Task
	switch {
	case s.cfg.Reenact != nil && (ref == nil || !ref.kept() && !ref.pending && ref.err == nil):
		if ref == nil {
			ref = &reference{}
			s.an.refs[key] = ref
		}
		ref.pending = true
		s.an.version++
		tasks = []Task{s.reenactTask(key)}
	case ref == nil || ref.err != nil:
		return nil, nil
	case !ref.pending:
		return ref, nil
	}
	if waiter != 0 {
		ref.wait(waiter)
	}
	return nil, tasks
}

// heldInReference returns the gateway held apart in a recording's reference run
// re-enacted with field (HeldIn), once it has been worked out: it outlasts the
// re-enactment's results.
func (s *Session) heldInReference(path string, field jobspec.TimestampField) (string, bool) {
	ref := s.an.refs[refKey{path, field}]
	if ref == nil || !ref.made {
		return "", false
	}
	return ref.held, true
}

func (s *Session) reenactTask(key refKey) Task {
	reenact, job := s.cfg.Reenact, s.cfg.Job
	job.Trace, job.Timestamp = true, key.field
	return Task{What: fmt.Sprintf("re-enact %s with %s", filepath.Base(key.path), key.field), run: func(ctx context.Context) Outcome {
		rs, err := reenact(ctx, key.path, job)
		held := ""
		if err != nil {
			err = fmt.Errorf("re-enact %s: %w", filepath.Base(key.path), err)
		} else {
			held = heldIn(rs)
		}
		return Outcome{apply: func(s *Session) []Task { return s.referenceDone(key, rs, held, err) }}
	}}
}

// referenceDone keeps a reference and starts what waited for it: the comparisons of the
// runs that asked for it (every replay of the key, the first time) and the moved requests.
func (s *Session) referenceDone(key refKey, rs []jobspec.Result, held string, err error) []Task {
	ref := s.an.refs[key]
	if ref == nil {
		ref = &reference{}
		s.an.refs[key] = ref
	}
	first := !ref.made
	waiting := ref.waiting
	ref.results, ref.err, ref.pending, ref.waiting = rs, err, false, nil
	if err == nil {
		ref.n, ref.held, ref.made = len(rs), held, true
	}
	s.an.version++
	var tasks []Task
	for _, run := range s.runs {
		if run.ReplayDone && run.Timestamp == key.field && s.RecordingOf(run) == key.path && (first || slices.Contains(waiting, run.ID)) {
			tasks = append(tasks, s.compare(run)...)
		}
	}
	return append(tasks, s.findMoved()...)
}

// compare compares a finished replay run with its reference, unless that is under way.
func (s *Session) compare(run *Run) []Task {
	c := s.an.diffs[run.ID]
	if c != nil && c.pending {
		return nil
	}
	if !s.comparing() {
		// No comparison holds an output now: the room the last ones were lent is free.
		run.Results.reclaim()
		if chosen := s.run(s.an.chosen); chosen != nil {
			chosen.Results.reclaim()
		}
	}
	path := s.RecordingOf(run)
	var refs []jobspec.Result
	names := Names
	// The re-enactment runs under the job's configured strategy, whatever the replay's:
	// the reference and the replay are named with theirs wherever they are compared.
	// The re-enactment reads at the recorded times; a replay as fast as the broker serves it.
	strategies := &diff.Strategies{A: s.cfg.Job.Watermarks, B: run.Watermarks, FastB: true}
	strategy := s.cfg.Job.Watermarks.Name()
	against := lab4.Reenacted + " under " + strategy
	var againstRun *state.RunRef
	reference := fmt.Sprintf("the recorded hour %s re-enacted at its recorded times with %s under %s (what its live run billed)",
		filepath.Base(path), run.Timestamp, strategy)
	if run.Timestamp != jobspec.CompletedTS {
		// The hour's live run read completed_ts: a started_ts re-enactment is what a live
		// run reading started_ts would have billed, not what it billed.
		reference = fmt.Sprintf("the recorded hour %s re-enacted at its recorded times with %s under %s (what a live run reading %s would have billed)",
			filepath.Base(path), run.Timestamp, strategy, run.Timestamp)
	}
	if chosen := s.run(s.an.chosen); chosen != nil && chosen != run {
		refs, names = chosen.lendOutput(), diff.Names{A: fmt.Sprintf("run %d", chosen.ID), B: "the replay"}
		ref := s.runRef(chosen)
		strategies.A, strategies.FastA = chosen.Watermarks, chosen.ReadsRecording()
		against, againstRun = lab4.RunName(ref)+" under "+ref.Watermarks, &ref
		reference = against + ", the reference you chose"
	} else {
		ref, tasks := s.reference(refKey{path, run.Timestamp}, run.ID)
		if ref == nil {
			return tasks
		}
		refs = ref.results
	}
	if c == nil {
		c = &comparison{}
		s.an.diffs[run.ID] = c
	}
	c.pending, c.output = true, run.output
	s.an.version++
	id, out := run.ID, run.lendOutput()
	title := fmt.Sprintf("run %d · replay of %s with %s · against %s", id, filepath.Base(path), run.Timestamp, against)
	if !run.Results.complete() {
		title += fmt.Sprintf(" · only the latest %d results of the replay are kept", run.Results.Len())
	}
	dropped, letGo, forgotten, uncounted := run.Dropped, run.Results.Dropped(), run.Forgotten, run.ForgottenUncounted
	return []Task{{What: fmt.Sprintf("compare run %d with %s", id, names.A), run: func(context.Context) Outcome {
		d := compareWith(refs, out, names, strategies, true)
		d.explainNever(dropped, letGo, forgotten, uncounted)
		ev := d.evidence(reference)
		ev.AgainstRun = againstRun
		if againstRun == nil {
			ev.ReferenceWatermarks = strategy
		}
		d = d.light()
		return Outcome{apply: func(s *Session) []Task { return s.compared(id, &d, title, against, ev) }}
	}}}
}

// compared keeps a comparison and its evidence, and compares again if the run's output
// changed meanwhile.
func (s *Session) compared(id int, d *ReplayDiff, title, against string, ev state.Comparison) []Task {
	c := s.an.diffs[id]
	if c == nil {
		return nil
	}
	c.pending, c.diff, c.title, c.against = false, d, title, against
	s.an.version++
	s.forgetDroppedDiffs()
	s.ev.compared(s, id, ev)
	if run := s.run(id); run != nil && run.output != c.output {
		return s.compare(run)
	}
	return nil
}

// forgetDroppedDiffs lets go of every comparison the diff view cannot show: those of
// runs the session no longer keeps, and those of replays older than the one the view
// shows (DiffRun). Each holds a copy of its run's whole output and the diff's groups,
// tens of MB for the recorded hour, and with one kept per kept replay ten replays of
// the hour held about 100 MB of comparisons nobody could open. Their evidence stays in
// the tracker; a comparison under way is kept until it is done.
func (s *Session) forgetDroppedDiffs() {
	shown := s.DiffRun()
	kept := make(map[int]bool, len(s.runs))
	newest := 0 // the newest finished replay, shown or not
	for _, r := range s.runs {
		kept[r.ID] = true
		if r.ReplayDone {
			newest = r.ID
		}
	}
	for id, c := range s.an.diffs {
		// The newest replay's comparison is kept even when the view cannot show it yet:
		// a real job's results can all come after its replay's Done (its source has read
		// the topic, its Python stages have not finished with it), and the comparison
		// is worked out again as they come, as any replay's is when its output changes.
		if !kept[id] || !c.pending && id != newest && (shown == nil || id != shown.ID) {
			delete(s.an.diffs, id)
		}
	}
}

// movedSource is one side of the moved-requests list: a replay run's output, or the
// reference when no whole run is kept. Its results are taken only when its key says
// the list is to be worked out again.
type movedSource struct {
	name    string
	key     string
	results func() []jobspec.Result
}

// findMoved lists the requests whose minute moved once a started_ts replay finished:
// from the newest completed_ts and started_ts replays whose results are kept whole, or
// from the recording's re-enactments where one is missing.
func (s *Session) findMoved() []Task {
	var started *Run
	for i := len(s.runs) - 1; i >= 0 && started == nil; i-- {
		if r := s.runs[i]; r.ReplayDone && r.Timestamp == jobspec.StartedTS {
			started = r
		}
	}
	if started == nil {
		return nil
	}
	path := s.RecordingOf(started)
	var tasks []Task
	source := func(field jobspec.TimestampField, run *Run) (movedSource, bool) {
		if run != nil && run.Results.complete() && run.Results.Len() > 0 {
			return movedSource{name: fmt.Sprintf("run %d (replay)", run.ID), key: fmt.Sprintf("run %d/%d", run.ID, run.output),
				results: run.Results.Snapshot}, true
		}
		ref, more := s.reference(refKey{path, field}, 0)
		tasks = append(tasks, more...)
		if ref == nil {
			return movedSource{}, false
		}
		return movedSource{name: "the recorded hour re-enacted", key: "ref " + path + " " + field.String(),
			results: func() []jobspec.Result { return ref.results }}, true
	}
	a, okA := source(jobspec.CompletedTS, s.latestReplay(jobspec.CompletedTS))
	b, okB := source(jobspec.StartedTS, started)
	if !okA || !okB {
		return tasks
	}
	key := a.key + " | " + b.key
	if s.an.moved.key == key {
		return nil
	}
	ra, rb := a.results(), b.results()
	s.an.moved = movedList{key: key, pending: true, moves: s.an.moved.moves, title: s.an.moved.title}
	s.an.version++
	title := fmt.Sprintf("completed_ts: %s · started_ts: %s · %s", a.name, b.name, filepath.Base(path))
	return []Task{{What: "list the requests whose minute moved", run: func(context.Context) Outcome {
		mv, err := diff.Moved(ra, rb)
		var sum state.MovedSummary
		var list []state.Moved
		if err == nil {
			sum, list = movedEvidence(mv, title)
		}
		return Outcome{apply: func(s *Session) []Task {
			if key != s.an.moved.key {
				return nil // a newer list is under way
			}
			s.an.moved.pending, s.an.moved.err = false, err
			s.an.version++
			if err == nil {
				s.an.moved.moves, s.an.moved.title = mv, title
				s.ev.movedFound(s, sum, list)
			}
			return nil
		}}
	}}}
}

// chooseReference makes run id the reference every finished replay is diffed against,
// for 4.3 and the diff view; 0 goes back to the recorded hour re-enacted at its recorded
// times. It returns the comparisons to work out again, or an error, saying why, when the
// run is not kept whole.
func (s *Session) chooseReference(id int) ([]Task, error) {
	if id != 0 {
		run := s.run(id)
		if run == nil || !run.Results.complete() || run.Results.Len() == 0 {
			why := "only a run kept whole can"
			switch {
			case run != nil && run.supersededBy != 0:
				why = fmt.Sprintf("it let go of its results when run %d, a replay of the same recording with the same timestamp field and watermarks, was read to the end (labtui keeps one such replay whole, the newest, unless it is chosen as the reference or picked as a step's evidence: choose a replay as the reference before you replay again to diff the next one against it), and only a run kept whole can", run.supersededBy)
			case run != nil && run.Results.Dropped() > 0:
				why = fmt.Sprintf("it let go of %d of its results to bound memory (labtui keeps every result of the current run, the one before it, the reference chosen, the runs behind 4.2's to 4.4's evidence and the run the export's picture is drawn from), and only a run kept whole can", run.Results.Dropped())
			}
			return nil, fmt.Errorf("run %d cannot be the reference: %s (runs with all their results: %s)", id, why, refList(s.referenceCandidates()))
		}
	}
	s.an.chosen = id
	s.an.version++
	var tasks []Task
	for _, run := range s.runs {
		if c := s.an.diffs[run.ID]; run.ReplayDone && (c == nil || !c.pending) {
			tasks = append(tasks, s.compare(run)...)
		} else if c != nil {
			c.output = 0 // compared again when the one under way is done
		}
	}
	return tasks, nil
}

// comparing reports whether a comparison is under way: it holds the outputs it was lent.
func (s *Session) comparing() bool {
	for _, c := range s.an.diffs {
		if c.pending {
			return true
		}
	}
	return false
}

// Comparing reports whether a comparison, a re-enactment or the moved-requests list is
// being worked out: evidence taken now may be replaced in a second (the export waits).
func (s *Session) Comparing() bool {
	for _, c := range s.an.diffs {
		if c.pending {
			return true
		}
	}
	for _, r := range s.an.refs {
		if r.pending {
			return true
		}
	}
	return s.an.moved.pending
}

// referenceCandidates lists the kept runs that can be the reference: those kept whole.
func (s *Session) referenceCandidates() []state.RunRef {
	var out []state.RunRef
	for _, run := range s.runs {
		if run.Results.complete() && run.Results.Len() > 0 {
			out = append(out, s.runRef(run))
		}
	}
	return out
}
