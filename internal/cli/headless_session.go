package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/labs/lab4"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/state"
)

// headlessSession is the lab session a headless run keeps, as the TUI keeps one: the
// runs, the steps they tick and their evidence, saved to the same state file with the
// learner's answers untouched, so `labtui export` afterwards has the run's evidence.
type headlessSession struct {
	ctx   context.Context
	sess  *session.Session
	store *state.Store
	// lock keeps other labtuis off the state directory until close.
	lock *state.Lock
	// saved is the progress found at start, whose answers are kept as they are.
	saved state.State
	rev   uint64
	tasks []session.Task
	err   error
}

// headlessSession opens the state directory and starts a session from what it holds;
// ctx bounds the work it does at the end.
func (a *app) headlessSession(ctx context.Context, j jobFlags) (*headlessSession, error) {
	lock, err := state.LockDir(a.stateDir(), "a headless run")
	if err != nil {
		return nil, err
	}
	store := state.NewStore(a.stateDir())
	saved, found, err := store.Load()
	if err != nil {
		lock.Unlock()
		return nil, err
	}
	job, err := j.options(a.global.Prices)
	if err != nil {
		lock.Unlock()
		return nil, err
	}
	cfg := session.Config{Job: job, Reenact: sessionReenact}
	if found {
		cfg.Saved = &saved
	}
	return &headlessSession{ctx: ctx, sess: session.New(cfg), store: store, lock: lock, saved: saved}, nil
}

// apply takes in one update, and saves when the steps or their evidence changed. It is
// called from the one goroutine that reads the lab's updates.
func (h *headlessSession) apply(u backend.Update) {
	h.tasks = append(h.tasks, h.sess.Apply(u)...)
	if h.sess.Changed() {
		if err := h.write(); err != nil && h.err == nil {
			h.err = err
		}
	}
}

// close works out what is still due (a replay's comparison), saves a last time, and
// says so on stderr, or why it could not.
func (h *headlessSession) close(stderr io.Writer) {
	defer h.lock.Unlock()
	h.sess.RunTasks(h.ctx, h.tasks)
	h.tasks = nil
	err := h.write()
	if err == nil {
		err = h.err
	}
	if err != nil {
		fmt.Fprintf(stderr, "# %v\n", err)
		return
	}
	h.report(stderr)
	fmt.Fprintf(stderr, "# evidence saved to %s: labtui export writes the answer sheet\n", h.store.Path())
}

// report says, exercise by exercise, what the run's evidence shows: the finding and
// whether its rule is met, or why no kept run can back it, run by run.
func (h *headlessSession) report(stderr io.Writer) {
	for _, e := range lab4.Exercises() {
		if f := h.sess.Finding(e.ID); f != nil {
			met := "not met yet"
			if f.Met {
				met = "met"
			}
			fmt.Fprintf(stderr, "# %s %s: %s\n", e.ID, met, safetext.Line(lab4.Sentence(f)))
			continue
		}
		var why []string
		for _, c := range h.sess.PinChoices(e.ID) {
			why = append(why, fmt.Sprintf("run %d %s: %s", c.Run.ID, c.Run.Kind, c.Why))
		}
		if len(why) == 0 {
			why = []string{"no run yet"}
		}
		fmt.Fprintf(stderr, "# %s not met: %s\n", e.ID, safetext.Line(strings.Join(why, "; ")))
	}
}

func (h *headlessSession) write() error {
	h.rev++
	if _, err := h.store.Save(h.sess.Snapshot(h.saved.Answers, h.rev)); err != nil {
		return fmt.Errorf("save the lab's evidence: %w", err)
	}
	return nil
}
