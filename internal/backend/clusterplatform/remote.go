package clusterplatform

import (
	"context"
	"errors"
	"os"
	osuser "os/user"
	"path/filepath"
	"strings"

	project "github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/backend/flinklab"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/safetext"
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
	Layout localcluster.Layout
	// RunDir is the folder of this run's files (the Flink client's configuration).
	RunDir string
	// Session names this learner's session on a cluster a class shares (see
	// SessionTopic); "" is DefaultSession.
	Session string
}

// sessionTopic is the live topic of session: the course's topic with the session's name,
// such as gateway-events-ana. Each replay's topic is named after it
// (gateway-events-ana-replay-1), so two sessions never write one topic.
func sessionTopic(session string) string { return project.Topic + "-" + session }

// sessionGroup is the consumer group the session's job reads with.
func sessionGroup(session string) string { return flinklab.SessionJobName(session) }

// DefaultSession is the session name of a learner who gives none: the login name and
// the machine's short host name, lower-case, each character outside a-z, 0-9, '-' and
// '_' made '-', such as ana-laptop3. Two learners on one machine under one login must
// give --session.
func DefaultSession() string {
	user := os.Getenv("USER")
	if u, err := osuser.Current(); err == nil && u.Username != "" {
		user = u.Username
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	name := strings.Trim(user+"-"+host, "-")
	if name == "" {
		name = "learner"
	}
	return SessionName(name)
}

// SessionName makes s a valid part of a topic name: lower-case, each character outside
// a-z, 0-9, '-' and '_' made '-', at most MaxSession characters.
func SessionName(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	if len(b) > maxSession {
		b = b[:maxSession]
	}
	return string(b)
}

// maxSession is the longest session name: topic names end at 249 characters, and a
// replay's adds its suffix to the session's.
const maxSession = 40

// NewRemote returns a lab on a cluster labtui did not start, as one session of those a
// class may run on it at once: it creates the session's topic (SessionTopic) if it is
// missing, says when that topic holds an earlier run's records and which of the lab's
// jobs run already, submits the job with the install's `flink run -m HOST:PORT -py`,
// reads its results from the session's results topic (flinklab.ResultsTopic), which the
// job writes, and on Close cancels only the job it submitted. It never stops or kills what it did not
// start: RestartJob is refused with a sentence. The hiccup works as anywhere: the
// gateways are labtui's own.
func NewRemote(cfg RemoteConfig) (*flinklab.Lab, error) {
	lc := cfg.Lab
	if cfg.Session == "" {
		cfg.Session = DefaultSession()
	}
	lc.Platform = func(logf flinklab.Log) flinklab.Platform {
		return &remote{cfg: cfg, logf: logf}
	}
	return flinklab.New(lc)
}

// remote is the Platform of a cluster that already runs.
type remote struct {
	cfg    RemoteConfig
	logf   flinklab.Log
	client *localcluster.Client
	rest   *localcluster.REST
	script string
}

// errNotOurs is the answer to a kill of a TaskManager labtui did not start.
var errNotOurs = errors.New("labtui did not start this cluster's TaskManager, so it does not kill it: " +
	"kill it where it runs (the compose lab: docker compose kill taskmanager) and labtui shows the job's restart")

// Name is "remote".
func (p *remote) Name() string { return "remote" }

// Preflight runs `labtui doctor --backend remote`'s checks and fails on a problem.
func (p *remote) Preflight(ctx context.Context) error {
	report := localcluster.DoctorRemote(ctx, p.cfg.Layout, p.cfg.Brokers, p.cfg.FlinkURL, flinklab.ResultsTopic(p.cfg.Session))
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
	p.client, err = localcluster.NewClient(localcluster.Options{Layout: p.cfg.Layout, RunDir: p.cfg.RunDir, Logf: p.logf}, p.cfg.FlinkURL)
	if err != nil {
		return flinklab.Endpoints{}, err
	}
	p.rest = localcluster.NewREST(p.cfg.FlinkURL)
	topic := sessionTopic(p.cfg.Session)
	if err := localcluster.CreateTopic(ctx, p.cfg.Brokers, topic, project.TopicPartitions, nil, p.logf); err != nil {
		return flinklab.Endpoints{}, err
	}
	p.logf("session %s on the cluster at %s (Flink) and %s (Kafka), which labtui did not start: its topic is %s, its replays' %s-replay-N, its job %s (consumer group the same), its results topic %s; labtui stops only the job it submits",
		p.cfg.Session, p.cfg.FlinkURL, p.cfg.Brokers, topic, topic, sessionGroup(p.cfg.Session), flinklab.ResultsTopic(p.cfg.Session))
	p.warnOlderRecords(ctx, topic)
	p.listLabJobs(ctx)
	return flinklab.Endpoints{Broker: p.cfg.Brokers, FlinkURL: p.rest.Base, Topic: topic, Session: p.cfg.Session, Shared: true}, nil
}

// warnOlderRecords says so when the session's topic holds records already: an earlier
// run of this session's (or of a session of the same name) wrote them, and a job that
// reads from the earliest offsets bills them all into its first processing-time minute.
func (p *remote) warnOlderRecords(ctx context.Context, topic string) {
	n, err := localcluster.TopicRecords(ctx, p.cfg.Brokers, topic)
	if err != nil {
		p.logf("warning: how many records topic %s holds cannot be read (%v)", topic, err)
		return
	}
	if n > 0 {
		p.logf("warning: topic %s already holds %d records from an earlier run of session %s: the job reads them first, and its first processing-time minute bills them all; start with --starting-offsets latest, or give a new --session, to begin with an empty topic",
			topic, n, p.cfg.Session)
	}
}

// listLabJobs names the lab's jobs that run on the cluster already: other sessions', or
// one a session that crashed left behind, which holds a slot until it is cancelled.
func (p *remote) listLabJobs(ctx context.Context) {
	jobs, err := p.rest.Jobs(ctx)
	if err != nil {
		return
	}
	own := flinklab.SessionJobName(p.cfg.Session)
	for _, j := range jobs {
		switch {
		case j.Terminal():
		case j.Name == own:
			p.logf("job %s (%s) is named after this session, %s, and runs already: a labtui of this session that crashed left it (or another learner uses --session %s); it holds a slot and reads this session's topic until it is cancelled: cancel it in Flink's web UI (%s/#/job/running/%s/overview) or with `curl -X PATCH '%s/jobs/%s?mode=cancel'`; its results are not shown here",
				j.ID, j.State, own, p.cfg.Session, p.rest.Base, j.ID, p.rest.Base, j.ID)
		case j.Name == flinklab.JobName || strings.HasPrefix(j.Name, flinklab.JobName+"-"):
			p.logf("job %s (%s, %s) of the lab runs on this cluster: another session's", j.ID, safetext.Line(j.Name), j.State)
		}
	}
}

// Submit runs the install's `flink run -m HOST:PORT -d -py gateway_meter.py …`.
func (p *remote) Submit(ctx context.Context, jobArgs []string) (string, error) {
	return p.client.Submit(ctx, p.script, append(jobArgs, "--group-id", sessionGroup(p.cfg.Session))...)
}

// Follow waits until ctx ends: the results come from the session's results topic, and a
// remote TaskManager's death shows as the job's RESTARTING state. A TaskManager's stdout
// is never read: it may be a container's console, and holds every session's lines.
func (p *remote) Follow(ctx context.Context, line func(string)) (func() error, error) {
	return func() error {
		<-ctx.Done()
		return nil
	}, nil
}

// TaskManagerRunning is true: whether a remote TaskManager runs is Flink's to say.
func (p *remote) TaskManagerRunning(context.Context) bool { return true }

// KillTaskManager is refused.
func (p *remote) KillTaskManager(context.Context) error { return errNotOurs }

// StartTaskManager is refused.
func (p *remote) StartTaskManager(context.Context) error { return errNotOurs }

// Down stops nothing (the lab cancels the job it submitted) and removes the Flink
// client's temporary files.
func (p *remote) Down(context.Context) error {
	if p.client != nil {
		return p.client.Close()
	}
	return nil
}
