// Package backendtest is the contract every backend keeps, as a test that each
// backend's own tests run against it (the embedded lab for real, the compose lab with
// its fake docker, the cluster lab with its processes).
package backendtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/watermark"
)

// Subject is a backend under the contract.
type Subject struct {
	// Lab is a started backend, a backend.Restarter and a backend.Reconfigurer, whose
	// Updates nothing has read yet.
	Lab interface {
		backend.Backend
		backend.Restarter
		backend.Reconfigurer
	}
	// Recording is a small recording Lab can replay.
	Recording string
	// Restarts is how many times the contract kills the job; each kill after the first
	// needs nothing more of the backend than RestartJob.
	Restarts int
	// Between, if set, runs after each kill, while the reader is still held, so the
	// backend can write results of the new run (the embedded lab waits for them).
	Between func(t *testing.T, kill int)
	// Timeout bounds the kills, the strategy change and the replay; default a minute (a
	// real Flink cluster takes several).
	Timeout time.Duration
}

// NoticesArriveInOrderWhileTheReaderIsBehind holds the reader of Updates until the
// channel is full, and meanwhile hiccups an instance and kills the job Restarts times,
// changes the watermark strategy, and replays a recording. Then it reads everything
// and checks that every restart arrived, numbered and with its cause, each before any
// result of its run; that every hiccup's log line arrived in the run it was made in,
// before the next restart; that every late record names its gateway; and that the
// replay's progress arrived in its run, its completion last, once the job had read the
// whole recording (Records == Total, everything written) and processed it (no result
// of the run but a processing-time window's after it), with the job's read
// positions per partition, which account for every well-formed event of the recording,
// and the lab's status, whose positions say the same. It closes the lab.
func NoticesArriveInOrderWhileTheReaderIsBehind(t *testing.T, s Subject) {
	t.Helper()
	lab := s.Lab
	events, err := wellFormed(s.Recording)
	if err != nil {
		lab.Close()
		t.Fatal(err)
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for kill := 1; kill <= s.Restarts; kill++ {
		if err := lab.Inject("gw-0", 10*time.Millisecond); err != nil {
			t.Fatalf("hiccup %d: %v", kill, err)
		}
		if err := lab.RestartJob(ctx); err != nil {
			t.Fatalf("kill %d: %v", kill, err)
		}
		if s.Between != nil {
			s.Between(t, kill)
		}
	}
	if err := lab.Reconfigure(ctx, jobspec.CompletedTS, watermark.Strategy{OutOfOrderness: 40 * time.Second}); err != nil {
		t.Fatalf("strategy change: %v", err)
	}
	if err := lab.Replay(ctx, s.Recording, jobspec.CompletedTS); err != nil {
		t.Fatalf("replay: %v", err)
	}
	ch := lab.Updates()
	for deadline := time.Now().Add(10 * time.Second); len(ch) < cap(ch); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the updates channel holds %d of %d: the reader was never a full channel behind", len(ch), cap(ch))
		}
	}
	var us []backend.Update
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range ch {
			us = append(us, u)
		}
	}()
	if err := lab.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	<-done
	if err := check(us, s.Restarts, events); err != nil {
		t.Error(err)
	}
}

// wellFormed counts the recording's well-formed events: a replay's completion says the
// job read each of them.
func wellFormed(path string) (int64, error) {
	src, err := recording.Open(context.Background(), path)
	if err != nil {
		return 0, err
	}
	defer src.Close()
	var parser gateway.Parser
	var n int64
	for e, err := range src.Records(nil) {
		if err != nil {
			return 0, fmt.Errorf("read %s: %w", path, err)
		}
		if _, err := parser.Parse(e.Value); err == nil {
			n++
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("recording %s has no well-formed event to replay", path)
	}
	return n, nil
}

// check reads the updates a run of the contract sent, of a replay of a recording of
// events well-formed events.
func check(us []backend.Update, kills int, events int64) error {
	want := []backend.Cause{backend.CauseStart}
	for range kills {
		want = append(want, backend.CauseKill)
	}
	want = append(want, backend.CauseStrategy, backend.CauseReplay)
	var causes []backend.Cause
	var problems []string
	run, hiccups, progress, results := 0, 0, 0, 0
	done := false
	for i, u := range us {
		if r := u.Restarted; r != nil {
			if r.Run != run+1 || u.Run != r.Run {
				problems = append(problems, fmt.Sprintf("update %d: restart of run %d (update of run %d) after run %d", i, r.Run, u.Run, run))
			}
			run = r.Run
			causes = append(causes, r.Cause)
			if r.Cause == backend.CauseReplay && !r.Replaying() {
				problems = append(problems, fmt.Sprintf("update %d: the replay's restart names no recording", i))
			}
			if r.Cause == backend.CauseStrategy && r.Watermarks.OutOfOrderness != 40*time.Second {
				problems = append(problems, fmt.Sprintf("update %d: the strategy change's restart has watermarks %+v", i, r.Watermarks))
			}
		}
		if len(u.Results) > 0 {
			results += len(u.Results)
			for _, r := range u.Results {
				if done && u.Run == run && r.Kind != jobspec.ProcessingTimeResult {
					// The completion says the job has processed every record of the
					// recording: only the wall clock fires a window after it.
					problems = append(problems, fmt.Sprintf("update %d: a %s result of the replay's run after its completion", i, r.Kind))
					break
				}
			}
			if u.Run != run {
				problems = append(problems, fmt.Sprintf("update %d: %d results of run %d during run %d", i, len(u.Results), u.Run, run))
			}
			for _, r := range u.Results {
				if r.Kind == jobspec.LateResult && r.Record.Gateway == "" {
					// 4.2 finds the records a hiccup held by their gateway.
					problems = append(problems, fmt.Sprintf("update %d: late record %s names no gateway", i, r.Record.RequestID))
				}
			}
		}
		if strings.HasPrefix(u.Log, "hiccup on gw-0") {
			hiccups++
			if u.Run != hiccups || run != hiccups {
				problems = append(problems, fmt.Sprintf("update %d: hiccup %d logged in run %d, read in run %d", i, hiccups, u.Run, run))
			}
		}
		if p := u.Replay; p != nil {
			progress++
			if done {
				problems = append(problems, fmt.Sprintf("update %d: replay progress after its completion", i))
			}
			if p.Run != run || u.Run != run || len(causes) == 0 || causes[len(causes)-1] != backend.CauseReplay {
				problems = append(problems, fmt.Sprintf("update %d: replay progress of run %d during run %d", i, p.Run, run))
			}
			if p.Done {
				done = true
				if p.Err != nil || p.Records != p.Total || p.Total == 0 || p.Written != p.Total {
					problems = append(problems, fmt.Sprintf("update %d: the replay ended with %d of %d records read (%d written): %v", i, p.Records, p.Total, p.Written, p.Err))
				}
				problems = append(problems, completion(i, u, p, events)...)
			}
		}
	}
	if fmt.Sprint(causes) != fmt.Sprint(want) {
		problems = append(problems, fmt.Sprintf("restarts %v, want %v", causes, want))
	}
	if hiccups != kills {
		problems = append(problems, fmt.Sprintf("%d hiccup lines arrived of %d", hiccups, kills))
	}
	if !done {
		problems = append(problems, fmt.Sprintf("%d replay progress reports arrived, none its completion", progress))
	}
	if results == 0 {
		problems = append(problems, "no result arrived: the contract checked no result's order")
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d updates broke the contract:\n  %s", len(us), strings.Join(problems, "\n  "))
	}
	return nil
}

// completion checks a replay's completion beyond its count: the job has read the whole
// recording, so its read positions say so, partition by partition, the well-formed
// events of all of them the recording's (want), and the lab's status comes with it,
// saying the same.
func completion(i int, u backend.Update, p *backend.ReplayProgress, want int64) []string {
	var problems []string
	if p.Reads == nil || len(p.Reads.Partitions) == 0 {
		return append(problems, fmt.Sprintf("update %d: the replay's completion has no read positions per partition", i))
	}
	var events int64
	for j, pr := range p.Reads.Partitions {
		if pr.Partition != int32(j) {
			problems = append(problems, fmt.Sprintf("update %d: read positions list partition %d at %d", i, pr.Partition, j))
		}
		events += pr.Records
	}
	if events != want {
		problems = append(problems, fmt.Sprintf("update %d: the partitions say the job read %d well-formed events of the recording's %d (%d records): %+v",
			i, events, want, p.Total, p.Reads.Partitions))
	}
	if u.Status == nil || u.Status.Backend == "" {
		problems = append(problems, fmt.Sprintf("update %d: the replay's completion carries no status of the lab", i))
	} else if st := u.Status; st.Reads == nil || len(st.Reads.Partitions) != len(p.Reads.Partitions) {
		problems = append(problems, fmt.Sprintf("update %d: the status with the completion has no read positions of the job", i))
	} else if fmt.Sprint(st.Reads.Partitions) != fmt.Sprint(p.Reads.Partitions) {
		problems = append(problems, fmt.Sprintf("update %d: the status with the completion says the job read the partitions %+v, the completion %+v",
			i, st.Reads.Partitions, p.Reads.Partitions))
	}
	return problems
}
