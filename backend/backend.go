// Package backend is the seam between the TUI and a running Lab 4. A Backend is a broker,
// the gateway instances producing to it, the GatewayMeter job consuming from it, and the
// faults; the embedded backend runs all of it in this process, the compose backend drives
// a docker-compose cluster with real Kafka and Flink. The TUI talks to either through
// this interface and never knows which.
package backend

import (
	"context"
	"time"

	"github.com/labtui/labtui/meter"
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
	// replay has been read; progress arrives on Updates.
	Replay(ctx context.Context, path string, field meter.TimestampField) error
	// Close stops everything the backend started, waits for it, then closes Updates.
	Close() error
}

// Restarter is a Backend whose job can be killed and started again, as when a
// TaskManager dies and comes back without checkpoints: the new job has empty state and
// reads from its configured starting offsets. The TUI offers it when a backend has it.
type Restarter interface {
	RestartJob(ctx context.Context) error
}

// Update is one report from a backend: any of its fields may be set.
type Update struct {
	// Results are what the job wrote since the last update, in order: fired windows,
	// late records, and a trace per record.
	Results []meter.Result
	// Dropped counts results the backend discarded because the reader fell behind.
	Dropped int
	// Status is a snapshot of the whole lab, sent a few times a second.
	Status *Status
	// Log is a line for the learner to read: a command run, a state change, a problem.
	Log string
	// Replay reports a replay's progress; its Done field says it finished.
	Replay *ReplayProgress
	// Restarted says the job was restarted (a replay, a new timestamp field, a dead
	// TaskManager): results before it belong to the previous run.
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
	// Watermark is the event-time window's current watermark (meter.MinWatermark before
	// the first).
	Watermark int64
	Timestamp meter.TimestampField
	// Job counts what the job did: records, late records and their USD, fired windows.
	Job meter.Stats
	// Open lists the windows not yet fired, with running totals, as PendingResults.
	Open []meter.Result
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
	Path      string
	Records   int64
	Total     int64
	EventTime int64
	Rate      float64
	Left      time.Duration
	Done      bool
	Err       error
}

// Restart says the job started again from its starting offsets with empty state.
type Restart struct {
	Reason    string
	Timestamp meter.TimestampField
	At        int64
}
