// Package livejob runs the GatewayMeter job against a Kafka topic on the wall clock, as a
// parallelism-one Flink job with a Kafka source would: one goroutine fetches, one owns the
// job and its processing-time timers. Stopping it and starting a new one is what a
// TaskManager death without checkpoints does: the new job reads from its configured
// starting offsets with empty state.
package livejob

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/enginejob"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// StartAt says where a new job starts reading: Flink's OffsetsInitializer.
type StartAt uint8

const (
	// Earliest reads the topic from the beginning, as the lab's job is configured: the
	// zero value.
	Earliest StartAt = iota
	// Latest reads only what is produced after the job starts.
	Latest
)

// String is "earliest" or "latest", as --starting-offsets takes it.
func (s StartAt) String() string {
	if s == Latest {
		return "latest"
	}
	return "earliest"
}

// Config configures a live job.
type Config struct {
	Brokers []string
	Topic   string
	StartAt StartAt
	Job     jobspec.Options
	// Now is the wall clock; nil means time.Now.
	Now func() time.Time
	// Malformed receives each record the job could not read, with where it was.
	Malformed func(partition int32, offset int64, err error)
	// SourceError, if set, receives each error a fetch of the topic returned (the
	// topic deleted from outside, say: the job then reads nothing more), on the job's
	// goroutine. Without it an error is kept for Stop only, and the job stalls unseen.
	SourceError func(err error)
	// Consumed, if set, is called with every record as the job reads it, before the job
	// sees it, on the job's goroutine (labtui record uses it).
	Consumed func(r *kgo.Record, arrival int64)
	// ClientOpts are options for the job's Kafka consumer, after the job's own (which they
	// may override): the embedded lab's fetch sizes and pools on loopback. The job
	// recycles each record (kgo.Record.Recycle) once it and Consumed are done with it, so
	// kgo.WithPools may lend the memory fetches are decoded into.
	ClientOpts []kgo.Opt
}

// Snapshot is the job's state at a moment, safe to read from any goroutine.
type Snapshot struct {
	Now       int64
	Watermark int64
	Stats     jobspec.Stats
	Consumed  int64
	Pending   int
	Open      []jobspec.Result
	// Partitions is, with watermarks at the source, every partition's own watermark and
	// whether it is idle: which one holds the source's minimum (nil otherwise).
	Partitions []jobspec.PartitionWatermark
	// Reads is how far the job read each partition, the largest lead one had over
	// another, and how many late records were late only because of such a lead.
	Reads jobspec.Reads
}

// Job is a running live job.
type Job struct {
	cfg      Config
	client   *kgo.Client
	cancel   context.CancelFunc
	done     chan struct{}
	err      error
	snap     atomic.Pointer[Snapshot]
	changed  chan struct{} // a token after each publish, for one waiter
	stopOnce sync.Once
	final    Snapshot
	// reads and reading (the partition of the event being processed) belong to the
	// job's goroutine.
	reads   jobspec.Reads
	reading int32
}

// Start connects to the brokers and starts consuming; sink receives every result on the
// job's goroutine, in order. Stop ends it.
func Start(ctx context.Context, cfg Config, sink func(jobspec.Result)) (*Job, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	reset := kgo.NewOffset().AtEnd()
	if cfg.StartAt == Earliest {
		reset = kgo.NewOffset().AtStart()
	}
	client, err := kgo.NewClient(append([]kgo.Opt{
		kgo.SeedBrokers(cfg.Brokers...),
		kgo.ConsumeTopics(cfg.Topic),
		kgo.ConsumeResetOffset(reset),
		kgo.FetchMaxWait(100 * time.Millisecond),
		// Bounded fetches: the job reads a recorded hour as fast as it can without holding
		// more than a few megabytes of it at a time. A fetch's limit counts compressed
		// bytes, about a third of what the records take once decoded; 1 MiB fetches read
		// as fast as 4 MiB ones and cut the peak memory of a busy hour by 30-60 MB.
		kgo.FetchMaxBytes(1 << 20),
		kgo.FetchMaxPartitionBytes(1 << 20),
		kgo.MetadataMinAge(250 * time.Millisecond),
		kgo.ClientID("labtui-gateway-meter"),
	}, cfg.ClientOpts...)...)
	if err != nil {
		return nil, fmt.Errorf("start the job's Kafka consumer: %w", err)
	}
	if w := &cfg.Job.Watermarks; w.At == watermark.Source && w.Partitions == 0 {
		// A KafkaSource assigns every partition of its topic when it starts, so one that
		// never brings a record holds the source's watermark back: ask the broker how many.
		n, err := partitionsOf(ctx, client, cfg.Topic)
		if err != nil {
			client.Close()
			return nil, fmt.Errorf("watermarks at the source need the partitions of %s: %w", cfg.Topic, err)
		}
		w.Partitions = n
	}
	now := cfg.Now().UnixMilli()
	j := &Job{cfg: cfg, client: client, changed: make(chan struct{}, 1), done: make(chan struct{})}
	j.reads.Bound = cfg.Job.Watermarks.OutOfOrderness.Milliseconds()
	job, err := enginejob.New(engine.NewRuntime(now), cfg.Job, func(r jobspec.Result) {
		if r.Kind == jobspec.LateResult {
			j.reads.LateRecord(j.reading, r.Record.EventWindowEnd)
		}
		sink(r)
	})
	if err != nil {
		client.Close()
		return nil, err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	j.cancel = cancel
	j.publish(job, 0)
	go j.run(runCtx, job)
	return j, nil
}

// Snapshot returns the latest published state: refreshed every 100 ms while the job is
// busy, and as soon as it has processed everything fetched so far.
func (j *Job) Snapshot() Snapshot { return *j.snap.Load() }

// Changed receives a token when a new Snapshot is published, so one waiter (a replay
// waiting for the job to read its last record) need not poll.
func (j *Job) Changed() <-chan struct{} { return j.changed }

// Done is closed when the job's goroutines have ended.
func (j *Job) Done() <-chan struct{} { return j.done }

// Stop cancels the job, waits for its goroutines and closes its client. It returns the
// job's last state, its open windows as they stood (a cancelled Flink job fires nothing
// more), and the error that ended it early, if any.
func (j *Job) Stop() (Snapshot, error) {
	j.stopOnce.Do(func() {
		j.cancel()
		<-j.done
		j.client.Close()
	})
	return j.final, j.err
}

// fetched is one fetch, its values already parsed by the source goroutine, so decoding
// runs beside the job rather than in it (parsing is a stateless map before the
// assigner: where it runs changes nothing but speed).
type fetched struct {
	records []*kgo.Record
	events  []gateway.Event
	errs    []error
	err     error
}

func (j *Job) run(ctx context.Context, job *enginejob.Job) {
	defer close(j.done)
	fetches := make(chan fetched, 1) // one parsed fetch waiting is enough to overlap; more only holds memory
	// Spent fetches come back for their slices to be reused: a fetch of 8192 parsed
	// events is close to a megabyte, too much to allocate and clear for every fetch.
	spent := make(chan fetched, cap(fetches)+2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the source: fetches, parsed and handed to the job goroutine in order
		defer wg.Done()
		var parser gateway.Parser
		defer close(fetches)
		for ctx.Err() == nil {
			fs := j.client.PollRecords(ctx, 8192)
			var f fetched
			select {
			case f = <-spent:
				f.records, f.err = f.records[:0], nil
			default:
			}
			fs.EachError(func(_ string, _ int32, err error) {
				if !errors.Is(err, context.Canceled) && f.err == nil {
					f.err = err
				}
			})
			fs.EachRecord(func(r *kgo.Record) { f.records = append(f.records, r) })
			if len(f.records) == 0 && f.err == nil {
				continue
			}
			f.events = resize(f.events, len(f.records))
			f.errs = resize(f.errs, len(f.records))
			for i, r := range f.records {
				f.events[i], f.errs[i] = parser.Parse(r.Value)
			}
			select {
			case fetches <- f:
			case <-ctx.Done():
			}
		}
	}()
	defer wg.Wait()

	var consumed int64
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	lastPublish, published := time.Time{}, int64(0)
	for {
		j.armTimer(timer, job)
		select {
		case <-ctx.Done():
			j.final = j.snapshot(job, consumed)
			j.snap.Store(&j.final)
			return
		case <-timer.C:
			job.Advance(j.cfg.Now().UnixMilli())
		case f, ok := <-fetches:
			if !ok {
				continue
			}
			if f.err != nil && j.err == nil {
				j.err = fmt.Errorf("the job's Kafka source: %w", f.err)
			}
			if f.err != nil && j.cfg.SourceError != nil {
				j.cfg.SourceError(f.err)
			}
			var now int64
			for i, r := range f.records {
				if i%clockEvery == 0 {
					now = j.cfg.Now().UnixMilli()
					job.Advance(now)
				}
				if j.cfg.Consumed != nil {
					j.cfg.Consumed(r, now)
				}
				consumed++
				j.reading = r.Partition
				if err := job.ProcessParsed(r.Partition, &f.events[i], f.errs[i], r.Timestamp.UnixMilli()); err != nil {
					if j.cfg.Malformed != nil {
						j.cfg.Malformed(r.Partition, r.Offset, err)
					}
				} else {
					j.reads.Read(r.Partition, f.events[i].TS)
				}
			}
			for _, r := range f.records {
				r.Recycle() // back to the client's pools, if it has any (see Config.ClientOpts)
			}
			clear(f.records) // let the fetched records go
			select {
			case spent <- f:
			default:
			}
		}
		// Wall time: a simulated clock may stand still. A job that has caught up with its
		// source publishes at once, so a replay sees its last record read without waiting.
		if t := time.Now(); t.Sub(lastPublish) >= 100*time.Millisecond || (len(fetches) == 0 && consumed != published) {
			lastPublish, published = t, consumed
			j.publish(job, consumed)
		}
	}
}

// clockEvery is how many records of a fetch the job processes on one reading of the wall
// clock: it reads the clock when a fetch arrives and then before every clockEvery-th
// record, so a record's processing time trails the clock by at most the work of
// clockEvery-1 records (tens of microseconds; Flink's processing time counts whole
// milliseconds). Read for every record, the clock was a quarter of the job loop's own
// CPU time on a replay through the embedded broker.
const clockEvery = 64

// partitionsOf asks the brokers how many partitions topic has, waiting at most 10 s.
func partitionsOf(ctx context.Context, client *kgo.Client, topic string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	topics, err := kadm.NewClient(client).ListTopics(ctx, topic)
	if err != nil {
		return 0, err
	}
	d, ok := topics[topic]
	switch {
	case !ok:
		return 0, fmt.Errorf("no such topic")
	case d.Err != nil:
		return 0, d.Err
	}
	return len(d.Partitions), nil
}

// resize returns s with length n, reusing its array when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// armTimer wakes the job when the earliest processing-time timer is due (at its time
// plus one millisecond, as Flink schedules it), and at least every 100 ms to publish.
func (j *Job) armTimer(t *time.Timer, job *enginejob.Job) {
	wait := 100 * time.Millisecond
	if next, ok := job.Runtime().NextTimer(); ok {
		if d := time.Duration(next+1-j.cfg.Now().UnixMilli()) * time.Millisecond; d < wait {
			wait = max(d, 0)
		}
	}
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	t.Reset(wait)
}

func (j *Job) publish(job *enginejob.Job, consumed int64) {
	s := j.snapshot(job, consumed)
	j.snap.Store(&s)
	select {
	case j.changed <- struct{}{}:
	default:
	}
}

func (j *Job) snapshot(job *enginejob.Job, consumed int64) Snapshot {
	open := job.OpenWindows()
	return Snapshot{Now: job.Now(), Watermark: job.Watermark(), Stats: job.Stats(), Consumed: consumed,
		Pending: job.PendingRequests(), Open: open, Partitions: job.Partitions(), Reads: j.reads.Copy()}
}
