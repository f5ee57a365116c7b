package state

import "github.com/labtui/labtui/internal/minutes"

// Finding is one exercise's evidence as data: the run that backs it, whether the
// exercise's rule is met, the numbers that prove it from that run (one of the facts
// below, by exercise), and the minutes they are about. It is rendered in words where it
// is shown (labs/lab4), so a run renumbered or a sentence reworded never disagrees with
// the numbers kept.
type Finding struct {
	// Run is the run that backs the finding.
	Run RunRef `json:"run"`
	// Pinned says the learner chose the run, or answered while it backed the step: a
	// later run does not replace it, and the finding is frozen as it stood then.
	Pinned bool `json:"pinned,omitempty"`
	// Met says the exercise's rule is met by the run: the step is ticked.
	Met bool `json:"met"`
	// Rows are the minutes the finding is about, both windows side by side (4.1, 4.2);
	// for 4.3 the replay's processing-time minutes.
	Rows []minutes.Row `json:"rows,omitempty"`
	// About is the processing time of the event the finding is about, when a run can
	// show more than one: the start of 4.2's hiccup.
	About int64 `json:"about,omitempty"`
	// TakenAt is the lab's processing time, ms since the epoch, when the finding was
	// worked out.
	TakenAt int64 `json:"taken_at"`

	// The facts: the one of them the exercise's rule fills in.
	Agreement *AgreementFacts `json:"agreement,omitempty"`
	Hiccup    *HiccupFacts    `json:"hiccup,omitempty"`
	Replay    *ReplayFacts    `json:"replay,omitempty"`
	Moved     *MovedFacts     `json:"moved,omitempty"`
	Failure   *FailureFacts   `json:"failure,omitempty"`
	// Late is why the run's records were late, when that explains the finding.
	Late *LateFacts `json:"late,omitempty"`

	// Saved is the sentence a file saved before findings were kept as data holds in
	// place of facts: shown as it was written, its numbers cannot be worked out again.
	Saved string `json:"sentence,omitempty"`
}

// AgreementFacts are 4.1's: the prompt minutes in which both windows agree.
type AgreementFacts struct {
	// Minutes are the starts of the agreeing minutes, oldest first; Wanted is how many
	// the rule asks for.
	Minutes []int64 `json:"minutes"`
	Wanted  int     `json:"wanted"`
	// Rows, USD and Requests add up those minutes' rows as event time bills them (each
	// window bills the same, but for the Crossed minutes).
	Rows     int     `json:"rows"`
	USD      float64 `json:"usd"`
	Requests int64   `json:"requests"`
	// Crossed are the agreeing minutes whose rows differ between the windows only by
	// records that completed just before a minute boundary and reached the windows
	// after it, within PromptMS; LatencyMS is the run's measured latency (the median of
	// how long its results trailed their records) that PromptMS is worked out from.
	Crossed   []CrossedMinute `json:"crossed,omitempty"`
	LatencyMS int64           `json:"latency_ms,omitempty"`
	PromptMS  int64           `json:"prompt_ms,omitempty"`
	// Spoiled are the latest closed minutes left out, at most a few, each with its
	// cause; LeftOutBefore counts those before them.
	Spoiled       []SpoiledMinute `json:"spoiled,omitempty"`
	LeftOutBefore int             `json:"left_out_before,omitempty"`
	// LeftOut are the minutes left out for a ≠ row, as a file saved before Spoiled kept
	// them (its cause was always a request that completed in the minute's last moments).
	LeftOut []int64 `json:"left_out,omitempty"`
}

// CrossedMinute is an agreeing minute whose windows differ by records that crossed its
// boundaries within the run's latency: In of the minute before reached the windows in
// it (processing time billed them here, event time in the minute before), Out of it
// reached them in the next. LagMS is the longest any of them took from its completed_ts
// to the job (to labtui's reading of its trace, for a real job: at most that).
type CrossedMinute struct {
	Start int64 `json:"start"`
	In    Tally `json:"in"`
	Out   Tally `json:"out"`
	LagMS int64 `json:"lag_ms"`
}

// Spoil is why a closed minute does not count for 4.1.
type Spoil string

const (
	// SpoilBegan: the minute the run began in: records queued before the job was up.
	SpoilBegan Spoil = "began"
	// SpoilReread: a minute before the restarted run began, whose records it re-read
	// from the topic: event time recomputed it, processing time billed its records in
	// the minute the job came back.
	SpoilReread Spoil = "re-read"
	// SpoilHiccup: a hiccup held records of the minute or flushed into it.
	SpoilHiccup Spoil = "hiccup"
	// SpoilLate: a record of the minute was dropped as late.
	SpoilLate Spoil = "late"
	// SpoilStall: the windows differ by records that crossed a boundary, one of which
	// took longer than PromptMS from its completed_ts to the job.
	SpoilStall Spoil = "stall"
	// SpoilUntraced: the windows differ, and the run's traces of the minute are not all
	// kept (or the latency is not measured), so what crossed cannot be told.
	SpoilUntraced Spoil = "untraced"
	// SpoilUnexplained: the windows differ by more than records crossing its boundaries.
	SpoilUnexplained Spoil = "unexplained"
)

// SpoiledMinute is a closed minute left out of 4.1, with its cause: At is when the cause
// happened (the run's start, the hold's start, or the completed_ts of the record that
// lagged), LagMS how long that record took to reach the job (SpoilStall).
type SpoiledMinute struct {
	Start    int64  `json:"start"`
	Cause    Spoil  `json:"cause"`
	At       int64  `json:"at,omitempty"`
	Instance string `json:"instance,omitempty"`
	LagMS    int64  `json:"lag_ms,omitempty"`
}

// HiccupFacts are 4.2's: the hold, and the late records it made.
type HiccupFacts struct {
	Instance string `json:"instance"`
	From     int64  `json:"from"`
	To       int64  `json:"to"`
	// Late and USD count the held records dropped as late, which arrived from
	// FirstArrival to LastArrival; Example is the first of them.
	Late         int     `json:"late"`
	USD          float64 `json:"usd"`
	FirstArrival int64   `json:"first_arrival"`
	LastArrival  int64   `json:"last_arrival"`
	Example      Late    `json:"example"`
	// Bounded is the course's event-time column: a later hiccup under a bound above its
	// hold, in a live run of its own; nil until there is one.
	Bounded *BoundedHiccup `json:"bounded,omitempty"`
}

// BoundedHiccup is a hiccup under for_bounded_out_of_orderness with a bound above the
// hold: the event-time window receives the burst in its own minute.
type BoundedHiccup struct {
	Run        RunRef `json:"run"`
	Instance   string `json:"instance"`
	From       int64  `json:"from"`
	To         int64  `json:"to"`
	Watermarks string `json:"watermarks"`
	// Late counts the held records the event-time window dropped as late anyway.
	Late int `json:"late"`
	// Minutes are the minute the hold began in and the next: what each window billed
	// in them, every tenant together.
	Minutes [2]BoundedMinute `json:"minutes"`
}

// BoundedMinute is one minute of a BoundedHiccup, both windows' sums.
type BoundedMinute struct {
	WindowStart int64   `json:"window_start"`
	Processing  float64 `json:"processing_usd"`
	Event       float64 `json:"event_usd"`
}

// ReplayFacts are 4.3's: a completed_ts replay against its reference.
type ReplayFacts struct {
	// AgainstRun is the reference when the learner chose a run; nil when it is the
	// recording re-enacted at its recorded times.
	AgainstRun *RunRef `json:"against_run,omitempty"`
	// ReferenceWatermarks names the re-enactment's strategy, when the reference is one.
	ReferenceWatermarks string `json:"reference_watermarks,omitempty"`
	// Rows, Identical and Unexplained are the event-time comparison's counts.
	Rows        int `json:"rows"`
	Identical   int `json:"identical"`
	Unexplained int `json:"unexplained"`
	// ProcessingUSD, ProcessingRequests and ProcessingStarts are the replay's
	// processing-time windows: the whole recording, and the minutes it landed in.
	ProcessingUSD      float64 `json:"processing_usd"`
	ProcessingRequests int64   `json:"processing_requests"`
	ProcessingStarts   []int64 `json:"processing_starts,omitempty"`
}

// MovedFacts are 4.4's: how many requests changed minute, and the one named.
type MovedFacts struct {
	Count   int   `json:"count"`
	Request Moved `json:"request"`
}

// FailureFacts are what a kill of the job did, the course's "If a TaskManager dies right
// now", worked out from the killed run's table and the restarted run's, (minute,
// tenant) by (minute, tenant).
type FailureFacts struct {
	// Killed is the run the kill ended; it had emitted Survived event-time and
	// SurvivedProcessing processing-time windows, which the sink keeps.
	Killed             RunRef  `json:"killed"`
	Survived           Windows `json:"survived"`
	SurvivedProcessing Windows `json:"survived_processing"`
	// Lost are the killed run's windows still open when it died, their running totals
	// as its last status listed them: its accumulators, gone with it (LostProcessing the
	// processing-time ones, which nothing can recompute).
	Lost           Windows `json:"lost"`
	LostProcessing Windows `json:"lost_processing"`
	// Recomputed are the event-time windows the killed run had open that the restarted
	// run emitted, from the records it re-read from the topic.
	Recomputed Windows `json:"recomputed"`
	// Twice are the event-time windows both runs emitted: the same (tenant, window_end)
	// twice. Identical of them are the same record again (the chargeback case); the
	// others differ, and DifferLate counts the restarted run's late records while it
	// caught up, which is what makes a recomputed window differ.
	Twice      Windows `json:"twice"`
	Identical  int     `json:"identical"`
	DifferLate int     `json:"differ_late"`
	// More of the windows that differ have more requests the second time (records the
	// killed run had dropped as late, KilledLate in all, were read in time by the
	// restarted run), Fewer have fewer (records the restarted run dropped as late while
	// it caught up, DifferLate in all).
	More       int `json:"more,omitempty"`
	Fewer      int `json:"fewer,omitempty"`
	KilledLate int `json:"killed_late,omitempty"`
	// KilledHiccup says the killed run had a hiccup, whose held records it dropped.
	KilledHiccup bool       `json:"killed_hiccup,omitempty"`
	Examples     []TwiceRow `json:"examples,omitempty"`
	// Back is the start of the processing-time minute the restarted run came back in;
	// BackProcessing is what its processing-time windows billed in it, and BackEvent what
	// its event-time windows billed for that minute: the difference is the re-read
	// backlog of earlier minutes folded into it (the accounting error). On a replay's
	// topic BackEvent is empty: event time is the recording's, not that minute.
	Back           int64   `json:"back"`
	BackProcessing Windows `json:"back_processing"`
	BackEvent      Windows `json:"back_event"`
}

// Windows counts windows, and the requests and dollars they billed.
type Windows struct {
	Windows  int     `json:"windows"`
	Requests int64   `json:"requests"`
	USD      float64 `json:"usd"`
}

// Add counts c's window in w.
func (w *Windows) Add(c minutes.Cell) {
	w.Windows++
	w.Requests += c.Requests
	w.USD += c.USD
}

// TwiceRow is an event-time window both runs emitted: the killed run's cell and the
// restarted run's.
type TwiceRow struct {
	WindowStart int64        `json:"window_start"`
	Tenant      string       `json:"tenant_id"`
	First       minutes.Cell `json:"first"`
	Second      minutes.Cell `json:"second"`
}

// MaxTwiceRows is how many windows emitted twice a FailureFacts lists.
const MaxTwiceRows = 8

// LateFacts are what explains a run's late records: how it read, its watermarks, and
// how far one partition ran ahead of another.
type LateFacts struct {
	// Run is the run's number.
	Run int `json:"run"`
	// Restart says the run is the live job started again that re-read its topic's
	// backlog at full speed; Recording that it read a recording.
	Restart   bool    `json:"restart,omitempty"`
	Recording bool    `json:"recording,omitempty"`
	Late      int     `json:"late"`
	USD       float64 `json:"usd"`
	// Reads is nil when the backend did not report how the partitions were read.
	Reads *ReadsFacts `json:"reads,omitempty"`
	// Source says the watermarks are per partition on the source; BoundMS is the
	// strategy's out-of-orderness and IntervalMS the watermark interval.
	Source     bool  `json:"source,omitempty"`
	BoundMS    int64 `json:"bound_ms,omitempty"`
	IntervalMS int64 `json:"interval_ms"`
	// StartedTS says the run read started_ts.
	StartedTS bool `json:"started_ts,omitempty"`
	// Forgotten counts the request halves the job let go waiting for the other.
	Forgotten int64 `json:"forgotten,omitempty"`
}

// ReadsFacts are the largest lead of partition Ahead over Behind, in ms, and how many
// late records (Late) were late only because of such a lead (AheadLate).
type ReadsFacts struct {
	Ahead     int32 `json:"ahead"`
	Behind    int32 `json:"behind"`
	ByMS      int64 `json:"by_ms"`
	Late      int64 `json:"late"`
	AheadLate int64 `json:"ahead_late"`
}

// RunRef names the run a finding comes from, in a way that stays true after the session
// that ran it ended.
type RunRef struct {
	// ID counts the runs of its session from 1.
	ID int `json:"id"`
	// Kind is why the run began: start, replay, timestamp, strategy, kill, failure, live.
	Kind      string `json:"kind"`
	Timestamp string `json:"timestamp"`
	// Watermarks names the run's watermark strategy: "for_monotonous_timestamps()" or
	// "for_bounded_out_of_orderness(5 s)".
	Watermarks string `json:"watermarks,omitempty"`
	// Recording is the file name (never a path) of the recording a replay read.
	Recording string `json:"recording,omitempty"`
	// StartedAt is the processing time the run began at, ms since the epoch.
	StartedAt int64 `json:"started_at,omitempty"`
}

func (f *Finding) clone() *Finding {
	if f == nil {
		return nil
	}
	c := *f
	c.Rows = append([]minutes.Row(nil), f.Rows...)
	if f.Agreement != nil {
		a := *f.Agreement
		a.Minutes = append([]int64(nil), a.Minutes...)
		a.LeftOut = append([]int64(nil), a.LeftOut...)
		a.Crossed = append([]CrossedMinute(nil), a.Crossed...)
		a.Spoiled = append([]SpoiledMinute(nil), a.Spoiled...)
		c.Agreement = &a
	}
	if f.Hiccup != nil {
		h := *f.Hiccup
		if h.Bounded != nil {
			b := *h.Bounded
			h.Bounded = &b
		}
		c.Hiccup = &h
	}
	if f.Replay != nil {
		r := *f.Replay
		r.ProcessingStarts = append([]int64(nil), r.ProcessingStarts...)
		if r.AgainstRun != nil {
			a := *r.AgainstRun
			r.AgainstRun = &a
		}
		c.Replay = &r
	}
	if f.Moved != nil {
		m := *f.Moved
		c.Moved = &m
	}
	if f.Failure != nil {
		x := *f.Failure
		x.Examples = append([]TwiceRow(nil), x.Examples...)
		c.Failure = &x
	}
	if f.Late != nil {
		l := *f.Late
		if l.Reads != nil {
			r := *l.Reads
			l.Reads = &r
		}
		c.Late = &l
	}
	return &c
}

// Clone returns a deep copy of f (nil for nil).
func (f *Finding) Clone() *Finding { return f.clone() }
