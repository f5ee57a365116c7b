package export

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// bigSession is a long session's evidence: findings for the four exercises, a hiccup
// table of 400 rows with 50 late records, four replays with 60-line diffs each, read
// from a recording in the learner's cache folder.
func bigSession() state.State {
	const rec = "/home/learner/.cache/labtui/recorded-hour.jsonl.gz"
	st := sample()
	var rows []minutes.Row
	for m := range int64(80) {
		for _, tn := range []string{"acme", "globex", "hooli", "initech", "umbrella"} {
			rows = append(rows, minutes.Row{WindowStart: ms(m * 60), WindowEnd: ms(m*60 + 60), Tenant: tn,
				Cells: [2]minutes.Cell{{USD: 1, Requests: 10, Fired: 1}, {USD: 1, Requests: 10, Fired: 1}}})
		}
	}
	for i := range 50 {
		st.Evidence.Hiccup.Late = append(st.Evidence.Hiccup.Late, state.Late{RequestID: fmt.Sprintf("r-%d", i), Tenant: "acme", Gateway: "gw-1",
			Timestamp: ms(44), Arrival: ms(77), Watermark: ms(69), USD: 0.1})
	}
	st.Evidence.Hiccup.Table.Rows = rows
	var lines []string
	for i := range 60 {
		lines = append(lines, fmt.Sprintf("~ 10:%02d acme  the re-enactment $1 ×1  the replay $2 ×2", i))
	}
	for i := range 4 {
		field := []string{"completed_ts", "started_ts"}[i%2]
		st.Evidence.Replays = append(st.Evidence.Replays, state.Replay{Path: rec, Timestamp: field, Records: 32954, Done: true,
			Table: state.Table{Run: i + 2, Rows: rows},
			Compare: &state.Comparison{Reference: "the recorded hour " + rec + " re-enacted",
				EventTime: state.DiffReport{Summary: "event-time: 300 rows", Lines: lines}, ProcessingTime: state.DiffReport{Summary: "processing-time", Lines: lines}}})
	}
	run := func(id int, kind, ts string) state.RunRef {
		r := state.RunRef{ID: id, Kind: kind, Timestamp: ts, Watermarks: "for_monotonous_timestamps()"}
		if kind == "replay" {
			r.Recording = "recorded-hour.jsonl.gz"
		}
		return r
	}
	st.Evidence.Findings = map[string]*state.Finding{
		"4.1": {Run: run(1, "start", "completed_ts"), Met: true, Saved: "In run 1 (start, completed_ts), the 5 minutes agree.", Rows: rows[:25]},
		"4.2": {Run: run(1, "start", "completed_ts"), Met: true, Pinned: true, Saved: "In run 1, gw-1 was held 10:00:40–10:01:15.", Rows: rows[:10]},
		"4.3": {Run: run(2, "replay", "completed_ts"), Met: true, Saved: "In run 2, the event-time output against " + rec + " matches.",
			Rows: rows[:3]},
		"4.4": {Run: run(3, "replay", "started_ts"), Met: true, Saved: "In run 3, 812 requests changed minute."},
	}
	for i := range 30 {
		st.Evidence.Moved = append(st.Evidence.Moved, state.Moved{RequestID: fmt.Sprintf("r-%d", i), Tenant: "acme", USD: 0.1})
	}
	st.Evidence.MovedSummary = &state.MovedSummary{Summary: "812 moved", Compared: "run 2 and run 3 of " + rec, Moved: 812}
	return st
}

func TestTheSheetIsSummaryFirstShortAndHasNoLocalPath(t *testing.T) {
	dir := t.TempDir()
	paths, err := Write(dir, bigSession(), time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(paths[0])
	js, _ := os.ReadFile(paths[1])
	sheet := string(md)
	if n := strings.Count(sheet, "\n"); n > maxLines {
		t.Errorf("the sheet has %d lines, more than %d", n, maxLines)
	}
	for _, text := range []string{sheet, string(js)} {
		if strings.Contains(text, "/home/") || strings.Contains(text, ".cache") {
			t.Errorf("a local path is in the export")
		}
	}
	for _, want := range []string{
		"| 4.1 | yes | run 1: start, completed_ts, for_monotonous_timestamps() |",
		"| 4.2 | yes | run 1: start, completed_ts, for_monotonous_timestamps() (your pick) |",
		"| 4.3 | yes | run 2: replay of recorded-hour.jsonl.gz, completed_ts, for_monotonous_timestamps() |",
		"**Evidence (found, from run 1: start, completed_ts, for_monotonous_timestamps()):** In run 1 (start, completed_ts), the 5 minutes agree.",
		"| … | 13 more rows in the JSON | | | |",
		"| … | 46 more of the 51 in the JSON | | | | | |",
		"In run 2, the event-time output against recorded-hour.jsonl.gz matches.",
		"(807 more moved requests in the JSON.)",
		"## Appendix",
	} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the sheet lacks %q", want)
		}
	}
	if i, j := strings.Index(sheet, "| exercise | evidence | from |"), strings.Index(sheet, "## 4.1"); i < 0 || j < i {
		t.Error("the summary does not come first")
	}
	if t.Failed() {
		t.Logf("sheet:\n%s", sheet)
	}
}

// TestARunWithoutATimestampFieldIsNamedWithoutAnEmptyOne: a file of an old session kept
// no timestamp field for its runs; the sheet named them "run 1: start, , …".
func TestARunWithoutATimestampFieldIsNamedWithoutAnEmptyOne(t *testing.T) {
	st := state.New()
	st.Evidence.Findings = map[string]*state.Finding{"4.1": {Met: true, Run: state.RunRef{ID: 1, Kind: "start", Watermarks: "for_monotonous_timestamps()"},
		Saved: "In run 1, the 5 minutes agree."}}
	st.Evidence.Replayed = []state.ReplayRun{{Run: state.RunRef{ID: 2, Kind: "replay"}, Records: 10}}
	md := Markdown(Build(st, time.Unix(0, 0)))
	if strings.Contains(md, ", ,") || strings.Contains(md, "replay,  |") || !strings.Contains(md, "run 1: start, for_monotonous_timestamps()") {
		t.Errorf("sheet:\n%s", md)
	}
}
