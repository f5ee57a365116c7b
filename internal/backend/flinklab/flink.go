package flinklab

import (
	"strconv"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/watermark"
)

// JobName is the name gateway_meter.py gives its job (env.execute); labtui cancels
// only jobs of this name.
const JobName = "gateway-meter-lab4"

// jobScript is where the lab's PyFlink job is inside the Flink containers.
const jobScript = compose.LabsMount + "/04-event-time-and-processing-time/job/gateway_meter.py"

// flinkJob is one row of Flink's /jobs/overview.
type flinkJob = localcluster.Job

// terminal reports whether a job state is final.
func terminal(state string) bool { return localcluster.Terminal(state) }

// jobRun says how one submission of the job reads: the topic, where it starts, and the
// field its event time is.
type jobRun struct {
	topic   string
	startAt string
	field   jobspec.TimestampField
	// watermarks is the job's strategy: its bound, and, at the source (module 5's
	// shape), its idleness. The PyFlink job's interval is always the default (New
	// refuses another).
	watermarks watermark.Strategy
	forget     int64
	// replay asks for PyFlink's own bundles (1,000 ms, 100,000 records) instead of the
	// job's prompt ones: a replay's topic is a backlog, whose records reach the windows
	// no sooner for it (see replayBundle).
	replay bool
	// workers is how many Python workers the job runs in (PythonWorkers).
	workers int
}

// replayBundle are the bundle options of a replay's job, PyFlink's defaults. The job's
// own (20 ms, 1,000 records) keep a live record's way to the windows under a second, but
// in a backlog each bundle holds a few records and its round trip to the Python worker
// bounds the job (docs/PERFORMANCE.md has the figures).
var replayBundle = []string{"--bundle-time-ms", "1000", "--bundle-size", "100000"}

// jobArgs are the job's own options, which follow the script on `flink run -d -py
// SCRIPT`: Flink's CLI stops reading its own options at the script and hands the rest to
// the Python program (confirmed on Flink 2.2.1 by localcluster's real-cluster test, whose
// job reads the --topic it was given). bootstrap is where the job reaches Kafka.
func (r jobRun) jobArgs(bootstrap string) []string {
	args := []string{"--bootstrap", bootstrap,
		"--topic", r.topic,
		"--starting-offsets", r.startAt,
		"--timestamp", r.field.String(),
		"--out-of-orderness-ms", strconv.FormatInt(r.watermarks.OutOfOrderness.Milliseconds(), 10),
		"--forget-after-ms", strconv.FormatInt(r.forget, 10)}
	if w := r.watermarks; w.At == watermark.Source {
		args = append(args, "--watermarks", "source")
		if w.Idleness > 0 {
			args = append(args, "--idleness-ms", strconv.FormatInt(w.Idleness.Milliseconds(), 10))
		}
	}
	if r.replay {
		args = append(args, replayBundle...)
	}
	if r.workers > 1 {
		args = append(args, "--python-workers", strconv.Itoa(r.workers))
	}
	return args
}
