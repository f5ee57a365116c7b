// Package embedded is the lab with nothing installed: a kfake broker, the gateway fleet
// producing to it through franz-go, the hiccup injector at the fleet's connections, and
// the GatewayMeter job consuming the topic on the wall clock, all in this process.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/livejob"
	"github.com/labtui/labtui/meter"
)

// Config configures an embedded lab.
type Config struct {
	// BrokerAddr is where the broker listens, default 127.0.0.1:9092.
	BrokerAddr string
	Generator  generator.Config
	Job        meter.Options
	// StartAt is where the job starts reading, and restarts: Earliest by default, as the
	// lab's job is configured.
	StartAt livejob.StartAt
	// Hiccups are scheduled from Start.
	Hiccups []inject.Hiccup
	// StatusEvery is how often a Status update is sent; default 100 ms.
	StatusEvery time.Duration
	// Consumed, if set, sees every record the job reads, with its arrival time, on the
	// job's goroutine (labtui record writes them down).
	Consumed func(r *kgo.Record, arrival int64)
}

// Lab is a running embedded lab: a backend.Backend.
type Lab struct {
	cfg      Config
	updates  chan backend.Update
	broker   *broker.Broker
	injector *inject.Injector
	ledger   *ledger

	mu       sync.Mutex
	gen      *generator.Generator
	genRuns  int
	job      *livejob.Job
	batch    []meter.Result
	dropped  int
	logs     []string
	closed   bool
	stopPump context.CancelFunc
	pumpDone chan struct{}
	planStop context.CancelFunc
	planDone chan struct{}
	final    livejob.Snapshot
	replays  int
	cached   *cachedRecording
	topic    string
	startAt  livejob.StartAt
	// runs counts the runs of the job; recording is the one the current run reads.
	runs      int
	recording string
}

// New returns a lab that Start brings up.
func New(cfg Config) (*Lab, error) {
	if cfg.Generator.Instances == 0 {
		cfg.Generator = generator.Defaults()
	}
	if cfg.StatusEvery <= 0 {
		cfg.StatusEvery = 100 * time.Millisecond
	}
	if cfg.Job.Prices == nil {
		cfg.Job.Prices = gateway.DefaultPrices()
	}
	if err := cfg.Generator.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.Job.Validate(); err != nil {
		return nil, err
	}
	return &Lab{cfg: cfg, updates: make(chan backend.Update, 64), ledger: newLedger(cfg.Job.Prices), startAt: cfg.StartAt}, nil
}

// Name is "embedded".
func (l *Lab) Name() string { return "embedded" }

// Updates delivers results and status; it is closed when Close returns.
func (l *Lab) Updates() <-chan backend.Update { return l.updates }

// Addr returns the broker's address once started.
func (l *Lab) Addr() string { return l.broker.Addr() }

// Start brings up the broker and the job, and schedules the configured hiccups. The
// generator starts stopped; SetGenerator(true) starts it.
func (l *Lab) Start(ctx context.Context) error {
	b, err := broker.Start(ctx, broker.Config{Addr: l.cfg.BrokerAddr})
	if err != nil {
		return err
	}
	l.broker = b
	l.cfg.Generator.Brokers = []string{b.Addr()}
	l.cfg.Generator.Topic = b.Topic()
	l.injector = inject.New(l.cfg.Generator.Instances)
	if err := l.injector.Check(l.cfg.Hiccups); err != nil {
		b.Close()
		return err
	}
	if err := l.startJob(ctx, backend.Restart{Cause: backend.CauseStart, Reason: "started"}); err != nil {
		b.Close()
		return err
	}
	pumpCtx, stop := context.WithCancel(context.Background())
	l.stopPump, l.pumpDone = stop, make(chan struct{})
	go l.pump(pumpCtx)
	planCtx, stopPlan := context.WithCancel(context.Background())
	l.planStop, l.planDone = stopPlan, make(chan struct{})
	start := time.Now()
	go func() {
		defer close(l.planDone)
		if len(l.cfg.Hiccups) > 0 {
			// Check passed above, so the plan ends only when it is done or cancelled.
			l.injector.Run(planCtx, start, l.cfg.Hiccups, func(h inject.Hiccup) {
				l.logHiccup(generator.InstanceName(h.Instance), h.For)
			})
		}
	}()
	l.logf("embedded broker on %s, topic %s with %d partitions", b.Addr(), b.Topic(), broker.DefaultPartitions)
	for _, h := range l.cfg.Hiccups {
		at := h.StartsAt(start)
		l.logf("hiccup scheduled: %s (at %s, %s after start, for %s, until %s)", h,
			at.Format("15:04:05"), at.Sub(start).Round(time.Second), h.For, at.Add(h.For).Format("15:04:05"))
	}
	return nil
}

func (l *Lab) startJob(ctx context.Context, r backend.Restart) error {
	l.mu.Lock()
	if l.topic == "" {
		l.topic = l.broker.Topic()
	}
	topic, startAt := l.topic, l.startAt
	l.mu.Unlock()
	job, err := livejob.Start(ctx, livejob.Config{
		Brokers: []string{l.broker.Addr()}, Topic: topic, StartAt: startAt, Job: l.cfg.Job,
		Malformed: func(p int32, off int64, err error) { l.logf("skipped partition %d offset %d: %v", p, off, err) },
		Consumed:  l.cfg.Consumed,
	}, l.collect)
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.job = job
	l.mu.Unlock()
	l.mu.Lock()
	l.runs++
	r.Run, r.Recording, r.Timestamp, r.At = l.runs, l.recording, l.cfg.Job.Timestamp, time.Now().UnixMilli()
	r.Watermarks = backend.Watermarks{OutOfOrderness: l.cfg.Job.Watermarks.OutOfOrderness, Interval: l.cfg.Job.Watermarks.Interval.Or(meter.DefaultWatermarkInterval)}
	l.mu.Unlock()
	l.send(backend.Update{Run: r.Run, Restarted: &r})
	return nil
}

// collect runs on the job's goroutine: it must never block.
func (l *Lab) collect(r meter.Result) {
	l.mu.Lock()
	if len(l.batch) < 50_000 {
		l.batch = append(l.batch, r)
	} else {
		l.dropped++
	}
	l.mu.Unlock()
}

// SetGenerator starts or stops the gateway fleet. A fleet started again starts a new
// schedule (new request ids) from now.
func (l *Lab) SetGenerator(on bool) error {
	l.mu.Lock()
	gen := l.gen
	l.mu.Unlock()
	if !on {
		if gen == nil {
			return nil
		}
		l.mu.Lock()
		l.gen = nil
		l.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		err := gen.Stop(ctx)
		l.ledger.retire(gen)
		l.logf("generator stopped")
		return err
	}
	if gen != nil {
		return nil
	}
	l.mu.Lock()
	replaying, field := l.topic != l.broker.Topic(), l.cfg.Job.Timestamp
	l.mu.Unlock()
	if replaying { // back from a replay: the job follows the live topic again, from now
		if err := l.restartOn(context.Background(), l.broker.Topic(), livejob.Latest, field, backend.Restart{Cause: backend.CauseLive, Reason: "back to the live topic"}); err != nil {
			return err
		}
	}
	cfg := l.cfg.Generator
	l.mu.Lock()
	cfg.Seed += int64(l.genRuns)
	l.genRuns++
	l.mu.Unlock()
	g, err := generator.New(cfg, generator.WithObserver(l.ledger.observe), generator.WithDialer(l.injector.Dialer))
	if err != nil {
		return err
	}
	if err := g.Start(context.Background()); err != nil {
		return err
	}
	l.ledger.attach(g)
	l.mu.Lock()
	l.gen = g
	l.mu.Unlock()
	l.logf("generator started: %d instances, %.0f requests/s", cfg.Instances, cfg.Rate)
	return nil
}

// Inject holds one instance's produce requests for d.
func (l *Lab) Inject(instance string, d time.Duration) error {
	if err := l.injector.StartNamed(instance, d); err != nil {
		return err
	}
	l.logHiccup(instance, d)
	return nil
}

// logHiccup says that a hiccup started, by hand or on schedule.
func (l *Lab) logHiccup(instance string, d time.Duration) {
	l.logf("hiccup on %s for %s, until %s", instance, d, time.Now().Add(d).Format("15:04:05"))
}

// RestartJob kills the job and starts a new one on the same topic, as a TaskManager
// that dies and comes back without checkpoints: empty state, reading from the
// configured starting offsets.
func (l *Lab) RestartJob(ctx context.Context) error {
	l.mu.Lock()
	topic, startAt, field := l.topic, l.startAt, l.cfg.Job.Timestamp
	l.mu.Unlock()
	return l.restartOn(ctx, topic, startAt, field, backend.Restart{Cause: backend.CauseKill, Reason: "job restarted with empty state"})
}

// restartOn stops the job and starts a new one reading topic from startAt.
func (l *Lab) restartOn(ctx context.Context, topic string, startAt livejob.StartAt, field meter.TimestampField, r backend.Restart) error {
	l.mu.Lock()
	job, old := l.job, l.topic
	l.job = nil
	l.topic, l.startAt = topic, startAt
	l.cfg.Job.Timestamp = field
	switch r.Cause {
	case backend.CauseReplay, backend.CauseLive:
		l.recording = r.Recording
	}
	l.mu.Unlock()
	if job != nil {
		job.Stop()
		l.flush() // the old job's last results go out before the restart that ends its run
	}
	if old != topic && old != l.broker.Topic() && old != "" {
		// A replay's topic is read by nothing once the job has left it; the broker would
		// otherwise hold every replay of the hour in memory.
		if err := l.deleteTopic(ctx, old); err != nil {
			l.logf("%v", err)
		}
	}
	return l.startJob(ctx, r)
}

// Close stops the hiccups, the generator (waiting for what it holds), the job and the
// broker, then closes Updates.
func (l *Lab) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	var errs []error
	if l.planStop != nil {
		l.planStop()
		<-l.planDone
	}
	if l.injector != nil {
		l.injector.StopAll()
	}
	errs = append(errs, l.SetGenerator(false))
	l.mu.Lock()
	job := l.job
	l.mu.Unlock()
	if job != nil {
		// Let the job read what the generator flushed before it stops.
		l.drainJob(job, 5*time.Second)
		final, err := job.Stop()
		l.mu.Lock()
		l.final = final
		l.mu.Unlock()
		errs = append(errs, err)
	}
	if l.stopPump != nil {
		l.stopPump()
		<-l.pumpDone
	}
	if l.broker != nil {
		l.broker.Close()
	}
	close(l.updates)
	return errors.Join(errs...)
}

// drainJob waits, up to limit, until the job has consumed every event produced.
func (l *Lab) drainJob(job *livejob.Job, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if job.Snapshot().Consumed >= l.ledger.totals().Acked {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (l *Lab) logf(format string, args ...any) {
	l.mu.Lock()
	l.logs = append(l.logs, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}
