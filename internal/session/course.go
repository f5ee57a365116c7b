package session

import (
	"fmt"
	"math"
	"sort"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// Tables works out the course's tables in the learner's numbers from st's evidence, for
// the lab panel and the sheet alike: today 4.2's (state.Evidence.HiccupTable).
func Tables(st *state.State) {
	st.Evidence.HiccupTable = nil
	if t, ok := hiccupTableOf(st.Evidence.Hiccup); ok {
		st.Evidence.HiccupTable = &t
	}
}

// hiccupTableOf is 4.2's table from a hiccup's evidence: the two minutes of the hold for
// the tenant it moved most (the largest gap between the columns, the first by name on a
// tie), and the tenant's late records, which its event-time column lacks. It is false
// when there is no hiccup or no row of its minutes.
func hiccupTableOf(h *state.Hiccup) (state.HiccupTable, bool) {
	if h == nil {
		return state.HiccupTable{}, false
	}
	first := h.At - h.At%jobspec.Minute
	byTenant := map[string][2]*minutes.Row{}
	for i := range h.Table.Rows {
		r := &h.Table.Rows[i]
		if r.IsMark() || (r.WindowStart != first && r.WindowStart != first+jobspec.Minute) {
			continue
		}
		pair := byTenant[r.Tenant]
		pair[(r.WindowStart-first)/jobspec.Minute] = r
		byTenant[r.Tenant] = pair
	}
	names := make([]string, 0, len(byTenant))
	for name := range byTenant {
		names = append(names, name)
	}
	sort.Strings(names)
	tenant, most := "", -1.0
	for _, name := range names {
		moved := 0.0
		for _, r := range byTenant[name] {
			if r != nil {
				moved += math.Abs(r.Cells[minutes.Processing].USD - r.Cells[minutes.Event].USD)
			}
		}
		if moved > most {
			tenant, most = name, moved
		}
	}
	if tenant == "" {
		return state.HiccupTable{}, false
	}
	t := state.HiccupTable{Run: h.Table.Run, Instance: h.Instance, Tenant: tenant, Late: lateOf(h, tenant)}
	pair := byTenant[tenant]
	for i, r := range pair {
		m := state.HiccupMinute{WindowStart: first + int64(i)*jobspec.Minute}
		if r != nil {
			m.Processing, m.Event = r.Cells[minutes.Processing], r.Cells[minutes.Event]
			m.Written = [2]bool{written(m.Processing), written(m.Event)}
		}
		t.Minutes[i] = m
	}
	if pair[1] != nil {
		t.Gap, t.GapKnown = pair[1].Cells[minutes.Processing].USD-pair[1].Cells[minutes.Event].USD, true
	}
	t.Note = hiccupNote(t)
	return t, true
}

// hiccupNote explains the difference between t's columns with its numbers.
func hiccupNote(t state.HiccupTable) string {
	if t.Late.Records == 0 {
		return "No record of " + t.Tenant + " was late: the event-time column bills every held record to the minute it completed in, as the course's does."
	}
	note := fmt.Sprintf("Over the two minutes your event-time column lacks %s ($%.4f): the watermark had passed their "+
		"minute when they arrived, so for_monotonous_timestamps() dropped them as late, where the course's column bills "+
		"them to the first minute. w with a bound above the hold, then another hiccup, gives the course's column.",
		plural(t.Late.Records, "held record"), t.Late.USD)
	if t.GapKnown && math.Abs(t.Gap-t.Late.USD) >= 0.00005 {
		note += fmt.Sprintf(" The columns differ by $%.4f in the second minute, not $%.4f: the rest is requests that "+
			"completed in a minute's last moments and reached the job in the next, as in a quiet minute's ≠ row.", t.Gap, t.Late.USD)
	}
	return note
}

// written reports whether a window wrote the cell: it fired, is open, or (saved, where
// Fired is not kept) holds something.
func written(c minutes.Cell) bool { return c.Present() || c.USD != 0 || c.Requests != 0 }

// lateOf is how many of the hiccup's late records are tenant's, and their dollars: from
// the tally of all of them, or from the kept list in state saved before the tally (exact
// there only when the list holds every late record, as it then did up to MaxLate).
func lateOf(h *state.Hiccup, tenant string) state.Tally {
	if h.LateByTenant != nil {
		return h.LateByTenant[tenant]
	}
	var t state.Tally
	for _, l := range h.Late {
		if l.Tenant == tenant {
			t.Records++
			t.USD += l.USD
		}
	}
	return t
}
