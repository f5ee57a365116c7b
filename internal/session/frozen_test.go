package session

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/labs/lab4"
)

// sheet is the answer sheet of the session as it stands, with answers.
func (l *lab) sheet(answers map[string]string) string {
	st := l.h.Snapshot(answers, 1)
	return export.Markdown(export.Build(st, time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)))
}

// TestAnAnswerFreezesTheEvidenceItWasWrittenAgainst: 4.1 is answered while run 1's
// minutes 10:00-10:04 back it; run 1 goes on with a minute of other sums and a restart
// brings run 2 with five agreeing minutes of its own. The sheet still shows the minutes
// and the sums the answer was written against, the session says what the rule would
// make of 4.1 now, and Repin makes that the evidence.
func TestAnAnswerFreezesTheEvidenceItWasWrittenAgainst(t *testing.T) {
	l := newLab()
	l.started()
	for m := range int64(5) {
		l.minute(m, 0.2, 0.2)
	}
	answered := "10:00-10:04 agree, 1.50 USD each."
	answers := map[string]string{"4.1a": answered}
	l.h.Answered(answers)
	const then = "In run 1 (start, completed_ts), the 5 minutes 10:00, 10:01, 10:02, 10:03 and 10:04 agree tenant by tenant in both windows " +
		"(10 rows, $1.5000 and 15 requests in each)"
	if f := l.h.Finding("4.1"); f == nil || !f.Pinned || !strings.HasPrefix(lab4.Sentence(f), then) {
		t.Fatalf("answered: %+v", f)
	}

	l.minute(5, 0.7, 0.7)
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "kill", At: t0 + 6*60000 + 3000}})
	for m := int64(7); m < 12; m++ {
		l.minute(m, 0.5, 0.5)
	}

	f := l.h.Finding("4.1")
	if f == nil || f.Run.ID != 1 || !strings.HasPrefix(lab4.Sentence(f), then) || len(f.Rows) != 10 {
		t.Fatalf("the pinned finding moved: %+v", f)
	}
	sheet := l.sheet(answers)
	if !strings.Contains(sheet, then) || !strings.Contains(sheet, answered) {
		t.Errorf("the sheet does not show the evidence the answer was written against:\n%s", sheet)
	}
	if strings.Contains(sheet, "10:07, 10:08") {
		t.Errorf("the sheet shows run 2's minutes:\n%s", sheet)
	}
	newer := l.h.Newer("4.1")
	if newer == nil || newer.Run.ID != 2 || !strings.Contains(lab4.Sentence(newer), "the 5 minutes 10:07, 10:08, 10:09, 10:10 and 10:11") {
		t.Fatalf("Newer = %+v", newer)
	}

	f, err := l.h.Repin("4.1")
	if err != nil || f.Run.ID != 2 || !f.Pinned || l.h.Newer("4.1") != nil {
		t.Fatalf("Repin = %+v, %v; newer %+v", f, err, l.h.Newer("4.1"))
	}
	if sheet := l.sheet(answers); !strings.Contains(sheet, "In run 2 (restarted after a kill, completed_ts), the 5 minutes 10:07") {
		t.Errorf("after Repin the sheet shows:\n%s", sheet)
	}
	if _, err := l.h.Repin("4.1"); err == nil {
		t.Error("Repin with nothing newer did not say so")
	}
}

// TestAFindingPinnedBeforeItsRuleIsMetFollowsItsRunUntilItIs: an answer written after
// three minutes pins run 1; its finding grows with run 1 until five minutes tick 4.1,
// and only then stays as it is.
func TestAFindingPinnedBeforeItsRuleIsMetFollowsItsRunUntilItIs(t *testing.T) {
	l := newLab()
	l.started()
	for m := range int64(3) {
		l.minute(m, 0.2, 0.2)
	}
	l.h.Answered(map[string]string{"4.1a": "so far they agree"})
	for m := int64(3); m < 7; m++ {
		l.minute(m, 0.2, 0.2)
	}
	f := l.h.Finding("4.1")
	if f == nil || !f.Met || !f.Pinned || !l.h.Done("4.1") {
		t.Fatalf("after seven minutes: %+v", f)
	}
	if got := f.Agreement.Minutes; len(got) != 5 || got[0] != t0 || got[4] != t0+4*60000 {
		t.Errorf("the finding froze at minutes %v, want 10:00-10:04, the first five that met the rule", got)
	}
	_ = jobspec.CompletedTS
}

// TestAnEarlierSessionsPinnedFindingIsOfferedOnlyWhatOutweighsIt: continued from a saved
// 4.1 pinned to five minutes of an earlier session's run, this session's first agreeing
// minute is no newer evidence; five of its own are.
func TestAnEarlierSessionsPinnedFindingIsOfferedOnlyWhatOutweighsIt(t *testing.T) {
	saved := state.New()
	saved.Evidence.Findings = map[string]*state.Finding{"4.1": {Run: state.RunRef{ID: 1, Kind: "start", Timestamp: "completed_ts", StartedAt: t0 - 86400000},
		Met: true, Pinned: true, Agreement: &state.AgreementFacts{Minutes: []int64{t0 - 86400000, t0 - 86340000, t0 - 86280000, t0 - 86220000, t0 - 86160000},
			Wanted: 5, Rows: 10, USD: 1.5, Requests: 15}}}
	l := newLabWith(Config{RunsBefore: 1})
	l.h.Restore(saved)
	l.started()
	l.minute(0, 0.2, 0.2)
	if n := l.h.Newer("4.1"); n != nil {
		t.Errorf("one minute of this session is offered over five saved: %+v", n)
	}
	for m := int64(1); m < 5; m++ {
		l.minute(m, 0.2, 0.2)
	}
	if n := l.h.Newer("4.1"); n == nil || !n.Met {
		t.Errorf("five minutes of this session are not offered: %+v", n)
	}
	if f := l.h.Finding("4.1"); f == nil || f.Run.StartedAt != t0-86400000 {
		t.Errorf("the pinned saved finding moved: %+v", f)
	}
}

// TestAnAnsweredReplaysComparisonStaysWhatTheAnswerSaw: 4.3 is answered once replay run
// 1's comparison is there; then the job prints another processing-time window of the
// replay (a real job's last minute fires after its replay's Done), and the comparison
// is worked out again. The sheet, its course table and its appendix too, still shows
// the comparison the answer was written against, and so does the saved state, until
// Repin takes the newer one.
func TestAnAnsweredReplaysComparisonStaysWhatTheAnswerSaw(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	unevenReplay(l, watermark.Strategy{}, nil)
	answers := map[string]string{"4.3a": "one enormous minute"}
	l.h.Answered(answers)
	if f := l.h.Finding("4.3"); f == nil || !f.Pinned || f.Run.ID != 1 {
		t.Fatalf("answered: %+v", f)
	}
	before := l.sheet(answers)
	saved := l.h.Snapshot(answers, 1).Evidence.Replays[0].Compare

	l.apply(backend.Update{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 1, 7.5, 3)}})

	if after := l.sheet(answers); after != before {
		t.Errorf("the sheet changed after the answer:\n%s", lineDiff(before, after))
	}
	if c := l.h.Snapshot(answers, 1).Evidence.Replays[0].Compare; c.ProcessingUSD != saved.ProcessingUSD || len(c.ProcessingMinutes) != len(saved.ProcessingMinutes) {
		t.Errorf("the saved comparison changed: $%.2f in %d rows, was $%.2f in %d", c.ProcessingUSD, len(c.ProcessingMinutes), saved.ProcessingUSD, len(saved.ProcessingMinutes))
	}
	newer := l.h.Newer("4.3")
	if newer == nil || newer.Replay == nil || newer.Replay.ProcessingUSD != saved.ProcessingUSD+7.5 {
		t.Fatalf("Newer = %+v", newer)
	}
	if _, err := l.h.Repin("4.3"); err != nil {
		t.Fatal(err)
	}
	if c := l.h.Snapshot(answers, 1).Evidence.Replays[0].Compare; c.ProcessingUSD != saved.ProcessingUSD+7.5 {
		t.Errorf("after Repin the saved comparison has $%.2f, want the newer $%.2f", c.ProcessingUSD, saved.ProcessingUSD+7.5)
	}
	if after := l.sheet(answers); after == before {
		t.Error("after Repin the sheet still shows the older comparison")
	}
}

// lineDiff lists the lines of b that are not lines of a, and the other way round.
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !inb[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ina[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
