package flinklab

import (
	"context"
	"fmt"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/jobspec"
)

// jobRun returns the submission of a job on spec, with the configured forget-after; a
// job on any topic but the live one reads a replay's.
func (l *Lab) jobRun(spec labrt.Spec) jobRun {
	l.mu.Lock()
	live := l.ep.Topic
	l.mu.Unlock()
	return jobRun{topic: spec.Topic, startAt: spec.StartAt.String(), field: spec.Timestamp,
		watermarks: spec.Watermarks, forget: l.cfg.Job.ForgetAfter.Or(jobspec.DefaultForgetAfter), replay: spec.Topic != live,
		workers: pythonWorkers(l.platform)}
}

// submit runs `flink run -d -py …` (Platform.Submit: for compose in the jobmanager) and waits until Flink reports the
// job RUNNING. The runtime has announced the restart before, so that every line the
// new job prints comes after it, however fast the job is.
func (l *Lab) submit(ctx context.Context, run jobRun) error {
	l.mu.Lock()
	l.jobID, l.jobState = "", ""
	l.mu.Unlock()
	l.mu.Lock()
	bootstrap, session, results := l.ep.JobBroker, l.ep.Session, l.results
	l.mu.Unlock()
	args := run.jobArgs(bootstrap)
	if results != nil {
		runID := newRunID()
		results.begin(runID)
		args = append(args, "--session", session, "--results-topic", results.topic, "--run-id", runID)
	}
	id, err := l.platform.Submit(ctx, args)
	if err != nil {
		return fmt.Errorf("submit the job: %w", err)
	}
	l.mu.Lock()
	l.jobID = id
	l.mu.Unlock()
	l.logf("job %s submitted: it reads %s from the %s offsets, with %s as event time", id, run.topic, run.startAt, run.field)
	return l.waitRunning(ctx, id)
}

// waitRunning polls Flink's REST API until the job and every task of it are RUNNING,
// the job has ended, or JobTimeout has passed.
func (l *Lab) waitRunning(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.JobTimeout)
	defer cancel()
	t := time.NewTicker(l.cfg.PollEvery / 2)
	defer t.Stop()
	var lastErr error
	for {
		state, err := l.flink.JobState(ctx, id)
		switch {
		case err != nil:
			lastErr = err
		case state == "RUNNING":
			// The job is RUNNING once scheduled; it reads promptly once every task is (its
			// Python workers started): records the fleet sends before would wait for them.
			if up, err := l.flink.TasksRunning(ctx, id); err != nil || !up {
				lastErr = err
				break
			}
			l.jobStateSeen(id, state)
			l.mu.Lock()
			results := l.results
			l.mu.Unlock()
			if results != nil {
				l.logf("job %s is RUNNING, every task of it too: it writes its results to topic %s, which labtui reads", id, results.topic)
			} else {
				l.logf("job %s is RUNNING, every task of it too: its print sinks write to the taskmanager's log, which labtui reads", id)
			}
			return nil
		case terminal(state):
			l.jobStateSeen(id, state)
			return fmt.Errorf("the job %s is %s before it ran: %s/#/job/%s/exceptions shows why", id, state, l.flink.Base, id)
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return fmt.Errorf("wait for the job %s to run: %w (last answer: %v)", id, ctx.Err(), lastErr)
			}
			return fmt.Errorf("wait for the job %s to run: %w", id, ctx.Err())
		case <-t.C:
		}
	}
}

// cancelJobs cancels every job of the lab's name that is still running (one a kept
// cluster may have left), through the REST API, and waits until each has ended.
func (l *Lab) cancelJobs(ctx context.Context) error {
	jobs, err := l.flink.Jobs(ctx)
	if err != nil {
		return fmt.Errorf("list Flink's jobs: %w", err)
	}
	for _, j := range jobs {
		if labJob(j.Name) && !terminal(j.State) {
			if err := l.cancelJob(ctx, j.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// cancelJob cancels one job, PATCH /jobs/:jobid?mode=cancel, and waits up to 30 s for
// it to be CANCELED, so that its last lines come before the next job's.
func (l *Lab) cancelJob(ctx context.Context, id string) error {
	l.mu.Lock()
	if l.jobID == id {
		l.jobID, l.jobState = "", "" // its end is expected: the watcher leaves it alone
	}
	l.mu.Unlock()
	l.logf("cancel job %s: PATCH %s/jobs/%s?mode=cancel", id, l.flink.Base, id)
	if err := l.flink.Cancel(ctx, id); err != nil {
		return fmt.Errorf("cancel the job %s: %w", id, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	t := time.NewTicker(l.cfg.PollEvery / 2)
	defer t.Stop()
	for {
		state, err := l.flink.JobState(ctx, id)
		if err == nil && (state == "" || terminal(state)) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cancel the job %s: it is still %s: %w", id, state, ctx.Err())
		case <-t.C:
		}
	}
}

// watch asks Flink for the job's state every PollEvery until the lab closes, logs each
// change, and reports a restart when the job fails and Flink restarts it.
func (l *Lab) watch() {
	defer l.bg.Done()
	t := time.NewTicker(l.cfg.PollEvery)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-l.life.Done():
			return
		case <-t.C:
		}
		l.mu.Lock()
		id := l.jobID
		l.mu.Unlock()
		if id == "" {
			continue
		}
		state, err := l.flink.JobState(l.life, id)
		if l.life.Err() != nil {
			return
		}
		if err != nil {
			if !failing {
				l.logf("Flink's REST API does not answer (%v): the job's state is unknown until it does", err)
			}
			failing = true
			continue
		}
		if failing {
			l.logf("Flink's REST API answers again")
			failing = false
		}
		l.jobStateSeen(id, state)
	}
}

// drainResults waits, up to 10 s, until every line the job wrote to the results topic
// so far has been read, so that the lines of a job that stopped all go to its run,
// before the next run is announced; it says so when the topic is not read that far.
func (l *Lab) drainResults(ctx context.Context) {
	l.mu.Lock()
	r := l.results
	l.mu.Unlock()
	if r == nil {
		return
	}
	if err := r.drain(ctx, 10*time.Second); err != nil && ctx.Err() == nil {
		l.logf("%v: lines the job wrote before it stopped may show under the next run", err)
	}
}

// restartQuiet is how long after a reported restart a RESTARTING job is taken as that
// same restart: a killed taskmanager makes the job restart a few seconds later.
const restartQuiet = time.Minute

// jobStateSeen records the state Flink reports for the job id, logs a change, and
// reports a restart when the job goes RESTARTING with no restart reported just before.
func (l *Lab) jobStateSeen(id, state string) {
	l.mu.Lock()
	if id != l.jobID || state == l.jobState {
		l.mu.Unlock()
		return
	}
	prev := l.jobState
	l.jobState = state
	report := state == "RESTARTING" && l.cfg.Now().Sub(l.lastRestart) > restartQuiet
	l.mu.Unlock()
	switch {
	case state == "":
		l.logf("job %s is no longer listed by Flink", id)
	case prev != "":
		l.logf("job %s: %s → %s", id, prev, state)
	}
	if report {
		l.drainResults(l.life)
		l.restarted(backend.Restart{Cause: backend.CauseFailure, Reason: "the job failed and Flink restarted it"})
	}
	if terminal(state) && prev != "" {
		l.logf("the job has ended (%s): %s/#/job/%s/exceptions shows why; restart labtui to submit it again", state, l.flink.Base, id)
	}
}
