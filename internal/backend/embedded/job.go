package embedded

import (
	"context"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/livejob"
)

// engineJob is the embedded lab's labrt.Job: the GatewayMeter job on the engine,
// consuming the broker through franz-go (a livejob.Job).
type engineJob struct {
	lab *Lab

	mu    sync.Mutex
	job   *livejob.Job
	topic string
	final livejob.Snapshot
	// ended says the lab stopped the job for good (Close): its status is the last job's
	// from then on, its watermark and open windows as they were, not a job-less one's.
	ended bool
	// owed is what the fleet had acknowledged when the job started, that it will not
	// read: nothing from the earliest offset, everything from the latest.
	owed int64
}

// Start starts a job on spec. A replay's topic the previous job read, and this one does
// not, is deleted first: nothing reads it any more, and the broker would otherwise hold
// every replay of the hour in memory.
func (j *engineJob) Start(ctx context.Context, spec labrt.Spec, collect func(jobspec.Result)) error {
	l := j.lab
	j.mu.Lock()
	old := j.topic
	j.mu.Unlock()
	if old != "" && old != spec.Topic && old != l.broker.Topic() {
		if err := l.deleteTopic(ctx, old); err != nil {
			l.Logf("%v", err)
		}
	}
	startAt, owed := livejob.Earliest, int64(0)
	switch {
	case spec.StartAt == labrt.Latest:
		startAt, owed = livejob.Latest, l.Totals().Acked
	case spec.Topic == l.broker.Topic():
		// The broker keeps only the newest records of the live topic: a job that starts
		// from its earliest offset never reads the ones deleted before, and says so.
		if gone, err := l.deletedFromLive(ctx); err != nil {
			l.Logf("%v", err)
		} else if gone > 0 {
			owed = gone
			l.Logf("the job reads the live topic from the oldest record the broker keeps: the %d older records were deleted to bound its memory (it keeps the newest %d KiB of each partition, and none of what came before a replay)",
				gone, broker.RetentionBytes>>10)
		}
	}
	opts := l.cfg.Job
	opts.Timestamp, opts.Watermarks = spec.Timestamp, spec.Watermarks
	job, err := livejob.Start(ctx, livejob.Config{
		Brokers: []string{l.broker.Addr()}, Topic: spec.Topic, StartAt: startAt, Job: opts,
		Malformed: func(p int32, off int64, err error) {
			l.Skipped(fmt.Sprintf("topic %s partition %d offset %d", spec.Topic, p, off), err)
		},
		SourceError: func(err error) { l.Unreadable(spec.Topic, err) },
		Consumed:    l.cfg.Consumed, ClientOpts: jobClientOpts(),
	}, collect)
	if err != nil {
		return err
	}
	j.mu.Lock()
	j.job, j.topic, j.owed = job, spec.Topic, owed
	j.mu.Unlock()
	return nil
}

// end stops the running job for good, as the lab closes.
func (j *engineJob) end(ctx context.Context) error {
	ran := j.current() != nil
	err := j.Stop(ctx)
	j.mu.Lock()
	j.ended = ran
	j.mu.Unlock()
	return err
}

// Stop stops the running job; its last results have been collected when it returns.
func (j *engineJob) Stop(context.Context) error {
	j.mu.Lock()
	job := j.job
	j.job = nil
	j.mu.Unlock()
	if job == nil {
		return nil
	}
	final, err := job.Stop()
	j.mu.Lock()
	j.final = final
	j.mu.Unlock()
	return err
}

// Status is the running job's snapshot.
func (j *engineJob) Status() labrt.JobStatus {
	j.mu.Lock()
	job, ended, s := j.job, j.ended, j.final
	j.mu.Unlock()
	switch {
	case job != nil:
		s = job.Snapshot()
	case !ended:
		// Between jobs: the next one's clocks are not the last one's.
		return labrt.JobStatus{Watermark: jobspec.MinWatermark}
	}
	return labrt.JobStatus{Watermark: s.Watermark, Stats: s.Stats, Open: s.Open, Read: s.Consumed, Reads: &s.Reads}
}

// Changed receives a token when the running job publishes a new snapshot (it read
// more); nil, never ready, between jobs.
func (j *engineJob) Changed() <-chan struct{} {
	if job := j.current(); job != nil {
		return job.Changed()
	}
	return nil
}

// behind reports whether the running job has yet to read events the fleet produced:
// only a job on the live topic reads them (a replay's job reads its recording).
func (j *engineJob) behind() bool {
	j.mu.Lock()
	job, topic, owed := j.job, j.topic, j.owed
	j.mu.Unlock()
	if job == nil || topic != j.lab.broker.Topic() {
		return false
	}
	return job.Snapshot().Consumed < j.lab.Totals().Acked-owed
}

// current is the running job, or nil.
func (j *engineJob) current() *livejob.Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.job
}

// last is the snapshot of the job stopped last.
func (j *engineJob) last() livejob.Snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.final
}

// deletedFromLive counts the records the broker deleted from the live topic, the sum of
// its partitions' start offsets (every record has an offset of its own).
func (l *Lab) deletedFromLive(ctx context.Context) (int64, error) {
	var gone int64
	err := l.admin(ctx, "list the live topic's start offsets", func(adm *kadm.Client) error {
		offsets, err := adm.ListStartOffsets(ctx, l.broker.Topic())
		if err != nil {
			return err
		}
		if err := offsets.Error(); err != nil {
			return err
		}
		offsets.Each(func(o kadm.ListedOffset) { gone += o.Offset })
		return nil
	})
	return gone, err
}
