package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// sessionState is a state file saved by main at 8b9be05, before runs were numbered on
// across sessions: its 4.1 finding is in that session's run 1, and it has no last_run.
const sessionState = "testdata/lab-04-main-8b9be05.json"

// loadFile loads the state file at path through a Store, as labtui starts.
func loadFile(t *testing.T, path string) state.State {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, state.FileName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, found, err := state.NewStore(dir).Load()
	if err != nil || !found {
		t.Fatalf("Load = %v, %v", found, err)
	}
	return st
}

func TestRunsAreNumberedOnFromTheSavedSessionsSoNoTwoShareANumber(t *testing.T) {
	saved := loadFile(t, sessionState)
	if n := saved.RunsBefore(); n != 1 {
		t.Fatalf("RunsBefore of a file without last_run = %d, want 1 (its evidence's largest run)", n)
	}
	// The TUI starts the session before the learner says whether to continue.
	l := newLabWith(Config{RunsBefore: saved.RunsBefore()})
	l.started()
	l.h.Restore(saved)
	for m := range int64(2) {
		l.minute(m, 0.2, 0.2)
	}
	if got, want := l.h.Current().Title(), "run 2 · started · completed_ts"; got != want {
		t.Errorf("the new session's first run is %q, want %q", got, want)
	}
	f := l.h.Finding("4.1")
	if f == nil || f.Run.ID != 1 || lab4.Sentence(f) != lab4.Sentence(saved.Evidence.Findings["4.1"]) {
		t.Errorf("the saved 4.1 finding became %+v", f)
	}
	if got := l.h.PinChoices("4.1"); len(got) != 1 || got[0].Run.ID != 2 || got[0].Backs || got[0].Why != "" {
		t.Errorf("4.1's choices are %+v, want run 2 alone, not backing the saved finding", got)
	}

	// Saved again, the file says which run was last; the session after numbers on from it.
	again := l.h.Snapshot(saved.Answers, saved.Revision+1)
	if again.LastRun != 2 || again.RunsBefore() != 2 {
		t.Errorf("saved last_run %d, RunsBefore %d, want 2", again.LastRun, again.RunsBefore())
	}
	next := newLabWith(Config{Saved: &again})
	if id := next.h.Current().ID; id != 3 {
		t.Errorf("the session after that begins with run %d, want 3", id)
	}
}
