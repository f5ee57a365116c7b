package flinklab

import (
	"strconv"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/labcluster"
	"github.com/labtui/labtui/meter"
)

// JobName is the name gateway_meter.py gives its job (env.execute); labtui cancels
// only jobs of this name.
const JobName = "gateway-meter-lab4"

// JobScript is where the lab's PyFlink job is inside the Flink containers.
const JobScript = compose.LabsMount + "/04-event-time-and-processing-time/job/gateway_meter.py"

// flinkJob is one row of Flink's /jobs/overview.
type flinkJob = labcluster.Job

// terminal reports whether a job state is final.
func terminal(state string) bool { return labcluster.Terminal(state) }

// jobRun says how one submission of the job reads: the topic, where it starts, and the
// field its event time is.
type jobRun struct {
	topic    string
	startAt  string
	field    meter.TimestampField
	outOfOrd int64
	forget   int64
	// recorded says the topic is a replay's, a recording written at once: the job reads
	// it as fast as it can, and its bundles are PyFlink's own (replayBundleTimeMS).
	recorded bool
}

// replayBundleTimeMS and replayBundleSize are the Python workers' bundles of a job on a
// replay's topic: PyFlink's defaults (python.fn-execution.bundle.time 1000 ms, .size
// 100000). The job's own defaults (20 ms, 1000 records) keep a live record within a
// fraction of a second of the windows, which 4.1 needs; on a recording nothing waits for a
// record, and a bundle per 20 ms costs the Python workers most of their time: the hour
// took 4 min 44.6 s with them and 1 min 46.3 s with these on --backend cluster (2 cores,
// headless --replay-after, 2 Dec 2026).
// Event time's results do not depend on it: a Python operator forwards a watermark only
// after the records before it.
const (
	replayBundleTimeMS = "1000"
	replayBundleSize   = "100000"
)

// jobArgs are the job's own options, which follow the script on `flink run -d -py
// SCRIPT`: Flink's CLI stops reading its own options at the script and hands the rest to
// the Python program (confirmed on Flink 2.2.1 by labcluster's real-cluster test, whose
// job reads the --topic it was given). bootstrap is where the job reaches Kafka.
func (r jobRun) jobArgs(bootstrap string) []string {
	args := []string{"--bootstrap", bootstrap,
		"--topic", r.topic,
		"--starting-offsets", r.startAt,
		"--timestamp", r.field.String(),
		"--out-of-orderness-ms", strconv.FormatInt(r.outOfOrd, 10),
		"--forget-after-ms", strconv.FormatInt(r.forget, 10)}
	if r.recorded {
		args = append(args, "--bundle-time-ms", replayBundleTimeMS, "--bundle-size", replayBundleSize)
	}
	return args
}
