package session

import (
	"fmt"
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

// twoLiveRunsAndAReplay is run 1 with three agreeing minutes, run 2 (after x) with five,
// and run 3 a completed_ts replay compared with the recorded hour.
func twoLiveRunsAndAReplay(l *lab) {
	l.started()
	for m := range int64(3) {
		l.minute(m, 0.2, 0.2)
	}
	l.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseKill, Reason: "killed", At: t0 + 3*60000 + 5000}})
	for m := int64(4); m < 9; m++ {
		l.minute(m, 0.2, 0.2)
	}
	unevenReplay(l, watermark.Strategy{}, nil)
}

func TestPinChoicesSayWhichRunsCanBackAnExerciseAndWhyTheOthersCannot(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	twoLiveRunsAndAReplay(l)
	got := l.h.PinChoices("4.1")
	if len(got) != 3 {
		t.Fatalf("choices %+v", got)
	}
	want := []struct {
		id    int
		why   string
		backs bool
	}{{1, "", false}, {2, "", true}, {3, "a replay: 4.1 needs the live generator", false}}
	for i, w := range want {
		if c := got[i]; c.Run.ID != w.id || c.Why != w.why || c.Backs != w.backs || c.Pinned {
			t.Errorf("choice %d = %+v, want run %d, why %q, backs %v", i, c, w.id, w.why, w.backs)
		}
	}
	for _, c := range l.h.PinChoices("4.3") {
		if want := map[int]string{1: "not a replay", 2: "not a replay", 3: ""}[c.Run.ID]; c.Why != want {
			t.Errorf("4.3 choice %+v, want why %q", c, want)
		}
	}
	if c := l.h.PinChoices("4.2")[0]; c.Why != "no hiccup yet" {
		t.Errorf("4.2 choice %+v", c)
	}
}

func TestPinningAnotherRunMakesItBackTheStepUntilUnpinned(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	twoLiveRunsAndAReplay(l)
	if f := l.h.Finding("4.1"); f.Run.ID != 2 || f.Pinned || !f.Met {
		t.Fatalf("the rule's pick: %+v", f)
	}
	// p once: the run after the rule's pick, wrapping to the oldest.
	f, err := l.h.PinNext("4.1")
	if err != nil {
		t.Fatal(err)
	}
	want := "In run 1 (start, completed_ts), the 3 minutes 10:00, 10:01 and 10:02 agree tenant by tenant in both windows " +
		"(6 rows, $0.9000 and 9 requests in each), with no hiccup, restart or late record in them; 3 of the 5 minutes 4.1 asks for so far."
	if f == nil || f.Run.ID != 1 || !f.Pinned || f.Met || lab4.Sentence(f) != want {
		t.Fatalf("pinned: %+v\nwant %q", f, want)
	}
	// Later minutes of another run do not replace it.
	l.minute(9, 0.2, 0.2)
	if f := l.h.Finding("4.1"); f.Run.ID != 1 || !f.Pinned {
		t.Errorf("a later run replaced the pinned one: %+v", f)
	}
	st := l.h.Snapshot(nil, 1)
	if f := st.Evidence.Findings["4.1"]; f == nil || f.Run.ID != 1 || !f.Pinned || st.Evidence.Agreement.Run != 1 {
		t.Errorf("the saved evidence: %+v, agreement of run %d", f, st.Evidence.Agreement.Run)
	}
	// p again: run 2; again: back to the rule's pick.
	if f, _ := l.h.PinNext("4.1"); f.Run.ID != 2 || !f.Pinned {
		t.Errorf("second press: %+v", f)
	}
	if f, _ := l.h.PinNext("4.1"); f.Run.ID != 2 || f.Pinned {
		t.Errorf("third press should follow the rule again: %+v", f)
	}
	if _, err := l.h.PinNext("4.2"); err == nil || !strings.Contains(err.Error(), "no run kept can back 4.2 yet") {
		t.Errorf("PinNext(4.2) = %v", err)
	}
}

func TestAReplayWhoseDiffWasLetGoCanStillBack43(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	unevenReplay(l, watermark.Strategy{}, nil)
	unevenReplayAt(l, 1, watermark.Strategy{At: watermark.Source}, nil)
	if f := l.h.Finding("4.3"); f == nil || f.Run.ID != 2 {
		t.Fatalf("the rule's pick: %+v", f)
	}
	if err := l.h.pin("4.3", 1); err != nil {
		t.Fatal(err)
	}
	f := l.h.Finding("4.3")
	if f.Run.ID != 1 || !f.Pinned || !strings.HasPrefix(lab4.Sentence(f), "In run 1 (replay of hour.jsonl.gz, completed_ts), the event-time output against the recorded hour re-enacted") {
		t.Errorf("pinned to the older replay: %+v", f)
	}
}

// TestTheSheetNamesThePinnedRun exports after pinning run 1 to 4.1: the summary and the
// evidence name run 1, pinned.
func TestTheSheetNamesThePinnedRun(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	twoLiveRunsAndAReplay(l)
	if err := l.h.pin("4.1", 1); err != nil {
		t.Fatal(err)
	}
	md := export.Markdown(export.Build(l.h.Snapshot(nil, 1), time.Unix(0, 0)))
	for _, want := range []string{"| 4.1 | not yet | run 1: start, completed_ts, for_monotonous_timestamps() (your pick) |",
		"**Evidence (not complete yet, from run 1: start, completed_ts, for_monotonous_timestamps()):** In run 1 (start, completed_ts), the 3 minutes"} {
		if !strings.Contains(md, want) {
			t.Errorf("the sheet lacks %q:\n%s", want, md)
		}
	}
}

// TestPinningOverASavedFindingPinsThisSessionsRun restores a 4.1 finding pinned in an
// earlier session to its run 1: p pins this session's run 1, it does not let the rule
// pick (which would replace the saved evidence without the learner choosing a run).
func TestPinningOverASavedFindingPinsThisSessionsRun(t *testing.T) {
	saved := state.New()
	saved.Evidence.Findings = map[string]*state.Finding{"4.1": {Run: state.RunRef{ID: 1, Kind: "start", StartedAt: 1}, Met: true, Pinned: true, Saved: "saved"}}
	l := newLabWith(Config{Reenact: hourReference})
	l.h.Restore(saved)
	twoLiveRunsAndAReplay(l)
	f, err := l.h.PinNext("4.1")
	if err != nil || f.Run.ID != 1 || !f.Pinned || lab4.Sentence(f) == "saved" {
		t.Errorf("PinNext over a saved finding = %+v, %v", f, err)
	}
}

// TestARestartOnTheReplaysTopicIsNotCalledNotAReplay: a w restart after a replay reads
// the replay's topic (ReadsRecording), so its pin choice says it is a restart on that
// topic and which key replays with its strategy, rather than "not a replay".
func TestARestartOnTheReplaysTopicIsNotCalledNotAReplay(t *testing.T) {
	l := newLabWith(Config{Reenact: hourReference})
	twoLiveRunsAndAReplay(l)
	l.apply(backend.Update{Run: 4, Restarted: &backend.Restart{Run: 4, Cause: backend.CauseStrategy, Reason: "strategy",
		Timestamp: jobspec.CompletedTS, Recording: "hour.jsonl.gz", Watermarks: watermark.Strategy{At: watermark.Source}}})
	run := l.h.Current()
	if run.Replay || !run.ReadsRecording() {
		t.Fatalf("run %d: Replay %v, ReadsRecording %v", run.ID, run.Replay, run.ReadsRecording())
	}
	want := map[string]string{
		"4.1": "a restart on the replay's topic: 4.1 needs the live generator",
		"4.2": "a restart on the replay's topic: 4.2 needs a hiccup of the live run",
		"4.3": "a restart on the replay's topic, not a replay: r replays with this strategy",
		"4.4": "a restart on the replay's topic, not a replay: t replays with this strategy",
	}
	for ex, why := range want {
		for _, c := range l.h.PinChoices(ex) {
			if c.Run.ID == run.ID && c.Why != why {
				t.Errorf("%s: run %d's reason %q, want %q", ex, run.ID, c.Why, why)
			}
		}
	}
	// The status line says what the run is when it begins: it reads the hour again but
	// shows no replay progress, and no exercise counts it.
	note := fmt.Sprintf("run %d is not a replay (r replays with this strategy, t with the other field): the job restarted on the "+
		"replay's topic and reads the recorded hour again from the earliest offset, with no progress bar and no diff, and no "+
		"exercise counts it", run.ID)
	if got := RestartNote(run); got != note {
		t.Errorf("RestartNote = %q\nwant         %q", got, note)
	}
	for _, r := range l.h.Runs()[:len(l.h.Runs())-1] {
		if got := RestartNote(r); got != "" {
			t.Errorf("run %d (%s): RestartNote = %q, want none", r.ID, r.kind(), got)
		}
	}
}
