package session

import (
	"context"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
)

// replayOnce replays the recorded hour into l as run Restart.Run n, reading r-1, r-2 and
// minute 0, and returns the names of every task the replay started, run to the end.
func replayOnce(l *lab, n int) []string {
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	return replayRead(l, n, l.h.Apply(backend.Update{Run: n, Restarted: &backend.Restart{Run: n, Cause: backend.CauseReplay, Reason: "replay",
		Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}}))
}

// replayRead is replayOnce of a replay whose restart was applied, starting tasks.
func replayRead(l *lab, n int, tasks []Task) []string {
	var did []string
	run := func(tasks []Task) {
		for len(tasks) > 0 {
			t := tasks[0]
			did = append(did, t.What)
			tasks = append(tasks[1:], l.h.Finish(t.Run(context.Background()))...)
		}
	}
	run(tasks)
	run(l.h.Apply(backend.Update{Run: n, Results: []jobspec.Result{traceOf("r-1"), traceOf("r-2"),
		fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2), fired(jobspec.ProcessingTimeResult, "acme", 0, 0.2, 2)},
		Status: status(t0+70000, t0+61000)}))
	run(l.h.Apply(backend.Update{Run: n, Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 4, Done: true}}))
	return did
}

// TestAReplayReadsWithoutTheReEnactmentAndItIsMadeAgainForItsComparison: the
// re-enactment of the recorded hour (12 MB) is let go when the next replay starts, the
// session's peak, and made again once that replay is done, for its comparison only: the
// replay before it, compared already, is not compared again. What the session reads of
// it in between, its size (the room a replay reserves) and its held gateway (a replay's
// skew picture), stays.
func TestAReplayReadsWithoutTheReEnactmentAndItIsMadeAgainForItsComparison(t *testing.T) {
	made := 0
	l := newLabWith(Config{Reenact: func(ctx context.Context, path string, job jobspec.Options) ([]jobspec.Result, error) {
		made++
		return twoRequests(ctx, path, job)
	}})
	l.apply(backend.Update{Results: []jobspec.Result{traceOf("live")}})
	did := replayOnce(l, 2)
	key := refKey{"hour.jsonl.gz", jobspec.CompletedTS}
	if made != 1 || l.h.an.refs[key].results == nil || !strings.Contains(strings.Join(did, "; "), "compare run 2") {
		t.Fatalf("the first replay: %d re-enactments, tasks %q", made, did)
	}
	first := l.h.DiffState(false)
	if first.Diff == nil || first.Run == nil || first.Run.ID != 2 {
		t.Fatalf("the first replay's diff: %+v", first)
	}

	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	restarted := l.h.Apply(backend.Update{Run: 3, Restarted: &backend.Restart{Run: 3, Cause: backend.CauseReplay, Reason: "replay",
		Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
	ref := l.h.an.refs[key]
	if ref.results != nil {
		t.Error("the re-enactment's results were kept through the next replay's reading")
	}
	if got := cap(l.h.Current().Results.items); got < 4 {
		t.Errorf("the next replay reserved room for %d results, want the re-enactment's 4", got)
	}
	if held, ok := l.h.heldInReference("hour.jsonl.gz", jobspec.CompletedTS); !ok || held != "" {
		t.Errorf("the held gateway once the results were let go: %q, %v", held, ok)
	}

	l.h.an.refs[key] = ref // as it was
	did = replayRead(l, 3, restarted)
	joined := strings.Join(did, "; ")
	if made != 2 || !strings.Contains(joined, "re-enact") || !strings.Contains(joined, "compare run 3") || strings.Contains(joined, "compare run 2") {
		t.Errorf("the second replay: %d re-enactments, tasks %q (want one more re-enactment and run 3 compared, not run 2)", made, did)
	}
	if d := l.h.DiffState(false); d.Diff == nil || d.Run == nil || d.Run.ID != 3 || d.Diff.Never != 0 {
		t.Errorf("the second replay's diff: %+v", d)
	}
	if f := l.h.Finding("4.3"); f == nil || f.Run.ID != 3 {
		t.Errorf("4.3's finding: %+v", f)
	}
}

// TestARecordingWhoseReEnactmentWritesNothingIsReEnactedOnce: a re-enactment with no
// result (a recording of no whole request) is what it is, not one let go: the replay's
// comparison takes it, and nothing asks for it again.
func TestARecordingWhoseReEnactmentWritesNothingIsReEnactedOnce(t *testing.T) {
	made := 0
	l := newLabWith(Config{Reenact: func(context.Context, string, jobspec.Options) ([]jobspec.Result, error) {
		made++
		return nil, nil
	}})
	l.apply(backend.Update{Results: []jobspec.Result{traceOf("live")}})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz"}})
	l.apply(backend.Update{Results: []jobspec.Result{traceOf("r-1")}})
	tasks := l.h.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 2, Done: true}})
	for i := 0; len(tasks) > 0; i++ {
		if i == 20 {
			t.Fatalf("still %d tasks after 20, %d re-enactments", len(tasks), made)
		}
		tasks = append(tasks[1:], l.h.Finish(tasks[0].Run(context.Background()))...)
	}
	if made != 1 {
		t.Errorf("%d re-enactments, want 1", made)
	}
}
