package state

import (
	"cmp"
	"slices"
)

// renumber gives every run a file names its own number, where a file saved over several
// sessions before runs were numbered on across them (LastRun) names two runs with one
// number: each session's runs then count from 1, so "run 1" is a run of each. The runs
// keep their order and each session its own numbering, shifted past the sessions before
// it (its run 1 becomes run 4 after a session of three runs), in every place that names
// them as data: the findings' runs and the runs their facts name, the tables, the
// replays' lines and the comparisons' chosen references. LastRun is set to the largest
// number. It reports whether anything changed; a file whose numbers are already unique
// is left as it is.
//
// Words are not rewritten: a finding saved before findings were data (Finding.Saved) and
// a comparison's Against text keep the numbers of the session that wrote them, and the
// sheet says such a sentence is an earlier labtui's.
func (s *State) renumber() bool {
	e := &s.Evidence
	type run struct {
		id int
		at int64
	}
	var runs []run
	seen := map[run]bool{}
	starts := map[int]map[int64]bool{}
	see := func(r RunRef) {
		k := run{r.ID, r.StartedAt}
		if r.ID == 0 || seen[k] {
			return
		}
		seen[k] = true
		runs = append(runs, k)
		if starts[r.ID] == nil {
			starts[r.ID] = map[int64]bool{}
		}
		starts[r.ID][r.StartedAt] = true
	}
	for _, f := range e.Findings {
		if f != nil {
			see(f.Run)
		}
	}
	for _, l := range e.Replayed {
		see(l.Run)
	}
	twice := false
	for _, at := range starts {
		twice = twice || len(at) > 1
	}
	if !twice {
		return false
	}
	// Sessions, in the order their runs began: a run numbered no higher than the one
	// before it begins a new session, which counts on from the sessions before it.
	slices.SortFunc(runs, func(a, b run) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.id, b.id)) })
	type session struct {
		from   int64 // when its first run began
		offset int   // added to its runs' numbers
	}
	var sessions []session
	top, prev := 0, 0
	for i, r := range runs {
		if i == 0 || r.id <= prev {
			sessions = append(sessions, session{from: r.at, offset: top})
		}
		top = max(top, sessions[len(sessions)-1].offset+r.id)
		prev = r.id
	}
	// offsetAt is the offset of the session that was running at ms: the last one begun
	// by then (the first for a time before any run).
	offsetAt := func(ms int64) int {
		o := sessions[0].offset
		for _, ss := range sessions {
			if ss.from <= ms {
				o = ss.offset
			}
		}
		return o
	}
	shift := func(r *RunRef) {
		if r != nil && r.ID != 0 {
			r.ID += offsetAt(r.StartedAt)
		}
	}
	for _, f := range e.Findings {
		if f == nil || f.Run.ID == 0 {
			continue
		}
		o := offsetAt(f.Run.StartedAt)
		f.Run.ID += o
		if f.Replay != nil {
			shift(f.Replay.AgainstRun)
		}
		if f.Late != nil && f.Late.Run != 0 {
			f.Late.Run += o
		}
	}
	for i := range e.Replayed {
		e.Replayed[i].Run.ID += offsetAt(e.Replayed[i].Run.StartedAt)
	}
	table := func(t *Table) int {
		o := offsetAt(t.TakenAt)
		if t.Run != 0 {
			t.Run += o
		}
		return o
	}
	if e.Agreement != nil {
		table(e.Agreement)
	}
	if e.Hiccup != nil {
		table(&e.Hiccup.Table)
	}
	for i := range e.Replays {
		r := &e.Replays[i]
		table(&r.Table)
		if r.Compare != nil {
			shift(r.Compare.AgainstRun)
		}
	}
	s.LastRun = max(s.LastRun, top)
	return true
}
