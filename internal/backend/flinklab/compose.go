// Package flinklab is the lab on real Kafka and Flink: a backend.Backend whose Platform
// runs them (the docker-compose cluster of package github.com/labtui/labtui/compose,
// localcluster's processes, or an existing cluster). With the docker platform it drives
// that cluster (Kafka, a Flink jobmanager and taskmanager) with `docker compose`, runs the lab's PyFlink job on it, and reads the
// job's print sinks from the taskmanager's log, so the TUI shows the same results the
// embedded lab produces. The gateway fleet and the broker hiccup are labtui's own,
// pointed at the cluster's Kafka on 127.0.0.1:9092.
//
// Every docker command is run as a program (os/exec, never a shell) and shown on the
// lab's log as the line a learner would type: "$ docker compose -p labtui-lab4 -f
// compose/docker-compose.yml up -d --build --wait".
package flinklab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/watermark"
)

// Config configures a compose lab. The zero value of each field means its default.
type Config struct {
	// ComposeFile is the compose file's path, as docker is given it; default: the
	// labtui checkout's compose/docker-compose.yml, found by FindComposeFile from the
	// working directory.
	ComposeFile string
	// Docker is the docker executable; default "docker", found on PATH.
	Docker string
	// FlinkURL is the base URL of Flink's REST API; default http://127.0.0.1:8081.
	FlinkURL string
	// Broker is where labtui's generator and replay reach Kafka; default 127.0.0.1:9092.
	Broker string
	// Generator is the gateway fleet; its Brokers and Topic are replaced by Broker and
	// the lab's topic. Default generator.Defaults().
	Generator generator.Config
	// Job carries the job's options that the PyFlink job takes: Timestamp,
	// Watermarks.OutOfOrderness and ForgetAfter. Its price table and window size are
	// fixed in gateway_meter.py; other prices are refused.
	Job jobspec.Options
	// StartAt is where the job starts reading: "earliest" (the default, as the lab's
	// job is configured) or "latest".
	StartAt string
	// KeepCluster leaves the cluster running when the lab closes (no `docker compose
	// down`); the next start reuses it and cancels the job it left running.
	KeepCluster bool
	// StatusEvery is how often results and a Status update are sent; default 100 ms.
	StatusEvery time.Duration
	// PollEvery is how often Flink's REST API is asked for the job's state; default 1 s.
	PollEvery time.Duration
	// JobTimeout bounds the wait for a submitted job to be RUNNING; default 3 minutes
	// (the first job on a fresh cluster starts its Python workers).
	JobTimeout time.Duration
	// CheckerOptions are added to the doctor checks Preflight runs (tests set the
	// ports with them).
	CheckerOptions []compose.CheckerOption
	// Now is the clock; default time.Now. `docker compose logs --since` takes its time.
	Now func() time.Time
	// Hiccups are scheduled from Start, as labtui run --hiccup gives them.
	Hiccups []inject.Hiccup
	// Lossless holds the job's results back rather than drop one when the reader is
	// behind (labrt.Config.Lossless): for labtui run --headless.
	Lossless bool
	// Platform makes, given the lab's log, where Kafka and Flink run; nil is Docker
	// Compose on ComposeFile. ComposeFile, Docker, Broker, FlinkURL, KeepCluster and
	// CheckerOptions are the compose platform's; another platform says its own.
	Platform func(Log) Platform
}

// Lab is a compose lab: a backend.Backend, a backend.Restarter (its RestartJob kills
// the taskmanager) and a backend.Reconfigurer. The runtime it embeds runs the fleet,
// the restarts and the updates. Create it with New, then Preflight (or Start, which
// runs it), and always Close it.
type Lab struct {
	*labrt.Runtime
	cfg      Config
	platform Platform
	// ep and flink are where the platform's Kafka and Flink are, once Up has returned.
	ep    Endpoints
	flink *localcluster.REST
	// life ends when Close begins: everything the lab runs in the background stops.
	life context.Context
	end  context.CancelFunc
	// bg counts the background goroutines: the log follower and the job watcher.
	bg sync.WaitGroup
	// startMu is held by Start, and by Close once it has ended life, so that `down`
	// never races an `up` still running.
	startMu sync.Mutex

	mu      sync.Mutex
	books   books
	pos     *positions     // how the running job reads its topic; nil when unknown
	results *resultsReader // the session's results topic; nil: the TaskManager's stdout
	// savepointDir is where the savepoints a replay's drain takes go: "" the cluster's
	// savepoint folder, localcluster.FallbackSavepointDir once the cluster said it has none.
	savepointDir string
	jobID        string
	jobState     string
	lastRestart  time.Time
	preflighted  bool
	upRan        bool
	tmDown       bool
	// switching is set from a Stop until the Start after it returns: the job is being
	// replaced (a replay, a strategy change), so a TaskManager that dies meanwhile takes
	// no run of the lab's with it (see follow).
	switching bool
	kill      *killRequest
}

// New checks cfg and returns a lab that Start brings up. It runs nothing.
func New(cfg Config) (*Lab, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	l := &Lab{cfg: cfg, books: newBooks()}
	if cfg.Platform != nil {
		l.platform = cfg.Platform(l.logf)
	} else {
		l.platform = newDockerPlatform(cfg, l.logf)
	}
	rt, err := labrt.New(labrt.Config{Name: l.platform.Name(), Generator: cfg.Generator, Hiccups: cfg.Hiccups,
		Lossless: cfg.Lossless, StatusEvery: cfg.StatusEvery, Now: cfg.Now}, flinkRun{l})
	if err != nil {
		return nil, err
	}
	l.Runtime = rt
	l.life, l.end = context.WithCancel(context.Background())
	return l, nil
}

func (c Config) withDefaults() (Config, error) {
	if c.Docker == "" {
		c.Docker = "docker"
	}
	if c.FlinkURL == "" {
		c.FlinkURL = "http://" + net.JoinHostPort(compose.HostIP, strconv.Itoa(compose.FlinkWebPort))
	}
	if c.Broker == "" {
		c.Broker = net.JoinHostPort(compose.HostIP, strconv.Itoa(compose.KafkaHostPort))
	}
	if c.Generator.Instances == 0 {
		c.Generator = generator.Defaults()
	}
	c.Generator.Brokers, c.Generator.Topic = []string{c.Broker}, compose.Topic
	if c.StartAt == "" {
		c.StartAt = "earliest"
	}
	if c.StatusEvery <= 0 {
		c.StatusEvery = 100 * time.Millisecond
	}
	if c.PollEvery <= 0 {
		c.PollEvery = time.Second
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = 3 * time.Minute
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	c.Job.ForgetAfter = jobspec.Ms(c.Job.ForgetAfter.Or(jobspec.DefaultForgetAfter))
	if c.StartAt != "earliest" && c.StartAt != "latest" {
		return c, fmt.Errorf("the job's starting offsets must be earliest or latest, not %q", c.StartAt)
	}
	if err := c.Generator.Validate(); err != nil {
		return c, err
	}
	if err := c.Job.Validate(); err != nil {
		return c, err
	}
	if c.Job.Prices != nil && !samePrices(c.Job.Prices, gateway.DefaultPrices()) {
		return c, errors.New("the compose lab's job has the course's price table built in (gateway_meter.py): remove the prices from the config, or use the embedded lab")
	}
	if c.Job.WindowSize != 0 && c.Job.WindowSize != jobspec.Minute {
		return c, errors.New("the compose lab's job has one-minute windows built in (gateway_meter.py)")
	}
	if c.Job.Watermarks.Period() != watermark.DefaultInterval {
		return c, errors.New("the compose lab's job emits watermarks every 200 ms (gateway_meter.py): leave the watermark interval at its default")
	}
	if c.ComposeFile == "" && c.Platform == nil {
		f, err := findComposeFile("")
		if err != nil {
			return c, err
		}
		c.ComposeFile = f
	}
	return c, nil
}

// samePrices reports whether two price tables hold the same models at the same prices.
func samePrices(a, b gateway.PriceTable) bool {
	if len(a) != len(b) {
		return false
	}
	for m, p := range a {
		if q, ok := b[m]; !ok || p != q {
			return false
		}
	}
	return true
}

// Name is the platform's: "compose", "cluster" or "remote".
func (l *Lab) Name() string { return l.platform.Name() }

// Broker returns where the cluster's Kafka is reached from this machine, once Start has
// brought it up.
func (l *Lab) Broker() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ep.Broker
}

// bound returns ctx ended also when the lab closes.
func (l *Lab) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(l.life, cancel)
	return ctx, func() { stop(); cancel() }
}
