package session

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/diff"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
)

const seedBurst = "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

// fastReplay is the seed burst read as fast as it can be, on a clock that moves a
// millisecond a read, as a replay into the broker reads it.
func fastReplay(t *testing.T, field jobspec.TimestampField) []jobspec.Result {
	t.Helper()
	src, err := recording.Open(context.Background(), seedBurst)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	now := int64(1795950000000)
	var out []jobspec.Result
	_, err = reenact.Run(context.Background(), src, reenact.Config{Pace: reenact.Fast, Job: jobspec.Options{Trace: true, Timestamp: field},
		Now: func() int64 { now++; return now }}, func(r jobspec.Result) { out = append(out, r) }, func(int, error) {})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reenactFile is the re-enactment the program hands a Session, as cli does.
func reenactFile(path string, field jobspec.TimestampField) ([]jobspec.Result, error) {
	return reenact.Results(context.Background(), path, reenact.Config{Pace: reenact.Recorded, Job: jobspec.Options{Trace: true, Timestamp: field}})
}

func TestTheReferenceIsDeterministicAndTraced(t *testing.T) {
	a, err := reenactFile(seedBurst, jobspec.CompletedTS)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := reenactFile(seedBurst, jobspec.CompletedTS)
	if r := diff.Compare(a, b, diff.Options{}); !r.Same() || !r.TracedA {
		t.Fatalf("two re-enactments differ: %s", r.Summary(Names))
	}
	if _, err := reenactFile("no-such-file.jsonl", jobspec.CompletedTS); err == nil {
		t.Error("a missing recording is not an error")
	}
}

func TestAFastReplayDiffersFromTheReferenceOnlyWhereTheTraceExplains(t *testing.T) {
	ref, err := reenactFile(seedBurst, jobspec.CompletedTS)
	if err != nil {
		t.Fatal(err)
	}
	c := CompareReplay(ref, fastReplay(t, jobspec.CompletedTS))
	if c.Event.Counts.Unexplained != 0 || c.Event.Same() {
		t.Fatalf("event time: %s", c.Event.Summary(Names))
	}
	if len(c.Minutes) == 0 || c.Processing.Same() {
		t.Fatalf("processing time: %s, %d minutes", c.Processing.Summary(Names), len(c.Minutes))
	}
	ev := c.evidence("a re-enactment of seed-burst.jsonl")
	if ev.EventTime.Summary != c.Event.Summary(Names) || len(ev.EventTime.Lines) == 0 || len(ev.ProcessingMinutes) != len(c.Minutes) {
		t.Errorf("evidence %+v", ev)
	}
	if !strings.Contains(strings.Join(ev.EventTime.Lines, "\n"), "late in the re-enactment") {
		t.Errorf("the explanation does not name the live run's late records:\n%s", strings.Join(ev.EventTime.Lines, "\n"))
	}
}

func TestReportsAreCutBetweenRows(t *testing.T) {
	lines := []string{"~ a", "      why a", "~ b", "      why b", "      and more", "~ c"}
	got, omitted := cutBetweenRows(lines, 4)
	if len(got) != 2 || omitted != 4 || got[1] != "      why a" {
		t.Errorf("cut to %q, %d omitted", got, omitted)
	}
	if got, omitted := cutBetweenRows(lines, 10); len(got) != 6 || omitted != 0 {
		t.Errorf("a short report was cut: %q, %d", got, omitted)
	}
}

func TestMovedEvidenceListsTheFirstRequestsAndTotalsThemAll(t *testing.T) {
	a, _ := reenactFile(seedBurst, jobspec.CompletedTS)
	b, _ := reenactFile(seedBurst, jobspec.StartedTS)
	m, err := diff.Moved(a, b)
	if err != nil {
		t.Fatal(err)
	}
	sum, list := movedEvidence(m, "re-enactments")
	if sum.Moved != len(m.Moves) || sum.Listed != len(list) || sum.Moved == 0 || list[0].RequestID != m.Moves[0].RequestID {
		t.Fatalf("summary %+v, list %+v", sum, list)
	}
	var _ state.Moved = list[0]
	if list[0].StartedMinute == list[0].CompletedMinute {
		t.Errorf("a moved request did not move: %+v", list[0])
	}
}

func TestOnlyTheComparisonTheDiffViewShowsIsKept(t *testing.T) {
	s := New(Config{})
	var ids []int
	for range 3 {
		s.begin("replay", 0, true, 0)
		r := s.Current()
		r.ReplayDone = true
		r.Results.push(jobspec.Result{Kind: jobspec.EventTimeResult})
		s.an.diffs[r.ID] = &comparison{}
		ids = append(ids, r.ID)
	}
	older, underWay, shown := ids[0], ids[1], ids[2]
	s.an.diffs[underWay].pending = true
	s.forgetDroppedDiffs()
	if s.DiffRun().ID != shown || s.an.diffs[shown] == nil {
		t.Fatalf("the shown replay's comparison was let go: diff run %d, kept %v", s.DiffRun().ID, s.an.diffs)
	}
	if s.an.diffs[underWay] == nil {
		t.Errorf("a comparison under way was let go")
	}
	if s.an.diffs[older] != nil {
		t.Errorf("the comparison of an older replay, which the diff view cannot show, is kept")
	}
}

func TestTheComparisonsOfDroppedRunsAreLetGo(t *testing.T) {
	s := New(Config{Limits: Limits{Runs: 2}})
	s.an.diffs[1] = &comparison{}
	s.an.diffs[2] = &comparison{}
	s.begin("replay", 0, true, 0)
	s.begin("replay", 0, true, 0)
	s.forgetDroppedDiffs()
	if s.run(1) != nil || s.an.diffs[1] != nil {
		t.Fatalf("run 1 kept %v, its comparison kept %v: the test needs it dropped", s.run(1) != nil, s.an.diffs[1] != nil)
	}
	for id := range s.an.diffs {
		if s.run(id) == nil {
			t.Errorf("the comparison of dropped run %d is kept", id)
		}
	}
}

func TestTheKeptComparisonHoldsNeitherOutputAndSaysTheSame(t *testing.T) {
	ref, err := reenactFile(seedBurst, jobspec.CompletedTS)
	if err != nil {
		t.Fatal(err)
	}
	full := CompareReplay(ref, fastReplay(t, jobspec.CompletedTS))
	kept := full.light()
	if len(full.Event.Rows) == 0 || full.Processing.Counts.Differ+full.Processing.Counts.OnlyA == 0 {
		t.Fatal("the seed burst's comparison has no differing rows: the test shows nothing")
	}
	for i, r := range []*diff.Report{kept.Event, kept.Processing} {
		was := []*diff.Report{full.Event, full.Processing}[i]
		if r.Rows != nil {
			t.Errorf("the kept %s report holds %d rows, and through them both outputs", r.Sink, len(r.Rows))
		}
		if r.Summary(Names) != was.Summary(Names) || r.Counts != was.Counts {
			t.Errorf("the kept report says %q, the full one %q", r.Summary(Names), was.Summary(Names))
		}
	}
	if !slices.Equal(kept.EventLines, full.EventLines) || !slices.Equal(kept.ProcessingLines, full.ProcessingLines) || len(kept.ProcessingLines) == 0 {
		t.Error("the kept comparison's lines are not the full one's")
	}
}

// TestALightComparisonSaysWhatTheFullOneSays: the comparison a session works out lets
// each report's rows go as soon as it has taken its lines and evidence from them, so the
// two reports' rows are never held at once; what it says is the full comparison's.
func TestALightComparisonSaysWhatTheFullOneSays(t *testing.T) {
	ref, err := reenactFile(seedBurst, jobspec.CompletedTS)
	if err != nil {
		t.Fatal(err)
	}
	out := fastReplay(t, jobspec.CompletedTS)
	full, light := compareWith(ref, out, Names, nil, false), compareWith(ref, out, Names, nil, true)
	if len(full.Event.Rows) == 0 || light.Event.Rows != nil || light.Processing.Rows != nil {
		t.Fatalf("the full comparison has %d event-time rows, the light one %d and %d", len(full.Event.Rows), len(light.Event.Rows), len(light.Processing.Rows))
	}
	full.explainNever(1, 2, 3, false)
	light.explainNever(1, 2, 3, false)
	if a, b := full.evidence("the hour"), light.evidence("the hour"); !reflect.DeepEqual(a, b) {
		t.Errorf("the light comparison's evidence is\n%+v\nthe full one's\n%+v", b, a)
	}
	if full.Never != light.Never || full.NeverFrom != light.NeverFrom || full.NeverTo != light.NeverTo || full.NeverWhy != light.NeverWhy ||
		!slices.Equal(full.EventLines, light.EventLines) || !slices.Equal(full.ProcessingLines, light.ProcessingLines) {
		t.Error("the light comparison's lines or never-reached records differ from the full one's")
	}
}

// TestA43DiffPutsTheLateRecordsDownToTheStrategies: the re-enactment runs under the job's
// for_monotonous_timestamps() and drops r-103 as late; the replay under
// for_bounded_out_of_orderness(40 s) counts it. The diff's explanation says the
// strategies are the cause (issue 22: "every difference explained by the records'
// arrival").
func TestA43DiffPutsTheLateRecordsDownToTheStrategies(t *testing.T) {
	reference := func(context.Context, string, jobspec.Options) ([]jobspec.Result, error) {
		return []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 0.3, 3), fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2),
			{Kind: jobspec.LateResult, Record: jobspec.RecordTrace{RequestID: "r-103", TenantID: "acme", Gateway: "gw-1", Timestamp: t0 + 44000,
				Arrival: t0 + 70000, Watermark: t0 + 68999, EventWindowEnd: t0 + 60000, Late: true, USD: 0.1}}}, nil
	}
	l := newLabWith(Config{Reenact: reference})
	l.h.ReplayAsked("hour.jsonl.gz", jobspec.CompletedTS)
	l.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS,
		Recording: "hour.jsonl.gz", Watermarks: watermark.Strategy{OutOfOrderness: 40 * time.Second}}})
	l.apply(backend.Update{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 0.3, 3), fired(jobspec.EventTimeResult, "acme", 0, 0.3, 3)}})
	l.apply(backend.Update{Replay: &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 6, Done: true}})
	c := l.h.an.diffs[l.h.Current().ID]
	if c == nil || c.diff == nil {
		t.Fatal("the replay was not compared")
	}
	lines := strings.Join(c.diff.EventLines, "\n")
	want := "cause: the strategies, the re-enactment under for_monotonous_timestamps(), the replay under for_bounded_out_of_orderness(40 s), " +
		"whose watermark stays 40 s behind its largest timestamp"
	if !strings.Contains(lines, want) {
		t.Errorf("the event-time diff lacks %q:\n%s", want, lines)
	}
}
