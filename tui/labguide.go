package tui

import (
	"fmt"
	"math"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/state"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/labpanel"
)

// labChanged shows the session's steps and evidence in the lab panel.
func (m Model) labChanged() Model {
	ev := m.sess.Snapshot(nil, 0).Evidence
	checks := map[string]labpanel.Check{}
	for _, e := range state.Exercises() {
		if f := m.sess.Finding(e.ID); f != nil {
			checks[e.ID] = labpanel.Check{Done: f.Met, Sentence: f.Sentence, Run: runName(f.Run)}
		}
	}
	backing := 0 // the run backing 4.3: its replay's table is the one shown
	if f := m.sess.Finding("4.3"); f != nil {
		backing = f.Run.ID
	}
	m.lab = m.lab.SetSteps(m.sess.Steps()).SetChecks(checks).SetTables(labTables(ev, backing))
	return m.labRuns()
}

// labRuns shows, while the lab panel has the focus or its whole guide is open, the runs the selected exercise can
// be pinned to (working them out takes a look at every kept run, so only then).
func (m Model) labRuns() Model {
	if m.focus != areaLab && m.screen != screenGuide {
		return m
	}
	ex := m.lab.SelectedExercise()
	var rs []labpanel.RunChoice
	for _, c := range m.sess.PinChoices(ex) {
		rs = append(rs, labpanel.RunChoice{Name: fmt.Sprintf("run %d %s", c.Run.ID, c.Run.Kind), Why: c.Why, Backs: c.Backs, Pinned: c.Pinned})
	}
	m.lab = m.lab.SetRuns(map[string][]labpanel.RunChoice{ex: rs})
	return m
}

// pinNext pins the selected exercise to the next run that can back it, or lets the
// rule pick again after the newest, and says which.
func (m Model) pinNext() (Model, tea.Cmd) {
	ex := m.lab.SelectedExercise()
	f, err := m.sess.PinNext(ex)
	switch {
	case err != nil:
		m = m.say(footer.Warn, "%v", err)
	case f != nil && f.Pinned:
		m = m.say(footer.Info, "%s is pinned to run %d (P lets the rule pick; the sheet names it): %s", ex, f.Run.ID,
			strings.TrimPrefix(runName(f.Run), fmt.Sprintf("run %d, ", f.Run.ID)))
	case f != nil:
		m = m.say(footer.Info, "%s follows the rule again: %s backs it", ex, runName(f.Run))
	}
	m = m.labChanged()
	return m.dirty()
}

// unpin lets the rule pick the selected exercise's run again.
func (m Model) unpin() (Model, tea.Cmd) {
	ex := m.lab.SelectedExercise()
	m.sess.Unpin(ex)
	if f := m.sess.Finding(ex); f != nil {
		m = m.say(footer.Info, "%s follows the rule again: %s backs it", ex, runName(f.Run))
	}
	m = m.labChanged()
	return m.dirty()
}

// runName names the run a finding reads: "run 2, replay, completed_ts".
func runName(r state.RunRef) string {
	if r.ID == 0 {
		return ""
	}
	s := fmt.Sprintf("run %d, %s, %s", r.ID, r.Kind, r.Timestamp)
	if r.Watermarks != "" {
		s += ", " + r.Watermarks
	}
	return s
}

// The course's table for 4.2: acme, every request $0.10, gw-1 held 10:00:40-10:01:15.
var courseHiccupRows = [][2]string{{"$0.20", "$0.40"}, {"$0.40", "$0.20"}}

// labTables fills the course's tables with the learner's numbers from the evidence; the
// 4.3 table is of run replay43's replay when the evidence keeps it (the run backing 4.3).
func labTables(ev state.Evidence, replay43 int) map[string]labpanel.Table {
	out := map[string]labpanel.Table{}
	if t, ok := hiccupTable(ev.Hiccup); ok {
		out["4.2"] = t
	}
	if t, ok := replayTable(ev.Replays, replay43); ok {
		out["4.3"] = t
	}
	if t, ok := movedTable(ev); ok {
		out["4.4"] = t
	}
	return out
}

// hiccupTable is the course's 4.2 table beside the two minutes of the learner's
// hiccup, for the tenant the hold moved most.
func hiccupTable(h *state.Hiccup) (labpanel.Table, bool) {
	if h == nil {
		return labpanel.Table{}, false
	}
	first := h.At - h.At%meter.Minute
	byTenant := map[string][2]*minutes.Row{}
	for i := range h.Table.Rows {
		r := &h.Table.Rows[i]
		if r.IsMark() || (r.WindowStart != first && r.WindowStart != first+meter.Minute) {
			continue
		}
		pair := byTenant[r.Tenant]
		pair[(r.WindowStart-first)/meter.Minute] = r
		byTenant[r.Tenant] = pair
	}
	tenant, most := "", -1.0
	names := make([]string, 0, len(byTenant))
	for name := range byTenant {
		names = append(names, name)
	}
	sort.Strings(names)
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
		return labpanel.Table{}, false
	}
	t := labpanel.Table{
		Title:  fmt.Sprintf("the course: acme, $0.10 a request · yours: run %d, %s, the hold on %s", h.Table.Run, tenant, h.Instance),
		Header: []string{"minute", "processing", "event", "your minute", "processing", "event"},
	}
	for i, r := range byTenant[tenant] {
		row := []string{fmt.Sprintf("10:0%d", i), courseHiccupRows[i][0], courseHiccupRows[i][1],
			meter.Clock(first + int64(i)*meter.Minute)[:5], "—", "—"}
		if r != nil {
			row[4], row[5] = usdCell(r.Cells[minutes.Processing]), usdCell(r.Cells[minutes.Event])
		}
		t.Rows = append(t.Rows, row)
	}
	n, usd := lateOf(h, tenant)
	if n > 0 {
		t.Note = fmt.Sprintf("Over the two minutes your event-time column lacks %s ($%.4f): the watermark had passed their "+
			"minute when they arrived, so for_monotonous_timestamps() dropped them as late, where the course's column bills "+
			"them to the first minute. w with a bound above the hold, then another hiccup, gives the course's column.",
			plural(n, "held record"), usd)
		if gap, ok := columnsGap(byTenant[tenant]); ok && math.Abs(gap-usd) >= 0.00005 {
			t.Note += fmt.Sprintf(" The columns differ by $%.4f in the second minute, not $%.4f: the rest is requests that "+
				"completed in a minute's last moments and reached the job in the next, as in a quiet minute's ≠ row.", gap, usd)
		}
	} else {
		t.Note = "No record of " + tenant + " was late: the event-time column bills every held record to the minute it completed in, as the course's does."
	}
	return t, true
}

// columnsGap is the processing-time column less the event-time column in the second of
// a tenant's two minutes, where processing time bills the held records.
func columnsGap(pair [2]*minutes.Row) (float64, bool) {
	if pair[1] == nil {
		return 0, false
	}
	return pair[1].Cells[minutes.Processing].USD - pair[1].Cells[minutes.Event].USD, true
}

// lateOf is how many of the hiccup's late records are tenant's, and their dollars: from
// the tally of all of them, or from the kept list in state saved before the tally (exact
// there only when the list holds every late record, as it then did up to MaxLate).
func lateOf(h *state.Hiccup, tenant string) (int, float64) {
	if h.LateByTenant != nil {
		t := h.LateByTenant[tenant]
		return t.Records, t.USD
	}
	n, usd := 0, 0.0
	for _, l := range h.Late {
		if l.Tenant == tenant {
			n++
			usd += l.USD
		}
	}
	return n, usd
}

// usdCell is a cell's USD, or — when the window wrote nothing.
func usdCell(c minutes.Cell) string {
	if !c.Present() && c.USD == 0 && c.Requests == 0 {
		return "—"
	}
	return fmt.Sprintf("$%.4f", c.USD)
}

// replayTable is 4.3 in numbers: the course's "identical" and "one or two enormous
// minutes" beside the learner's completed_ts replay compared with its reference: run
// id's, or else the latest.
func replayTable(replays []state.Replay, id int) (labpanel.Table, bool) {
	var r *state.Replay
	for i := len(replays) - 1; i >= 0; i-- {
		if x := &replays[i]; x.Compare != nil && x.Timestamp == meter.CompletedTS.String() && (r == nil || x.Table.Run == id) {
			if r = x; x.Table.Run == id {
				break
			}
		}
	}
	if r == nil {
		return labpanel.Table{}, false
	}
	c := r.Compare
	perMinute := map[int64]float64{}
	total := 0.0
	for _, row := range c.ProcessingMinutes {
		perMinute[row.WindowStart] += row.Cells[minutes.Processing].USD
		total += row.Cells[minutes.Processing].USD
	}
	var biggest int64
	for m, usd := range perMinute {
		if usd > perMinute[biggest] {
			biggest = m
		}
	}
	proc := fmt.Sprintf("%s, $%.2f in all", plural(len(perMinute), "minute"), total)
	if len(perMinute) > 0 {
		proc += fmt.Sprintf(", $%.2f in %s", perMinute[biggest], meter.Clock(biggest)[:5])
	}
	return labpanel.Table{
		Title:  fmt.Sprintf("the course against yours: run %d, the replay with completed_ts, against %s", r.Table.Run, c.Reference),
		Header: []string{"window", "the course", "yours"},
		Rows: [][]string{
			{"event time", "identical", fmt.Sprintf("%d of %d rows identical, %d differ", c.EventTime.Identical, c.EventTime.Rows, c.EventTime.Differ)},
			{"processing time", "1 or 2 enormous minutes", proc},
		},
		Note: c.EventTime.Summary,
	}, true
}

// movedTable lists the first requests whose cost moved minutes with started_ts.
func movedTable(ev state.Evidence) (labpanel.Table, bool) {
	if len(ev.Moved) == 0 {
		return labpanel.Table{}, false
	}
	t := labpanel.Table{Title: "yours: requests whose cost moved minutes with started_ts",
		Header: []string{"request", "tenant", "completed_ts minute", "started_ts minute", "USD"}}
	for _, mv := range ev.Moved[:min(3, len(ev.Moved))] {
		t.Rows = append(t.Rows, []string{mv.RequestID, mv.Tenant, meter.Clock(mv.CompletedMinute)[:5],
			meter.Clock(mv.StartedMinute)[:5], fmt.Sprintf("$%.4f", mv.USD)})
	}
	if s := ev.MovedSummary; s != nil {
		t.Note = s.Summary
	}
	return t, true
}
