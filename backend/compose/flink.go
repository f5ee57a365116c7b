package compose

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	cluster "github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/meter"
)

// JobName is the name gateway_meter.py gives its job (env.execute); labtui cancels
// only jobs of this name.
const JobName = "gateway-meter-lab4"

// JobScript is where the lab's PyFlink job is inside the Flink containers.
const JobScript = cluster.LabsMount + "/04-event-time-and-processing-time/job/gateway_meter.py"

// jobID finds the id in what `flink run -d` prints: "Job has been submitted with JobID 9d7f…".
var jobID = regexp.MustCompile(`JobID ([0-9a-f]{32})`)

// jobRun says how one submission of the job reads: the topic, where it starts, and the
// field its event time is.
type jobRun struct {
	topic    string
	startAt  string
	field    meter.TimestampField
	outOfOrd int64
	forget   int64
}

// submitArgs are the arguments of `docker compose … exec -T jobmanager flink run -d -py …`.
// The job's options follow the script: Flink's CLI stops reading its own options at the
// first one it does not know and hands the rest to the Python program, as the lab's
// conformance script (cluster.sh) runs it. The broker is the in-network listener.
func (r jobRun) submitArgs() []string {
	return []string{"exec", "-T", cluster.JobManagerService, "flink", "run", "-d", "-py", JobScript,
		"--bootstrap", cluster.KafkaInternalAddr,
		"--topic", r.topic,
		"--starting-offsets", r.startAt,
		"--timestamp", r.field.String(),
		"--out-of-orderness-ms", strconv.FormatInt(r.outOfOrd, 10),
		"--forget-after-ms", strconv.FormatInt(r.forget, 10)}
}

// flinkJob is one row of Flink's /jobs/overview.
type flinkJob struct {
	ID    string `json:"jid"`
	Name  string `json:"name"`
	State string `json:"state"`
}

// terminal reports whether a job state is final.
func terminal(state string) bool {
	switch state {
	case "FINISHED", "CANCELED", "FAILED":
		return true
	}
	return false
}

// rest is a small client of Flink's REST API.
type rest struct {
	base string
	http *http.Client
}

func newREST(base string) *rest {
	return &rest{base: base, http: &http.Client{Timeout: 5 * time.Second}}
}

// jobs returns every job the jobmanager knows, GET /jobs/overview.
func (c *rest) jobs(ctx context.Context) ([]flinkJob, error) {
	var body struct {
		Jobs []flinkJob `json:"jobs"`
	}
	if err := c.do(ctx, http.MethodGet, "/jobs/overview", http.StatusOK, &body); err != nil {
		return nil, err
	}
	return body.Jobs, nil
}

// job returns the state of one job, or "" when the jobmanager does not list it.
func (c *rest) job(ctx context.Context, id string) (string, error) {
	jobs, err := c.jobs(ctx)
	if err != nil {
		return "", err
	}
	for _, j := range jobs {
		if j.ID == id {
			return j.State, nil
		}
	}
	return "", nil
}

// cancel asks the jobmanager to cancel a job, PATCH /jobs/:jobid?mode=cancel.
func (c *rest) cancel(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPatch, "/jobs/"+url.PathEscape(id)+"?mode=cancel", http.StatusAccepted, nil)
}

func (c *rest) do(ctx context.Context, method, path string, want int, into any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return fmt.Errorf("flink REST %s %s: %w", method, path, err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("flink REST %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("flink REST %s %s: read the answer: %w", method, path, err)
	}
	if resp.StatusCode != want && !(want == http.StatusAccepted && resp.StatusCode == http.StatusOK) {
		return fmt.Errorf("flink REST %s %s: %s: %s", method, path, resp.Status, truncate(string(body), 200))
	}
	if into != nil {
		if err := json.Unmarshal(body, into); err != nil {
			return fmt.Errorf("flink REST %s %s: read the answer: %w", method, path, err)
		}
	}
	return nil
}
