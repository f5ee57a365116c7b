package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/labs/lab4"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/session"
	"github.com/labtui/labtui/state"
	"github.com/labtui/labtui/tui/components/footer"
	"github.com/labtui/labtui/tui/components/labpanel"
)

// labChanged shows the session's steps and evidence in the lab panel.
func (m Model) labChanged() Model {
	ev := m.sess.Snapshot(nil, 0).Evidence
	checks := map[string]labpanel.Check{}
	for _, e := range lab4.Exercises() {
		if f := m.sess.Finding(e.ID); f != nil {
			c := labpanel.Check{Done: f.Met, Sentence: safetext.Line(lab4.Sentence(f)), Run: runName(f.Run)}
			if n := m.sess.Newer(e.ID); n != nil {
				c.Newer, c.NewerRun = safetext.Line(lab4.Sentence(n)), fmt.Sprintf("run %d", n.Run.ID)
			}
			checks[e.ID] = c
		}
	}
	backing := 0 // the run backing 4.3: its replay's table is the one shown
	if f := m.sess.Finding(lab4.Replay); f != nil {
		backing = f.Run.ID
	}
	tables := labTables(ev, backing)
	for _, e := range lab4.Exercises() {
		// An exercise with tables of its own: the panel shows the first.
		if ts := lab4.TablesOf(e.ID, m.sess.Finding(e.ID)); len(ts) > 0 {
			tables[e.ID] = labpanel.Table(ts[0])
		}
	}
	m.lab = m.lab.SetSteps(m.sess.Steps()).SetChecks(checks).SetTables(tables)
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
	backs := false
	for _, c := range m.sess.PinChoices(ex) {
		rs = append(rs, labpanel.RunChoice{Name: fmt.Sprintf("run %d %s", c.Run.ID, c.Run.Kind), Why: c.Why, Backs: c.Backs, Pinned: c.Pinned})
		backs = backs || c.Backs
	}
	if f := m.sess.Finding(ex); f != nil && !backs && f.Run.ID != 0 {
		// The run behind the step is an earlier session's, or one let go: it is named
		// all the same, first, as the one the sheet names.
		rs = append([]labpanel.RunChoice{{Name: fmt.Sprintf("run %d %s (not kept: p pins a kept run)", f.Run.ID, f.Run.Kind),
			Backs: true, Pinned: f.Pinned}}, rs...)
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

// repin pins the selected exercise to what the runs show now, in place of the evidence
// pinned before, and says which.
func (m Model) repin() (Model, tea.Cmd) {
	ex := m.lab.SelectedExercise()
	f, err := m.sess.Repin(ex)
	if err != nil {
		m = m.say(footer.Warn, "%v", err)
	} else {
		m = m.say(footer.Info, "%s is pinned to what %s shows now; your answer may need the new numbers", ex, runName(f.Run))
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
	s := fmt.Sprintf("run %d, %s", r.ID, r.Kind)
	if r.Timestamp != "" {
		s += ", " + r.Timestamp
	}
	if r.Watermarks != "" {
		s += ", " + r.Watermarks
	}
	return s
}

// labTables fills the course's tables with the learner's numbers from the evidence; the
// 4.3 table is of run replay43's replay when the evidence keeps it (the run backing 4.3).
func labTables(ev state.Evidence, replay43 int) map[string]labpanel.Table {
	out := map[string]labpanel.Table{}
	if h := ev.HiccupTable; h != nil {
		out[lab4.Hiccup] = hiccupTable(*h)
	}
	if t, ok := replayTable(ev.Replays, replay43); ok {
		out[lab4.Replay] = t
	}
	if t, ok := movedTable(ev); ok {
		out[lab4.Moved] = t
	}
	return out
}

// hiccupTable renders the session's 4.2 table beside the course's.
func hiccupTable(h state.HiccupTable) labpanel.Table {
	t := labpanel.Table{
		Title:  fmt.Sprintf("the course: acme, $0.10 a request · yours: run %d, %s, the hold on %s", h.Run, safetext.Line(h.Tenant), safetext.Line(h.Instance)),
		Header: []string{"minute", "processing", "event", "your minute", "processing", "event"},
		Note:   safetext.Line(h.Note),
	}
	for i, m := range h.Minutes {
		c := state.CourseHiccup[i]
		t.Rows = append(t.Rows, []string{fmt.Sprintf("10:0%d", i), fmt.Sprintf("$%.2f", c[0]), fmt.Sprintf("$%.2f", c[1]),
			meter.Clock(m.WindowStart)[:5], usdCell(m.Processing, m.Written[minutes.Processing]), usdCell(m.Event, m.Written[minutes.Event])})
	}
	return t
}

// usdCell is a cell's USD, or — when the window wrote nothing.
func usdCell(c minutes.Cell, written bool) string {
	if !written {
		return "—"
	}
	return fmt.Sprintf("$%.4f", c.USD)
}

// replayTable is 4.3 in numbers: the course's "identical" and "one or two enormous
// minutes" beside the learner's completed_ts replay compared with its reference: run
// id's, or else the latest.
func replayTable(replays []state.Replay, id int) (labpanel.Table, bool) {
	s, ok := session.ReplaySumsOf(replays, id)
	if !ok {
		return labpanel.Table{}, false
	}
	c := s.Replay.Compare
	proc := fmt.Sprintf("%s, $%.2f in all", plural(s.Minutes, "minute"), s.Total)
	if s.Minutes > 0 {
		proc += fmt.Sprintf(", $%.2f in %s", s.BiggestUSD, meter.Clock(s.Biggest)[:5])
	}
	return labpanel.Table{
		Title:  fmt.Sprintf("the course against yours: run %d, the replay with completed_ts, against %s", s.Replay.Table.Run, safetext.Line(c.Reference)),
		Header: []string{"window", "the course", "yours"},
		Rows: [][]string{
			{"event time", "identical", fmt.Sprintf("%d of %d rows identical, %d differ", c.EventTime.Identical, c.EventTime.Rows, c.EventTime.Differ)},
			{"processing time", "1 or 2 enormous minutes", proc},
		},
		Note: safetext.Line(c.EventTime.Summary),
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
		t.Rows = append(t.Rows, []string{safetext.Line(mv.RequestID), safetext.Line(mv.Tenant), meter.Clock(mv.CompletedMinute)[:5],
			meter.Clock(mv.StartedMinute)[:5], fmt.Sprintf("$%.4f", mv.USD)})
	}
	if s := ev.MovedSummary; s != nil {
		t.Note = safetext.Line(s.Summary)
	}
	return t, true
}
