package flinklab

import (
	"context"
	"strings"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// follow reads the TaskManager's stdout, through wait (already started) and then
// through each new Platform.Follow, until the lab closes, handing each line to
// taskManagerLine. When the output ends, the TaskManager has stopped (killed by
// RestartTaskManager, or dead by itself): follow reports the restart the job goes
// through, brings a TaskManager back (Platform.StartTaskManager: for compose `docker
// compose up -d --no-deps --wait taskmanager`), and follows the new one from where the
// old output ended, so no line is read twice. Output that ends while the TaskManager
// still runs is followed again, with a growing pause between attempts.
func (l *Lab) follow(wait func() error) {
	defer l.bg.Done()
	ctx := l.life
	retry := backoff{}
	down := false
	var kill *killRequest
	for ctx.Err() == nil {
		if !down {
			began := time.Now()
			var err error
			if wait != nil {
				err, wait = wait(), nil
			} else if w, ferr := l.platform.Follow(ctx, l.taskManagerLine); ferr != nil {
				err = ferr
			} else {
				err = w()
			}
			if ctx.Err() != nil {
				return
			}
			kill = l.takeKill()
			reason := backend.Restart{Cause: backend.CauseFailure, Reason: "TaskManager died"}
			replaced := false
			if kill != nil {
				reason = backend.Restart{Cause: backend.CauseKill, Reason: kill.reason}
			} else if l.platform.TaskManagerRunning(ctx) {
				if err != nil {
					l.logf("following the TaskManager's output failed (%v): following it again", err)
				}
				if !retry.sleep(ctx, time.Since(began)) {
					return
				}
				continue
			} else if replaced = l.isSwitching(); replaced {
				// A TaskManager that stops while its job is cancelled (flink-python 2.2.1
				// does that on a double release, which labtui's copy of its jar prevents
				// unless the cluster's lib/ holds flink-python): the job being replaced is
				// gone anyway, and the one labtui submits runs once a TaskManager is back.
				// No run of the lab restarted.
				l.logf("the TaskManager stopped while labtui was replacing the job (its output ended): a TaskManager is started again, and the new job runs on it")
			} else {
				l.logf("the TaskManager stopped (its output ended): the job restarts once a TaskManager is back, from its starting offsets, with empty state")
			}
			l.setTaskManagerDown(true)
			if !replaced {
				l.drainResults(ctx)
				l.restarted(reason)
			}
			down = true
		}
		err := l.platform.StartTaskManager(ctx)
		if ctx.Err() != nil {
			kill.answer(errClosed)
			return
		}
		if err != nil {
			l.logf("bring the TaskManager back: %v", err)
			kill.answer(err)
			kill = nil
			if !retry.sleep(ctx, 0) {
				return
			}
			continue
		}
		l.logf("the TaskManager is back: Flink runs the job on it again")
		l.setTaskManagerDown(false)
		kill.answer(nil)
		kill, down = nil, false
		retry = backoff{}
	}
}

func (l *Lab) setSwitching(on bool) {
	l.mu.Lock()
	l.switching = on
	l.mu.Unlock()
}

func (l *Lab) isSwitching() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.switching
}

func (l *Lab) setTaskManagerDown(down bool) {
	l.mu.Lock()
	l.tmDown = down
	l.mu.Unlock()
}

// stdoutLine takes one line of the TaskManager's stdout: a result unless the results come
// from the session's results topic, which holds the same lines.
func (l *Lab) stdoutLine(s string) {
	l.mu.Lock()
	topic := l.results != nil
	l.mu.Unlock()
	if !topic {
		l.taskManagerLine(s)
	}
}

// taskManagerLine takes one line of the taskmanager's log: a print-sink line becomes a
// jobspec.Result stamped with the time it was read (Arrival too, for traces and late
// records, whose lines carry none); a malformed line is counted and logged; anything
// else (Flink's own logging) is ignored.
func (l *Lab) taskManagerLine(s string) {
	sink, ok := printSink(s)
	if !ok {
		return
	}
	if sink == "malformed" {
		l.malformed(s[strings.Index(s, ">")+1:])
		return
	}
	r, ok, err := jobspec.ParseResultLine([]byte(s))
	if err != nil {
		l.logf("the taskmanager printed an unreadable %s line: %v", sink, err)
		return
	}
	if ok {
		l.take(r)
	}
}

// take collects one result of the job, stamped with the time it was read (Arrival too,
// for traces and late records, whose lines carry none).
func (l *Lab) take(r jobspec.Result) {
	now := l.cfg.Now().UnixMilli()
	r.At = now
	if (r.Kind == jobspec.TraceResult || r.Kind == jobspec.LateResult) && r.Record.Arrival == 0 {
		r.Record.Arrival = now
	}
	l.collect(r)
}

// printSink returns the identifier of a print-sink line, `ID> {…}` or `ID:N> {…}`,
// when ID is one the lab's job prints.
func printSink(s string) (string, bool) {
	s = strings.TrimSpace(s)
	i := strings.Index(s, "> {")
	if i <= 0 {
		return "", false
	}
	id := s[:i]
	if c := strings.IndexByte(id, ':'); c > 0 && allDigits(id[c+1:]) {
		id = id[:c]
	}
	if _, ok := jobspec.ParseKind(id); ok || id == "malformed" {
		return id, true
	}
	return "", false
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// backoff spaces out retries: 1 s, doubling to 30 s, unless the last attempt ran long.
type backoff struct{ next time.Duration }

// sleep waits before the next attempt and reports false if ctx ended first. An attempt
// that lasted a minute or more starts the backoff over.
func (b *backoff) sleep(ctx context.Context, lasted time.Duration) bool {
	if b.next == 0 || lasted >= time.Minute {
		b.next = time.Second
	}
	t := time.NewTimer(b.next)
	defer t.Stop()
	b.next = min(2*b.next, 30*time.Second)
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
