// Package clusterplatform is the real lab without Docker: Kafka and Flink as processes labtui
// starts itself (New, --backend cluster), or a cluster that already runs (NewRemote,
// --backend remote). Each is a Platform of the lab on a real Flink in package
// backend/compose, so the job, its print sinks, restarts and replays work as on the
// compose lab; only where Kafka and Flink run, and how labtui starts, kills and stops
// them, is here.
package clusterplatform

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	project "github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/backend/flinklab"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/labs"
)

// Config configures a lab whose Kafka and Flink are processes of labtui.
type Config struct {
	// Lab is the lab's own configuration: the fleet, the job's options, where it
	// starts reading. Its compose fields are not used.
	Lab flinklab.Config
	// Layout is the install; one that is missing is made on Start, with its progress
	// on the log.
	Layout localcluster.Layout
	// Ports are the ports taken when free; default localcluster.DefaultPorts.
	Ports *localcluster.Ports
	// RunDir is the folder of this run's files; default a new one in the cache.
	RunDir string
	// Session names the job (flinklab.SessionJobName) and its results topic
	// (flinklab.ResultsTopic); "" is DefaultSession.
	Session string
}

// New returns a lab that starts a KRaft Kafka broker and a Flink session cluster (one
// JobManager, one TaskManager) as processes on loopback, submits the lab's job with
// `flink run -py`, reads its results from the session's results topic (and the
// TaskManager's stdout file only to see it exit), kills and
// restarts the TaskManager process for RestartJob, and stops every process it started
// on Close.
func New(cfg Config) (*flinklab.Lab, error) {
	ports := localcluster.DefaultPorts
	if cfg.Ports != nil {
		ports = *cfg.Ports
	}
	lc := cfg.Lab
	if cfg.Session == "" {
		cfg.Session = DefaultSession()
	}
	lc.Platform = func(logf flinklab.Log) flinklab.Platform {
		return &processes{layout: cfg.Layout, ports: ports, runDir: cfg.RunDir, session: cfg.Session, logf: logf}
	}
	return flinklab.New(lc)
}

// processes is the Platform of Kafka and Flink run as processes of labtui.
type processes struct {
	layout  localcluster.Layout
	ports   localcluster.Ports
	runDir  string
	session string
	logf    flinklab.Log
	opts    localcluster.Options
	cluster *localcluster.Cluster
	script  string
}

// Name is "cluster".
func (p *processes) Name() string { return "cluster" }

var _ flinklab.PythonWorkers = (*processes)(nil)

// PythonWorkers is 2: labtui's TaskManager has two task slots (localcluster's
// taskmanager.numberOfTaskSlots) and runs this lab's one job at a time.
func (p *processes) PythonWorkers() int { return 2 }

// Preflight runs `labtui doctor --backend cluster`'s checks and fails on a problem.
func (p *processes) Preflight(ctx context.Context) error {
	report := localcluster.Doctor(ctx, p.layout)
	for _, r := range report.Results {
		p.logf("doctor: %s", r)
	}
	return doctorError("cluster", report)
}

// doctorError lists each problem's fix, or is nil.
func doctorError(backend string, r project.Report) error {
	if r.OK() {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the %s lab cannot start on this machine:\n", backend)
	for _, pr := range r.Problems() {
		fmt.Fprintf(&b, "  - %s: %s\n", pr.Name, pr.Fix)
	}
	fmt.Fprintf(&b, "Run `labtui doctor --backend %s` to see every check, or run labtui without --backend for the embedded lab (nothing to install).", backend)
	return errors.New(b.String())
}

// install makes what the plan says is missing, its plan and progress on the log.
func install(ctx context.Context, l localcluster.Layout, logf flinklab.Log) error {
	plan := l.Plan()
	if plan.Done() {
		return nil
	}
	logf("installing what the cluster needs, once, into %s (`labtui cluster install` does the same): %s", l.Cache, plan)
	began := time.Now()
	lastPct := map[string]int{}
	err := localcluster.Install(ctx, l, localcluster.InstallOptions{
		Logf: func(f string, a ...any) { logf(f, a...) },
		Progress: func(pr localcluster.Progress) {
			pct := 0
			if pr.Total > 0 {
				pct = int(100 * pr.Done / pr.Total)
			}
			// A line per tenth of the download, and pip's own steps.
			if pct/10 != lastPct[pr.Step]/10 || (pr.Step == "venv" && strings.HasPrefix(pr.Line, "Installing collected")) {
				logf("install %s: %d%% of %.0f MiB, %s so far", pr.Step, pct, float64(pr.Total)/(1<<20), pr.Elapsed.Round(time.Second))
			}
			lastPct[pr.Step] = pct
		},
	})
	if err != nil {
		return fmt.Errorf("install the cluster: %w", err)
	}
	logf("installed in %s: a next start downloads nothing", time.Since(began).Round(time.Second))
	return nil
}

// Up installs what is missing, starts the broker (with the lab's topic) and the Flink
// cluster side by side, and writes the lab's job where `flink run` reads it.
func (p *processes) Up(ctx context.Context) (flinklab.Endpoints, error) {
	if err := install(ctx, p.layout, p.logf); err != nil {
		return flinklab.Endpoints{}, err
	}
	script, err := labs.JobScript(filepath.Join(p.layout.Cache, "job"))
	if err != nil {
		return flinklab.Endpoints{}, err
	}
	p.script = script
	p.opts = localcluster.Options{Layout: p.layout, RunDir: p.runDir, Logf: p.logf}
	c, err := localcluster.Start(ctx, p.opts, p.ports, project.Topic, project.TopicPartitions)
	if err != nil {
		return flinklab.Endpoints{}, err
	}
	p.cluster = c
	return flinklab.Endpoints{Broker: c.Broker.Addr(), FlinkURL: c.Flink.REST.Base, Session: p.session}, nil
}

// Submit runs `flink run -d -py gateway_meter.py …` against the cluster.
func (p *processes) Submit(ctx context.Context, jobArgs []string) (string, error) {
	return p.cluster.Flink.Submit(ctx, p.script, jobArgs...)
}

// Follow waits until the current TaskManager's process exits or ctx ends. The results
// come from the session's results topic, so its stdout file is not read: tailing it
// would parse every trace line the job prints only to drop it.
func (p *processes) Follow(ctx context.Context, _ func(string)) (func() error, error) {
	return func() error {
		tm, _ := p.cluster.Flink.TaskManager()
		select {
		case <-ctx.Done():
		case <-tm.Done():
		}
		return nil
	}, nil
}

// TaskManagerRunning reports whether the TaskManager's process runs.
func (p *processes) TaskManagerRunning(context.Context) bool {
	tm, _ := p.cluster.Flink.TaskManager()
	exited, _ := tm.Exited()
	return !exited
}

// KillTaskManager kills the TaskManager's process group with SIGKILL.
func (p *processes) KillTaskManager(context.Context) error { return p.cluster.Flink.KillTaskManager() }

// StartTaskManager starts a new TaskManager process and waits until it has registered.
func (p *processes) StartTaskManager(ctx context.Context) error {
	return p.cluster.Flink.StartTaskManager(ctx)
}

// Down stops every process Up started.
func (p *processes) Down(context.Context) error {
	if p.cluster != nil {
		p.cluster.Stop()
		p.logf("Kafka and Flink stopped: no process of the cluster is left")
	}
	return nil
}
