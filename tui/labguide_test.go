package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
	"github.com/labtui/labtui/tui/components/labpanel"
)

// tabledSession is evidence for every exercise's table: 4.2's hiccup, a compared
// completed_ts replay (4.3), 7 moved requests (4.4) and a kill (the failure section).
func tabledSession() state.State {
	st := state.New()
	ev := &st.Evidence
	ev.Hiccup = &state.Hiccup{Instance: "gw-1", At: at("00:40")}
	ev.HiccupTable = &state.HiccupTable{Run: 1, Instance: "gw-1", Tenant: "acme", Note: "Over the two minutes your event-time column lacks 1 held record.",
		Minutes: [2]state.HiccupMinute{
			{WindowStart: at("00:00"), Processing: minutes.Cell{USD: 0.2, Requests: 2}, Event: minutes.Cell{USD: 0.3, Requests: 3}, Written: [2]bool{true, true}},
			{WindowStart: at("01:00"), Processing: minutes.Cell{USD: 0.5, Requests: 5}, Written: [2]bool{true, false}},
		}}
	ev.Replays = []state.Replay{{Path: "seed-burst.jsonl", Timestamp: "completed_ts", Done: true, Table: state.Table{Run: 2},
		Compare: &state.Comparison{Reference: "the recorded hour re-enacted",
			EventTime:         state.DiffReport{Summary: "event-time: 3 rows, 2 identical, 1 differ", Rows: 3, Identical: 2, Differ: 1},
			ProcessingMinutes: []minutes.Row{{WindowStart: at("60:00"), Tenant: "acme", Cells: [2]minutes.Cell{{USD: 1.2, Requests: 12}}}}}}}
	for i := range 7 {
		ev.Moved = append(ev.Moved, state.Moved{RequestID: "r-10" + string(rune('0'+i)), Tenant: "acme", USD: 0.1,
			StartedTS: at("00:58"), CompletedTS: at("01:09"), StartedMinute: at("00:00"), CompletedMinute: at("01:00")})
	}
	ev.MovedSummary = &state.MovedSummary{Summary: "9 requests changed minute", Compared: "run 2 and run 3", Moved: 9}
	ev.Findings = map[string]*state.Finding{
		lab4.Hiccup: {Run: state.RunRef{ID: 1, Kind: "start"}, Met: true, Saved: "the hold"},
		lab4.Replay: {Run: state.RunRef{ID: 2, Kind: "replay"}, Met: true, Saved: "the replay"},
		lab4.Moved:  {Run: state.RunRef{ID: 3, Kind: "replay"}, Met: true, Saved: "the moved"},
		lab4.Failure: {Run: state.RunRef{ID: 5, Kind: "restart"}, Met: true, Failure: &state.FailureFacts{Killed: state.RunRef{ID: 4},
			Survived: state.Windows{Windows: 3, Requests: 30, USD: 3}, Twice: state.Windows{Windows: 1, Requests: 2, USD: 0.2}, Identical: 1,
			Examples: []state.TwiceRow{{WindowStart: at("02:00"), Tenant: "acme", First: minutes.Cell{USD: 0.2, Requests: 2}, Second: minutes.Cell{USD: 0.2, Requests: 2}}}}},
	}
	return st
}

// sheetTable finds t's table on the sheet md by its header, and returns the title
// above it and its rows, as markdown lines.
func sheetTable(md string, t labpanel.Table) (title string, rows []string, ok bool) {
	lines := strings.Split(md, "\n")
	header := "| " + strings.Join(t.Header, " | ") + " |"
	for i, l := range lines {
		if l != header || i < 2 || i+1 >= len(lines) {
			continue
		}
		for _, r := range lines[i+2:] {
			if !strings.HasPrefix(r, "|") {
				break
			}
			rows = append(rows, r)
		}
		return lines[i-2], rows, true
	}
	return "", nil, false
}

// TestThePanelAndTheSheetShowTheSameTables: for the same evidence, each table the lab
// panel shows (4.2's, 4.3's, 4.4's and the failure section's first) is on the sheet
// with the same title, header and rows, cell for cell.
func TestThePanelAndTheSheetShowTheSameTables(t *testing.T) {
	st := tabledSession()
	tables := labTables(func(id string) *state.Finding { return st.Evidence.Findings[id] }, st.Evidence)
	for _, id := range []string{lab4.Hiccup, lab4.Replay, lab4.Moved, lab4.Failure} {
		if _, ok := tables[id]; !ok {
			t.Errorf("the panel shows no table for %s", id)
		}
	}
	md := export.Markdown(export.Build(st, time.Unix(0, 0)))
	for id, pt := range tables {
		title, rows, ok := sheetTable(md, pt)
		if !ok {
			t.Errorf("%s: the sheet has no table headed %q:\n%s", id, pt.Header, md)
			continue
		}
		if title != pt.Title {
			t.Errorf("%s: the sheet's title %q, the panel's %q", id, title, pt.Title)
		}
		var want []string
		for _, r := range pt.Rows {
			want = append(want, "| "+strings.Join(r, " | ")+" |")
		}
		if strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the sheet's rows\n%s\nthe panel's\n%s", id, strings.Join(rows, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestThePanelShowsARecordingsTextInATableEscaped: a request id and tenant of a
// recording holding a terminal escape reach the panel's 4.4 table as text, never as
// the escape itself.
func TestThePanelShowsARecordingsTextInATableEscaped(t *testing.T) {
	ev := state.Evidence{Moved: []state.Moved{{RequestID: "r-1\x1b[2J", Tenant: "acme\n"}}}
	pt, ok := labTables(func(string) *state.Finding { return nil }, ev)[lab4.Moved]
	if !ok || len(pt.Rows) != 1 {
		t.Fatalf("4.4's table = %+v", pt)
	}
	if got := pt.Rows[0][:2]; got[0] != `r-1\x1b[2J` || got[1] != `acme\n` {
		t.Errorf("cells %q", got)
	}
}
