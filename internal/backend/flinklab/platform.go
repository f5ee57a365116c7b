package flinklab

import "context"

// Platform is where a real lab's Kafka and Flink run and how labtui controls them. The
// Lab (submitting, cancelling and watching the job, reading its print sinks, restarts,
// replays, the fleet) is the same on each: Docker Compose is this package's own
// platform; package backend/cluster runs Kafka and Flink as processes of labtui, or
// attaches to a cluster that already runs. A Platform announces each command it runs
// on the Log it was made with, as the line a learner would type.
type Platform interface {
	// Name is the backend's name, as Status shows it: "compose", "cluster", "remote".
	Name() string
	// Preflight checks, running nothing on the lab's behalf, that the platform can
	// start; its error says what to fix.
	Preflight(ctx context.Context) error
	// Up brings Kafka and Flink up, with the lab's topic, and returns where they are.
	Up(ctx context.Context) (Endpoints, error)
	// Submit runs `flink run -d -py` on the lab's job with its options jobArgs, where
	// the platform's Flink CLI runs, and returns the new job's id.
	Submit(ctx context.Context, jobArgs []string) (jobID string, err error)
	// Follow starts reading the TaskManager's stdout (the print sinks) from where the
	// last Follow stopped, or from Up for the first; wait hands each line to line and
	// returns when the TaskManager has stopped (its output ended) or ctx ends. With a
	// Session the results come from the results topic instead, and Follow only tells
	// when the TaskManager stops (a platform that cannot tell waits for ctx).
	Follow(ctx context.Context, line func(string)) (wait func() error, err error)
	// TaskManagerRunning reports whether the TaskManager runs (after its output ended:
	// whether the reading broke rather than the TaskManager).
	TaskManagerRunning(ctx context.Context) bool
	// KillTaskManager kills the TaskManager as a machine that dies; its output ends.
	KillTaskManager(ctx context.Context) error
	// StartTaskManager brings a TaskManager back and returns once it has registered.
	StartTaskManager(ctx context.Context) error
	// Down stops whatever Up started (or, kept, says how to stop it).
	Down(ctx context.Context) error
}

// PythonWorkers is a Platform that gives the lab's job two task slots: labtui's own
// cluster, whose TaskManager has two and runs one job at a time. The job then runs its
// windows and trace in a slot-sharing group of their own, in a second Python worker
// process (gateway_meter.py --python-workers 2): a TaskManager runs all of a slot's Python
// operators in one worker, one core at most, and the RequestAssembler keeps it busy. A
// cluster a class shares, or the compose lab, keeps one slot a job.
type PythonWorkers interface {
	// PythonWorkers is how many Python workers the job may run in, 1 or 2.
	PythonWorkers() int
}

// pythonWorkers is p's PythonWorkers, 1 for a platform that does not say.
func pythonWorkers(p Platform) int {
	if w, ok := p.(PythonWorkers); ok && w.PythonWorkers() > 1 {
		return 2
	}
	return 1
}

// Endpoints are where a platform's Kafka and Flink are.
type Endpoints struct {
	// Broker is where labtui (the fleet, replays) and a learner's tools reach Kafka.
	Broker string
	// JobBroker is where the job reaches Kafka: inside Docker's network, the broker's
	// in-network listener; elsewhere Broker.
	JobBroker string
	// FlinkURL is the base URL of Flink's REST API and web UI.
	FlinkURL string
	// Topic is the lab's live topic, which the fleet writes and the job reads; "" is the
	// course's (compose.Topic). On a shared cluster it is the session's own, and each
	// replay's topic is named after it.
	Topic string
	// Session is the session's name on the cluster (see SessionJobName). With one, the
	// job is named after it and writes its results to ResultsTopic(Session), tagged, and
	// labtui reads them there: a path that works on any Flink deployment and holds this
	// session's results only. "" is the compose lab's: the TaskManager's stdout.
	Session string
	// Shared says labtui did not start this cluster: jobs of the lab's name that it
	// did not submit are left alone, and its own is cancelled when the lab closes.
	Shared bool
}

// Log is where a platform announces its commands and changes: the lab's log.
type Log func(format string, args ...any)
