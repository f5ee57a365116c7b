package export

import (
	"path/filepath"
	"strings"

	"github.com/labtui/labtui/internal/state"
)

// withoutPaths returns a copy of st in which every recording's path is its file name,
// in the replays and in every sentence that quotes it: the sheet is handed in, and a
// cache folder or a home directory is nobody else's business.
func withoutPaths(st state.State) state.State {
	st = st.Clone()
	var paths []string
	ev := &st.Evidence
	for i := range ev.Replays {
		r := &ev.Replays[i]
		if dir := filepath.Dir(r.Path); dir != "." && dir != "" {
			paths = append(paths, r.Path)
		}
		r.Path = filepath.Base(r.Path)
	}
	if len(paths) == 0 {
		return st
	}
	scrub := func(s string) string {
		for _, p := range paths {
			s = strings.ReplaceAll(s, p, filepath.Base(p))
		}
		return s
	}
	for i := range ev.Replays {
		r := &ev.Replays[i]
		if r.Diff != nil {
			r.Diff.Against = scrub(r.Diff.Against)
		}
		if c := r.Compare; c != nil {
			c.Reference = scrub(c.Reference)
			c.EventTime.Summary, c.ProcessingTime.Summary = scrub(c.EventTime.Summary), scrub(c.ProcessingTime.Summary)
		}
	}
	for i := range ev.Replayed {
		ev.Replayed[i].Error = scrub(ev.Replayed[i].Error)
	}
	if s := ev.MovedSummary; s != nil {
		s.Compared = scrub(s.Compared)
	}
	for _, f := range ev.Findings {
		f.Saved = scrub(f.Saved)
	}
	return st
}
