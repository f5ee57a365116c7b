// Package session is what a Lab 4 session is, with no terminal in it: the runs of the
// job (each restart begins one) with their results and their aligned tables, the
// reference re-enactments of a recording and each replay's comparison with its
// reference, the evidence per exercise and the steps it ticks, and what the autosave and
// the export write. The TUI and `labtui run --headless` both drive a Session: they hand
// it every backend update with Apply, run the Tasks it returns off their loop, and hand
// each Task's Outcome back with Finish.
//
// A Session is not safe for concurrent use: one loop (Bubble Tea's Update, the headless
// reader) calls its methods. Every buffer it keeps is bounded and counts what it let go.
package session

import (
	"context"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/ring"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// Reenact re-enacts the recording at path, at the pace it was recorded, through a new
// job with the options given (job.Timestamp and job.Trace are set by the Session), and
// returns every result, the windows left open at the end as pending. It is how a
// Session gets the reference run of a recording without importing the engine: the
// program that drives the Session supplies it. It is called off the loop, from a Task.
type Reenact func(ctx context.Context, path string, job jobspec.Options) ([]jobspec.Result, error)

// Config is what a Session needs. The zero value of a field means its default.
type Config struct {
	// Limits bound what the Session keeps.
	Limits Limits
	// Recording is the recording a replay read when its run does not say (older
	// backends report the path only with Done).
	Recording string
	// Job is the job's options (prices, watermarks) for the reference re-enactments.
	Job jobspec.Options
	// Reenact works out a recording's reference run; nil means no comparisons, and the
	// diff notes say so.
	Reenact Reenact
	// Saved is the progress saved before, whose steps and evidence the Session starts
	// from; nil starts afresh.
	Saved *state.State
	// RunsBefore is the number of the last run of an earlier session whose progress may
	// be restored (state.State.RunsBefore): this session numbers its runs on from it, so
	// a run's number names one run across sessions. Saved's count is used when larger.
	RunsBefore int
}

// Session is one lab session: see the package comment.
type Session struct {
	cfg    Config
	limits Limits
	runs   []*Run
	nextID int
	// Traces are the latest record traces, over all runs.
	Traces *ring.Ring[jobspec.RecordTrace]
	// Status is the latest status, nil before the first.
	Status *backend.Status
	// Dropped counts results the backend discarded because its reader fell behind.
	Dropped int
	// Replay is the latest replay progress, nil before the first replay and from the
	// moment the learner asks for another (ReplayAsked).
	Replay *backend.ReplayProgress
	// asked is the replay the learner asked for last (replaying.go).
	asked replayRequest
	// unasked are the restored answers to questions this lab does not ask: no driver
	// has a place for them, and every Snapshot keeps them.
	unasked map[string]string

	ev *tracker
	an analysis
	// replayed is how many results the newest replay of each (recording, timestamp field)
	// that finished whole kept: the room the next one reserves (expectedResults).
	replayed map[refKey]int
}

// New returns a Session with one run, "start", reading completed_ts.
func New(cfg Config) *Session {
	l := cfg.Limits.withDefaults()
	saved := state.New()
	if cfg.Saved != nil {
		saved = *cfg.Saved
	}
	s := &Session{cfg: cfg, limits: l, Traces: ring.New[jobspec.RecordTrace](l.Traces), ev: newTracker(saved), an: newAnalysis(),
		replayed: map[refKey]int{}, nextID: max(cfg.RunsBefore, saved.RunsBefore())}
	s.begin("start", jobspec.CompletedTS, false, 0)
	s.Current().Watermarks = cfg.Job.Watermarks
	return s
}

// Apply takes in one backend update: the runs first, then the steps and their evidence,
// then what is to be worked out off the loop, returned as Tasks.
func (s *Session) Apply(u backend.Update) []Task {
	s.record(u)
	s.followReplay(u)
	s.ev.observe(s, u)
	return s.analyze(u)
}

// ReplayAsked says the learner asked for a replay of path with field as the event
// timestamp, so its evidence names them even if the backend's report does not. The
// replay is under way (Replaying) until ReplayReturned, and the progress of the one
// before is forgotten: Replay is nil until the new one reports.
func (s *Session) ReplayAsked(path string, field jobspec.TimestampField) {
	s.Replay = nil
	s.asked = replayRequest{running: true, field: field}
	s.ev.replayAsked(path, field)
}

// Injected records a hiccup the learner injected on instance for d, at processing time
// at (0: the latest status's).
func (s *Session) Injected(instance string, d time.Duration, at int64) {
	if at == 0 {
		at = s.Now()
	}
	s.ev.injected(s, instance, d, at)
}

// Steps returns which steps are ticked, by exercise ID.
func (s *Session) Steps() map[string]state.Step { return s.ev.steps }

// Done reports whether step id is ticked.
func (s *Session) Done(id string) bool { return s.ev.done(id) }

// Changed reports whether steps or evidence changed since the last call: the driver
// then shows the steps and schedules an autosave.
func (s *Session) Changed() bool { return s.ev.takeChanged() }

// Snapshot returns the learner's progress as it stands, to save or export: answers,
// the steps and a copy of the evidence, at revision rev.
func (s *Session) Snapshot(answers map[string]string, rev uint64) state.State {
	st := state.New()
	st.Revision = rev
	for k, v := range answers {
		st.Answers[k] = v
	}
	for k, v := range s.unasked {
		st.Answers[k] = v
	}
	s.ev.fill(&st)
	Tables(&st)
	st.LastRun = s.nextID
	return st
}

// Restore lays saved progress under what this session found: a step ticked before stays
// ticked, and saved evidence fills in what this session has not captured yet. Saved
// answers to questions this lab does not ask (state.State.Unasked: a file from another
// version, or edited by hand) are kept, and every Snapshot saves them again; the
// driver restores the others to where the learner writes them.
func (s *Session) Restore(saved state.State) {
	s.ev.restore(saved)
	s.unasked = saved.Unasked(lab4.QuestionIDs())
}

// Unasked returns the restored answers to questions this lab does not ask, by question
// ID, or nil when there are none.
func (s *Session) Unasked() map[string]string { return s.unasked }

// lastHiccup returns the latest hiccup injected or seen, if any.
func (s *Session) lastHiccup() (instance string, at int64, d time.Duration, ok bool) {
	return s.ev.lastHiccup()
}
