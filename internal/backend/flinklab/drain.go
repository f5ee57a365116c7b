package flinklab

import (
	"context"
	"fmt"
	"time"

	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/watermark"
)

// Drain returns once every record the job's Kafka source had handed on when it was
// called has been processed by every operator of the job and its results have reached
// the runtime: the replay's completion (labrt.Drainer). A PyFlink job's results trail
// its source by far more than a bundle: its source can have read the whole recorded
// hour while its windows have billed a few percent of it, the rest waiting in the
// network buffers and the Python workers' bundles.
//
// It takes a savepoint of the running job and leaves the job running: the savepoint's
// barrier follows the last record read, every PyFlink operator finishes its bundle
// before it passes the barrier on, and the results topic's at-least-once KafkaSink
// flushes its producer, so the savepoint is complete only once every result of those
// records is in the results topic; labtui then reads that topic to its end. Such a
// savepoint is not used for failover (Flink 1.15 and later): the job still restarts
// from its starting offsets with empty state, as the lab teaches. A second savepoint
// follows the watermark of the last records, and each is disposed of at once. A
// savepoint that times out (a busy machine: Flink's checkpoint timeout is 10 min) is
// taken again while the job runs.
//
// Results read from the TaskManager's stdout (the compose lab) are printed before the
// savepoint completes, but how far behind them labtui's reading of the log is cannot
// be told: there the completion can come a moment before the last of them.
func (j flinkRun) Drain(ctx context.Context) error {
	l := j.lab
	l.mu.Lock()
	id, rest, results := l.jobID, l.flink, l.results
	l.mu.Unlock()
	if id == "" || rest == nil {
		return fmt.Errorf("no job of the lab runs")
	}
	began := time.Now()
	loc, err := l.processed(ctx, id)
	if err != nil {
		return err
	}
	l.logf("job %s has processed every record it read: its savepoint %s was complete in %s and is disposed of; one more follows the watermark of the last records",
		id, loc, time.Since(began).Round(time.Millisecond))
	// The first savepoint's barrier can pass the job's watermark generator before the
	// watermark of the last records does (it is emitted every 200 ms of processing time):
	// the windows that watermark closes fire after it. A due timer runs before the task
	// reads its next input, so a barrier that comes a watermark interval later follows
	// that watermark and what it fired.
	select {
	case <-time.After(watermark.DefaultInterval):
	case <-ctx.Done():
		return ctx.Err()
	}
	if _, err := l.processed(ctx, id); err != nil {
		return err
	}
	if results == nil {
		return nil
	}
	if err := results.drain(ctx, time.Minute); err != nil {
		return fmt.Errorf("read the job's results: %w", err)
	}
	return nil
}

// processed takes a savepoint of job id, which is complete once every operator has
// processed what the job's source had read, disposes of it, and returns where it was.
func (l *Lab) processed(ctx context.Context, id string) (string, error) {
	loc, err := l.savepoint(ctx, id)
	if err != nil {
		return "", fmt.Errorf("take a savepoint of job %s, which tells when its operators have processed what its source read: %w", id, err)
	}
	if err := l.flink.DisposeSavepoint(ctx, loc, l.cfg.PollEvery/4); err != nil && ctx.Err() == nil {
		l.logf("dispose of the savepoint %s: %v", loc, err)
	}
	return loc, nil
}

// savepoint takes a savepoint of job id into the cluster's savepoint folder, else
// localcluster.FallbackSavepointDir, and returns where it is; one that fails while the job
// still runs is taken again, up to three times.
func (l *Lab) savepoint(ctx context.Context, id string) (string, error) {
	l.mu.Lock()
	dir := l.savepointDir
	l.mu.Unlock()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		l.logf("savepoint of job %s: POST %s/jobs/%s/savepoints (cancel-job false)", id, l.flink.Base, id)
		var loc string
		loc, err = l.flink.Savepoint(ctx, id, dir, l.cfg.PollEvery/4)
		if err == nil {
			return loc, nil
		}
		if ctx.Err() != nil {
			return "", err
		}
		if dir == "" && localcluster.NoSavepointDir(err) {
			l.logf("the cluster has no %s: the savepoint goes to %s", localcluster.SavepointDirKey, localcluster.FallbackSavepointDir)
			dir = localcluster.FallbackSavepointDir
			l.mu.Lock()
			l.savepointDir = dir
			l.mu.Unlock()
			attempt--
			continue
		}
		if state, serr := l.flink.JobState(ctx, id); serr != nil || state != "RUNNING" {
			return "", fmt.Errorf("%w (the job is %s)", err, state)
		}
		l.logf("the savepoint of job %s failed (%v): it is taken again", id, err)
	}
	return "", err
}
