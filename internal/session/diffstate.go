package session

import (
	"fmt"
	"path/filepath"

	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
)

// DiffState is what the diff view shows: the newest finished replay's comparison with
// its reference, the latest moved-requests list, and for each a note on what is under
// way or missing ("" when the content is current).
type DiffState struct {
	// Run is the replay compared, nil when none has finished.
	Run *Run
	// Title names the replay and what it was compared with; Diff is the comparison, nil
	// until one was worked out.
	Title string
	Diff  *ReplayDiff
	Note  string
	// Moves is the moved-requests list, nil until one was worked out, and MovedTitle
	// names the two outputs it compared.
	Moves      *diff.Moves
	MovedTitle string
	MovedNote  string
	// Version changes whenever any of the above may have: a view rebuilds only then.
	Version uint64
}

// DiffRun is the newest run whose replay was read to the end, or nil.
func (s *Session) DiffRun() *Run {
	for i := len(s.runs) - 1; i >= 0; i-- {
		if r := s.runs[i]; r.ReplayDone && r.Results.Len() > 0 {
			return r
		}
	}
	return nil
}

// DiffState returns what the diff view shows; replaying says a replay is under way.
func (s *Session) DiffState(replaying bool) DiffState {
	st := DiffState{Run: s.DiffRun(), Version: s.an.version}
	if replaying {
		st.Version++ // the note below depends on it
	}
	var c *comparison
	if st.Run != nil {
		c = s.an.diffs[st.Run.ID]
	}
	switch {
	case st.Run == nil && replaying:
		st.Note = "The replay is under way: it is compared with the recorded hour re-enacted at its recorded times when it has finished."
	case st.Run == nil:
		st.Note = "No replay has finished yet. Press r to replay the recorded hour from the earliest offset; it is then compared, " +
			"minute by minute, with the recorded hour re-enacted at its recorded times (what the hour's live run billed, not your run 1)."
	case c == nil || c.diff == nil || c.pending:
		st.Note = s.referenceNote(refKey{s.RecordingOf(st.Run), st.Run.Timestamp},
			fmt.Sprintf("comparing run %d with the recorded hour re-enacted…", st.Run.ID))
	}
	if c != nil && c.diff != nil {
		st.Diff, st.Title = c.diff, c.title
	}
	mv := s.an.moved
	switch {
	case mv.err != nil:
		st.MovedNote = "the moved requests could not be listed: " + mv.err.Error()
	case mv.key == "" && mv.moves == nil:
		st.MovedNote = "Press t to switch the job to started_ts and replay: the requests whose event-time minute moved are listed here."
		if st.Run != nil && st.Run.Timestamp == jobspec.StartedTS {
			st.MovedNote = s.referenceNote(refKey{s.RecordingOf(st.Run), jobspec.CompletedTS}, "listing the requests whose minute moved…")
		}
	case mv.pending:
		st.MovedNote = "listing the requests whose minute moved…"
	}
	st.Moves, st.MovedTitle = mv.moves, mv.title
	return st
}

// referenceNote says what the reference of key is doing, or else says otherwise.
func (s *Session) referenceNote(key refKey, otherwise string) string {
	ref := s.an.refs[key]
	switch {
	case ref == nil && s.cfg.Reenact == nil:
		return "no re-enactment of the recording can be made here, so the replay is not compared"
	case ref == nil:
		return otherwise
	case ref.err != nil:
		return "the recorded hour could not be re-enacted: " + ref.err.Error()
	case ref.pending:
		return fmt.Sprintf("re-enacting %s at its recorded times with %s, to compare the replay with…", filepath.Base(key.path), key.field)
	}
	return otherwise
}
