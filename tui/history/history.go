// Package history is what the TUI remembers of a lab session: the runs of the job (each
// restart begins a new one), each with its aligned table and its late records, the
// latest record traces and the latest status. Every buffer is bounded and counts what it
// dropped. A History is written only from the Bubble Tea update loop.
package history

import (
	"strconv"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/tui/ring"
	"github.com/labtui/labtui/tui/table"
)

// Limits bound what a History keeps.
type Limits struct {
	// Rows is how many rows each run's table keeps; default table.DefaultLimit.
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
	// ResultRuns is how many of the newest runs keep their results (older runs keep only
	// their tables); default 3, enough for a live run and two replays.
	ResultRuns int
}

func (l Limits) withDefaults() Limits {
	if l.Rows < 1 {
		l.Rows = table.DefaultLimit
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
		l.Results = DefaultResults
	}
	if l.ResultRuns < 1 {
		l.ResultRuns = 3
	}
	return l
}

// Run is the job from one start to the next restart.
type Run struct {
	// ID counts runs from 1.
	ID int
	// Reason is why the run began: "start", or the backend's restart reason.
	Reason    string
	Timestamp meter.TimestampField
	// Replay says the run began with a replay of a recording.
	Replay bool
	// StartedAt is the processing time the run began at (0 when not known).
	StartedAt int64
	// Ended says a later run replaced this one.
	Ended bool
	Table *table.Table
	Late  *ring.Ring[meter.RecordTrace]
	// LateCount and LateUSD count every late record of the run, kept or not.
	LateCount int
	LateUSD   float64
	// Results is everything the job wrote in the run, bounded; an old run's are let go.
	Results *Results
	// Open is the windows still open, as the latest status of the run listed them
	// (PendingResults): with Results, the run's whole output so far.
	Open []meter.Result
	// Hiccups are the hiccups the status showed during the run, oldest first.
	Hiccups []Hiccup
	// ReplayPath is the recording a replay run read, once its replay reported Done.
	ReplayPath string
	// ReplayDone says the run's replay has been read to the end without error.
	ReplayDone bool
}

// empty reports whether nothing was recorded in the run.
func (r *Run) empty() bool {
	return r.Table.Len() == 0 && r.Table.Dropped() == 0 && r.LateCount == 0 && r.Results.Len() == 0 && r.Results.Dropped() == 0
}

// Title names the run for a pane title: "run 2 · replay · started_ts".
func (r *Run) Title() string {
	kind := r.Reason
	if r.Replay {
		kind = "replay"
	}
	return "run " + strconv.Itoa(r.ID) + " · " + kind + " · " + r.Timestamp.String()
}

// History is the session so far.
type History struct {
	limits Limits
	runs   []*Run
	nextID int
	// Traces are the latest record traces, over all runs.
	Traces *ring.Ring[meter.RecordTrace]
	// Status is the latest status, nil before the first.
	Status *backend.Status
	// Dropped counts results the backend discarded because the TUI fell behind.
	Dropped int
	// Replay is the latest replay progress, nil before the first replay.
	Replay *backend.ReplayProgress
}

// New returns a History with one run, "start", reading completed_ts.
func New(l Limits) *History {
	l = l.withDefaults()
	h := &History{limits: l, Traces: ring.New[meter.RecordTrace](l.Traces)}
	h.begin("start", meter.CompletedTS, false, 0)
	return h
}

// Current is the run the panes show.
func (h *History) Current() *Run { return h.runs[len(h.runs)-1] }

// Runs are the runs kept, oldest first.
func (h *History) Runs() []*Run { return h.runs }

// Clocks returns the clocks the current run's rows are judged by.
func (h *History) Clocks() table.Clocks {
	if h.Status == nil {
		return table.Clocks{Watermark: meter.MinWatermark}
	}
	return table.Clocks{Now: h.Status.Now, Watermark: h.Status.Watermark}
}

// ClocksFor returns the clocks for run r: an ended run has every window closed.
func (h *History) ClocksFor(r *Run) table.Clocks {
	if r.Ended {
		return table.Clocks{Ended: true}
	}
	return h.Clocks()
}

// Apply takes in one backend update: a restart first (so the update's results belong to
// the new run), then results, status and replay progress.
func (h *History) Apply(u backend.Update) {
	if r := u.Restarted; r != nil {
		replay := r.Cause == backend.CauseReplay
		if cur := h.Current(); cur.empty() {
			// Nothing happened in the run yet (a backend reports its first start as a
			// restart): it becomes the new run instead of leaving an empty one behind.
			cur.Reason, cur.Timestamp, cur.Replay, cur.StartedAt = r.Reason, r.Timestamp, replay, r.At
		} else {
			h.begin(r.Reason, r.Timestamp, replay, r.At)
		}
	}
	h.Dropped += u.Dropped
	cur := h.Current()
	prev := h.previous()
	for i := range u.Results {
		r := &u.Results[i]
		if prev != nil && cur.Replay && r.At > 0 && r.At < cur.StartedAt {
			// A replay's job starts on an empty topic, so what was written before it
			// started is the previous job's, sent after the restart was reported.
			h.result(prev, r)
			continue
		}
		h.result(cur, r)
	}
	if u.Status != nil {
		h.Status = u.Status
		cur.Open = u.Status.Open
		cur.hiccups(u.Status)
		if len(h.runs) == 1 && cur.StartedAt == 0 {
			cur.Timestamp = u.Status.Timestamp
		}
	}
	if u.Replay != nil {
		p := *u.Replay
		h.Replay = &p
		if p.Done && p.Err == nil && cur.Replay {
			cur.ReplayDone, cur.ReplayPath = true, p.Path
		}
	}
}

func (h *History) result(cur *Run, r *meter.Result) {
	cur.Results.push(*r)
	switch r.Kind {
	case meter.ProcessingTimeResult:
		cur.Table.Add(table.Processing, r.Minute, false)
	case meter.EventTimeResult:
		cur.Table.Add(table.Event, r.Minute, false)
	case meter.PendingResult:
		side := table.Processing
		if r.Window == meter.EventTimeResult {
			side = table.Event
		}
		cur.Table.Add(side, r.Minute, true)
	case meter.LateResult:
		cur.Late.Push(r.Record)
		cur.LateCount++
		cur.LateUSD += r.Record.USD
	case meter.TraceResult:
		h.Traces.Push(r.Record)
	}
}

// begin starts a new run and ends the current one, forgetting the oldest past the limit.
func (h *History) begin(reason string, ts meter.TimestampField, replay bool, at int64) {
	if len(h.runs) > 0 {
		h.Current().Ended = true
	}
	h.nextID++
	h.runs = append(h.runs, &Run{
		ID: h.nextID, Reason: reason, Timestamp: ts, Replay: replay, StartedAt: at,
		Table: table.New(h.limits.Rows), Late: ring.New[meter.RecordTrace](h.limits.Late),
		Results: newResults(h.limits.Results),
	})
	if len(h.runs) > h.limits.Runs {
		h.runs[0] = nil
		h.runs = h.runs[1:]
	}
	if n := len(h.runs) - h.limits.ResultRuns; n > 0 {
		h.runs[n-1].Results.release()
	}
}

// previous is the run before the current one, or nil.
func (h *History) previous() *Run {
	if len(h.runs) < 2 {
		return nil
	}
	return h.runs[len(h.runs)-2]
}

// Run returns the run kept with ID id, or nil.
func (h *History) Run(id int) *Run {
	for _, r := range h.runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// LatestReplay returns the newest run whose replay of a recording was read to the end
// with field as its event timestamp and whose results are all kept, or nil.
func (h *History) LatestReplay(field meter.TimestampField) *Run {
	for i := len(h.runs) - 1; i >= 0; i-- {
		if r := h.runs[i]; r.ReplayDone && r.Timestamp == field && r.Results.Complete() && r.Results.Len() > 0 {
			return r
		}
	}
	return nil
}

// Mark puts a mark line into the current run's table.
func (h *History) Mark(at int64, text string) { h.Current().Table.Mark(at, text) }
