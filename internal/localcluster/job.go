package localcluster

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// Client runs Flink's CLI (bin/flink of the install) against one cluster's REST API,
// with a configuration folder of its own.
type Client struct {
	opts    Options
	home    string
	confDir string
	logDir  string
	// address is the REST API's host:port, as `flink run -m` takes it.
	address string
}

// NewClient returns a client of the cluster whose REST API is at restURL (such as
// http://flink.example:8081), which labtui did not start: its configuration names
// only the venv's python for the client itself.
func NewClient(opts Options, restURL string) (*Client, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	home := opts.Layout.flinkHome()
	if home == "" {
		return nil, fmt.Errorf("no Flink distribution in %s: run `labtui cluster install`", opts.Layout.venv())
	}
	u, err := url.Parse(restURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not the URL of Flink's REST API, such as http://127.0.0.1:8081", restURL)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	p, _ := strconv.Atoi(port)
	dir := filepath.Join(opts.RunDir, "flink-client")
	if err := writeConfDir(filepath.Join(dir, "conf"), home, opts.Layout.python(), opts.tmpDir(), 0, p, true); err != nil {
		return nil, fmt.Errorf("write the Flink client's configuration: %w", err)
	}
	logDir := filepath.Join(dir, "log")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, err
	}
	return &Client{opts: opts, home: home, confDir: filepath.Join(dir, "conf"), logDir: logDir, address: net.JoinHostPort(host, port)}, nil
}

// Submit runs `flink run -m HOST:PORT -d -py script --jars file://CONNECTOR args…` and
// returns the new job's id once the JobManager has accepted it. Flink's CLI stops
// reading options of its own at the Python program and hands everything after it to
// the program, so args are the job's own options (gateway_meter.py's --bootstrap,
// --topic, --starting-offsets, …); the client uploads the script and the connector jar
// with the job, and, as flink-python's jar, labtui's copy of it (FLINK_OPT_DIR; see
// pythonjar.go). The client starts a JVM and a Python interpreter: on two busy cores it
// takes 10-30 s.
func (c *Client) Submit(ctx context.Context, script string, args ...string) (string, error) {
	cmdArgs := append([]string{"run", "-m", c.address, "-d", "-py", script,
		"--jars", "file://" + c.opts.Layout.connectorJar()}, args...)
	cmd := command{Path: filepath.Join(c.home, "bin", "flink"), Args: cmdArgs,
		Env: []string{"FLINK_CONF_DIR=" + c.confDir, "FLINK_LOG_DIR=" + c.logDir, "JAVA_HOME=" + c.opts.JavaHome,
			"FLINK_OPT_DIR=" + c.opts.Layout.pythonJarOptDir()}}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	out, err := c.opts.run(ctx, cmd)
	if err != nil {
		return "", fmt.Errorf("submit the job: %w", err)
	}
	id, ok := FindJobID(out)
	if !ok {
		return "", fmt.Errorf("submit the job: flink run printed no JobID%s", lastLines(out, 8))
	}
	return id, nil
}

// Close removes the client's temporary files (Options.tmpDir); call it once no command
// of the client runs.
func (c *Client) Close() error { return os.RemoveAll(c.opts.tmpDir()) }

// Submit submits the job to this cluster; see Client.Submit.
func (f *Flink) Submit(ctx context.Context, script string, args ...string) (string, error) {
	c := &Client{opts: f.opts, home: f.home, confDir: f.confDir(), logDir: filepath.Join(f.dir, "log", "client"), address: hostPort(f.RESTPort)}
	if err := os.MkdirAll(c.logDir, 0o755); err != nil {
		return "", err
	}
	return c.Submit(ctx, script, args...)
}

// cancel cancels the job through the REST API and waits up to 30 s until it has ended,
// so that its last lines are written before anything else starts.
func (f *Flink) cancel(ctx context.Context, id string) error {
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
	_, err := c.waitState(ctx, id, 250*time.Millisecond, func(s string) bool { return s == "" || Terminal(s) })
	return err
}
