package state

import "github.com/labtui/labtui/internal/minutes"

// Comparison is a replay's output set against the reference run of its recording: the
// recording re-enacted at the pace it was recorded, deterministically, standing in for the
// live run of the recorded hour (exercise 4.3).
type Comparison struct {
	// Reference says what the replay was compared with, in words; AgainstRun is the run
	// when the learner chose one (nil: the recording re-enacted). Against is what files
	// saved before AgainstRun named it with, kept as it was written.
	Reference  string  `json:"reference"`
	AgainstRun *RunRef `json:"against_run,omitempty"`
	Against    string  `json:"against,omitempty"`
	// ReferenceWatermarks names the re-enactment's watermark strategy when the
	// reference is the recording re-enacted ("" in files saved before it, and for a run
	// chosen as the reference, whose RunRef names its own).
	ReferenceWatermarks string `json:"reference_watermarks,omitempty"`
	// EventTime compares the event-time sinks; ProcessingTime the processing-time sinks.
	EventTime      DiffReport `json:"event_time"`
	ProcessingTime DiffReport `json:"processing_time"`
	// ProcessingMinutes are the replay's processing-time windows, by minute and tenant:
	// where the whole recorded hour landed. At most MaxProcessingMinutes.
	ProcessingMinutes []minutes.Row `json:"processing_minutes,omitempty"`
	// ProcessingUSD and ProcessingRequests add up every processing-time window of the
	// replay, and ProcessingStarts are the starts of their minutes, kept or not.
	ProcessingUSD      float64 `json:"processing_usd,omitempty"`
	ProcessingRequests int64   `json:"processing_requests,omitempty"`
	ProcessingStarts   []int64 `json:"processing_starts,omitempty"`
}

// MaxProcessingMinutes is how many processing-time rows of a replay a Comparison keeps.
const MaxProcessingMinutes = 50

// DiffReport is one sink of two runs compared, (tenant, minute) by (tenant, minute).
type DiffReport struct {
	// Summary says in one sentence how the runs compare.
	Summary     string `json:"summary"`
	Rows        int    `json:"rows"`
	Identical   int    `json:"identical"`
	Differ      int    `json:"differ"`
	OnlyA       int    `json:"only_reference"`
	OnlyB       int    `json:"only_replay"`
	PendingOnly int    `json:"pending_only"`
	Unexplained int    `json:"unexplained"`
	// Lines are the report for a person: identical rows folded, each other row with the
	// sentences that explain it; at most MaxReportLines, cut between rows.
	Lines []string `json:"lines,omitempty"`
	// OmittedLines counts the lines left out.
	OmittedLines int `json:"omitted_lines,omitempty"`
}

// MaxReportLines is how many lines of a diff report the evidence keeps.
const MaxReportLines = 60

// MovedSummary totals the requests whose event-time minute moved between a completed_ts
// run and a started_ts run of the same recording (exercise 4.4); Evidence.Moved lists
// the first of them.
type MovedSummary struct {
	// Summary says in one sentence what moved.
	Summary string `json:"summary"`
	// Compared says which two runs were compared.
	Compared string `json:"compared"`
	// Both counts the requests traced in both runs; Moved those whose minute changed, and
	// USD their cost.
	Both  int     `json:"both"`
	Moved int     `json:"moved"`
	USD   float64 `json:"usd"`
	// LateStarted counts the moved requests the started_ts run dropped as late, and
	// LateStartedUSD their cost.
	LateStarted    int     `json:"late_started"`
	LateStartedUSD float64 `json:"late_started_usd"`
	// Listed is how many of them Evidence.Moved lists.
	Listed int `json:"listed"`
}

func (c *Comparison) clone() *Comparison {
	if c == nil {
		return nil
	}
	d := *c
	if c.AgainstRun != nil {
		r := *c.AgainstRun
		d.AgainstRun = &r
	}
	d.EventTime.Lines = append([]string(nil), c.EventTime.Lines...)
	d.ProcessingTime.Lines = append([]string(nil), c.ProcessingTime.Lines...)
	d.ProcessingMinutes = append([]minutes.Row(nil), c.ProcessingMinutes...)
	return &d
}
