package tui

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
)

// TestTheHiccupTableCountsEveryLateRecordOfItsTenant: the walk's hold made 127 records
// late, of which the evidence keeps 50; acme's column lacked 26 of them ($1.05), and the
// note said 9 ($0.41), the acme records among the 50 kept. The note counts them all.
func TestTheHiccupTableCountsEveryLateRecordOfItsTenant(t *testing.T) {
	first := at("00:00")
	row := func(m int64, pUSD, eUSD float64, pN, eN int64) minutes.Row {
		return minutes.Row{WindowStart: first + m*meter.Minute, WindowEnd: first + (m+1)*meter.Minute, Tenant: "acme",
			Cells: [2]minutes.Cell{minutes.Processing: {USD: pUSD, Requests: pN, Fired: 1}, minutes.Event: {USD: eUSD, Requests: eN, Fired: 1}}}
	}
	h := &state.Hiccup{Instance: "gw-1", DurationMS: 35000, At: first + 40000,
		Table:        state.Table{Run: 1, Rows: []minutes.Row{row(0, 6.0, 6.0, 200, 200), row(1, 7.5, 6.45, 269, 243)}},
		LateCount:    127,
		LateByTenant: map[string]state.Tally{"acme": {Records: 26, USD: 1.05}, "globex": {Records: 101, USD: 2.5}},
	}
	for i := range state.MaxLate {
		tenant := "globex"
		if i < 9 {
			tenant = "acme"
		}
		h.Late = append(h.Late, state.Late{RequestID: "r", Tenant: tenant, USD: 0.01})
	}
	tb, ok := hiccupTable(h)
	if !ok {
		t.Fatal("no table")
	}
	if !strings.Contains(tb.Note, "lacks 26 held records ($1.0500)") {
		t.Errorf("note = %q, want acme's 26 late records ($1.0500)", tb.Note)
	}
	// State saved before the tally still counts from the kept list.
	h.LateByTenant = nil
	if tb, _ := hiccupTable(h); !strings.Contains(tb.Note, "lacks 9 held records ($0.0900)") {
		t.Errorf("note without a tally = %q", tb.Note)
	}
}
