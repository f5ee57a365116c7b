package labpanel

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/labs/lab4"
	"github.com/labtui/labtui/tui/textutil"
	"github.com/labtui/labtui/tui/theme"
)

// TestALongCheckLeavesDoAndLookInTheFullPanel: at 160x48, once 4.3 is met, its check is
// eleven lines and crowded out "do", "look" and the course's text (the walk). The check
// shows its first four lines, cut, and the line under them says o has it whole.
func TestALongCheckLeavesDoAndLookInTheFullPanel(t *testing.T) {
	long := strings.Repeat("the replay's minutes agree with the reference's, and every late record is explained; ", 18)
	table := Table{Title: "the course against yours: run 4", Header: []string{"window", "the course", "yours"}}
	for range 6 {
		table.Rows = append(table.Rows, []string{"10:20", "$1.00", "$1.00"})
	}
	var runs []RunChoice
	for range 8 {
		runs = append(runs, RunChoice{Name: "run 3 strategy", Why: "a restart on the replay's topic, not a replay: r replays with this strategy"})
	}
	// The height of the panel at 160x48 with the replay bar.
	m := New(theme.New(), DefaultKeyMap(), nil).SetSize(160, 25).SetFocused(true).selectExercise("4.3").
		SetChecks(map[string]Check{"4.3": {Done: true, Sentence: long, Run: "run 4 (replay, completed_ts)"}}).
		SetTables(map[string]Table{"4.3": table}).SetRuns(map[string][]RunChoice{"4.3": append(runs, RunChoice{Name: "run 4 replay", Backs: true})})
	view := ansi.Strip(m.View())
	lines := strings.Split(view, "\n")
	var do, look, check, cut, offer bool
	for _, l := range lines {
		do = do || strings.HasPrefix(l, "do    Press r")
		look = look || strings.HasPrefix(l, "look  Event time")
		check = check || strings.HasPrefix(l, "check met: ")
		cut = cut || strings.HasSuffix(strings.TrimRight(l, " "), "…")
		offer = offer || strings.HasPrefix(l, "o shows the whole guide: check (cut)")
	}
	if !do || !look || !check || !cut || !offer {
		t.Errorf("do %v, look %v, check %v, cut %v, o offered %v:\n%s", do, look, check, cut, offer, view)
	}
	whole := ansi.Strip(strings.Join(m.Whole(160), "\n"))
	if !strings.Contains(strings.Join(strings.Fields(whole), " "), strings.TrimSpace(long)) {
		t.Errorf("the whole guide lacks the whole check:\n%s", whole)
	}
}

// TestCurrentFollowsTheFirstUnmetExerciseUntilTheLearnerChooses: the footer and o follow
// Current. Showing an exercise (o opens its guide) is not a choice: once 4.2 is met too,
// Current moves on to 4.3; moving the selection is, and it stays.
func TestCurrentFollowsTheFirstUnmetExerciseUntilTheLearnerChooses(t *testing.T) {
	m := New(theme.New(), DefaultKeyMap(), nil).SetChecks(map[string]Check{"4.1": {Done: true}})
	if got := m.Current(); got != "4.2" {
		t.Fatalf("Current %s, want 4.2", got)
	}
	m = m.ShowExercise("4.2").SetChecks(map[string]Check{"4.1": {Done: true}, "4.2": {Done: true}})
	if got := m.Current(); got != "4.3" {
		t.Errorf("after showing 4.2 and its check met: Current %s, want 4.3", got)
	}
	m = m.selectExercise("4.2")
	if got := m.Current(); got != "4.2" {
		t.Errorf("after choosing 4.2: Current %s, want 4.2", got)
	}
}

// TestTheCompactPanelSaysWhatToDoForTheExerciseInProgress: at 80x24 the focused panel
// has ten lines. 4.1 in progress shows what to do, whole, in the guide's short form,
// before its check; once met, the check comes first. Each of the four short forms fits
// two lines of an 80-column panel.
func TestTheCompactPanelSaysWhatToDoForTheExerciseInProgress(t *testing.T) {
	check := Check{Sentence: "In run 1 (start, completed_ts), the minute 15:10 agrees tenant by tenant in both windows (5 rows, $32.4761 " +
		"and 1,179 requests in each), with no hiccup, restart or late record in it; 1 of the 5 minutes 4.1 asks for so far."}
	m := New(theme.New(), DefaultKeyMap(), nil).SetSize(80, CompactHeight).SetFocused(true).selectExercise("4.1").
		SetChecks(map[string]Check{"4.1": check}).
		SetRuns(map[string][]RunChoice{"4.1": {{Name: "run 1 start", Backs: true}}})
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	if !strings.HasPrefix(lines[2], "do    Nothing to press: leave the generator on five whole minutes") ||
		!strings.HasPrefix(lines[4], "check not yet: In run 1") {
		t.Errorf("4.1 in progress at 80x24:\n%s", strings.Join(lines, "\n"))
	}
	// Once met: a line each for what to do, the check (met, by which run) and the runs
	// p can pin it to.
	check.Done = true
	lines = strings.Split(ansi.Strip(m.SetChecks(map[string]Check{"4.1": check}).View()), "\n")
	if !strings.HasPrefix(lines[2], "do    Nothing to press") || !strings.HasPrefix(lines[3], "check met: In run 1") ||
		!strings.HasPrefix(lines[4], "runs  ▸run 1 start, the rule's pick") {
		t.Errorf("4.1 met at 80x24:\n%s", strings.Join(lines, "\n"))
	}
	for _, id := range []string{"4.1", "4.2", "4.3", "4.4"} {
		g := lab4.GuideOf(id)
		if n := len(strings.Split(textutil.Wrap("do    "+g.Short, 80), "\n")); g.Short == "" || n > 2 {
			t.Errorf("%s's short form is %d lines at 80 columns: %q", id, n, g.Short)
		}
	}
}

// TestTheCompactPanelShowsTheRunsAMetExerciseCanBePinnedTo: at 80x24, once 4.3 is met,
// what to do is a line, the check's first line names the run behind it, and the runs
// line under it names the others p can pin (the walk pins the replay with watermarks per
// partition there).
func TestTheCompactPanelShowsTheRunsAMetExerciseCanBePinnedTo(t *testing.T) {
	check := Check{Done: true, Sentence: "In run 2 (replay of recorded-hour.jsonl.gz, completed_ts), " +
		strings.Repeat("the replay's minutes agree with the reference's, and every late record is explained; ", 6)}
	runs := []RunChoice{{Name: "run 2 replay", Backs: true, Pinned: true}, {Name: "run 3 replay", Why: "it read started_ts"},
		{Name: "run 4 strategy", Why: "a restart on the replay's topic, not a replay"}, {Name: "run 5 replay"}}
	m := New(theme.New(), DefaultKeyMap(), nil).SetSize(80, CompactHeight).SetFocused(true).selectExercise("4.3").
		SetChecks(map[string]Check{"4.3": check}).SetRuns(map[string][]RunChoice{"4.3": runs})
	view := ansi.Strip(m.View())
	lines := strings.Split(view, "\n")
	if len(lines) != CompactHeight || !strings.HasPrefix(lines[2], "do    Press r") || !strings.HasPrefix(lines[3], "check met: In run 2 (replay") ||
		!strings.HasPrefix(lines[4], "runs  ▸run 2 replay, your pick · run 5 replay · ") {
		t.Errorf("4.3 met at 80x24, runs to pin:\n%s", view)
	}
	// With no runs to show, what to do and the check keep their two lines each.
	lines = strings.Split(ansi.Strip(m.SetRuns(nil).View()), "\n")
	if !strings.HasPrefix(lines[2], "do    Press r") || !strings.HasPrefix(lines[4], "check met: In run 2") || !strings.HasPrefix(lines[6], "o shows") {
		t.Errorf("4.3 met at 80x24, no runs:\n%s", strings.Join(lines, "\n"))
	}
}

// TestAPinnedCheckThatTheRunsWouldChangeSaysSoFirst: the answer pinned 4.1 to run 1's
// minutes; run 2 would back it now. The check's first line says the evidence changed and
// that u pins run 2, at 80x24 as at 160x48, and the check goes on with the pinned
// evidence, then what the runs show now.
func TestAPinnedCheckThatTheRunsWouldChangeSaysSoFirst(t *testing.T) {
	check := Check{Done: true, Sentence: "In run 1 (start, completed_ts), the 5 minutes 10:00, 10:01, 10:02, 10:03 and 10:04 agree.",
		Newer: "In run 2 (kill, completed_ts), the 5 minutes 10:07, 10:08, 10:09, 10:10 and 10:11 agree.", NewerRun: "run 2"}
	for _, size := range [][2]int{{80, CompactHeight}, {160, 20}} {
		m := New(theme.New(), DefaultKeyMap(), nil).SetSize(size[0], size[1]).SetFocused(true).selectExercise("4.1").
			SetChecks(map[string]Check{"4.1": check}).SetRuns(map[string][]RunChoice{"4.1": {{Name: "run 1 start", Backs: true, Pinned: true}}})
		view := ansi.Strip(m.View())
		if !strings.Contains(view, "check changed since picked, u takes run 2 as it is now · picked, met: In run 1") {
			t.Errorf("%dx%d: the check does not say first that it changed:\n%s", size[0], size[1], view)
		}
		if size[0] == 160 && !strings.Contains(strings.ReplaceAll(view, "\n", " "), "now: In run 2 (kill, completed_ts)") {
			t.Errorf("160 columns: the check does not say what the runs show now:\n%s", view)
		}
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestThePanelShowsTheExerciseItsCheckAndItsTable: 4.2 met, with its run and its table,
// focused at 100x20.
func TestThePanelShowsTheExerciseItsCheckAndItsTable(t *testing.T) {
	table := Table{Title: "the hold's two minutes: acme", Header: []string{"minute", "processing time", "event time"},
		Rows: [][]string{{"10:00", "$1.20", "$1.40"}, {"10:01", "$1.60", "$1.40"}}}
	m := New(theme.New(), DefaultKeyMap(), nil).selectExercise("4.2").
		SetChecks(map[string]Check{"4.1": {Done: true, Sentence: "five minutes agreed", Run: "run 1, live"},
			"4.2": {Done: true, Sentence: "gw-1 held 10:00:40-10:01:15 moved $0.20 into 10:01", Run: "run 1, live"}}).
		SetTables(map[string]Table{"4.2": table})
	golden.RequireEqual(t, []byte(m.SetSize(100, 20).SetFocused(true).View()))
}
