package state

import "github.com/labtui/labtui/minutes"

// Finding is one exercise's evidence as the learner reads it and the answer sheet states
// it: the run that backs it, whether the exercise's rule is met, the sentence that
// proves it from that run's data, and the minutes the sentence is about.
type Finding struct {
	// Run is the run that backs the finding.
	Run RunRef `json:"run"`
	// Pinned says the learner chose the run, or answered while it backed the step: a
	// later run does not replace it.
	Pinned bool `json:"pinned,omitempty"`
	// Met says the exercise's rule is met by the run: the step is ticked.
	Met bool `json:"met"`
	// Sentence proves the finding, or says what is still missing, in one sentence.
	Sentence string `json:"sentence"`
	// Rows are the minutes the sentence is about, both windows side by side (4.1, 4.2);
	// for 4.3 the replay's processing-time minutes.
	Rows []minutes.Row `json:"rows,omitempty"`
	// About is the processing time of the event the finding is about, when a run can
	// show more than one: the start of 4.2's hiccup.
	About int64 `json:"about,omitempty"`
	// TakenAt is the lab's processing time, ms since the epoch, when the finding was
	// last worked out.
	TakenAt int64 `json:"taken_at"`
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
	return &c
}
