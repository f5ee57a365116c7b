package flinklab

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/localcluster"
)

// dockerPlatform is the compose lab's Platform: `docker compose` on the lab's compose
// file (Kafka, a Flink jobmanager and taskmanager in containers), the taskmanager's
// print sinks read from its container log.
type dockerPlatform struct {
	cfg    Config
	docker *docker
	logf   Log
	// since is where the next `logs -f` starts: when Up returned, then when the last
	// log ended, so no line is read twice.
	since time.Time
}

func newDockerPlatform(cfg Config, logf Log) *dockerPlatform {
	return &dockerPlatform{cfg: cfg, logf: logf,
		docker: &docker{path: cfg.Docker, project: compose.ProjectName, file: cfg.ComposeFile, logf: logf}}
}

// Name is "compose".
func (p *dockerPlatform) Name() string { return "compose" }

// Preflight runs the checks of `labtui doctor` (Docker CLI, Compose v2, the daemon,
// ports 9092 and 8081 free) and returns a *PreflightError when one fails. Ports held
// by the lab's own cluster, left running with keep-cluster, are no problem: Start
// reuses that compose.
func (p *dockerPlatform) Preflight(ctx context.Context) error {
	opts := append([]compose.CheckerOption{compose.WithRunner(p.checkRun), compose.WithLookPath(p.lookPath)}, p.cfg.CheckerOptions...)
	report := compose.NewChecker(opts...).Check(ctx)
	for _, r := range report.Results {
		p.logf("doctor: %s", r)
	}
	if !report.OK() {
		if !onlyPorts(report) || !p.clusterRunning(ctx) {
			return &PreflightError{Report: report}
		}
		p.logf("ports %d and %d are held by the lab's own cluster, still running: labtui uses it", compose.KafkaHostPort, compose.FlinkWebPort)
	}
	return nil
}

// checkRun is the doctor's runner: the command is announced like every other.
func (p *dockerPlatform) checkRun(ctx context.Context, path string, args ...string) ([]byte, []byte, error) {
	p.docker.announce(args)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	return stdout.Bytes(), stderr.Bytes(), err
}

// lookPath finds the configured docker executable when the doctor looks for "docker".
func (p *dockerPlatform) lookPath(file string) (string, error) {
	if file == "docker" {
		file = p.cfg.Docker
	}
	return exec.LookPath(file)
}

// onlyPorts reports whether every problem in the report is a port in use.
func onlyPorts(r compose.Report) bool {
	for _, p := range r.Problems() {
		if !strings.HasPrefix(p.Name, "Port ") {
			return false
		}
	}
	return true
}

// clusterRunning reports whether the lab's project has running containers.
func (p *dockerPlatform) clusterRunning(ctx context.Context) bool {
	out, _, err := p.docker.runCompose(ctx, "ps", "--status", "running", "--quiet")
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

// downArgs take the project down: containers get a second to stop before they are
// killed, since nothing in them is kept.
var downArgs = []string{"down", "--timeout", "1"}

// Up runs `docker compose up -d --build --wait`, its progress on the log. First, unless
// KeepCluster is set, it leaves the watchdog `docker compose … down` as its last word,
// so that the containers go even when labtui dies without its Close (kill -9): they are
// the Docker engine's processes, not labtui's.
func (p *dockerPlatform) Up(ctx context.Context) (Endpoints, error) {
	p.logf("starting the compose lab: Kafka and Flink in Docker, project %s (a first start downloads and builds for several minutes)", compose.ProjectName)
	if !p.cfg.KeepCluster {
		if err := localcluster.AtDeath(append([]string{p.docker.path}, p.docker.compose(downArgs...)...), p.logf); err != nil {
			return Endpoints{}, fmt.Errorf("bring the cluster up: %w", err)
		}
		p.logf("if labtui dies before it takes the lab down, its watchdog does: docker compose down")
	}
	pr := &progress{logf: p.logf}
	if err := p.docker.stream(ctx, pr.line, "up", "-d", "--build", "--wait"); err != nil {
		return Endpoints{}, fmt.Errorf("bring the cluster up: %w (`docker compose -p %s logs` shows each service's log)", err, compose.ProjectName)
	}
	p.since = p.cfg.Now()
	p.logf("every service is healthy: Kafka on %s, Flink's web UI on %s", p.cfg.Broker, p.cfg.FlinkURL)
	return Endpoints{Broker: p.cfg.Broker, JobBroker: compose.KafkaInternalAddr, FlinkURL: p.cfg.FlinkURL}, nil
}

// Submit runs `docker compose … exec -T -e FLINK_OPT_DIR=… jobmanager flink run -d -py
// JobScript jobArgs…`: FLINK_OPT_DIR is the image's folder of labtui's flink-python jar,
// which `flink run` then ships with the job (package compose/flink/pythonjar).
func (p *dockerPlatform) Submit(ctx context.Context, jobArgs []string) (string, error) {
	args := append([]string{"exec", "-T", "-e", "FLINK_OPT_DIR=" + compose.PythonJarOptDir,
		compose.JobManagerService, "flink", "run", "-d", "-py", jobScript}, jobArgs...)
	out, _, err := p.docker.runCompose(ctx, args...)
	if err != nil {
		return "", err
	}
	id, ok := localcluster.FindJobID(out)
	if !ok {
		return "", fmt.Errorf("flink run printed no JobID: %s", truncate(string(out), 300))
	}
	return id, nil
}

// followArgs are the arguments of `docker compose … logs -f` on the taskmanager from since.
func followArgs(since time.Time) []string {
	return []string{"logs", "-f", "--no-log-prefix", "--since", since.UTC().Format(time.RFC3339Nano), compose.TaskManagerService}
}

// Follow starts `docker compose … logs -f --since …` on the taskmanager; the log ends
// when its container stops.
func (p *dockerPlatform) Follow(ctx context.Context, line func(string)) (func() error, error) {
	pr, err := p.docker.start(ctx, followArgs(p.since)...)
	if err != nil {
		return nil, fmt.Errorf("follow the taskmanager's log: %w", err)
	}
	return func() error {
		err := pr.lines(line)
		p.since = p.cfg.Now()
		return err
	}, nil
}

// TaskManagerRunning asks compose whether the taskmanager's container is running.
func (p *dockerPlatform) TaskManagerRunning(ctx context.Context) bool {
	out, _, err := p.docker.runCompose(ctx, "ps", "--status", "running", "--quiet", compose.TaskManagerService)
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

// KillTaskManager runs `docker compose … kill taskmanager`.
func (p *dockerPlatform) KillTaskManager(ctx context.Context) error {
	pr := &progress{logf: p.logf}
	return p.docker.stream(ctx, pr.line, "kill", compose.TaskManagerService)
}

// StartTaskManager runs `docker compose … up -d --no-deps --wait taskmanager`.
func (p *dockerPlatform) StartTaskManager(ctx context.Context) error {
	pr := &progress{logf: p.logf}
	return p.docker.stream(ctx, pr.line, "up", "-d", "--no-deps", "--wait", compose.TaskManagerService)
}

// Down runs `docker compose … down --timeout 1`, unless KeepCluster is set, and takes
// back the watchdog's last word.
func (p *dockerPlatform) Down(ctx context.Context) error {
	if p.cfg.KeepCluster {
		p.logf("the cluster keeps running (keep-cluster): `docker compose -p %s down` stops it", compose.ProjectName)
		return nil
	}
	pr := &progress{logf: p.logf}
	if err := p.docker.stream(ctx, pr.line, downArgs...); err != nil {
		return fmt.Errorf("take the cluster down: %w", err)
	}
	localcluster.ClearAtDeath()
	return nil
}
