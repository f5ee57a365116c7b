package embedded

import (
	"context"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
)

// TestEveryRecordAReplayNeverWindowedIsAccountedFor replays the recorded hour as fast
// as the broker serves it, four times on one lab as a learner presses r (the reading is
// uneven differently each time), and compares each replay's whole output with the
// re-enactment, as the diff view does. A record the re-enactment counted and the replay
// has no trace of must be accounted for: on the processing-time sink, which holds every
// request the job assembled, they are the hour's requests less those the job assembled
// (requests whose halves its RequestAssembler let go), plus at most the results the lab
// dropped because the reader fell behind (a trace among them); on the event-time sink
// they are among those.
func TestEveryRecordAReplayNeverWindowedIsAccountedFor(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the recorded hour")
	}
	ref, err := reenact.Results(context.Background(), recordedHour, reenact.Config{Pace: reenact.Recorded, Job: jobspec.Options{Trace: true}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range replays(t, 4) {
		missing := map[jobspec.Kind]map[string]bool{}
		for _, sink := range []jobspec.Kind{jobspec.EventTimeResult, jobspec.ProcessingTimeResult} {
			missing[sink] = map[string]bool{}
			rep := diff.Compare(ref, r.out, diff.Options{Sink: sink})
			if rep.Counts.Unexplained != 0 && r.dropped == 0 {
				t.Errorf("replay %d: %d rows unexplained on the %v sink", i, rep.Counts.Unexplained, sink)
			}
			for _, row := range rep.Rows {
				if row.Why == nil {
					continue
				}
				for _, g := range row.Why.Groups {
					if g.Cause != diff.Missing {
						continue
					}
					if g.Missed != diff.B {
						t.Errorf("replay %d: the re-enactment has no trace of %d records the replay counted", i, g.Requests)
					}
					for _, rec := range g.Records {
						missing[sink][rec.RequestID] = true
					}
				}
			}
		}
		st := r.done
		never, unassembled := int64(len(missing[jobspec.ProcessingTimeResult])), 71641-st.Job.Records
		if never < unassembled || never > unassembled+int64(r.dropped) {
			t.Errorf("replay %d: %d records never reached the replay's processing-time windows; the job assembled %d of 71641 "+
				"(%d halves let go) and the lab dropped %d results", i, never, st.Job.Records, st.Job.Forgotten, r.dropped)
		}
		if unassembled > 0 && (st.Job.Forgotten < unassembled || st.Job.Forgotten > 2*unassembled) {
			t.Errorf("replay %d: %d requests never assembled, %d halves let go", i, unassembled, st.Job.Forgotten)
		}
		for id := range missing[jobspec.EventTimeResult] {
			if !missing[jobspec.ProcessingTimeResult][id] {
				t.Errorf("replay %d: %s never reached the replay's event-time windows and is in its processing-time ones", i, id)
			}
		}
		t.Logf("replay %d: largest lead %.1f s; %d records never reached the windows, %d halves let go, %d results dropped",
			i, float64(st.Reads.Max.By)/1000, never, st.Job.Forgotten, r.dropped)
	}
}

// replayRun is one replay's whole output (every result of its run, then the windows the
// status with its Done lists open, as the session puts them together), that status, and
// the results of its run the lab dropped because the reader fell behind.
type replayRun struct {
	out     []jobspec.Result
	done    *backend.Status
	dropped int
}

// replays replays the recorded hour n times, one after the other on one lab, as fast as
// the broker serves it, tracing every record.
func replays(t *testing.T, n int) []replayRun {
	t.Helper()
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Job: jobspec.Options{Trace: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	byRun := map[int]*replayRun{}
	var runs []int
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for u := range lab.Updates() {
			if u.Restarted != nil && u.Restarted.Cause == backend.CauseReplay {
				runs = append(runs, u.Restarted.Run)
			}
			r := byRun[u.Run]
			if r == nil {
				r = &replayRun{}
				byRun[u.Run] = r
			}
			r.out = append(r.out, u.Results...)
			r.dropped += u.Dropped
			if u.Replay != nil && u.Replay.Done && r.done == nil {
				r.done = u.Status
			}
		}
	}()
	for range n {
		if err := lab.Replay(context.Background(), recordedHour, jobspec.CompletedTS); err != nil {
			t.Fatal(err)
		}
	}
	lab.Close()
	<-drained
	// Results still waiting for the reader at close are the last run's, lost as those
	// dropped are.
	if lost := lab.Summary().Lost; lost.Results > 0 && len(runs) > 0 {
		t.Logf("%d results were still waiting for the reader at close", lost.Results)
		if r := byRun[runs[len(runs)-1]]; r != nil {
			r.dropped += int(lost.Results)
		}
	}
	var out []replayRun
	for _, run := range runs {
		r := byRun[run]
		if r == nil || r.done == nil || r.done.Reads == nil {
			t.Fatalf("run %d: the replay's Done came without a status", run)
		}
		r.out = append(r.out, r.done.Open...)
		out = append(out, *r)
	}
	if len(out) != n {
		t.Fatalf("%d replays, %d replay runs", n, len(out))
	}
	return out
}
