package diff

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
)

// The recorded hour is replayed once per configuration and shared by the tests below.
var (
	hourOnce                                       sync.Once
	hourRecorded, hourAgain, hourFast, hourStarted []jobspec.Result
)

func hourRuns(t testing.TB) {
	if testing.Short() {
		t.Skip("replays the recorded hour")
	}
	hourOnce.Do(func() {
		hourRecorded = replayFile(t, recordedHour, reenact.Config{})
		hourAgain = replayFile(t, recordedHour, reenact.Config{})
		hourFast = replayFile(t, recordedHour, reenact.Config{Pace: reenact.Fast, Now: ticking(t0)})
		hourStarted = replayFile(t, recordedHour, reenact.Config{Job: jobspec.Options{Timestamp: jobspec.StartedTS}})
	})
	if hourStarted == nil {
		t.Fatal("an earlier replay of the recorded hour failed")
	}
}

func sinkLines(rs []jobspec.Result, kinds ...jobspec.Kind) []string {
	var out []string
	for _, r := range rs {
		if slices.Contains(kinds, r.Kind) {
			out = append(out, string(r.AppendJSON(nil)))
		}
	}
	return out
}

// TestRecordedHourReplayedTwiceIsIdentical: the re-enactment is deterministic, line for
// line, and the diff says so.
func TestRecordedHourReplayedTwiceIsIdentical(t *testing.T) {
	hourRuns(t)
	a := sinkLines(hourRecorded, jobspec.EventTimeResult, jobspec.LateResult, jobspec.PendingResult)
	b := sinkLines(hourAgain, jobspec.EventTimeResult, jobspec.LateResult, jobspec.PendingResult)
	if len(a) < 300 || !slices.Equal(a, b) {
		t.Fatalf("event-time output differs between two replays (%d and %d lines)", len(a), len(b))
	}
	r := Compare(hourRecorded, hourAgain, Options{})
	if !r.Same() || r.Counts.Rows != 300 {
		t.Fatalf("diff of two replays: %s", r.Summary(Names{}))
	}
}

// TestFastReplayAgreesExceptWhereTheTraceExplains: the re-enactment (A) and a fast replay
// (B) agree on every minute except ones the trace explains: the hiccup's minute, whose
// held records A dropped as late and B read before any watermark passed it, and the
// minutes B's watermark never passed.
func TestFastReplayAgreesExceptWhereTheTraceExplains(t *testing.T) {
	hourRuns(t)
	r := Compare(hourRecorded, hourFast, Options{})
	if r.Counts.Unexplained != 0 {
		var sb strings.Builder
		r.WriteText(&sb, TextOptions{Records: 3})
		t.Fatalf("unexplained differences:\n%s", sb.String())
	}
	if r.Counts.Differ == 0 || r.Counts.Identical == 0 {
		t.Fatalf("expected both agreement and explained differences: %+v", r.Counts)
	}
	// Every record A's late side output dropped is in an explanation, as late in A, and
	// nothing else explains a differing row.
	lateA := make(map[string]bool)
	for _, res := range hourRecorded {
		if res.Kind == jobspec.LateResult {
			lateA[res.Record.RequestID] = true
		}
	}
	explained := make(map[string]bool)
	for _, row := range r.differences() {
		for _, g := range row.Why.Groups {
			if g.Missed != A || g.Cause != Late {
				t.Fatalf("%s %s: unexpected group %s in %s", jobspec.Clock(row.WindowStart), row.TenantID, g.Cause, g.Missed)
			}
			for _, rec := range g.Records {
				explained[rec.RequestID] = true
				if rec.A.Watermark < row.WindowEnd-1 || rec.B.Late {
					t.Fatalf("%s is not late in A and on time in B: %+v %+v", rec.RequestID, rec.A, rec.B)
				}
			}
		}
	}
	if len(lateA) == 0 || len(explained) != len(lateA) {
		t.Fatalf("%d records late in A, %d in explanations", len(lateA), len(explained))
	}
	for id := range lateA {
		if !explained[id] {
			t.Fatalf("late record %s explains nothing", id)
		}
	}
	// The processing-time sink differs everywhere (the whole hour lands in B's first
	// minute), and the traces explain every row of it too.
	if pr := Compare(hourRecorded, hourFast, Options{Sink: jobspec.ProcessingTimeResult}); pr.Counts.Unexplained != 0 || pr.Counts.Identical != 0 {
		t.Fatalf("processing-time: %s", pr.Summary(Names{}))
	}
}

// TestFastReplayOnAStoppedClockEmitsOnceAtTheEndOfTheTopic: with a wall clock that never
// moves, every record reaches the job before any periodic emit, so nothing is late; the
// emit one interval after the end of the topic then fires every window but the ones its
// watermark has not passed. The diff explains each row that differs from the re-enactment.
func TestFastReplayOnAStoppedClockEmitsOnceAtTheEndOfTheTopic(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the recorded hour")
	}
	hourRuns(t)
	b := replayFile(t, recordedHour, reenact.Config{Pace: reenact.Fast, Now: func() int64 { return t0 }})
	r := Compare(hourRecorded, b, Options{})
	if r.Counts.Unexplained != 0 || r.Counts.Identical != 295 || r.Counts.PendingOnly+r.Counts.Differ != 5 {
		t.Fatalf("%s", r.Summary(Names{}))
	}
}

// request is what the recording itself says of one request.
type request struct {
	tenant             string
	started, completed int64
	usd                float64
}

// requestsOf reads a recording straight from its events, without the engine: every
// request with both halves, its tenant, both timestamps and its cost.
func requestsOf(t *testing.T, path string) map[string]*request {
	src, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	prices := gateway.DefaultPrices()
	halves := make(map[string]gateway.Event)
	out := make(map[string]*request)
	for e, err := range src.Records(func(line int, err error) { t.Fatalf("line %d: %v", line, err) }) {
		if err != nil {
			t.Fatal(err)
		}
		ev, err := gateway.ParseEvent(e.Value)
		if err != nil {
			t.Fatal(err)
		}
		other, ok := halves[ev.RequestID]
		if !ok {
			halves[ev.RequestID] = ev
			continue
		}
		rec, ok := gateway.Join(other, ev)
		if !ok {
			continue
		}
		usd, _ := prices.RecordCost(rec)
		out[ev.RequestID] = &request{tenant: rec.TenantID, started: rec.StartedTS, completed: rec.CompletedTS, usd: usd}
	}
	return out
}

func minuteOf(ts int64) int64 { return ts - ts%jobspec.Minute }

// TestMovedRequestsMatchTheRecording: the moved-requests list of the completed_ts and
// started_ts re-enactments is exactly the requests whose completed_ts and started_ts fall
// in different minutes, computed from the recording's events alone.
func TestMovedRequestsMatchTheRecording(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		a, b       func(*testing.T) []jobspec.Result
	}{
		{"seed burst", seedBurst,
			func(t *testing.T) []jobspec.Result { return replayFile(t, seedBurst, reenact.Config{}) },
			func(t *testing.T) []jobspec.Result {
				return replayFile(t, seedBurst, reenact.Config{Job: jobspec.Options{Timestamp: jobspec.StartedTS}})
			}},
		{"recorded hour", recordedHour,
			func(t *testing.T) []jobspec.Result { hourRuns(t); return hourRecorded },
			func(t *testing.T) []jobspec.Result { hourRuns(t); return hourStarted }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.a(t), tc.b(t)
			m, err := Moved(a, b)
			if err != nil {
				t.Fatal(err)
			}
			reqs := requestsOf(t, tc.path)
			var want []string
			for id, r := range reqs {
				if minuteOf(r.started) != minuteOf(r.completed) {
					want = append(want, id)
				}
			}
			if len(want) == 0 {
				t.Fatal("no request crosses a minute: the test would prove nothing")
			}
			slices.SortFunc(want, func(x, y string) int {
				return cmp.Or(cmp.Compare(reqs[x].completed, reqs[y].completed), cmp.Compare(x, y))
			})
			var got []string
			for _, mv := range m.Moves {
				got = append(got, mv.RequestID)
				r := reqs[mv.RequestID]
				if r == nil {
					t.Fatalf("%s moved, but the recording has no such complete request", mv.RequestID)
				}
				if m.WindowStart(&mv, A) != minuteOf(r.completed) || m.WindowStart(&mv, B) != minuteOf(r.started) ||
					mv.TenantID != r.tenant || mv.USD != r.usd {
					t.Fatalf("%s: moved %s → %s, %s $%v; the recording says %s → %s, %s $%v", mv.RequestID,
						jobspec.Clock(m.WindowStart(&mv, A)), jobspec.Clock(m.WindowStart(&mv, B)), mv.TenantID, mv.USD,
						jobspec.Clock(minuteOf(r.completed)), jobspec.Clock(minuteOf(r.started)), r.tenant, r.usd)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d moved requests; the recording says %d", len(got), len(want))
			}
			if m.Both != len(reqs) || m.OnlyA != 0 || m.OnlyB != 0 {
				t.Fatalf("both %d, only A %d, only B %d; the recording has %d requests", m.Both, m.OnlyA, m.OnlyB, len(reqs))
			}
			// A request is "dropped as late in B" exactly when B's late side output has it.
			lateB := make(map[string]bool)
			for _, r := range b {
				if r.Kind == jobspec.LateResult {
					lateB[r.Record.RequestID] = true
				}
			}
			for _, mv := range m.Moves {
				if mv.B.Late != lateB[mv.RequestID] {
					t.Fatalf("%s: late in B %v, in B's late output %v", mv.RequestID, mv.B.Late, lateB[mv.RequestID])
				}
			}
		})
	}
}
