package cluster

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/labtui/labtui/backend/flinklab"
	project "github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/labcluster"
	"github.com/labtui/labtui/labs"
)

// RemoteConfig configures a lab on a Kafka and a Flink that already run.
type RemoteConfig struct {
	// Lab is the lab's own configuration, as in Config.
	Lab flinklab.Config
	// Brokers is the Kafka bootstrap address, HOST:PORT, as this machine reaches it
	// and as the cluster's TaskManagers reach it.
	Brokers string
	// FlinkURL is the URL of Flink's REST API and web UI.
	FlinkURL string
	// Layout is the install `flink run` comes from; one that is missing is made on
	// Start.
	Layout labcluster.Layout
	// RunDir is the folder of this run's files (the Flink client's configuration).
	RunDir string
}

// NewRemote returns a lab on a cluster labtui did not start: it creates the lab's topic
// if it is missing, submits the job with the install's `flink run -m HOST:PORT -py`,
// reads the print sinks through the REST API (each TaskManager's stdout file), and on
// Close cancels only the job it submitted. It never stops or kills what it did not
// start: RestartJob is refused with a sentence. The hiccup works as anywhere: the
// gateways are labtui's own.
func NewRemote(cfg RemoteConfig) (*flinklab.Lab, error) {
	lc := cfg.Lab
	lc.Platform = func(logf flinklab.Log) flinklab.Platform {
		return &remote{cfg: cfg, logf: logf}
	}
	return flinklab.New(lc)
}

// remote is the Platform of a cluster that already runs.
type remote struct {
	cfg    RemoteConfig
	logf   flinklab.Log
	client *labcluster.Client
	rest   *labcluster.REST
	script string
}

// errNotOurs is the answer to a kill of a TaskManager labtui did not start.
var errNotOurs = errors.New("labtui did not start this cluster's TaskManager, so it does not kill it: " +
	"kill it where it runs (the compose lab: docker compose kill taskmanager) and labtui shows the job's restart")

// Name is "remote".
func (p *remote) Name() string { return "remote" }

// Preflight runs `labtui doctor --backend remote`'s checks and fails on a problem.
func (p *remote) Preflight(ctx context.Context) error {
	report := labcluster.DoctorRemote(ctx, p.cfg.Layout, p.cfg.Brokers, p.cfg.FlinkURL)
	for _, r := range report.Results {
		p.logf("doctor: %s", r)
	}
	return doctorError("remote", report)
}

// Up installs the Flink client if it is missing and creates the lab's topic unless it
// exists; nothing is started.
func (p *remote) Up(ctx context.Context) (flinklab.Endpoints, error) {
	if err := install(ctx, p.cfg.Layout, p.logf); err != nil {
		return flinklab.Endpoints{}, err
	}
	script, err := labs.JobScript(filepath.Join(p.cfg.Layout.Cache, "job"))
	if err != nil {
		return flinklab.Endpoints{}, err
	}
	p.script = script
	p.client, err = labcluster.NewClient(labcluster.Options{Layout: p.cfg.Layout, RunDir: p.cfg.RunDir, Logf: p.logf}, p.cfg.FlinkURL)
	if err != nil {
		return flinklab.Endpoints{}, err
	}
	p.rest = labcluster.NewREST(p.cfg.FlinkURL)
	if err := labcluster.CreateTopic(ctx, p.cfg.Brokers, project.Topic, project.TopicPartitions, p.logf); err != nil {
		return flinklab.Endpoints{}, err
	}
	p.logf("using the cluster at %s (Flink) and %s (Kafka), which labtui did not start: it stops only the job it submits", p.cfg.FlinkURL, p.cfg.Brokers)
	return flinklab.Endpoints{Broker: p.cfg.Brokers, FlinkURL: p.rest.Base, Shared: true}, nil
}

// Submit runs the install's `flink run -m HOST:PORT -d -py gateway_meter.py …`.
func (p *remote) Submit(ctx context.Context, jobArgs []string) (string, error) {
	return p.client.Submit(ctx, p.script, jobArgs...)
}

// Follow reads every TaskManager's stdout through the REST API every second until ctx
// ends: a remote TaskManager's death shows as the job's RESTARTING state, not here.
func (p *remote) Follow(ctx context.Context, line func(string)) (func() error, error) {
	return func() error {
		labcluster.FollowRESTStdout(ctx, p.rest, time.Second, line, func(err error) {
			p.logf("the TaskManagers' stdout cannot be read through %s/taskmanagers/…/stdout (%v): a cluster whose TaskManagers log stdout elsewhere (the official Docker image) shows no results here", p.rest.Base, err)
		})
		return nil
	}, nil
}

// TaskManagerRunning is true: whether a remote TaskManager runs is Flink's to say.
func (p *remote) TaskManagerRunning(context.Context) bool { return true }

// KillTaskManager is refused.
func (p *remote) KillTaskManager(context.Context) error { return errNotOurs }

// StartTaskManager is refused.
func (p *remote) StartTaskManager(context.Context) error { return errNotOurs }

// Down stops nothing: the lab cancels the job it submitted.
func (p *remote) Down(context.Context) error { return nil }
