package lab4

import (
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
)

// Run is what an exercise's rule reads of one kept run. The session implements it over
// its runs; a rule only reads it.
type Run interface {
	// Ref names the run as findings name it.
	Ref() state.RunRef
	// Why is why the run began, as the saved tables name it: "replay", or the backend's
	// reason in words.
	Why() string
	// Replay says the run began with a replay of a recording; ReadsRecording, that it
	// reads one (a replay, or a restart on a replay's topic), so its event time is the
	// recording's; ReplayDone, that its replay was read to the end without error.
	Replay() bool
	ReadsRecording() bool
	ReplayDone() bool
	// Killed says the run began with a kill of the job (x).
	Killed() bool
	Timestamp() jobspec.TimestampField
	Watermarks() watermark.Strategy
	// StartedAt is the processing time the run began at (0 when not known).
	StartedAt() int64
	// Rows are the run's (minute, tenant) rows, both windows side by side.
	Rows() Rows
	// Clocks are what the run's rows are judged by: an ended run has every window closed.
	Clocks() minutes.Clocks
	// Hiccups are the holds the status showed during the run, oldest first.
	Hiccups() []Hold
	// Late is the run's late records kept, oldest first; LateCount counts every late
	// record of the run, kept or not.
	Late() Records
	LateCount() int
	// LateFacts are what explains the run's late records: its restart, its reads, its
	// strategy.
	LateFacts() state.LateFacts
	// StillOpen is the windows the run's latest status listed open that have not fired
	// since.
	StillOpen() []jobspec.Result
	// Latency is how long the job's results trail the records they describe, as the
	// run's latest status measured it (backend.Status.Latency); 0 when not measured.
	Latency() time.Duration
	// Traces calls yield with each record trace the run keeps, oldest first, until it
	// returns false; TracesComplete says none was let go.
	Traces(yield func(*jobspec.RecordTrace) bool)
	TracesComplete() bool
}

// Rows is a run's table of (minute, tenant) rows, read-only.
type Rows interface {
	Len() int
	Row(i int) *minutes.Row
	Cell(side minutes.Side, start int64, tenant string) (minutes.Cell, bool)
	// CopyRange copies at most n rows of the minutes from..to, and counts those left out.
	CopyRange(from, to int64, n int, c minutes.Clocks) ([]minutes.Row, int)
}

// Records are a run's late records kept, oldest first, read-only.
type Records interface {
	Len() int
	At(i int) jobspec.RecordTrace
}

// Hold is a stretch of processing time in which the status showed a gateway instance
// held: From when it first showed the hiccup, To when it showed it over, 0 while it lasts.
type Hold struct {
	Instance string
	From, To int64
}

// Session is what an exercise's rule reads of the whole session, read-only.
type Session interface {
	// Now is the lab's processing time as the latest status gave it.
	Now() int64
	// Runs are the kept runs, oldest first.
	Runs() []Run
	// Before is the run kept just before run, nil when none is.
	Before(run Run) Run
	// Comparison is the worked-out comparison of replay run id with its reference, nil
	// when there is none.
	Comparison(id int) *state.Comparison
	// Moved are the requests whose cost moved minutes between the completed_ts and the
	// started_ts replay, with their summary (nil until compared whole).
	Moved() ([]state.Moved, *state.MovedSummary)
}

// Found is what a rule makes of one run: the finding, and for 4.2 the hiccup's
// evidence the sheet keeps beside it.
type Found struct {
	Finding *state.Finding
	Held    *state.Hiccup
}

// minute is a minute window's length in ms.
const minute = 60000

// startOf is the start of the minute ms falls in.
func startOf(ms int64) int64 { return ms - ms%minute }

// RuleFor works out exercise id's finding from run alone; about, when not 0, is the event
// it must be about (4.2's hiccup start). Its Finding is nil when run shows nothing for it.
func RuleFor(id string, s Session, run Run, about int64) Found {
	e, ok := byID(id)
	if !ok || e.Rule == nil {
		return Found{}
	}
	return e.Rule(s, run, about)
}

// WhyNot says what run lacks for exercise id's rule, in a few words.
func WhyNot(id string, s Session, run Run) string {
	e, ok := byID(id)
	if !ok || e.WhyNot == nil {
		return "nothing for " + id
	}
	return e.WhyNot(s, run)
}

// Prefers reports whether, for exercise id, finding f of one run is better evidence than
// best of another (newer) run: by default never, so the newest run that shows the
// exercise backs it.
func Prefers(id string, f, best *state.Finding) bool {
	e, ok := byID(id)
	return ok && e.Prefers != nil && e.Prefers(f, best)
}
