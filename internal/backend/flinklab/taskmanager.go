package flinklab

import (
	"context"
	"errors"
	"fmt"
)

// killRequest is RestartTaskManager waiting for the log follower to bring the
// taskmanager back.
type killRequest struct {
	reason string
	done   chan error
}

// answer tells the waiting RestartTaskManager how the restart went; it does nothing on
// a nil request.
func (k *killRequest) answer(err error) {
	if k != nil {
		k.done <- err
	}
}

// takeKill returns the pending kill request, if any, and clears it.
func (l *Lab) takeKill() *killRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.kill
	l.kill = nil
	return k
}

// restartTaskManager kills the TaskManager, as a machine that dies does
// (Platform.KillTaskManager: for compose `docker compose kill taskmanager`), and
// returns once it is back (Platform.StartTaskManager: `docker compose up -d --no-deps
// --wait taskmanager`). The job loses its state: a backend.Restart with
// reason "TaskManager killed" arrives on Updates, and Flink runs the job again from its
// starting offsets once the taskmanager is back. It is the answer, live, to the course's
// question "If a TaskManager dies right now". When Kafka no longer has the topic the job
// reads, it refuses (labrt.Runtime.CheckTopic) and kills nothing.
func (l *Lab) restartTaskManager(ctx context.Context) error {
	if err := l.ready(); err != nil {
		return err
	}
	// A job restarted on a topic Kafka no longer has reads nothing: the TaskManager is
	// left running, and the sentence says what to do.
	if err := l.CheckTopic(ctx, l.Spec().Topic); err != nil {
		return err
	}
	req := &killRequest{reason: "TaskManager killed", done: make(chan error, 1)}
	l.mu.Lock()
	switch {
	case l.tmDown:
		l.mu.Unlock()
		return errors.New("the taskmanager is down already: labtui is bringing it back")
	case l.kill != nil:
		l.mu.Unlock()
		return errors.New("the taskmanager is being restarted already")
	}
	l.kill = req
	l.mu.Unlock()
	if err := l.platform.KillTaskManager(ctx); err != nil {
		l.mu.Lock()
		if l.kill == req {
			l.kill = nil
		}
		l.mu.Unlock()
		return fmt.Errorf("kill the taskmanager: %w", err)
	}
	select {
	case err := <-req.done:
		if err != nil {
			return fmt.Errorf("bring the taskmanager back: %w", err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-l.life.Done():
		return errClosed
	}
}

// RestartJob is RestartTaskManager: on the compose lab the job restarts because its
// TaskManager died, which makes the lab a backend.Restarter for the TUI's kill key.
func (l *Lab) RestartJob(ctx context.Context) error { return l.restartTaskManager(ctx) }
