package labrt

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// drainingJob is a Job whose source reads every record at once and whose last result
// comes only when it is drained, as a real Flink job's trail its source: Drain waits
// for release, hands the result on, and returns err.
type drainingJob struct {
	mu      sync.Mutex
	collect func(jobspec.Result)
	release chan struct{}
	drains  int
	err     error
}

func (j *drainingJob) Start(_ context.Context, _ Spec, collect func(jobspec.Result)) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.collect = collect
	return nil
}

func (j *drainingJob) Stop(context.Context) error { return nil }

func (j *drainingJob) Status() JobStatus {
	return JobStatus{Watermark: jobspec.MinWatermark, Read: 1 << 40}
}

func (j *drainingJob) Drain(ctx context.Context) error {
	j.mu.Lock()
	j.drains++
	collect := j.collect
	j.mu.Unlock()
	select {
	case <-j.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	if j.err != nil {
		return j.err
	}
	collect(jobspec.Result{Kind: jobspec.EventTimeResult, Minute: gateway.TenantCostMinute{TenantID: "acme", WindowEnd: 60_000, Requests: 1}})
	return nil
}

// replayDrained replays the seed burst on a runtime whose job is job, releases its
// Drain once a progress report says the job is finishing, and returns what the reader
// of Updates saw of the replay's run, and Replay's error.
func replayDrained(t *testing.T, job *drainingJob) ([]backend.Update, error) {
	t.Helper()
	rt, b := startedRuntime(t, job)
	var us []backend.Update
	done := make(chan struct{})
	go func() {
		defer close(done)
		released := false
		for u := range rt.Updates() {
			if u.Run >= 2 {
				us = append(us, u)
			}
			if p := u.Replay; p != nil && p.Finishing && !released {
				released = true
				close(job.release)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	replayErr := rt.Replay(ctx, "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl", jobspec.CompletedTS,
		ReplayTarget{Producer: func() (*kgo.Client, error) { return recording.NewProducer([]string{b.Addr()}, "test-replay") }, Partitions: 3})
	rt.Closing()
	rt.Close()
	<-done
	return us, replayErr
}

// Given a job whose results trail its source, when a replay's records have all been
// read, then the progress says the job is finishing, the replay is not complete until
// the job is drained, and every result of the drain comes before the completion.
func TestAReplayCompletesOnlyOnceTheJobHasProcessedWhatItRead(t *testing.T) {
	job := &drainingJob{release: make(chan struct{})}
	us, err := replayDrained(t, job)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	finishing, result, done := -1, -1, -1
	for i, u := range us {
		if p := u.Replay; p != nil {
			if p.Finishing && finishing < 0 {
				finishing = i
				if p.Records != p.Total || p.Writing || p.Done {
					t.Errorf("update %d: finishing with %d of %d read, writing %v, done %v", i, p.Records, p.Total, p.Writing, p.Done)
				}
			}
			if p.Done {
				if done >= 0 {
					t.Errorf("update %d: a second completion (the first at %d)", i, done)
				}
				done = i
				if p.Err != nil || p.Finishing {
					t.Errorf("update %d: completion with error %v, finishing %v", i, p.Err, p.Finishing)
				}
			}
		}
		for _, r := range u.Results {
			if r.Kind == jobspec.EventTimeResult && r.Minute.TenantID == "acme" {
				result = i
			}
		}
	}
	if job.drains != 1 {
		t.Errorf("the job was drained %d times, want once", job.drains)
	}
	if finishing < 0 || result < 0 || done < 0 || !(finishing < result && result < done) {
		t.Fatalf("finishing at update %d, the drained result at %d, the completion at %d: want them in that order", finishing, result, done)
	}
}

// Given a job that cannot tell when it has processed what it read, when a replay has
// been read, then the replay fails with the job's reason rather than complete.
func TestAReplayWhoseJobCannotBeDrainedFails(t *testing.T) {
	job := &drainingJob{release: make(chan struct{}), err: errors.New("the savepoint failed")}
	us, err := replayDrained(t, job)
	if err == nil || err.Error() != "the savepoint failed" {
		t.Fatalf("replay returned %v, want the drain's error", err)
	}
	var last *backend.ReplayProgress
	for _, u := range us {
		if u.Replay != nil {
			last = u.Replay
		}
	}
	if last == nil || !last.Done || last.Err == nil {
		t.Fatalf("the last progress is %+v, want a completion with the drain's error", last)
	}
}
