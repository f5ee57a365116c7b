package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/safetext"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
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
	m.lab = m.lab.SetSteps(m.sess.Steps()).SetChecks(checks).SetTables(labTables(m.sess.Finding, ev))
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
		rs = append(rs, labpanel.RunChoice{Name: fmt.Sprintf("run %d %s", c.Run.ID, lab4.KindWords(c.Run.Kind)), Why: c.Why, Backs: c.Backs, Pinned: c.Pinned})
		backs = backs || c.Backs
	}
	if f := m.sess.Finding(ex); f != nil && !backs && f.Run.ID != 0 {
		// The run behind the step is an earlier session's, or one let go: it is named
		// all the same, first, as the one the sheet names.
		rs = append([]labpanel.RunChoice{{Name: fmt.Sprintf("run %d %s (not kept: p picks a kept run)", f.Run.ID, lab4.KindWords(f.Run.Kind)),
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
		m = m.say(footer.Info, "%s's evidence is run %d, your pick (P lets the rule pick; the sheet names it): %s", ex, f.Run.ID,
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
		m = m.say(footer.Info, "%s's evidence is now what %s shows; your answer may need the new numbers", ex, runName(f.Run))
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
	s := fmt.Sprintf("run %d, %s", r.ID, lab4.KindWords(r.Kind))
	if r.Timestamp != "" {
		s += ", " + r.Timestamp
	}
	if r.Watermarks != "" {
		s += ", " + r.Watermarks
	}
	return s
}

// labTables are the exercises' tables the lab panel shows, by exercise ID: the first
// of each that is not the sheet's alone, from its finding and the session's evidence.
func labTables(finding func(id string) *state.Finding, ev state.Evidence) map[string]labpanel.Table {
	tables := map[string]labpanel.Table{}
	for _, e := range lab4.Exercises() {
		for _, t := range lab4.TablesOf(e.ID, finding(e.ID), ev) {
			if !t.SheetOnly {
				tables[e.ID] = panelTable(t)
				break
			}
		}
	}
	return tables
}

// panelTable is an exercise's table as the lab panel draws it, its text made safe for
// the terminal.
func panelTable(t lab4.Table) labpanel.Table {
	out := labpanel.Table{Title: safetext.Line(t.Title), Note: safetext.Line(t.Note)}
	for _, h := range t.Header {
		out.Header = append(out.Header, safetext.Line(h))
	}
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = safetext.Line(c)
		}
		out.Rows = append(out.Rows, cells)
	}
	if t.More != "" {
		out.Rows = append(out.Rows, []string{"…", safetext.Line(t.More)})
	}
	// The panel draws the columns its header names: those with no name get an empty one.
	for range t.Unnamed {
		out.Header = append(out.Header, "")
	}
	return out
}
