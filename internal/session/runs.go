package session

import (
	"strconv"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/ring"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/labs/lab4"
)

// Limits bound what a Session keeps.
type Limits struct {
	// Rows is how many rows each run's table keeps; default minutes.DefaultLimit.
	Rows int
	// Late is how many late records each run keeps; default 10,000.
	Late int
	// Traces is how many record traces the inspector can show; default 5,000.
	Traces int
	// Runs is how many runs are kept, the current one included; default 4.
	Runs int
	// Results is how many results each run keeps for the diff and the skew picture;
	// default DefaultResults.
	Results int
	// ResultRuns is how many of the newest runs keep their results; default 2: the
	// current run and the one before it, which the learner may choose as the reference to
	// diff a replay against. An older run keeps its results only while the learner can
	// still look at them: while it is the reference chosen, backs 4.2's, 4.3's or 4.4's
	// evidence, or backs 4.1's and is the run the export draws its picture from (see
	// lookedAt); else it keeps only its table and late records, and its results are let
	// go and counted.
	ResultRuns int
}

func (l Limits) withDefaults() Limits {
	if l.Rows < 1 {
		l.Rows = minutes.DefaultLimit
	}
	if l.Late < 1 {
		l.Late = 10000
	}
	if l.Traces < 1 {
		l.Traces = 5000
	}
	if l.Runs < 2 {
		l.Runs = 4
	}
	if l.Results < 1 {
		l.Results = defaultResults
	}
	if l.ResultRuns < 1 {
		l.ResultRuns = 2
	}
	return l
}

// Run is the job from one start to the next restart.
type Run struct {
	// ID counts runs from 1.
	ID int
	// Reason is why the run began: "start", or the backend's restart reason.
	Reason    string
	Timestamp jobspec.TimestampField
	// Replay says the run began with a replay of a recording.
	Replay bool
	// Cause is why the run began, as the backend said (0 for the session's first run
	// before the backend reported its start).
	Cause backend.Cause
	// Watermarks are the run's watermark options; the zero value is
	// for_monotonous_timestamps() with the default interval.
	Watermarks watermark.Strategy
	// Recording is the recording a replay run reads, as its restart named it.
	Recording string
	// backendRun is the backend's number for the run (Update.Run), 0 when not known.
	backendRun int
	// StartedAt is the processing time the run began at (0 when not known).
	StartedAt int64
	// Ended says a later run replaced this one.
	Ended bool
	// Table is the run's rows, both windows side by side.
	Table *minutes.Table
	Late  *ring.Ring[jobspec.RecordTrace]
	// LateCount and LateUSD count every late record of the run, kept or not.
	LateCount int
	LateUSD   float64
	// Results is everything the job wrote in the run, bounded; an old run's are let go.
	Results *Results
	// Open is the windows still open, as the latest status of the run listed them
	// (PendingResults): with Results, the run's whole output so far.
	Open []jobspec.Result
	// Hiccups are the hiccups the status showed during the run, oldest first.
	Hiccups []Hiccup
	// ReplayPath is the recording a replay run read, once its replay reported Done.
	ReplayPath string
	// ReplayDone says the run's replay has been read to the end without error.
	ReplayDone bool
	// Reads is how unevenly the run read its topic's partitions, as its latest status or
	// replay progress said; nil when the backend does not say.
	Reads *jobspec.Reads
	// Forgotten counts the request halves the job let go, waiting for their other half
	// (the RequestAssembler's timer), as the run's latest status said: a request lost so
	// usually counts twice, its first half let go before its second was read, then its
	// second, left waiting alone.
	Forgotten int64
	// ForgottenUncounted says the run's job does not count the halves it lets go
	// (jobspec.Stats.ForgottenUncounted): Forgotten is then 0 whatever it let go.
	ForgottenUncounted bool
	// Latency is how long the job's results trailed their records, as the run's latest
	// status measured it (backend.Status.Latency); 0 until measured.
	Latency time.Duration
	// Dropped counts the run's results the backend discarded because the reader fell
	// behind (backend.Update.Dropped): the diff cannot see what they said.
	Dropped int
	// output counts the fired, pending and late results taken in: it changes whenever
	// the run's billed output does.
	output uint64
	// supersededBy is the replay whose reading to the end let go of this replay's
	// results (releaseSuperseded); 0 when none did.
	supersededBy int
}

// empty reports whether nothing was recorded in the run.
func (r *Run) empty() bool {
	return r.Table.Len() == 0 && r.Table.Dropped() == 0 && r.LateCount == 0 && r.Results.Len() == 0 && r.Results.Dropped() == 0
}

// kind is the run's kind in a word: start, replay, timestamp, strategy, kill,
// failure or live, as its cause says; else the backend's reason.
func (r *Run) kind() string {
	switch {
	case r.Replay:
		return "replay"
	case r.Cause != 0:
		return r.Cause.String()
	}
	return r.Reason
}

// watermarkStrategy names the run's watermark strategy as the course does.
func (r *Run) watermarkStrategy() string { return r.Watermarks.Name() }

// Title names the run for a pane title: "run 2 · replay · started_ts", "run 3 ·
// TaskManager died · completed_ts".
func (r *Run) Title() string {
	return "run " + strconv.Itoa(r.ID) + " · " + r.why() + " · " + r.Timestamp.String()
}

// why is "replay" for a replay, else the backend's reason in words.
func (r *Run) why() string {
	if r.Replay {
		return "replay"
	}
	return r.Reason
}

// lendOutput is the run's whole output so far, for a comparison: the results it wrote
// and the windows it still has open, as the latest status listed them, less those that
// have fired since (the status and the results arrive apart). The slice is read-only. It
// shares the results' array where it can (see Results.output), and nothing the run takes
// in writes to it while a comparison is under way; once none is, the session takes the
// room back (Results.reclaim), so only a comparison may hold it.
func (r *Run) lendOutput() []jobspec.Result { return r.Results.output(r.StillOpen()) }

// StillOpen is the windows the latest status listed open, less those that have fired
// since; the slice is new.
func (r *Run) StillOpen() []jobspec.Result {
	open := make([]jobspec.Result, 0, len(r.Open))
	for _, o := range r.Open {
		side := minutes.Processing
		if o.Window == jobspec.EventTimeResult {
			side = minutes.Event
		}
		if c, ok := r.Table.Cell(side, o.Minute.WindowStart, o.Minute.TenantID); ok && c.Fired > 0 {
			continue
		}
		open = append(open, o)
	}
	return open
}

// Output is a run's whole output: the results it wrote and the windows it still has open
// (PendingResults, from the latest status). It never writes into results.
func Output(results, open []jobspec.Result) []jobspec.Result {
	out := make([]jobspec.Result, 0, len(results)+len(open))
	return append(append(out, results...), open...)
}

// ReadsRecording reports whether the run reads a recording rather than the live topic: a
// replay, or a run started again (a timestamp or strategy switch, a kill) on a replay's
// topic. Its event time is then the recording's, not the wall clock's.
func (r *Run) ReadsRecording() bool { return r.Replay || r.Recording != "" }

// Current is the run the panes show.
func (s *Session) Current() *Run { return s.runs[len(s.runs)-1] }

// Runs are the runs kept, oldest first.
func (s *Session) Runs() []*Run { return s.runs }

// run returns the run kept with ID id, or nil.
func (s *Session) run(id int) *Run {
	for _, r := range s.runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Clocks returns the clocks the current run's rows are judged by.
func (s *Session) Clocks() minutes.Clocks {
	if s.Status == nil {
		return minutes.Clocks{Watermark: jobspec.MinWatermark}
	}
	return minutes.Clocks{Now: s.Status.Now, Watermark: s.Status.Watermark}
}

// ClocksFor returns the clocks for run r: an ended run has every window closed.
func (s *Session) ClocksFor(r *Run) minutes.Clocks {
	if r.Ended {
		return minutes.Clocks{Ended: true}
	}
	return s.Clocks()
}

// Now is the lab's processing time as the latest status gave it, or 0 before the first.
func (s *Session) Now() int64 {
	if s.Status == nil {
		return 0
	}
	return s.Status.Now
}

// record takes in one backend update into the runs: a restart first (so the update's
// results belong to the new run), then results, status and replay progress.
func (s *Session) record(u backend.Update) {
	if r := u.Restarted; r != nil {
		replay := r.Cause == backend.CauseReplay
		if cur := s.Current(); cur.Cause == 0 && cur.empty() {
			// The session's first run, which no restart began, has nothing yet (a
			// backend reports its first start as a restart): it becomes the new run
			// instead of leaving an empty one behind. A run a restart began is never
			// taken over, however empty: evidence may name it (a kill whose job wrote
			// nothing before the next r), and its number stays its own.
			cur.Reason, cur.Timestamp, cur.Replay, cur.StartedAt = r.Reason, r.Timestamp, replay, r.At
		} else {
			s.begin(r.Reason, r.Timestamp, replay, r.At)
		}
		cur := s.Current()
		cur.Cause, cur.Watermarks, cur.Recording, cur.backendRun = r.Cause, r.Watermarks, r.Recording, r.Run
		if replay {
			// The replay's reading is the session's peak: no re-enactment is kept
			// through it (see reference).
			s.letGoReferences()
			path := r.Recording
			if path == "" {
				path = s.RecordingOf(cur)
			}
			cur.Results.reserve(s.expectedResults(path, cur.Timestamp))
		}
	}
	s.Dropped += u.Dropped
	cur := s.Current()
	prev := s.previous()
	if u.Dropped > 0 {
		// What was dropped changes what the run's comparison can say.
		run := cur
		if prev != nil && u.Run != 0 && u.Run == prev.backendRun {
			run = prev
		}
		run.Dropped += u.Dropped
		run.output++
	}
	for i := range u.Results {
		r := &u.Results[i]
		if prev != nil && (u.Run != 0 && u.Run == prev.backendRun || u.Run == 0 && cur.Replay && r.At > 0 && r.At < cur.StartedAt) {
			// The update is the previous run's, sent after the restart was reported (a
			// backend that numbers its runs says so; else a replay's job starts on an
			// empty topic, so what was written before it started is the previous job's).
			s.result(prev, r)
			continue
		}
		s.result(cur, r)
	}
	if u.Status != nil {
		s.Status = u.Status
		run := cur
		if prev != nil && u.Run != 0 && u.Run == prev.backendRun {
			// The previous job's last status, sent after the restart was reported: its
			// open windows are that run's, not the new one's (a replay started right after
			// a restart on its topic compared the restart's half-read hour).
			run = prev
		}
		if run.ReplayDone && !sameOpen(run.Open, u.Status.Open) {
			// The replay's Done can come before the status that lists its last open
			// windows whole: its output changed, so its comparison is worked out again.
			run.output++
		}
		run.Open = u.Status.Open
		run.hiccups(u.Status)
		if u.Status.Reads != nil {
			run.Reads = u.Status.Reads
		}
		// Halves dropped at the assembler's bound were let go waiting too.
		run.Forgotten = u.Status.Job.Forgotten + u.Status.Job.Overflowed
		run.ForgottenUncounted = u.Status.Job.ForgottenUncounted
		if u.Status.Latency > 0 {
			run.Latency = u.Status.Latency
		}
		if len(s.runs) == 1 && run.StartedAt == 0 {
			run.Timestamp = u.Status.Timestamp
		}
	}
	if u.Replay != nil {
		p := *u.Replay
		s.Replay = &p
		if p.Done && p.Err == nil && cur.Replay {
			cur.ReplayDone, cur.ReplayPath = true, p.Path
			cur.Results.trim()
			if cur.Results.complete() {
				s.replayed[refKey{p.Path, cur.Timestamp}] = cur.Results.Len()
				s.releaseSuperseded(cur)
			}
		}
		if p.Reads != nil {
			cur.Reads = p.Reads
		}
		if cur.Replay && !cur.ReplayDone && p.Lines > 0 {
			// The first replay of a recording has no count to go by at its start: the
			// recording's lines, once counted, are two a request (a trace each), and the
			// windows and late records come beside them (a few hundred to 14,400 in
			// replays of the recorded hour; see expectedResults).
			cur.Results.reserve(int(p.Lines/2 + p.Lines/8))
		}
	}
}

// sameOpen reports whether two lists of open windows hold the same running totals.
func sameOpen(a, b []jobspec.Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Window != b[i].Window || a[i].Minute != b[i].Minute {
			return false
		}
	}
	return true
}

func (s *Session) result(run *Run, r *jobspec.Result) {
	if run.Results.lent > 0 && !s.comparing() {
		// The room past the results was lent to a comparison that is done: the result
		// goes there, rather than moving every result to a new array 1.25 times the size
		// (a replay's last results arrive after its Done and its first comparison).
		run.Results.reclaim()
	}
	run.Results.push(*r)
	if r.Kind != jobspec.TraceResult {
		run.output++
	}
	switch r.Kind {
	case jobspec.ProcessingTimeResult:
		run.Table.Add(minutes.Processing, r.Minute, false)
	case jobspec.EventTimeResult:
		run.Table.Add(minutes.Event, r.Minute, false)
	case jobspec.PendingResult:
		side := minutes.Processing
		if r.Window == jobspec.EventTimeResult {
			side = minutes.Event
		}
		run.Table.Add(side, r.Minute, true)
	case jobspec.LateResult:
		run.Late.Push(r.Record)
		run.LateCount++
		run.LateUSD += r.Record.USD
	case jobspec.TraceResult:
		s.Traces.Push(r.Record)
	}
}

// begin starts a new run and ends the current one, forgetting the oldest past the limit.
func (s *Session) begin(reason string, ts jobspec.TimestampField, replay bool, at int64) {
	if len(s.runs) > 0 {
		s.Current().Ended = true
	}
	s.nextID++
	s.runs = append(s.runs, &Run{
		ID: s.nextID, Reason: reason, Timestamp: ts, Replay: replay, StartedAt: at,
		Table: minutes.New(s.limits.Rows), Late: ring.New[jobspec.RecordTrace](s.limits.Late),
		Results: newResults(s.limits.Results),
	})
	if len(s.runs) > s.limits.Runs {
		s.runs[0] = nil
		s.runs = s.runs[1:]
	}
	s.releaseResults()
}

// releaseResults lets go of the results of every run older than the newest
// Limits.ResultRuns that the learner can no longer look at: neither the reference chosen
// nor the run behind an exercise's evidence.
func (s *Session) releaseResults() {
	for _, r := range s.runs[:max(0, len(s.runs)-s.limits.ResultRuns)] {
		if !r.Results.released && !s.lookedAt(r) {
			r.Results.release()
		}
	}
}

// releaseSuperseded lets go of the results of the replays that cur, a replay read to the
// end and kept whole, takes the place of: earlier replays of the same recording with the
// same timestamp field and watermark strategy, read to the end, that are neither the
// reference chosen nor pinned to an exercise. Such a replay backs 4.3 or 4.4 only as the
// rule's pick, which cur takes over once it is compared, and what it showed stays as its
// comparison in the evidence; its results (14 MB for the recorded hour) would be the
// largest thing the session holds while cur is compared, its peak. It can then no
// longer be chosen as the reference (ChooseReference says why); it can still be pinned.
func (s *Session) releaseSuperseded(cur *Run) {
	for _, r := range s.runs {
		if r == cur || !r.Replay || !r.ReplayDone || r.Results.released || r.Timestamp != cur.Timestamp ||
			r.Watermarks != cur.Watermarks || s.RecordingOf(r) != s.RecordingOf(cur) || r.ID == s.an.chosen || s.pinned(r) {
			continue
		}
		r.Results.release()
		r.supersededBy = cur.ID
	}
}

// is reports whether ref names run r: its number and its start, so a run of an earlier
// session with the same number is not it.
func (r *Run) is(ref state.RunRef) bool { return ref.ID == r.ID && ref.StartedAt == r.StartedAt }

// pinned reports whether run r backs an exercise the learner pinned to it.
func (s *Session) pinned(r *Run) bool {
	for _, f := range s.ev.evidence.Findings {
		if f != nil && f.Pinned && r.is(f.Run) {
			return true
		}
	}
	return false
}

// lookedAt reports whether the learner can still look at run r's results: it is the
// reference the replays are diffed against, it backs 4.2's, 4.3's or 4.4's evidence, or
// it backs 4.1's and the export draws its picture. 4.1's finding is the run's table
// (agreeing minutes), which a run keeps whatever happens to its results; its traces
// serve only the picture, which is drawn from the run behind 4.2, 4.3 or 4.4 before
// 4.1's (PictureRun). So the live run behind 4.1 lets go of its results (its table and
// late records stay) once a replay behind 4.3 has the picture, rather than holding them
// (15 MB after an hour of the generator) through the next replays.
func (s *Session) lookedAt(r *Run) bool {
	if r.ID == s.an.chosen {
		return true
	}
	for ex, f := range s.ev.evidence.Findings {
		if f == nil || !r.is(f.Run) {
			continue
		}
		if ex != lab4.Agreement {
			return true
		}
		if pic, _ := s.PictureRun(); pic == r {
			return true
		}
	}
	return false
}

// expectedResults is how many results a replay of path with field is likely to write: as
// many as the newest replay of it that finished whole, else as its re-enactment wrote; 0 when
// neither is known. A replay's run reserves that room at its start, so its results do not
// grow an array 1.25 times at a time (four times the array's final 13 MB for the recorded
// hour, all of it garbage a replay leaves at once).
func (s *Session) expectedResults(path string, field jobspec.TimestampField) int {
	if n := s.replayed[refKey{path, field}]; n > 0 {
		// Replays of one recording differ by the records they drop as late (each is a
		// trace and a late result): 0 to 14,400 in replays of the recorded hour, whose
		// results are about 72,000 without them. A quarter more covers that; a replay
		// that outgrows its room moves every result to an array a quarter larger, and
		// for a moment holds both (14 and 18 MB for the recorded hour).
		return n + n/4
	}
	if ref := s.an.refs[refKey{path, field}]; ref != nil && ref.made {
		return ref.n
	}
	return 0
}

// previous is the run before the current one, or nil.
func (s *Session) previous() *Run {
	if len(s.runs) < 2 {
		return nil
	}
	return s.runs[len(s.runs)-2]
}

// latestReplay returns the newest run whose replay of a recording was read to the end
// with field as its event timestamp and whose results are all kept, or nil.
func (s *Session) latestReplay(field jobspec.TimestampField) *Run {
	for i := len(s.runs) - 1; i >= 0; i-- {
		if r := s.runs[i]; r.ReplayDone && r.Timestamp == field && r.Results.complete() && r.Results.Len() > 0 {
			return r
		}
	}
	return nil
}

// Mark puts a mark line into the current run's table.
func (s *Session) Mark(at int64, text string) { s.Current().Table.Mark(at, text) }
