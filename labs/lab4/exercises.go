package lab4

import (
	"fmt"

	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/internal/state"
)

// The exercises' IDs, the course's numbers. They are named here, and only here, so that
// the session, the panel and the sheet iterate the exercises or name one by what it is.
const (
	Agreement = "4.1" // both windows agree while events arrive promptly
	Hiccup    = "4.2" // a hiccup bills the burst to the wrong minute
	Replay    = "4.3" // replay the recorded hour
	Moved     = "4.4" // started_ts moves a request's cost
)

// Exercise is one "Try it" step of Lab 4: the course's instruction, what labtui counts
// as evidence that the step was done, the questions the learner answers, and how it is
// done in labtui.
type Exercise struct {
	// ID is the course's number, "4.1" to "4.4".
	ID string
	// Instruction is the course's text for the step, verbatim.
	Instruction string
	// Evidence says, in one sentence, what ticks the step.
	Evidence string
	// Questions are what the learner writes down for the step.
	Questions []Question
	// Guide is how the step is done in labtui.
	Guide Guide
	// Tables, when set, are the exercise's tables worked out from its finding (nil when it
	// has none) and the session's evidence, the same for the lab panel (which shows the
	// first that is not SheetOnly) and the sheet (which writes them all, in order).
	Tables func(f *state.Finding, ev state.Evidence) []Table
	// Rule works out the exercise's finding from one run, or nothing (see RuleFor).
	Rule func(s Session, run Run, about int64) Found
	// WhyNot says what a run lacks for Rule, in a few words (see WhyNot).
	WhyNot func(s Session, run Run) string
	// Prefers, when set, says a finding of an older run is better evidence than the
	// best of the newer ones (see Prefers); else the newest run that shows it backs it.
	Prefers func(f, best *state.Finding) bool
}

// Table is an exercise's table in the learner's numbers: a title, a header, rows of
// cells and a note, as the lab panel and the sheet both draw it. Its text is the
// evidence's as it is (a tenant or request id of a recording included): the panel and
// the sheet each make it safe for where they show it. A table without a header or rows
// is its title and note alone; one with a header and no rows, its header under the title.
type Table struct {
	Title  string
	Header []string
	// Unnamed counts the columns after Header's that have no name (a flag such as
	// "differs"), as the sheet writes them.
	Unnamed int
	// Rows are the table's rows, a cell per column; a row of one cell is a mark line
	// between minutes (a hiccup's, or the wall clock's, as m puts it in the panes).
	Rows [][]string
	// More, when set, is what a last row says the table leaves out: "3 more rows in the
	// JSON".
	More string
	Note string
	// SheetOnly says the lab panel leaves the table out (it shows the exercise's first
	// table that is not): the sheet alone writes it.
	SheetOnly bool
}

// ListedRows is how many minutes a finding's table lists on the sheet, and ListedLate
// how many late records: the JSON has every one kept.
const (
	listedRows = 12
	listedLate = 5
)

// minutesTable is rows with both windows side by side, as the sheet lists a finding's
// minutes: at most ListedRows, a mark line as a row of one cell, "—" for a window that
// wrote nothing, and "differs" beside a minute whose windows differ.
func minutesTable(rows []minutes.Row) Table {
	t := Table{Header: []string{"minute", "tenant", "processing time", "event time"}, Unnamed: 1, SheetOnly: true}
	for i, r := range rows {
		if i == listedRows {
			t.More = fmt.Sprintf("%d more rows in the JSON", len(rows)-i)
			break
		}
		if r.IsMark() {
			t.Rows = append(t.Rows, []string{r.Mark})
			continue
		}
		flag := ""
		if r.Differs {
			flag = "differs"
		}
		t.Rows = append(t.Rows, []string{hhmm(r.WindowStart), r.Tenant, windowText(r.Cells[minutes.Processing]),
			windowText(r.Cells[minutes.Event]), flag})
	}
	return t
}

// findingRows is the table of finding f's minutes, both windows side by side: 4.1's and
// 4.2's first table on the sheet; none without a finding or its rows.
func findingRows(f *state.Finding) []Table {
	if f == nil || len(f.Rows) == 0 {
		return nil
	}
	return []Table{minutesTable(f.Rows)}
}

// windowText is a window's cell as a table lists it: "$0.3000 (2)", with "never fired"
// when it was still open, "—" when the window wrote nothing.
func windowText(c minutes.Cell) string {
	if !c.Present() {
		return "—"
	}
	if c.Open {
		return cellText(c) + " never fired"
	}
	return cellText(c)
}

// TablesOf is exercise id's tables for its finding f (nil when it has none) and the
// session's evidence ev; none when the exercise has no tables of its own or the
// evidence holds nothing for them.
func TablesOf(id string, f *state.Finding, ev state.Evidence) []Table {
	e, ok := byID(id)
	if !ok || e.Tables == nil {
		return nil
	}
	return e.Tables(f, ev)
}

// Question is one answer the learner writes for an exercise.
type Question struct {
	// ID is the exercise's ID and a letter, "4.2b".
	ID string
	// Prompt is the question as the learner reads it.
	Prompt string
}

// Guide is how an exercise is done in labtui: a short title, the keys, what to do with
// them and what to look for on screen. The course's own text is quoted below it.
type Guide struct {
	Title string
	// Keys is the one-line reminder the collapsed panel shows.
	Keys string
	// Uses are the main screen's keys the exercise's text tells the learner to press,
	// most needed first: the footer lists them first, so an 80-column footer has them.
	Uses []string
	Do   string
	// Short is Do in two lines of an 80-column panel: what a compact panel (80x24) shows
	// so the exercise in progress says what to do without o.
	Short string
	Look  string
}

// Exercises returns the four steps of Lab 4's "Try it", in the course's order, with the
// instructions quoted from the course (../shared/course, "Event Time and Processing Time"),
// then the course's failure section done with x.
func Exercises() []Exercise { return append([]Exercise(nil), exercises...) }

// exercises are Lab 4's exercises in order. They are set by init, not by an initializer:
// an exercise's tables read the others (4.3's replays name the exercise each backs), so
// an initializer would depend on itself.
var exercises []Exercise

func init() { exercises = []Exercise{ex41, ex42, ex43, ex44, exFailure} }

// byID returns exercise id, and false when Lab 4 has none of that ID.
func byID(id string) (Exercise, bool) {
	for _, e := range exercises {
		if e.ID == id {
			return e, true
		}
	}
	return Exercise{}, false
}

// GuideOf returns exercise id's guide (the zero Guide for an unknown ID).
func GuideOf(id string) Guide {
	e, _ := byID(id)
	return e.Guide
}

// RuleOf is exercise id's evidence rule, as the learner reads it.
func RuleOf(id string) string {
	if e, ok := byID(id); ok {
		return e.Evidence
	}
	return "no rule"
}

// QuestionIDs are the IDs of every question the exercises ask, in order.
func QuestionIDs() []string {
	var out []string
	for _, e := range Exercises() {
		for _, q := range e.Questions {
			out = append(out, q.ID)
		}
	}
	return out
}

// ExerciseOf is the exercise question q (such as "4.2b") belongs to, "" for none.
func ExerciseOf(q string) string {
	for _, e := range Exercises() {
		for _, x := range e.Questions {
			if x.ID == q {
				return e.ID
			}
		}
	}
	return ""
}
