package localcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// REST is a client of Flink's REST API (the one the web UI uses), at a base URL such as
// http://127.0.0.1:8081.
type REST struct {
	// Base is the API's URL, without a trailing slash.
	Base string
	http *http.Client
}

// NewREST returns a client of the REST API at base; each request times out after 5 s.
func NewREST(base string) *REST {
	return &REST{Base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: 5 * time.Second}}
}

// overview is Flink's GET /overview: the cluster's TaskManagers, slots and jobs.
type overview struct {
	TaskManagers int    `json:"taskmanagers"`
	Slots        int    `json:"slots-total"`
	SlotsFree    int    `json:"slots-available"`
	Running      int    `json:"jobs-running"`
	Version      string `json:"flink-version"`
}

// overview asks GET /overview.
func (c *REST) overview(ctx context.Context) (overview, error) {
	var o overview
	err := c.do(ctx, http.MethodGet, "/overview", http.StatusOK, &o)
	return o, err
}

// taskManager is one row of GET /taskmanagers.
type taskManager struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

// taskManagers lists the registered TaskManagers, GET /taskmanagers.
func (c *REST) taskManagers(ctx context.Context) ([]taskManager, error) {
	var body struct {
		TaskManagers []taskManager `json:"taskmanagers"`
	}
	err := c.do(ctx, http.MethodGet, "/taskmanagers", http.StatusOK, &body)
	return body.TaskManagers, err
}

// Job is one row of GET /jobs/overview.
type Job struct {
	ID    string `json:"jid"`
	Name  string `json:"name"`
	State string `json:"state"`
}

// Terminal reports whether the job's state is final (FINISHED, CANCELED or FAILED).
func (j Job) Terminal() bool { return Terminal(j.State) }

// Terminal reports whether a job state is final.
func Terminal(state string) bool {
	switch state {
	case "FINISHED", "CANCELED", "FAILED":
		return true
	}
	return false
}

// Jobs returns every job the JobManager knows, GET /jobs/overview.
func (c *REST) Jobs(ctx context.Context) ([]Job, error) {
	var body struct {
		Jobs []Job `json:"jobs"`
	}
	if err := c.do(ctx, http.MethodGet, "/jobs/overview", http.StatusOK, &body); err != nil {
		return nil, err
	}
	return body.Jobs, nil
}

// JobState returns the state of one job (CREATED, RUNNING, RESTARTING, …), or "" when
// the JobManager does not list it.
func (c *REST) JobState(ctx context.Context, id string) (string, error) {
	jobs, err := c.Jobs(ctx)
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

// Cancel asks the JobManager to cancel a job, PATCH /jobs/:jobid?mode=cancel.
func (c *REST) Cancel(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPatch, "/jobs/"+url.PathEscape(id)+"?mode=cancel", http.StatusAccepted, nil)
}

// jobManagerConfig is the JobManager's configuration, GET /jobmanager/config: key to
// value, as configured (a key left at Flink's default is absent).
func (c *REST) jobManagerConfig(ctx context.Context) (map[string]string, error) {
	var entries []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	if err := c.do(ctx, http.MethodGet, "/jobmanager/config", http.StatusOK, &entries); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		out[e.Key] = e.Value
	}
	return out, nil
}

// Savepoint takes a savepoint of a running job and leaves it running (POST
// /jobs/:jobid/savepoints with cancel-job false), polling every interval until Flink
// reports it COMPLETED, and returns where it is. dir is where Flink writes it, as the
// JobManager sees it (file:///…); "" is the cluster's own (SavepointDirKey). Its barrier
// follows every record the sources had handed on when it was taken, so once it is
// complete every operator has processed them (a PyFlink operator finishes its bundle
// before the barrier) and the sinks have flushed what they wrote of them (an
// at-least-once KafkaSink flushes its producer). Since Flink 1.15 such a savepoint is
// not used for failover: a job without checkpoints still restarts from its source's
// starting offsets.
func (c *REST) Savepoint(ctx context.Context, jobID, dir string, interval time.Duration) (string, error) {
	body := map[string]any{"cancel-job": false}
	if dir != "" {
		body["target-directory"] = dir
	}
	base := "/jobs/" + url.PathEscape(jobID) + "/savepoints"
	var trigger struct {
		ID string `json:"request-id"`
	}
	if err := c.send(ctx, http.MethodPost, base, body, http.StatusAccepted, &trigger); err != nil {
		return "", err
	}
	if trigger.ID == "" {
		return "", fmt.Errorf("flink REST POST %s: no request-id in the answer", base)
	}
	var op asyncOperation
	if err := c.await(ctx, base+"/"+url.PathEscape(trigger.ID), interval, &op); err != nil {
		return "", err
	}
	return op.Operation.Location, nil
}

// DisposeSavepoint deletes a savepoint, POST /savepoint-disposal, and waits until Flink
// has.
func (c *REST) DisposeSavepoint(ctx context.Context, path string, interval time.Duration) error {
	var trigger struct {
		ID string `json:"request-id"`
	}
	if err := c.send(ctx, http.MethodPost, "/savepoint-disposal", map[string]string{"savepoint-path": path}, http.StatusAccepted, &trigger); err != nil {
		return err
	}
	if trigger.ID == "" {
		return fmt.Errorf("flink REST POST /savepoint-disposal: no request-id in the answer")
	}
	var op asyncOperation
	return c.await(ctx, "/savepoint-disposal/"+url.PathEscape(trigger.ID), interval, &op)
}

// asyncOperation is the answer about an asynchronous operation of Flink's REST API (a
// savepoint, its disposal): IN_PROGRESS, then COMPLETED with the operation's result or
// its failure-cause.
type asyncOperation struct {
	Status struct {
		ID string `json:"id"`
	} `json:"status"`
	Operation struct {
		Location     string `json:"location"`
		FailureCause *struct {
			Class      string `json:"class"`
			StackTrace string `json:"stack-trace"`
		} `json:"failure-cause"`
	} `json:"operation"`
}

// await polls the asynchronous operation at path every interval until it is COMPLETED
// (its failure-cause an error) or ctx ends.
func (c *REST) await(ctx context.Context, path string, interval time.Duration, op *asyncOperation) error {
	for {
		*op = asyncOperation{}
		if err := c.do(ctx, http.MethodGet, path, http.StatusOK, op); err != nil {
			return err
		}
		if op.Status.ID == "COMPLETED" {
			if fc := op.Operation.FailureCause; fc != nil {
				return fmt.Errorf("flink REST %s: %s", path, failureLine(fc.Class, fc.StackTrace))
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("flink REST %s: still %s: %w", path, op.Status.ID, ctx.Err())
		case <-time.After(interval):
		}
	}
}

// failureLine is the first line of a failure's stack trace (the exception and its
// message), or its class.
func failureLine(class, trace string) string {
	if line := firstLine([]byte(trace)); line != "" {
		if len(line) > 300 {
			line = line[:300] + "…"
		}
		return line
	}
	return class
}

// waitState polls the job's state every interval until done accepts it, ctx ends or the
// job reaches a final state done does not accept; it returns the last state seen.
func (c *REST) waitState(ctx context.Context, id string, interval time.Duration, done func(string) bool) (string, error) {
	var last string
	var lastErr error
	for {
		state, err := c.JobState(ctx, id)
		switch {
		case err != nil:
			lastErr = err
		case done(state):
			return state, nil
		case Terminal(state):
			return state, fmt.Errorf("the job %s is %s: %s/#/job/%s/exceptions shows why", id, state, c.Base, id)
		default:
			last = state
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return last, fmt.Errorf("wait for the job %s: %w (last answer: %v)", id, ctx.Err(), lastErr)
			}
			return last, fmt.Errorf("wait for the job %s (still %s): %w", id, last, ctx.Err())
		case <-time.After(interval):
		}
	}
}

// CloseIdleConnections closes the client's idle connections.
func (c *REST) CloseIdleConnections() { c.http.CloseIdleConnections() }

func (c *REST) do(ctx context.Context, method, path string, want int, into any) error {
	return c.send(ctx, method, path, nil, want, into)
}

// send is do with payload, sent as JSON unless nil.
func (c *REST) send(ctx context.Context, method, path string, payload any, want int, into any) error {
	var rd io.Reader
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return fmt.Errorf("flink REST %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return fmt.Errorf("flink REST %s %s: %w", method, path, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
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
		s := string(body)
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return fmt.Errorf("flink REST %s %s: %s: %s", method, path, resp.Status, s)
	}
	if into != nil {
		if err := json.Unmarshal(body, into); err != nil {
			return fmt.Errorf("flink REST %s %s: read the answer: %w", method, path, err)
		}
	}
	return nil
}

// TasksRunning reports whether every task of the job is RUNNING, GET /jobs/:jobid (each
// vertex's status): the job's own state is RUNNING as soon as it is scheduled, while its
// tasks are still deploying and opening their operators; a PyFlink operator starts its
// Python worker when it opens, which takes 8-25 s on labtui's cluster.
func (c *REST) TasksRunning(ctx context.Context, jobID string) (bool, error) {
	var job struct {
		Vertices []struct {
			Status string `json:"status"`
		} `json:"vertices"`
	}
	if err := c.do(ctx, http.MethodGet, "/jobs/"+url.PathEscape(jobID), http.StatusOK, &job); err != nil {
		return false, err
	}
	for _, v := range job.Vertices {
		if v.Status != "RUNNING" {
			return false, nil
		}
	}
	return len(job.Vertices) > 0, nil
}

// SplitOffset is how far a job's Kafka source has read one partition: Offset is the
// offset of the last record it handed on (the connector's currentOffset gauge,
// KafkaSourceReader.topic.T.partition.P.currentOffset), -1 before its first.
type SplitOffset struct {
	Topic     string
	Partition int32
	Offset    int64
}

// sourceOffsetMetric matches the id of a currentOffset gauge in a vertex's metrics, such
// as "0.Source__gateway-events.KafkaSourceReader.topic.gateway-events.partition.2.currentOffset".
var sourceOffsetMetric = regexp.MustCompile(`^\d+\.[^.]+\.KafkaSourceReader\.topic\.(.+)\.partition\.(\d+)\.currentOffset$`)

// SourceOffsets asks Flink's REST API how far the job's Kafka source has read each
// partition: GET /jobs/:jobid for its vertices, then the metrics of the one whose name
// starts with "Source:". Flink serves metrics as its MetricFetcher last fetched them from
// the TaskManagers, every metrics.fetcher.update-interval (10 s unless configured), so
// an answer can be that old. None (nil, no error) before the source has a split.
func (c *REST) SourceOffsets(ctx context.Context, jobID string) ([]SplitOffset, error) {
	var job struct {
		Vertices []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"vertices"`
	}
	base := "/jobs/" + url.PathEscape(jobID)
	if err := c.do(ctx, http.MethodGet, base, http.StatusOK, &job); err != nil {
		return nil, err
	}
	vertex := ""
	for _, v := range job.Vertices {
		if strings.HasPrefix(v.Name, "Source:") {
			vertex = v.ID
			break
		}
	}
	if vertex == "" {
		return nil, fmt.Errorf("the job %s has no source vertex", jobID)
	}
	path := base + "/vertices/" + url.PathEscape(vertex) + "/metrics"
	var listed []struct {
		ID string `json:"id"`
	}
	if err := c.do(ctx, http.MethodGet, path, http.StatusOK, &listed); err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range listed {
		if sourceOffsetMetric.MatchString(m.ID) {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var values []struct {
		ID    string `json:"id"`
		Value string `json:"value"`
	}
	if err := c.do(ctx, http.MethodGet, path+"?get="+url.QueryEscape(strings.Join(ids, ",")), http.StatusOK, &values); err != nil {
		return nil, err
	}
	out := make([]SplitOffset, 0, len(values))
	for _, v := range values {
		m := sourceOffsetMetric.FindStringSubmatch(v.ID)
		if m == nil {
			continue
		}
		p, err1 := strconv.ParseInt(m[2], 10, 32)
		off, err2 := strconv.ParseInt(v.Value, 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("flink REST %s: metric %s is %q, not an offset", path, v.ID, v.Value)
		}
		out = append(out, SplitOffset{Topic: m[1], Partition: int32(p), Offset: off})
	}
	return out, nil
}
