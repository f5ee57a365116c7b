package labcluster

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"time"
)

// jobIDLine finds the id in what `flink run -d` prints: "Job has been submitted with JobID 9d7f…".
var jobIDLine = regexp.MustCompile(`JobID ([0-9a-f]{32})`)

// FindJobID returns the id of the job in what `flink run -d` printed.
func FindJobID(out []byte) (string, bool) {
	m := jobIDLine.FindSubmatch(out)
	if m == nil {
		return "", false
	}
	return string(m[1]), true
}

// Submit runs `flink run -m HOST:PORT -d -py script --jars file://CONNECTOR args…` and
// returns the new job's id once the JobManager has accepted it. Flink's CLI stops
// reading options of its own at the Python program and hands everything after it to
// the program, so args are the job's own options (gateway_meter.py's --bootstrap,
// --topic, --starting-offsets, …). The client starts a JVM and a Python interpreter:
// on two busy cores it takes 15-30 s.
func (f *Flink) Submit(ctx context.Context, script string, args ...string) (string, error) {
	cmdArgs := append([]string{"run", "-m", hostPort(f.RESTPort), "-d", "-py", script,
		"--jars", "file://" + f.opts.Layout.ConnectorJar()}, args...)
	c := Command{Path: filepath.Join(f.home, "bin", "flink"), Args: cmdArgs, Env: f.env(filepath.Join(f.dir, "log", "client"))}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	out, err := f.opts.run(ctx, c)
	if err != nil {
		return "", fmt.Errorf("submit the job: %w", err)
	}
	id, ok := FindJobID(out)
	if !ok {
		return "", fmt.Errorf("submit the job: flink run printed no JobID%s", lastLines(out, 8))
	}
	return id, nil
}

// Cancel cancels the job through the REST API and waits up to 30 s until it has ended,
// so that its last lines are written before anything else starts.
func (f *Flink) Cancel(ctx context.Context, id string) error {
	return CancelJob(ctx, f.REST, id, f.opts.Logf)
}

// CancelJob cancels the job id on the cluster behind c, announcing it on logf (which
// may be nil) as the request it sends, and waits up to 30 s until the job has ended.
func CancelJob(ctx context.Context, c *REST, id string, logf func(string, ...any)) error {
	if logf != nil {
		logf("$ curl -X PATCH '%s/jobs/%s?mode=cancel'", c.Base, id)
	}
	if err := c.Cancel(ctx, id); err != nil {
		return fmt.Errorf("cancel the job %s: %w", id, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := c.WaitState(ctx, id, 250*time.Millisecond, func(s string) bool { return s == "" || Terminal(s) })
	return err
}
