// Package backend is the seam between the TUI and a running Lab 4. A Backend is a broker,
// the gateway instances producing to it, the GatewayMeter job consuming from it, and the
// faults; the embedded backend runs all of it in this process, the compose backend drives
// a docker-compose cluster with real Kafka and Flink. The TUI talks to either through
// this interface and never knows which.
package backend

import (
	"context"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// Backend is a running lab. Its methods are safe to call from any goroutine; what it
// reports arrives in order on Updates.
type Backend interface {
	// Name is "embedded" or "compose".
	Name() string
	// Start brings the lab up and returns once the job is consuming; progress and
	// problems arrive on Updates meanwhile. The generator starts stopped.
	Start(ctx context.Context) error
	// Updates delivers results, status and log lines. It is closed after Close returns.
	Updates() <-chan Update
	// SetGenerator starts (true) or stops (false) the gateway instances.
	SetGenerator(on bool) error
	// Inject holds one gateway instance's produce requests for d, as a broker hiccup does.
	Inject(instance string, d time.Duration) error
	// Replay writes a recording into the topic and restarts the job from the earliest
	// offset, with field as its event timestamp, as fast as it can. It returns when the
	// job has read every record written and processed it, after every result of them and
	// then the completion (ReplayProgress.Done, with Records == Total) are sent; progress
	// arrives on Updates. Every backend does it
	// through labrt.Runtime.Replay.
	Replay(ctx context.Context, path string, field jobspec.TimestampField) error
	// Close stops everything the backend started, waits for it, then closes Updates.
	Close() error
}

// Restarter is a Backend whose job can be killed and started again, as when a
// TaskManager dies and comes back without checkpoints: the new job has empty state and
// reads from its configured starting offsets. The TUI offers it when a backend has it.
type Restarter interface {
	RestartJob(ctx context.Context) error
}

// Staller is a Backend whose gateway fleet can stop writing to one partition of the live
// topic for a while, as when the gateway whose keys all hash there goes quiet (module 5's
// stalled source): with watermarks at the source (Reconfigure with watermark.Source)
// the partition holds the watermark back and every event-time window waits, until it
// sends again or the job's idleness leaves it out. The generator must be running.
type Staller interface {
	StallPartition(partition int32, d time.Duration) error
}

// Reconfigurer is a Backend whose job can be started again on the topic it reads, from
// its starting offsets with empty state, with another event-time field or other
// watermark options: a CauseTimestamp restart when field changes, else CauseStrategy.
type Reconfigurer interface {
	Reconfigure(ctx context.Context, field jobspec.TimestampField, wm watermark.Strategy) error
}

// Update is one report from a backend: any of its fields may be set. Updates arrive in
// the order things happened: a restart before any result of the run it begins, a run's
// last results before the restart that ends it, a replay's results before its Done.
type Update struct {
	// Run is the run of the job the update belongs to: 1 for the first job, one more for
	// each restart (see Restart.Run). Every update a backend sends carries it, so a
	// result is never filed under the wrong run.
	Run int
	// Results are what the job wrote since the last update, in order: fired windows,
	// late records, and a trace per record.
	Results []jobspec.Result
	// Dropped counts results the backend discarded because the reader fell behind, since
	// the last update that counted any: add them up for the total.
	Dropped int
	// Status is a snapshot of the whole lab, sent a few times a second.
	Status *Status
	// Log is a line for the learner to read: a command run, a state change, a problem.
	Log string
	// Replay reports a replay's progress; the one whose Done is set is the replay's
	// completion, sent once, after the last result the backend saw of it, with the
	// Status as it stands then (the run's open windows whole).
	Replay *ReplayProgress
	// Restarted says a run of the job begins (its first start, a replay, a new timestamp
	// field or watermark strategy, a killed or dead job): results before it belong to
	// the previous run.
	Restarted *Restart
}

// Status is a snapshot of a running lab.
type Status struct {
	// Now is the job's processing time, ms since the epoch.
	Now     int64
	Backend string
	// Broker is the address learners and their tools can reach the broker on.
	Broker    string
	Generator bool
	Instances []Instance
	// Watermark is the event-time window's current watermark (jobspec.MinWatermark before
	// the first).
	Watermark int64
	Timestamp jobspec.TimestampField
	// Job counts what the job did: records, late records and their USD, fired windows.
	Job jobspec.Stats
	// Open lists the windows not yet fired, with running totals, as PendingResults.
	Open []jobspec.Result
	// Reads is how the running job has read its topic's partitions (see
	// ReplayProgress.Reads); nil when the backend cannot tell.
	Reads *jobspec.Reads
	// Latency is how long the job's results trail the records they describe: the median,
	// over the run's latest traces, of when a record's trace reached labtui less its
	// completed_ts. It is measured on the live topic with completed_ts as event time
	// (a replay's records are an hour old); 0 until then.
	Latency time.Duration
	// TopicGone names the topic the job reads when Kafka no longer has it (deleted
	// from outside): the job reads nothing more. Empty otherwise.
	TopicGone string
}

// Instance is one gateway instance's state.
type Instance struct {
	Name string
	// Rate is the requests per second this instance receives.
	Rate     float64
	Produced int64
	Acked    int64
	Hiccup   bool
	// HiccupLeft is how long the current hiccup still lasts.
	HiccupLeft time.Duration
	// Held is how many events the instance's producer holds, produced but not acked.
	Held int
}

// ReplayProgress is how far a replay has come.
type ReplayProgress struct {
	// Run is the run that reads the replay.
	Run  int
	Path string
	// Records counts the records the job has read of the replay's topic, well-formed or
	// not (on a real Flink, as its Kafka source reports its positions), of Total.
	Records int64
	Total   int64
	// EventTime is the job's watermark.
	EventTime int64
	// Rate is Records per second since the replay began; Left the time to the end at it.
	Rate float64
	Left time.Duration
	// Writing says the recording is still being written into the topic: Total counts
	// the records handed to the broker so far, Written those it acknowledged, and Total
	// is final once Writing is false.
	Writing bool
	Written int64
	// Lines is the recording's lines that are not blank, counted beside the writing (0
	// until counted, or when the recording is a pipe): its records, and any line that is
	// not a record and is skipped, so Written of Lines is how much of it is written.
	Lines int64
	// Reads is how far the job has read each partition of the replay's topic, the
	// largest lead one partition had over another, and how many late records that lead
	// alone made late; nil when the backend cannot tell.
	Reads *jobspec.Reads
	// Finishing says the job has read every record (Records == Total, Writing false)
	// and its operators are still processing them (a real Flink job's trail its source:
	// in network buffers and Python bundles); Done follows once they have.
	Finishing bool
	// Done says the replay has ended: read to the end and processed, every result of it
	// sent before (Err nil), or failed.
	Done bool
	Err  error
}

// Cause is why a run of the job began. Decide on it, never on Restart.Reason.
type Cause int

// The causes of a run. The zero Cause is not one: a Restart always names its cause.
const (
	// CauseStart is the lab's first job.
	CauseStart Cause = iota + 1
	// CauseReplay is a recording (Restart.Recording) written into a fresh topic and read
	// by a new job from the earliest offset.
	CauseReplay
	// CauseTimestamp is the job started again on the topic it read, with another field
	// as its event time (Restart.Timestamp).
	CauseTimestamp
	// CauseStrategy is the job started again on the topic it read, with other watermark
	// options (Restart.Watermarks).
	CauseStrategy
	// CauseKill is the job killed on request (the TUI's x, a TaskManager killed) and
	// started again with empty state from its starting offsets.
	CauseKill
	// CauseFailure is the job dying by itself and coming back with empty state (a
	// TaskManager that died, a job Flink restarted).
	CauseFailure
	// CauseLive is the job sent back from a replay's topic to the live topic, from its
	// latest offsets, when the generator starts again.
	CauseLive
)

var causeNames = [...]string{CauseStart: "start", CauseReplay: "replay", CauseTimestamp: "timestamp",
	CauseStrategy: "strategy", CauseKill: "kill", CauseFailure: "failure", CauseLive: "live"}

// String is the cause's one-word name: start, replay, timestamp, strategy, kill,
// failure or live.
func (c Cause) String() string {
	if c > 0 && int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "unknown"
}

// Restart says a run of the job begins: the first, or a new job that started from its
// starting offsets with empty state. It is sent before the new job reads anything.
type Restart struct {
	// Run numbers the run that begins: 1 for the first start, one more each restart.
	Run int
	// Cause is why it began.
	Cause Cause
	// Reason says it in words for the learner's log ("replay of hour.jsonl.gz",
	// "TaskManager killed"); it is for reading only.
	Reason string
	// Recording is the recording the run reads: set for CauseReplay, and for a run
	// started again (timestamp, strategy, kill) on a replay's topic.
	Recording string
	// Timestamp is the field the run's event time reads.
	Timestamp jobspec.TimestampField
	// Watermarks are the run's watermark options.
	Watermarks watermark.Strategy
	// At is when the run began, processing time in ms since the epoch.
	At int64
}

// Replaying reports whether the run reads a recording rather than the live topic.
func (r Restart) Replaying() bool { return r.Recording != "" }
