package export

import (
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// TestTextFromARecordingInAnExercisesTableIsEscapedOnTheSheet: a tenant or request id
// of a recording that holds markup or a terminal escape is shown escaped in every
// exercise's table (4.2's, 4.4's, the failure section's), so it can neither end a cell
// nor reach a terminal that shows the sheet.
func TestTextFromARecordingInAnExercisesTableIsEscapedOnTheSheet(t *testing.T) {
	const hostile = "a|b\x1b[2J<i>"
	const shown = `a\|b\\x1b\[2J\<i\>`
	st := state.New()
	st.Evidence.Hiccup = &state.Hiccup{Instance: hostile}
	st.Evidence.HiccupTable = &state.HiccupTable{Run: 1, Instance: hostile, Tenant: hostile, Note: "note " + hostile}
	st.Evidence.Moved = []state.Moved{{RequestID: hostile, Tenant: hostile, USD: 0.1}}
	st.Evidence.Findings = map[string]*state.Finding{
		"4.2": {Met: true, Run: state.RunRef{ID: 1}, Saved: "held"},
		"4.4": {Met: true, Run: state.RunRef{ID: 3}, Saved: "moved"},
		"TM": {Met: true, Run: state.RunRef{ID: 5}, Failure: &state.FailureFacts{Killed: state.RunRef{ID: 4}, Twice: state.Windows{Windows: 1},
			Examples: []state.TwiceRow{{Tenant: hostile, First: minutes.Cell{USD: 0.1, Requests: 1}, Second: minutes.Cell{USD: 0.1, Requests: 1}}}}},
	}
	md := Markdown(Build(st, time.Unix(0, 0)))
	if strings.Contains(md, "\x1b") || strings.Contains(md, "<i>") {
		t.Errorf("the sheet holds the recording's text raw:\n%s", md)
	}
	for _, want := range []string{
		"the course: acme, $0.10 a request · yours: run 1, " + shown + ", the hold on " + shown,
		"note " + shown,
		"| " + shown + " | " + shown + " | 0.1000 |",
		"| 00:00 | " + shown + " | $0.1000 (1) | $0.1000 (1) | identical |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the sheet lacks %q:\n%s", want, md)
		}
	}
}

// TestASavedTableWithoutRowsKeepsItsHeader: given 4.1's table saved before findings
// existed with no minute in it, the sheet says so and writes its header, the unnamed
// flag column "| |", and no row.
func TestASavedTableWithoutRowsKeepsItsHeader(t *testing.T) {
	st := state.New()
	st.Evidence.Agreement = &state.Table{Run: 2, Reason: "start", Timestamp: "completed_ts"}
	md := Markdown(Build(st, time.Unix(0, 0)))
	want := "Saved before this version of labtui: both windows of run 2 (start, completed_ts) at 00:00:00.000.\n\n" +
		"| minute | tenant | processing time | event time | |\n|---|---|---|---|---|\n\n## 4.2"
	if !strings.Contains(md, want) {
		t.Errorf("the sheet lacks\n%s\nin\n%s", want, md)
	}
}
