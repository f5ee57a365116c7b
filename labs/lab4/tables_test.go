package lab4

import (
	"reflect"
	"strings"
	"testing"

	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// at is 10:00:00 UTC of the test's day, plus s seconds, in ms.
func at(s int64) int64 { return 1795946400000 + s*1000 }

// only is the one table TablesOf builds for exercise id, failing the test when it builds
// none or more.
func only(t *testing.T, id string, f *state.Finding, ev state.Evidence) Table {
	t.Helper()
	ts := TablesOf(id, f, ev)
	if len(ts) != 1 {
		t.Fatalf("%s: %d tables, want 1: %+v", id, len(ts), ts)
	}
	return ts[0]
}

// TestTheHiccupTableIsTheCoursesBesideTheSessionsTwoMinutes: given the session's table
// of a hiccup (tenant acme, held on gw-1, its event-time window silent in the second
// minute), 4.2's table has the course's two minutes beside the learner's, — where a
// window wrote nothing, and the table's note; no table without a hiccup's.
func TestTheHiccupTableIsTheCoursesBesideTheSessionsTwoMinutes(t *testing.T) {
	h := &state.HiccupTable{Run: 2, Instance: "gw-1", Tenant: "acme", Note: "the note",
		Minutes: [2]state.HiccupMinute{
			{WindowStart: at(0), Processing: minutes.Cell{USD: 0.2}, Event: minutes.Cell{USD: 0.45}, Written: [2]bool{true, true}},
			{WindowStart: at(60), Processing: minutes.Cell{USD: 0.65}, Written: [2]bool{true, false}},
		}}
	got := only(t, Hiccup, nil, state.Evidence{HiccupTable: h})
	want := Table{
		Title:  "the course: acme, $0.10 a request · yours: run 2, acme, the hold on gw-1",
		Header: []string{"minute", "processing", "event", "your minute", "processing", "event"},
		Rows: [][]string{
			{"10:00", "$0.20", "$0.40", "10:00", "$0.2000", "$0.4500"},
			{"10:01", "$0.40", "$0.20", "10:01", "$0.6500", "—"},
		},
		Note: "the note",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("4.2's table =\n%+v\nwant\n%+v", got, want)
	}
	if ts := TablesOf(Hiccup, &state.Finding{Met: true}, state.Evidence{}); ts != nil {
		t.Errorf("a table without the hiccup's: %+v", ts)
	}
}

// replayOf is a completed_ts replay of run, compared with the re-enactment, whose
// processing-time windows billed usd per wall-clock minute (11:00, 11:01, …).
func replayOf(run int, usd ...float64) state.Replay {
	c := &state.Comparison{Reference: "the recorded hour re-enacted",
		EventTime: state.DiffReport{Summary: "event-time: 300 rows", Rows: 300, Identical: 295, Differ: 5}}
	for i, u := range usd {
		c.ProcessingMinutes = append(c.ProcessingMinutes, minutes.Row{WindowStart: at(3600 + 60*int64(i)), Tenant: "acme",
			Cells: [2]minutes.Cell{{USD: u}}})
	}
	return state.Replay{Timestamp: "completed_ts", Table: state.Table{Run: run}, Compare: c}
}

// TestTheReplayTableIsTheReplayBacking43ComparedWithItsReference: given two compared
// completed_ts replays and a started_ts one, 4.3's table is of the replay whose run backs
// 4.3, or, with no finding, of the latest completed_ts one: its rows identical, and the
// minutes its processing-time windows filled with the biggest; none without a compared
// completed_ts replay.
func TestTheReplayTableIsTheReplayBacking43ComparedWithItsReference(t *testing.T) {
	started := replayOf(4, 9)
	started.Timestamp = "started_ts"
	ev := state.Evidence{Replays: []state.Replay{replayOf(2, 1.5, 40.25, 0.5), replayOf(3, 7), started}}
	got := only(t, Replay, &state.Finding{Run: state.RunRef{ID: 2}}, ev)
	want := Table{
		Title:  "the course against yours: run 2, the replay with completed_ts, against the recorded hour re-enacted",
		Header: []string{"window", "the course", "yours"},
		Rows: [][]string{
			{"event time", "identical", "295 of 300 rows identical, 5 differ"},
			{"processing time", "1 or 2 enormous minutes", "3 minutes, $42.25 in all, $40.25 in 11:01"},
		},
		Note: "event-time: 300 rows",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("4.3's table =\n%+v\nwant\n%+v", got, want)
	}
	if got := only(t, Replay, nil, ev); got.Title != strings.Replace(want.Title, "run 2", "run 3", 1) ||
		got.Rows[1][2] != "1 minute, $7.00 in all, $7.00 in 11:00" {
		t.Errorf("with no finding, the latest completed_ts replay's table: %+v", got)
	}
	ev.Replays[0].Compare, ev.Replays[1].Compare = nil, nil
	if ts := TablesOf(Replay, nil, ev); ts != nil {
		t.Errorf("a table without a compared completed_ts replay: %+v", ts)
	}
}

// TestTheMovedTableListsTheFirstMovedRequestsAndCountsTheRest: given 7 moved requests
// of the 9 the summary counts, 4.4's table lists the first MovedListed with both
// minutes, names the summary in its title and counts the 4 not listed; a summary alone
// is a table without rows; neither is no table.
func TestTheMovedTableListsTheFirstMovedRequestsAndCountsTheRest(t *testing.T) {
	var moved []state.Moved
	for i := range 7 {
		moved = append(moved, state.Moved{RequestID: "r-10" + string(rune('0'+i)), Tenant: "acme", USD: 0.1, StartedTS: at(58),
			StartedMinute: at(0), CompletedMinute: at(60)})
	}
	moved[0].CompletedTS, moved[1].LateStarted = at(69), true
	sum := &state.MovedSummary{Summary: "9 requests changed minute", Compared: "run 2 and run 3", Moved: 9}
	got := only(t, Moved, nil, state.Evidence{Moved: moved, MovedSummary: sum})
	if want := "yours: requests whose cost moved minutes with started_ts: 9 requests changed minute (compared: run 2 and run 3)."; got.Title != want {
		t.Errorf("title %q, want %q", got.Title, want)
	}
	if len(got.Rows) != MovedListed || len(got.Header) != 8 {
		t.Fatalf("%d rows of %d columns, want %d of 8: %+v", len(got.Rows), len(got.Header), MovedListed, got)
	}
	for i, want := range [][]string{
		{"r-100", "acme", "0.1000", "10:00:58.000", "10:01:09.000", "10:01", "10:00", "no"},
		{"r-101", "acme", "0.1000", "10:00:58.000", "", "10:01", "10:00", "yes"},
	} {
		if !reflect.DeepEqual(got.Rows[i], want) {
			t.Errorf("row %d = %q, want %q", i, got.Rows[i], want)
		}
	}
	if got.Note != "(4 more moved requests in the JSON.)" {
		t.Errorf("note %q", got.Note)
	}
	// Noted record by record, with no summary: the list is all there is.
	if got := only(t, Moved, nil, state.Evidence{Moved: moved}); got.Note != "(2 more moved requests in the JSON.)" ||
		got.Title != "yours: requests whose cost moved minutes with started_ts" {
		t.Errorf("without a summary: %q, %q", got.Title, got.Note)
	}
	if got := only(t, Moved, nil, state.Evidence{MovedSummary: sum}); len(got.Rows) != 0 || len(got.Header) != 0 || !strings.Contains(got.Title, sum.Summary) {
		t.Errorf("a summary alone: %+v", got)
	}
	if ts := TablesOf(Moved, nil, state.Evidence{}); ts != nil {
		t.Errorf("a table without moved requests: %+v", ts)
	}
}

// TestAnExerciseWithoutTablesOfItsOwnHasNone: 4.1 has no table, and the failure section
// none without its finding, whatever the evidence holds.
func TestAnExerciseWithoutTablesOfItsOwnHasNone(t *testing.T) {
	ev := state.Evidence{HiccupTable: &state.HiccupTable{}, Moved: []state.Moved{{RequestID: "r-1"}}, Replays: []state.Replay{replayOf(1, 1)}}
	for _, id := range []string{Agreement, exFailure.ID, "9.9"} {
		if ts := TablesOf(id, nil, ev); ts != nil {
			t.Errorf("%s: %+v", id, ts)
		}
	}
}
