package labrt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/logcap"
	"github.com/labtui/labtui/internal/watermark"
)

// Config configures a Runtime. The zero value of each field means its default.
type Config struct {
	// Name is the backend's name, as Status shows it: "embedded", "compose", "cluster".
	Name string
	// Generator is the gateway fleet; its Brokers and Topic are replaced by where the
	// backend says Kafka is (SetKafka). Default generator.Defaults().
	Generator generator.Config
	// Prices price what the fleet generates, for the totals; default
	// gateway.DefaultPrices().
	Prices gateway.PriceTable
	// Hiccups are scheduled from Start.
	Hiccups []inject.Hiccup
	// Stalls are stalled partitions, scheduled from Start (StallPartition).
	Stalls []inject.Stall
	// Partitions is how many partitions the live topic has, for StallPartition; default
	// broker.DefaultPartitions.
	Partitions int
	// StatusEvery is how often results and a Status update are sent; default 100 ms.
	StatusEvery time.Duration
	// MaxResults bounds the results waiting for the reader; default DefaultMaxResults.
	MaxResults int
	// Lossless makes the runtime hold the job back rather than drop a result when the
	// reader is behind, and wait for the reader at close as long as it takes: for a
	// reader whose output is the product (labtui run --headless). Without it, results
	// past MaxResults are dropped and counted, and Close gives the reader CloseWait.
	Lossless bool
	// CloseWait is how long Close waits for a reader that is behind; default 500 ms.
	CloseWait time.Duration
	// TopicEvery is how often the runtime asks Kafka whether the topic the job reads
	// is still there (a job on a deleted topic reads nothing more); default 2 s.
	TopicEvery time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

func (c Config) withDefaults() (Config, error) {
	if c.Generator.Instances == 0 {
		c.Generator = generator.Defaults()
	}
	if c.Prices == nil {
		c.Prices = gateway.DefaultPrices()
	}
	if c.Partitions <= 0 {
		c.Partitions = broker.DefaultPartitions
	}
	if c.StatusEvery <= 0 {
		c.StatusEvery = 100 * time.Millisecond
	}
	if c.MaxResults <= 0 {
		c.MaxResults = defaultMaxResults
	}
	if c.CloseWait <= 0 {
		c.CloseWait = 500 * time.Millisecond
	}
	if c.TopicEvery <= 0 {
		c.TopicEvery = 2 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, c.Generator.Validate()
}

// StartAt is where a job starts reading a topic.
type StartAt int

const (
	// Earliest reads a topic from its first record, as the lab's job is configured.
	Earliest StartAt = iota
	// Latest reads only what is produced after the job started.
	Latest
)

// String is "earliest" or "latest", as the job's --starting-offsets takes it.
func (s StartAt) String() string {
	if s == Latest {
		return "latest"
	}
	return "earliest"
}

// Spec is what one run of the job reads and how: a job is started from a Spec.
type Spec struct {
	Topic      string
	StartAt    StartAt
	Timestamp  jobspec.TimestampField
	Watermarks watermark.Strategy
}

// JobStatus is the job's part of a Status, as the backend can see it.
type JobStatus struct {
	Watermark int64
	Stats     jobspec.Stats
	Open      []jobspec.Result
	// Read counts the records of its topic the running job has read since it started,
	// well-formed or not, as its source counts them: a replay is complete when it has
	// read every record written (Runtime.Replay). A backend that puts Reads together
	// from more than the job's own count (the compose lab's index of the topic) counts
	// only what Reads account for, so the completion's Reads say how the job read
	// every record it counts.
	Read int64
	// Reads is how the job has read its topic's partitions, nil when the job cannot say.
	Reads *jobspec.Reads
}

// Job is what a backend runs the lab's job with: where the job is and how it starts and
// stops. The runtime calls Start and Stop in turn, never at once.
type Job interface {
	// Start starts a job reading spec.Topic from spec.StartAt with spec's timestamp and
	// watermarks, with empty state, handing every result to collect (on any goroutine,
	// in order), and returns once it is reading.
	Start(ctx context.Context, spec Spec, collect func(jobspec.Result)) error
	// Stop stops the running job, if any, and returns once it has stopped: after its last
	// result has been handed to collect.
	Stop(ctx context.Context) error
	// Status is the running job's state now; before the first job, or between jobs, its
	// Watermark is jobspec.MinWatermark.
	Status() JobStatus
}

// ErrClosed is returned by calls made after the lab began to close.
var ErrClosed = errors.New("the lab is closed")

// errNotStarted is returned by calls that need a running lab before Start has finished.
var errNotStarted = errors.New("the lab has not started yet: wait until its job runs")

// Runtime is the part of a running lab that every backend shares; see the package
// documentation. Its methods are safe to call from any goroutine.
type Runtime struct {
	cfg      Config
	job      Job
	out      *outbox
	ledger   *ledger
	injector *inject.Injector
	// life ends when Close begins.
	life context.Context
	end  context.CancelFunc
	// restartMu serializes restarts; genMu starting and stopping the generator.
	restartMu sync.Mutex
	genMu     sync.Mutex

	// latency measures how far the job's results trail their records (Status.Latency).
	latency latency
	// logs caps the log lines of one kind (Skipped, Unreadable).
	logs logcap.Cap
	// counts are the line counts of the recordings replayed.
	counts lineCounts

	mu        sync.Mutex
	broker    string
	brokers   []string
	live      string
	spec      Spec
	run       int
	recording string
	replays   int
	started   bool
	closed    bool
	gen       *generator.Generator
	genRuns   int
	planStop  context.CancelFunc
	planDone  chan struct{}
	pumpStop  context.CancelFunc
	pumpDone  chan struct{}
	watchDone chan struct{}
	// topicGoneName is the topic the job reads when Kafka no longer has it (watchTopic).
	topicGoneName string
}

// New returns a runtime for a backend whose job is job. It starts nothing: the backend
// calls SetKafka, Begin (or Restart) and Started as it comes up.
func New(cfg Config, job Job) (*Runtime, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	rt := &Runtime{cfg: cfg, job: job, out: newOutbox(64, cfg.MaxResults, cfg.Lossless),
		ledger: newLedger(cfg.Prices), injector: inject.New(cfg.Generator.Instances)}
	rt.life, rt.end = context.WithCancel(context.Background())
	return rt, nil
}

// Updates delivers results, status, log lines, restarts and replay progress, in order;
// it is closed when Close returns.
func (rt *Runtime) Updates() <-chan backend.Update { return rt.out.updates }

// Injector is the fleet's hiccup injector.
func (rt *Runtime) Injector() *inject.Injector { return rt.injector }

// SetKafka says where Kafka is: broker is the address shown to the learner, brokers the
// seed brokers the fleet produces to, live the topic it produces to. It checks the
// configured hiccups.
func (rt *Runtime) SetKafka(broker string, brokers []string, live string) error {
	if err := rt.injector.Check(rt.cfg.Hiccups); err != nil {
		return err
	}
	rt.mu.Lock()
	rt.broker, rt.brokers, rt.live = broker, brokers, live
	if rt.spec.Topic == "" {
		rt.spec.Topic = live
	}
	rt.mu.Unlock()
	return nil
}

// Started marks the lab as running (its first job reads) and starts the hiccup
// schedule; calls that need a running lab work from now on.
func (rt *Runtime) Started() error {
	rt.mu.Lock()
	rt.started = true
	if rt.watchDone == nil && !rt.closed {
		rt.watchDone = make(chan struct{})
		go rt.watchTopic(rt.watchDone)
	}
	rt.mu.Unlock()
	return rt.startPlan()
}

// Ready returns ErrClosed or ErrNotStarted unless the lab is running.
func (rt *Runtime) Ready() error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	switch {
	case rt.closed:
		return ErrClosed
	case !rt.started:
		return errNotStarted
	}
	return nil
}

// bound returns ctx ended also when the lab closes.
func (rt *Runtime) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(rt.life, cancel)
	return ctx, func() { stop(); cancel() }
}

// Spec is what the current run of the job reads.
func (rt *Runtime) Spec() Spec {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.spec
}

// Run is the current run's number: 0 before the first job, then 1, 2, ….
func (rt *Runtime) Run() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.run
}

// Begin announces that run number Run()+1 begins, with r's cause, reason and (for a
// replay) recording, reading spec, and returns its number; Collector(n) is where its
// results go. The announcement is queued after every result of the run before, and
// before anything of the new run: call Begin after the old job stopped and before the
// new one starts, or, when the job restarts by itself (a dead TaskManager), as soon as
// the backend knows.
func (rt *Runtime) Begin(r backend.Restart, spec Spec) int {
	rt.mu.Lock()
	rt.run++
	switch r.Cause {
	case backend.CauseReplay, backend.CauseLive:
		rt.recording = r.Recording
	}
	rt.spec = spec
	rt.latency.begin(rt.run, spec.Topic == rt.live && spec.Timestamp == jobspec.CompletedTS)
	r.Run, r.Recording, r.Timestamp, r.Watermarks = rt.run, rt.recording, spec.Timestamp, spec.Watermarks.WithDefaults()
	r.At = rt.cfg.Now().UnixMilli()
	rt.mu.Unlock()
	rt.out.begin(r)
	return r.Run
}

// collector returns where run's results go.
func (rt *Runtime) collector(run int) func(jobspec.Result) {
	return func(r jobspec.Result) {
		rt.latency.take(run, &r)
		rt.out.collect(run, r)
	}
}

// Collect takes one result of the current run: for a backend that cannot tell which
// job wrote a result (the compose lab reads one log for every job).
func (rt *Runtime) Collect(r jobspec.Result) {
	run := rt.Run()
	rt.latency.take(run, &r)
	rt.out.collect(run, r)
}

// Restart stops the job, announces the run r begins (see Begin), and starts a job on
// spec: the one sequence every restart of a backend's own making goes through.
func (rt *Runtime) Restart(ctx context.Context, r backend.Restart, spec Spec) error {
	rt.restartMu.Lock()
	defer rt.restartMu.Unlock()
	if err := rt.job.Stop(ctx); err != nil {
		return err
	}
	run := rt.Begin(r, spec)
	if err := rt.job.Start(ctx, spec, rt.collector(run)); err != nil {
		return fmt.Errorf("start the job: %w", err)
	}
	return nil
}

// RestartJob kills the job and starts a new one on the same topic, as a TaskManager
// that dies and comes back without checkpoints: empty state, reading from the
// configured starting offsets (a CauseKill restart). When Kafka no longer has the topic
// it refuses (CheckTopic) and leaves the job as it is: a job started on it would read
// nothing.
func (rt *Runtime) RestartJob(ctx context.Context) error {
	if err := rt.Ready(); err != nil {
		return err
	}
	ctx, cancel := rt.bound(ctx)
	defer cancel()
	if err := rt.CheckTopic(ctx, rt.Spec().Topic); err != nil {
		return err
	}
	return rt.Restart(ctx, backend.Restart{Cause: backend.CauseKill, Reason: "job restarted with empty state"}, rt.Spec())
}

// Reconfigure starts the job again on the topic it reads, with empty state from its
// starting offsets, with field as its event time and wm as its watermarks: a
// CauseTimestamp restart when the field changes, else CauseStrategy.
func (rt *Runtime) Reconfigure(ctx context.Context, field jobspec.TimestampField, wm watermark.Strategy) error {
	if err := rt.Ready(); err != nil {
		return err
	}
	ctx, cancel := rt.bound(ctx)
	defer cancel()
	spec := rt.Spec()
	if err := rt.CheckTopic(ctx, spec.Topic); err != nil {
		return err
	}
	r := backend.Restart{Cause: backend.CauseStrategy, Reason: "new watermark strategy"}
	if field != spec.Timestamp {
		r = backend.Restart{Cause: backend.CauseTimestamp, Reason: "event time from " + field.String()}
	}
	spec.Timestamp, spec.Watermarks = field, wm
	return rt.Restart(ctx, r, spec)
}

// replayTopic names a fresh topic for the next replay: "<live>-replay-N".
func (rt *Runtime) replayTopic() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.replays++
	return fmt.Sprintf("%s-replay-%d", rt.live, rt.replays)
}

// Logf queues a line for the learner's log; it is never dropped.
func (rt *Runtime) Logf(format string, args ...any) {
	rt.out.notice(backend.Update{Log: fmt.Sprintf(format, args...)})
}

// progress queues a replay's progress, never dropped, after every result collected so
// far: the one with Done set is the replay's completion, and carries the lab's status as
// it stands then, so the run's open windows come whole with it.
func (rt *Runtime) progress(p backend.ReplayProgress) {
	rt.mu.Lock()
	p.Run = rt.run
	rt.mu.Unlock()
	u := backend.Update{Replay: &p}
	if p.Done {
		st := rt.Status()
		u.Status = &st
	}
	rt.out.notice(u)
}

// Status is a snapshot of the lab: the fleet's instances and the job's state.
func (rt *Runtime) Status() backend.Status {
	js := rt.job.Status()
	rt.mu.Lock()
	st := backend.Status{Now: rt.cfg.Now().UnixMilli(), Backend: rt.cfg.Name, Broker: rt.broker, Generator: rt.gen != nil,
		Timestamp: rt.spec.Timestamp, Watermark: js.Watermark, Job: js.Stats, Open: js.Open, Reads: js.Reads,
		Latency: rt.latency.median()}
	if rt.topicGoneName == rt.spec.Topic {
		st.TopicGone = rt.topicGoneName
	}
	rt.mu.Unlock()
	st.Instances = rt.instances()
	return st
}

// Abandon stops holding the job back for a slow reader (Config.Lossless), for good:
// from now on results past the bound are dropped and counted, and Close waits only
// CloseWait. labtui run --headless calls it on ctrl-c, which must stop it within a
// second even when nothing reads its output.
func (rt *Runtime) Abandon() { rt.out.abandon() }

// Lost is what never reached the reader so far; after Close, in all.
func (rt *Runtime) Lost() Lost { return rt.out.lostSoFar() }

// Closing marks the lab closed and ends the context of whatever it runs; calls that
// need a running lab fail from now on. It reports whether this call closed it.
func (rt *Runtime) Closing() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return false
	}
	rt.closed = true
	rt.end()
	return true
}

// Life is a context that ends when the lab begins to close.
func (rt *Runtime) Life() context.Context { return rt.life }

// Close stops the pump, sends what is still waiting (see Config.Lossless and
// CloseWait) and closes Updates: the last step of a backend's Close, after the job has
// stopped. It returns what never reached the reader.
func (rt *Runtime) Close() Lost {
	rt.Closing()
	rt.mu.Lock()
	stop, done, watch := rt.pumpStop, rt.pumpDone, rt.watchDone
	rt.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	if watch != nil {
		<-watch
	}
	st := rt.Status()
	return rt.out.close(&st, rt.cfg.CloseWait)
}
