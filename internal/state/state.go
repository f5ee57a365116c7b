// Package state is what a learner has done in Lab 4: the exercises, their answers, which
// steps have evidence and the evidence itself, and the store that autosaves it to the
// user's XDG state directory so a crash or a closed terminal loses nothing.
package state

import (
	"time"

	"github.com/labtui/labtui/internal/minutes"
)

// version is the format of the saved file; Load refuses a newer one.
const version = 1

// State is the learner's progress: everything the export writes and the next start
// restores.
type State struct {
	Version int `json:"version"`
	// Revision increases with every change of one session, from 1; the Store never
	// replaces a revision it saved with an older one. A session starts counting afresh,
	// whatever the file it loaded held.
	Revision uint64    `json:"revision"`
	SavedAt  time.Time `json:"saved_at"`
	// Answers maps a question ID ("4.2b") to the learner's text.
	Answers map[string]string `json:"answers"`
	// Steps maps an exercise ID (such as 4.1) to whether its evidence exists.
	Steps    map[string]Step `json:"steps"`
	Evidence Evidence        `json:"evidence"`
	// LastRun is the number of the last run of the session that saved the file: the
	// next session numbers its runs on from it, so "run 3" names one run across
	// sessions (0 in files saved before it: see RunsBefore).
	LastRun int `json:"last_run,omitempty"`
}

// RunsBefore is the number a session continuing from s numbers its runs on from: the
// last run saved, or in a file saved before LastRun existed, the largest run number its
// evidence names.
func (s State) RunsBefore() int {
	n := s.LastRun
	e := s.Evidence
	for _, f := range e.Findings {
		if f != nil {
			n = max(n, f.Run.ID)
		}
	}
	if e.Agreement != nil {
		n = max(n, e.Agreement.Run)
	}
	if e.Hiccup != nil {
		n = max(n, e.Hiccup.Table.Run)
	}
	for _, r := range e.Replays {
		n = max(n, r.Table.Run)
	}
	for _, r := range e.Replayed {
		n = max(n, r.Run.ID)
	}
	return n
}

// New returns an empty State of the current Version.
func New() State {
	return State{Version: version, Answers: map[string]string{}, Steps: map[string]Step{}}
}

// Empty reports whether the state holds nothing worth offering to continue with.
func (s State) Empty() bool {
	for _, a := range s.Answers {
		if a != "" {
			return false
		}
	}
	for _, st := range s.Steps {
		if st.Done {
			return false
		}
	}
	return true
}

// Answered counts the questions with a non-empty answer.
func (s State) Answered() int {
	n := 0
	for _, a := range s.Answers {
		if a != "" {
			n++
		}
	}
	return n
}

// Clone returns a deep copy, safe to hand to another goroutine.
func (s State) Clone() State {
	c := s
	c.Answers = make(map[string]string, len(s.Answers))
	for k, v := range s.Answers {
		c.Answers[k] = v
	}
	c.Steps = make(map[string]Step, len(s.Steps))
	for k, v := range s.Steps {
		c.Steps[k] = v
	}
	c.Evidence = s.Evidence.clone()
	return c
}

// Step says whether an exercise's evidence exists.
type Step struct {
	Done bool `json:"done"`
	// At is the lab's processing time, ms since the epoch, when the evidence first existed.
	// What the evidence is, is the exercise's finding alone (files saved before held a
	// sentence here too, "because", which is not read: it could disagree with the finding).
	At int64 `json:"at,omitempty"`
}

// Evidence is what labtui captured for the exercises. Tables are copies: they keep the
// rows as they stood when captured, whatever the panes show later.
type Evidence struct {
	// Agreement is 4.1: the live run's table with the minutes whose sums agree.
	Agreement *Table `json:"agreement,omitempty"`
	// Hiccup is 4.2: the hiccup, the minutes around it and the late records it caused.
	Hiccup *Hiccup `json:"hiccup,omitempty"`
	// Replays are 4.3 and 4.4, oldest first, at most MaxReplays.
	Replays []Replay `json:"replays,omitempty"`
	// Replayed is every replay of the session and those saved before it, a line each,
	// oldest first, at most MaxReplayed (none in files saved before it).
	Replayed []ReplayRun `json:"replayed,omitempty"`
	// Moved are 4.4: requests whose cost moved minutes when event time was read from
	// started_ts instead of completed_ts.
	Moved []Moved `json:"moved,omitempty"`
	// MovedSummary totals every moved request when the two runs were compared whole;
	// nil when Moved was noted record by record as the started_ts run went.
	MovedSummary *MovedSummary `json:"moved_summary,omitempty"`
	// Findings are each exercise's evidence as the rules state it, by exercise ID
	// (such as 4.2): the run that backs it and the numbers that prove it. Files saved
	// before findings existed have none; the tables above then stand alone.
	Findings map[string]*Finding `json:"findings,omitempty"`
	// Picture is the skew picture the last export wrote beside the answers, and the run
	// and exercise it is evidence for: an export made when that run is no longer kept
	// (after quit and continue) refers to it again instead of drawing another run.
	Picture *Picture `json:"picture,omitempty"`
	// HiccupTable is 4.2's table worked out from Hiccup by the session (session.Tables);
	// it is not saved, since it follows from Hiccup.
	HiccupTable *HiccupTable `json:"-"`
}

// Picture is a skew picture an export wrote: its file beside the answers, what it shows,
// and the run and exercise it is evidence for.
type Picture struct {
	File     string `json:"file"`
	Title    string `json:"title"`
	Records  int    `json:"records"`
	Held     string `json:"held,omitempty"`
	Late     int    `json:"late"`
	Exercise string `json:"exercise"`
	Run      RunRef `json:"run"`
}

// MaxReplays is how many replays Evidence keeps.
const MaxReplays = 4

func (e Evidence) clone() Evidence {
	c := Evidence{}
	if e.Agreement != nil {
		t := e.Agreement.clone()
		c.Agreement = &t
	}
	if e.Hiccup != nil {
		h := *e.Hiccup
		h.Table = h.Table.clone()
		h.Late = append([]Late(nil), h.Late...)
		c.Hiccup = &h
	}
	for _, r := range e.Replays {
		r.Table = r.Table.clone()
		if r.Diff != nil {
			d := *r.Diff
			d.Examples = append([]DiffRow(nil), d.Examples...)
			r.Diff = &d
		}
		r.Compare = r.Compare.clone()
		c.Replays = append(c.Replays, r)
	}
	c.Moved = append([]Moved(nil), e.Moved...)
	for _, r := range e.Replayed {
		if r.Lead != nil {
			l := *r.Lead
			r.Lead = &l
		}
		c.Replayed = append(c.Replayed, r)
	}
	if e.Findings != nil {
		c.Findings = make(map[string]*Finding, len(e.Findings))
		for k, f := range e.Findings {
			c.Findings[k] = f.clone()
		}
	}
	if e.MovedSummary != nil {
		s := *e.MovedSummary
		c.MovedSummary = &s
	}
	if e.HiccupTable != nil {
		t := *e.HiccupTable
		c.HiccupTable = &t
	}
	if e.Picture != nil {
		p := *e.Picture
		c.Picture = &p
	}
	return c
}

// Table is the two panes of one run as they stood: a row per (minute, tenant) with the
// processing-time and event-time cells side by side, and the mark lines, each row with
// its verdict at the time of the copy.
type Table struct {
	Run       int    `json:"run"`
	Reason    string `json:"reason"`
	Timestamp string `json:"timestamp"`
	// TakenAt is the lab's processing time, ms since the epoch, when the copy was taken.
	TakenAt int64         `json:"taken_at"`
	Rows    []minutes.Row `json:"rows"`
	// Omitted counts rows left out to keep the copy small.
	Omitted int `json:"omitted,omitempty"`
}

func (t Table) clone() Table {
	t.Rows = append([]minutes.Row(nil), t.Rows...)
	return t
}

// Hiccup is the evidence of 4.2.
type Hiccup struct {
	Instance   string `json:"instance"`
	DurationMS int64  `json:"duration_ms"`
	// At is the lab's processing time when the hiccup began.
	At    int64 `json:"at"`
	Table Table `json:"table"`
	// Late are the records the event-time window dropped in the hiccup's run, with the
	// watermark each one met; at most MaxLate.
	Late []Late `json:"late,omitempty"`
	// LateCount and LateUSD are all the late records of the hiccup's run behind the
	// finding, of which Late keeps the first MaxLate (zero in state saved before them).
	LateCount int     `json:"late_count,omitempty"`
	LateUSD   float64 `json:"late_usd,omitempty"`
	// LateByTenant tallies all those late records by tenant, so what a tenant's column
	// lacks is exact when Late keeps only the first MaxLate (nil in state saved before it).
	LateByTenant map[string]Tally `json:"late_by_tenant,omitempty"`
}

// Tally is a count of records and their dollars.
type Tally struct {
	Records int     `json:"records"`
	USD     float64 `json:"usd"`
}

// MaxLate is how many late records the Hiccup evidence keeps.
const MaxLate = 50

// Late is a record the event-time window dropped, and the watermark it met.
type Late struct {
	RequestID string  `json:"request_id"`
	Tenant    string  `json:"tenant_id"`
	Gateway   string  `json:"gateway,omitempty"`
	Timestamp int64   `json:"timestamp"`
	Watermark int64   `json:"watermark"`
	Arrival   int64   `json:"arrival,omitempty"`
	USD       float64 `json:"usd"`
}

// Replay is the evidence of one replay of the recorded hour (4.3 and 4.4).
type Replay struct {
	Path      string `json:"path"`
	Timestamp string `json:"timestamp"`
	Records   int64  `json:"records"`
	Done      bool   `json:"done"`
	Error     string `json:"error,omitempty"`
	// At is the lab's processing time when the replay finished.
	At    int64 `json:"at"`
	Table Table `json:"table"`
	// Diff compares the replay's event-time output with an earlier run's: the live run
	// for a completed_ts replay, the last completed_ts replay for a started_ts one.
	Diff *Diff `json:"diff,omitempty"`
	// Compare sets both sinks of the replay against the reference run of the recording,
	// with every difference explained from the traces; nil until it was worked out.
	Compare *Comparison `json:"compare,omitempty"`
}

// Diff compares the event-time cells of two runs, (minute, tenant) by (minute, tenant).
type Diff struct {
	Against   string    `json:"against"`
	Compared  int       `json:"compared"`
	Same      int       `json:"same"`
	Different int       `json:"different"`
	OnlyHere  int       `json:"only_here"`
	OnlyThere int       `json:"only_there"`
	Examples  []DiffRow `json:"examples,omitempty"`
}

// DiffRow is one (minute, tenant) whose event-time cell differs between two runs; a
// nil side had no cell.
type DiffRow struct {
	WindowStart int64         `json:"window_start"`
	Tenant      string        `json:"tenant_id"`
	Here        *minutes.Cell `json:"here,omitempty"`
	There       *minutes.Cell `json:"there,omitempty"`
}

// Moved is a request whose event-time minute changed with the timestamp field.
type Moved struct {
	RequestID string `json:"request_id"`
	Tenant    string `json:"tenant_id"`
	// CompletedMinute and StartedMinute are the starts of the event-time windows the
	// request went to with completed_ts and with started_ts.
	CompletedMinute int64   `json:"completed_minute"`
	StartedMinute   int64   `json:"started_minute"`
	StartedTS       int64   `json:"started_ts"`
	USD             float64 `json:"usd"`
	// Gateway and CompletedTS are filled when the runs were compared whole.
	Gateway     string `json:"gateway,omitempty"`
	CompletedTS int64  `json:"completed_ts,omitempty"`
	// LateStarted says the started_ts run dropped the request as late: its cost is in
	// no event-time minute there.
	LateStarted bool `json:"late_started,omitempty"`
}

// ReplayRun is one replay of a recording, in a line: enough to tell the replays of a
// session apart on the answer sheet, where a learner's answer quotes one that no longer
// backs the step. Replays keeps the latest replays' tables; Replayed keeps every replay's
// line, up to MaxReplayed.
type ReplayRun struct {
	// Run is the replay's run, its watermark strategy and recording with it.
	Run RunRef `json:"run"`
	// Records is how many records the replay read; Error says why it stopped, if it did.
	Records int64  `json:"records"`
	Error   string `json:"error,omitempty"`
	// LateCount and LateUSD are all the run's late records.
	LateCount int     `json:"late_count"`
	LateUSD   float64 `json:"late_usd"`
	// Lead is the largest lead of one partition over another as the job read them; nil
	// when the backend did not say.
	Lead *Lead `json:"lead,omitempty"`
}

// Lead is how far partition Ahead's largest event timestamp ran ahead of partition
// Behind's, in ms, as the job read them.
type Lead struct {
	Ahead  int32 `json:"ahead"`
	Behind int32 `json:"behind"`
	ByMS   int64 `json:"by_ms"`
}

// MaxReplayed is how many replays' lines Evidence keeps.
const MaxReplayed = 16
