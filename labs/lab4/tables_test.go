package lab4

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
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

// panel is the table the lab panel shows of exercise id, its first that is not the
// sheet's alone, failing the test when there is none.
func panel(t *testing.T, id string, f *state.Finding, ev state.Evidence) Table {
	t.Helper()
	for _, x := range TablesOf(id, f, ev) {
		if !x.SheetOnly {
			return x
		}
	}
	t.Fatalf("%s: no table for the panel", id)
	return Table{}
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
// 4.3, or, with no finding, of the latest completed_ts one (the one the panel shows, after
// the replays as saved): its rows identical, and the minutes its processing-time windows
// filled with the biggest; none without a compared completed_ts replay.
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
	if got := panel(t, Replay, nil, ev); got.Title != strings.Replace(want.Title, "run 2", "run 3", 1) ||
		got.Rows[1][2] != "1 minute, $7.00 in all, $7.00 in 11:00" {
		t.Errorf("with no finding, the latest completed_ts replay's table: %+v", got)
	}
	ev.Replays[0].Compare, ev.Replays[1].Compare = nil, nil
	if ts := TablesOf(Replay, &state.Finding{}, ev); ts != nil {
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
	if len(got.Rows) != movedListed || len(got.Header) != 8 {
		t.Fatalf("%d rows of %d columns, want %d of 8: %+v", len(got.Rows), len(got.Header), movedListed, got)
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

// minuteRows are n minutes of acme from 10:00, both windows fired, with a mark line after
// the second.
func minuteRows(n int) []minutes.Row {
	var rows []minutes.Row
	for i := range n {
		rows = append(rows, minutes.Row{WindowStart: at(60 * int64(i)), Tenant: "acme",
			Cells: [2]minutes.Cell{{USD: 0.1, Requests: 1, Fired: 1}, {USD: 0.1, Requests: 1, Fired: 1}}})
		if i == 1 {
			rows = append(rows, minutes.Row{WindowStart: at(100), Mark: "hiccup gw-1 10:01:40"})
		}
	}
	return rows
}

// TestAFindingsMinutesAreItsFirstTableOnTheSheetOnly: given 4.1's finding with a minute
// whose windows differ, one still open, one whose event-time window wrote nothing and a
// mark line, its table lists them both windows side by side, the mark as a row of one
// cell, for the sheet alone; 14 rows list ListedRows and say how many more; no finding
// or no rows, no table.
func TestAFindingsMinutesAreItsFirstTableOnTheSheetOnly(t *testing.T) {
	rows := minuteRows(3)
	rows[0].Differs = true
	rows[0].Cells[minutes.Event] = minutes.Cell{USD: 0.05, Requests: 1, Open: true}
	rows[3].Cells[minutes.Event] = minutes.Cell{}
	got := only(t, Agreement, &state.Finding{Rows: rows}, state.Evidence{})
	want := Table{
		Header:  []string{"minute", "tenant", "processing time", "event time"},
		Unnamed: 1,
		Rows: [][]string{
			{"10:00", "acme", "$0.1000 (1)", "$0.0500 (1) never fired", "differs"},
			{"10:01", "acme", "$0.1000 (1)", "$0.1000 (1)", ""},
			{"hiccup gw-1 10:01:40"},
			{"10:02", "acme", "$0.1000 (1)", "—", ""},
		},
		SheetOnly: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("4.1's table =\n%+v\nwant\n%+v", got, want)
	}
	long := only(t, Agreement, &state.Finding{Rows: minuteRows(13)}, state.Evidence{})
	if len(long.Rows) != listedRows || long.More != "2 more rows in the JSON" {
		t.Errorf("14 rows: %d listed, more %q", len(long.Rows), long.More)
	}
	if ts := TablesOf(Agreement, &state.Finding{Met: true}, state.Evidence{}); ts != nil {
		t.Errorf("a finding without rows: %+v", ts)
	}
}

// TestTheHiccupsMinutesAndLateRecordsAreOnTheSheetAroundTheCourses: given 4.2's finding
// with its minutes, the session's table of the hiccup and 7 of its 9 late records kept,
// 4.2's tables are its minutes, the course's beside the learner's (the one the panel
// shows), then the first ListedLate late records with the watermark each met and when it
// arrived, how many more are kept and how many there were; without the finding, the
// course's is the one the panel shows.
func TestTheHiccupsMinutesAndLateRecordsAreOnTheSheetAroundTheCourses(t *testing.T) {
	h := &state.Hiccup{LateCount: 9, LateUSD: 0.9}
	for i := range 7 {
		h.Late = append(h.Late, state.Late{RequestID: "r-10" + string(rune('3'+i)), Tenant: "acme", Gateway: "gw-1",
			Timestamp: at(44), Watermark: at(69), Arrival: at(75), USD: 0.1})
	}
	h.Late[1].Arrival = 0
	ev := state.Evidence{Hiccup: h, HiccupTable: &state.HiccupTable{Run: 2, Instance: "gw-1", Tenant: "acme"}}
	ts := TablesOf(Hiccup, &state.Finding{Rows: minuteRows(2)}, ev)
	if len(ts) != 3 || !ts[0].SheetOnly || ts[1].SheetOnly || !ts[2].SheetOnly {
		t.Fatalf("%d tables, want the minutes, the course's (shown on the panel) and the late records: %+v", len(ts), ts)
	}
	if len(ts[0].Rows) != 3 || !strings.HasPrefix(ts[1].Title, "the course: ") {
		t.Errorf("the minutes then the course's: %+v, %+v", ts[0], ts[1])
	}
	want := Table{
		Title:  "Late records the event-time window dropped, and the watermark each met:",
		Header: []string{"request", "tenant", "gateway", "timestamp", "arrived", "watermark met", "USD"},
		Rows: [][]string{
			{"r-103", "acme", "gw-1", "10:00:44.000", "10:01:15.000", "10:01:09.000", "0.1000"},
			{"r-104", "acme", "gw-1", "10:00:44.000", "", "10:01:09.000", "0.1000"},
			{"r-105", "acme", "gw-1", "10:00:44.000", "10:01:15.000", "10:01:09.000", "0.1000"},
			{"r-106", "acme", "gw-1", "10:00:44.000", "10:01:15.000", "10:01:09.000", "0.1000"},
			{"r-107", "acme", "gw-1", "10:00:44.000", "10:01:15.000", "10:01:09.000", "0.1000"},
		},
		More:      "2 more of the 7 in the JSON",
		Note:      "The run had 9 late records ($0.9000) in all; the JSON keeps the first 7.",
		SheetOnly: true,
	}
	if !reflect.DeepEqual(ts[2], want) {
		t.Errorf("4.2's late records =\n%+v\nwant\n%+v", ts[2], want)
	}
	if got := panel(t, Hiccup, nil, ev); !strings.HasPrefix(got.Title, "the course: ") {
		t.Errorf("without a finding, the course's alone: %+v", got)
	}
}

// TestTheReplaysProcessingMinutesAndEveryReplayAreOnTheSheetAroundTheCourses: given 4.3's
// finding, pinned to run 3, with 13 processing-time minutes, a compared completed_ts
// replay and three replays run (two numbered 3, begun at different times, one stopped),
// 4.3's tables are the replay's processing-time windows (ListedRows and how many more),
// the course's against the learner's (the one the panel shows), and every replay a row,
// named apart by when it began, with the exercises each backs.
func TestTheReplaysProcessingMinutesAndEveryReplayAreOnTheSheetAroundTheCourses(t *testing.T) {
	rows := minuteRows(12)
	rows[0].Cells[minutes.Processing] = minutes.Cell{USD: 1234.5, Requests: 12345, Open: true}
	f := &state.Finding{Run: state.RunRef{ID: 3, StartedAt: at(600)}, Pinned: true, Rows: rows}
	ev := state.Evidence{Replays: []state.Replay{replayOf(3, 1)},
		Findings: map[string]*state.Finding{Replay: f, Moved: {Run: state.RunRef{ID: 3, StartedAt: at(600)}}},
		Replayed: []state.ReplayRun{
			{Run: state.RunRef{ID: 3, Kind: "replay", Recording: "recorded-hour.jsonl.gz", Timestamp: "completed_ts", Watermarks: "w", StartedAt: at(600)},
				Records: 143400, LateCount: 1832, LateUSD: 24.5, Lead: &state.Lead{Ahead: 2, ByMS: 240000}},
			{Run: state.RunRef{ID: 3, Kind: "replay", StartedAt: at(-86400)}, Records: 5120, Error: "the broker closed the connection"},
		}}
	ts := TablesOf(Replay, f, ev)
	if len(ts) != 3 || !ts[0].SheetOnly || ts[1].SheetOnly || !ts[2].SheetOnly {
		t.Fatalf("%d tables, want the processing-time windows, the course's (shown on the panel) and the replays: %+v", len(ts), ts)
	}
	proc := ts[0]
	if proc.Title != "The replay's processing-time windows, the wall-clock minutes the whole recording landed in:" ||
		!reflect.DeepEqual(proc.Header, []string{"minute", "tenant", "USD", "requests"}) || proc.Unnamed != 1 || len(proc.Rows) != listedRows ||
		proc.More != "1 more in the JSON" {
		t.Errorf("the processing-time windows: %+v", proc)
	}
	for i, want := range [][]string{{"10:00", "acme", "$1234.5000", "12,345", "still open"}, {"10:01", "acme", "$0.1000", "1", ""},
		{"10:01", "", "$0.0000", "0", ""}} {
		if !reflect.DeepEqual(proc.Rows[i], want) {
			t.Errorf("processing row %d = %q, want %q", i, proc.Rows[i], want)
		}
	}
	want := Table{
		Title:  fmt.Sprintf("Every replay you ran, oldest first (2; labtui keeps the latest %d), and the exercise each backs:", state.MaxReplayed),
		Header: []string{"run", "watermarks", "records", "late records", "late USD", "largest partition lead", "backs"},
		Rows: [][]string{
			{"run 3 of 29 Nov 10:10: replay of recorded-hour.jsonl.gz, completed_ts", "w", "143,400", "1,832", "$24.5000",
				"partition 2, 240.0 s ahead of partition 0", "4.3 (your pick), 4.4"},
			{"run 3 of 28 Nov 10:00: replay", "", "5,120 (stopped: the broker closed the connection)", "0", "$0.0000", "none reported", "—"},
		},
		SheetOnly: true,
	}
	if !reflect.DeepEqual(ts[2], want) {
		t.Errorf("4.3's replays =\n%+v\nwant\n%+v", ts[2], want)
	}
}

// TestTheMovedFindingsMinutesAreNoTable: 4.4's finding keeps no minutes worth a table (its
// moved requests are its table): given a finding with rows and no moved request, none.
func TestTheMovedFindingsMinutesAreNoTable(t *testing.T) {
	if ts := TablesOf(Moved, &state.Finding{Rows: minuteRows(2)}, state.Evidence{}); ts != nil {
		t.Errorf("4.4's minutes: %+v", ts)
	}
}

// TestARunIsNamedByWhenItBeganOnlyWhereItsNumberNamesTwoRuns: given findings of run 1
// begun at two times and of run 4, run 1 is named with when it began, run 4 by its
// number alone, and so is a run 1 whose start is not known.
func TestARunIsNamedByWhenItBeganOnlyWhereItsNumberNamesTwoRuns(t *testing.T) {
	ev := state.Evidence{Findings: map[string]*state.Finding{
		Agreement: {Run: state.RunRef{ID: 1, StartedAt: at(0)}},
		Hiccup:    {Run: state.RunRef{ID: 1, StartedAt: at(86400)}},
		Replay:    {Run: state.RunRef{ID: 4, StartedAt: at(60)}},
	}}
	n := NamesIn(ev)
	for _, c := range []struct {
		r    state.RunRef
		want string
	}{
		{state.RunRef{ID: 1, StartedAt: at(86400)}, "run 1 of 30 Nov 10:00"},
		{state.RunRef{ID: 4, StartedAt: at(60)}, "run 4"},
		{state.RunRef{ID: 1}, "run 1"},
	} {
		if got := n.Of(c.r); got != c.want {
			t.Errorf("%+v is %q, want %q", c.r, got, c.want)
		}
	}
}

// TestTablesSavedBeforeFindingsExistedAreOnTheSheetWithoutAFinding: given a file saved
// before findings existed (4.1's table, a hiccup with its minutes and a late record, a
// replay with each timestamp field, one of them compared), each exercise without a
// finding has them first, titled as saved, for the sheet alone: 4.1 its minutes, 4.2 its
// hiccup's minutes and late records before the course's, 4.3 and 4.4 the replays of their
// own field. With a finding, none of them.
func TestTablesSavedBeforeFindingsExistedAreOnTheSheetWithoutAFinding(t *testing.T) {
	ev := state.Evidence{
		Agreement: &state.Table{Run: 2, Reason: "start", Timestamp: "completed_ts", TakenAt: at(300), Rows: minuteRows(1)},
		Hiccup: &state.Hiccup{Instance: "gw-1", DurationMS: 35000, At: at(40), Table: state.Table{Rows: minuteRows(2)},
			Late: []state.Late{{RequestID: "r-103", Tenant: "acme", Gateway: "gw-1", Timestamp: at(44), Watermark: at(69), USD: 0.1}}},
		HiccupTable: &state.HiccupTable{Run: 2, Instance: "gw-1", Tenant: "acme"},
		Replays: []state.Replay{{Path: "hour.jsonl.gz", Timestamp: "started_ts", Records: 1200},
			{Path: "hour.jsonl.gz", Timestamp: "completed_ts", Records: 143400, Compare: &state.Comparison{ProcessingMinutes: minuteRows(1)}}},
	}
	titles := func(id string) (out []string) {
		for _, x := range TablesOf(id, nil, ev) {
			if !x.SheetOnly {
				break
			}
			out = append(out, x.Title)
		}
		return out
	}
	for id, want := range map[string][]string{
		Agreement: {"Saved before this version of labtui: both windows of run 2 (start, completed_ts) at 10:05:00.000."},
		Hiccup: {"Saved before this version of labtui: a 35s hiccup on gw-1 at 10:00:40.000.",
			"Late records the event-time window dropped, and the watermark each met:"},
		Replay: {"Saved before this version of labtui: a replay of hour.jsonl.gz with completed_ts, 143,400 records."},
		Moved:  {"Saved before this version of labtui: a replay of hour.jsonl.gz with started_ts, 1,200 records."},
	} {
		if got := titles(id); !reflect.DeepEqual(got, want) {
			t.Errorf("%s's saved tables: %q, want %q", id, got, want)
		}
	}
	ts := TablesOf(Hiccup, nil, ev)
	if len(ts) != 3 || len(ts[0].Rows) != 3 || !strings.HasPrefix(ts[2].Title, "the course: ") {
		t.Errorf("4.2: the saved minutes, its late records, then the course's: %+v", ts)
	}
	if rep := TablesOf(Replay, nil, ev)[0]; !reflect.DeepEqual(rep.Rows, [][]string{{"10:00", "acme", "$0.1000", "1", ""}}) {
		t.Errorf("the compared replay's processing-time windows: %+v", rep)
	}
	if mv := TablesOf(Moved, nil, ev); len(mv) != 1 || mv[0].Header != nil {
		t.Errorf("a replay not compared is its title alone: %+v", mv)
	}
	for _, id := range []string{Agreement, Moved} {
		if ts := TablesOf(id, &state.Finding{}, ev); ts != nil {
			t.Errorf("%s with a finding: %+v", id, ts)
		}
	}
}
