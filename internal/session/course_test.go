package session

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// hiccupOf is a hold on gw-1 at 00:00:40 whose run 1 table has acme's and globex's two
// minutes, and 127 late records, 26 of them acme's.
func hiccupOf() *state.Hiccup {
	first := int64(0)
	row := func(tenant string, m int64, pUSD, eUSD float64, pN, eN int64) minutes.Row {
		return minutes.Row{WindowStart: first + m*jobspec.Minute, WindowEnd: first + (m+1)*jobspec.Minute, Tenant: tenant,
			Cells: [2]minutes.Cell{minutes.Processing: {USD: pUSD, Requests: pN, Fired: 1}, minutes.Event: {USD: eUSD, Requests: eN, Fired: 1}}}
	}
	h := &state.Hiccup{Instance: "gw-1", DurationMS: 35000, At: first + 40000,
		Table: state.Table{Run: 1, Rows: []minutes.Row{
			row("acme", 0, 6.0, 6.0, 200, 200), row("acme", 1, 7.5, 6.45, 269, 243),
			row("globex", 0, 3.0, 3.0, 100, 100), row("globex", 1, 3.2, 3.0, 110, 100),
			row("acme", 2, 9.0, 1.0, 300, 30)}}, // a minute after the two: not the hold's
		LateCount:    127,
		LateByTenant: map[string]state.Tally{"acme": {Records: 26, USD: 1.05}, "globex": {Records: 101, USD: 0.2}},
	}
	for i := range state.MaxLate {
		tenant := "globex"
		if i < 9 {
			tenant = "acme"
		}
		h.Late = append(h.Late, state.Late{RequestID: "r", Tenant: tenant, USD: 0.01})
	}
	return h
}

// TestTheHiccupTableIsTheTenantTheHoldMovedMostWithItsSumsAndEveryLateRecord: the walk's
// hold made 127 records late, of which the evidence keeps 50; acme's column lacked 26 of
// them ($1.05), and the note once said 9 ($0.41), the acme records among the 50 kept.
func TestTheHiccupTableIsTheTenantTheHoldMovedMostWithItsSumsAndEveryLateRecord(t *testing.T) {
	h := hiccupOf()
	tb, ok := hiccupTableOf(h)
	if !ok {
		t.Fatal("no table")
	}
	if tb.Run != 1 || tb.Instance != "gw-1" || tb.Tenant != "acme" {
		t.Errorf("table of run %d, %s, %s; want run 1, gw-1, acme (moved $1.05 against globex's $0.20)", tb.Run, tb.Instance, tb.Tenant)
	}
	want := [2][2]float64{{6.0, 6.0}, {7.5, 6.45}}
	for i, m := range tb.Minutes {
		if m.WindowStart != int64(i)*jobspec.Minute || m.Processing.USD != want[i][0] || m.Event.USD != want[i][1] || m.Written != [2]bool{true, true} {
			t.Errorf("minute %d = %+v, want %v at %d", i, m, want[i], int64(i)*jobspec.Minute)
		}
	}
	if tb.Late != (state.Tally{Records: 26, USD: 1.05}) {
		t.Errorf("late = %+v, want acme's 26 ($1.05)", tb.Late)
	}
	if !tb.GapKnown || math.Abs(tb.Gap-1.05) > 1e-9 {
		t.Errorf("gap = %v (%v), want 1.05", tb.Gap, tb.GapKnown)
	}
	if !strings.HasPrefix(tb.Note, "Over the two minutes your event-time column lacks 26 held records ($1.0500): ") ||
		strings.Contains(tb.Note, "The columns differ") {
		t.Errorf("note = %q", tb.Note)
	}
	// State saved before the tally still counts from the kept list, and the columns'
	// gap ($1.05) is then more than those 9 records: the note says by how much.
	h.LateByTenant = nil
	tb, _ = hiccupTableOf(h)
	if tb.Late.Records != 9 || !strings.Contains(tb.Note, "lacks 9 held records ($0.0900)") ||
		!strings.Contains(tb.Note, "The columns differ by $1.0500 in the second minute, not $0.0900") {
		t.Errorf("without a tally: late %+v, note %q", tb.Late, tb.Note)
	}
}

// TestTheSheetShowsTheHiccupTableTheLabPanelShows: the session's snapshot carries the
// table, and the export writes the same numbers and note.
func TestTheSheetShowsTheHiccupTableTheLabPanelShows(t *testing.T) {
	st := state.New()
	st.Evidence.Hiccup = hiccupOf()
	Tables(&st)
	if st.Evidence.HiccupTable == nil || st.Evidence.HiccupTable.Tenant != "acme" {
		t.Fatalf("Tables = %+v", st.Evidence.HiccupTable)
	}
	st.Evidence.Findings = map[string]*state.Finding{"4.2": {Met: true, Run: state.RunRef{ID: 1}, Saved: "the hold"}}
	md := export.Markdown(export.Build(st, time.Unix(0, 0)))
	for _, want := range []string{
		"the course: acme, $0.10 a request · yours: run 1, acme, the hold on gw-1",
		"| 10:00 | $0.20 | $0.40 | 00:00 | $6.0000 | $6.0000 |",
		"| 10:01 | $0.40 | $0.20 | 00:01 | $7.5000 | $6.4500 |",
		st.Evidence.HiccupTable.Note,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the sheet lacks %q:\n%s", want, md)
		}
	}
	if _, ok := hiccupTableOf(nil); ok {
		t.Error("a table without a hiccup")
	}
}
