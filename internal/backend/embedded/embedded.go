// Package embedded is the lab with nothing installed: a kfake broker, the gateway fleet
// producing to it through franz-go, the hiccup injector at the fleet's connections, and
// the GatewayMeter job consuming the topic on the wall clock, all in this process. The
// fleet, the outbox and the restarts are the lab runtime's (package labrt); this
// package is where Kafka and the job are: the broker and a livejob.Job.
package embedded

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/livejob"
)

// Config configures an embedded lab.
type Config struct {
	// BrokerAddr is where the broker listens, default 127.0.0.1:9092.
	BrokerAddr string
	Generator  generator.Config
	Job        jobspec.Options
	// StartAt is where the job starts reading, and restarts: Earliest by default, as the
	// lab's job is configured.
	StartAt livejob.StartAt
	// Hiccups are scheduled from Start.
	Hiccups []inject.Hiccup
	// Stalls are stalled partitions, scheduled from Start.
	Stalls []inject.Stall
	// StatusEvery is how often a Status update is sent; default 100 ms.
	StatusEvery time.Duration
	// Lossless holds the job back rather than drop a result when the reader of Updates
	// is behind (see labrt.Config.Lossless): labtui run --headless sets it.
	Lossless bool
	// Consumed, if set, sees every record the job reads, with its arrival time, on the
	// job's goroutine (labtui record writes them down).
	Consumed func(r *kgo.Record, arrival int64)
}

// Lab is a running embedded lab: a backend.Backend, a backend.Restarter and a
// backend.Reconfigurer. The runtime it embeds runs the fleet, the restarts and the
// updates.
type Lab struct {
	*labrt.Runtime
	cfg    Config
	broker *broker.Broker
	job    *engineJob
	lost   labrt.Lost
}

// New returns a lab that Start brings up.
func New(cfg Config) (*Lab, error) {
	if cfg.Generator.Instances == 0 {
		cfg.Generator = generator.Defaults()
	}
	if cfg.Job.Prices == nil {
		cfg.Job.Prices = gateway.DefaultPrices()
	}
	if err := cfg.Job.Validate(); err != nil {
		return nil, err
	}
	l := &Lab{cfg: cfg}
	l.job = &engineJob{lab: l}
	rt, err := labrt.New(labrt.Config{Name: "embedded", Generator: cfg.Generator, Prices: cfg.Job.Prices,
		Hiccups: cfg.Hiccups, Stalls: cfg.Stalls, Partitions: broker.DefaultPartitions, StatusEvery: cfg.StatusEvery, Lossless: cfg.Lossless}, l.job)
	if err != nil {
		return nil, err
	}
	l.Runtime = rt
	return l, nil
}

// Name is "embedded".
func (l *Lab) Name() string { return "embedded" }

// Addr returns the broker's address once started.
func (l *Lab) Addr() string { return l.broker.Addr() }

// Start brings up the broker and the job, and schedules the configured hiccups. The
// generator starts stopped; SetGenerator(true) starts it. When Start fails, it has
// closed the lab.
func (l *Lab) Start(ctx context.Context) error {
	l.StartPump()
	b, err := broker.Start(ctx, broker.Config{Addr: l.cfg.BrokerAddr})
	if err != nil {
		l.Close()
		return err
	}
	l.broker = b
	if err := l.start(ctx); err != nil {
		l.Close()
		return err
	}
	return nil
}

func (l *Lab) start(ctx context.Context) error {
	b := l.broker
	if err := l.SetKafka(b.Addr(), []string{b.Addr()}, b.Topic()); err != nil {
		return err
	}
	startAt := labrt.Earliest
	if l.cfg.StartAt == livejob.Latest {
		startAt = labrt.Latest
	}
	spec := labrt.Spec{Topic: b.Topic(), StartAt: startAt, Timestamp: l.cfg.Job.Timestamp, Watermarks: l.cfg.Job.Watermarks}
	if err := l.Restart(ctx, backend.Restart{Cause: backend.CauseStart, Reason: "started"}, spec); err != nil {
		return err
	}
	l.Logf("embedded broker on %s, topic %s with %d partitions", b.Addr(), b.Topic(), broker.DefaultPartitions)
	return l.Started()
}

// Close stops the hiccups, the generator (waiting for what it holds), the job and the
// broker, then closes Updates. A second Close does nothing.
func (l *Lab) Close() error {
	if !l.Closing() {
		return nil
	}
	errs := []error{l.StopFleet()}
	// Let the job read what the generator flushed before it stops.
	l.drainJob(5 * time.Second)
	errs = append(errs, l.job.end(context.Background()))
	if l.broker != nil {
		l.broker.Close()
	}
	l.lost = l.Runtime.Close()
	return errors.Join(errs...)
}

// drainJob waits, up to limit, until the job has consumed every event the fleet
// produced that it reads.
func (l *Lab) drainJob(limit time.Duration) {
	for deadline := time.Now().Add(limit); l.job.behind() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
}
