// Package labpanel is the lab panel: Lab 4's four "Try it" steps as done in labtui (the
// keys, what to look for), each with its live check (ticked when the learner's own run
// shows it) and the course's table beside the learner's numbers, the course's text
// quoted, and a text answer per question edited in place (a bubbles textarea) and saved
// as it is typed.
package labpanel

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/labtui/labtui/labs/lab4"

	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/tui/theme"
)

// KeyMap is the lab panel's own keys.
type KeyMap struct {
	Prev  key.Binding
	Next  key.Binding
	Edit  key.Binding
	Done  key.Binding
	Pin   key.Binding
	Unpin key.Binding
	// Repin pins the selected exercise to what the runs show now, when that differs
	// from its pinned evidence.
	Repin key.Binding
	// Guide opens the selected exercise's whole guide in a view that scrolls.
	Guide key.Binding
}

// DefaultKeyMap returns the lab panel's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev:  key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous question")),
		Next:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next question")),
		Edit:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "write the answer")),
		Done:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop writing")),
		Pin:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pick the next run as evidence")),
		Unpin: key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "let the rule pick the run")),
		Repin: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "take what the runs show now")),
		Guide: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "the exercise's whole guide")),
	}
}

// CollapsedHeight is the height of the panel without the focus: a title and a line per
// exercise (lab4.Exercises: the four steps and the failure section).
const CollapsedHeight = 6

// CompactHeight is the least height of the panel with the focus: the title, the
// exercises, the question and its answer, and the check as room allows.
const CompactHeight = 10

// Model is the lab panel.
type Model struct {
	styles    theme.Styles
	keys      KeyMap
	exercises []lab4.Exercise
	questions []lab4.Question
	// stepOf maps a question index to its exercise index.
	stepOf   []int
	areas    []textarea.Model
	steps    map[string]state.Step
	checks   map[string]Check
	tables   map[string]Table
	runs     map[string][]RunChoice
	selected int
	// chosen says the learner has moved the selection: until then the exercise the
	// footer and the whole guide follow is the first whose check is not met.
	chosen   bool
	editing  bool
	focused  bool
	width    int
	height   int
	revision uint64
}

// New returns the panel with the answers given, by question ID.
func New(styles theme.Styles, keys KeyMap, answers map[string]string) Model {
	m := Model{styles: styles, keys: keys, exercises: lab4.Exercises(), steps: map[string]state.Step{}}
	for i, e := range m.exercises {
		for _, q := range e.Questions {
			m.questions = append(m.questions, q)
			m.stepOf = append(m.stepOf, i)
			ta := textarea.New()
			ta.ShowLineNumbers = false
			ta.Prompt = "│ "
			ta.Placeholder = idlePlaceholder(keys)
			// No limit on lines: the textarea's default (99) drops the lines after it.
			ta.MaxHeight = 0
			ta.SetValue(answers[q.ID])
			ta.Blur()
			m.areas = append(m.areas, ta)
		}
	}
	return m
}

// SetSize sets the cells the panel fills.
func (m Model) SetSize(w, h int) Model {
	m.width, m.height = w, h
	for i := range m.areas {
		m.areas[i].SetWidth(max(10, w-2))
	}
	return m
}

// SetFocused gives or takes the focus; taking it also stops editing.
func (m Model) SetFocused(f bool) Model {
	m.focused = f
	if !f {
		m = m.stopEditing()
	}
	return m
}

// Check is an exercise's live check as the learner should read it: whether the rule is
// met, and the sentence that proves it or says what is still missing, with the run
// it comes from.
type Check struct {
	Done     bool
	Sentence string
	// Run names the run the check reads, such as "run 2 (replay, completed_ts)".
	Run string
	// Newer is what the runs would make of a pinned check now, when that differs from
	// the evidence pinned (the answer was written against the pinned one); "" when not.
	Newer string
	// NewerRun names the run Newer comes from.
	NewerRun string
}

// Table is the course's table beside the learner's: a title naming both (the course's
// example, the learner's run), a header, rows of cells, and a note saying why they
// differ where they do. Columns are aligned; the first is left-aligned, the rest right.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Note   string
}

// RunChoice is a kept run as a backer of an exercise: its name, why it cannot back the
// exercise ("" when it can), and whether it backs it now, pinned or by the rule.
type RunChoice struct {
	Name   string
	Why    string
	Backs  bool
	Pinned bool
}

// SetRuns sets the runs each exercise can be pinned to, by exercise ID; an exercise
// without them shows none.
func (m Model) SetRuns(r map[string][]RunChoice) Model {
	m.runs = r
	return m
}

// SelectedExercise is the ID of the selected question's exercise.
func (m Model) SelectedExercise() string { return m.exercises[m.stepOf[m.selected]].ID }

// SetChecks sets the live check of each exercise, by ID; an exercise without one shows
// the rule that ticks it.
func (m Model) SetChecks(c map[string]Check) Model {
	m.checks = c
	return m
}

// SetTables sets the tables, by exercise ID.
func (m Model) SetTables(t map[string]Table) Model {
	m.tables = t
	return m
}

// SetSteps shows which steps are ticked.
func (m Model) SetSteps(steps map[string]state.Step) Model {
	m.steps = steps
	return m
}

// SetAnswers replaces every answer, as when restoring saved ones.
func (m Model) SetAnswers(answers map[string]string) Model {
	for i, q := range m.questions {
		m.areas[i].SetValue(answers[q.ID])
	}
	m.revision++
	return m
}

// Answers returns the answers by question ID, the empty ones left out.
func (m Model) Answers() map[string]string {
	out := make(map[string]string, len(m.questions))
	for i, q := range m.questions {
		if v := m.areas[i].Value(); v != "" {
			out[q.ID] = v
		}
	}
	return out
}

// Revision changes whenever an answer changes.
func (m Model) Revision() uint64 { return m.revision }

// Editing reports whether an answer has the keyboard.
func (m Model) Editing() bool { return m.editing }

// Current is the exercise the learner is on: the selected question's once they have
// moved the selection, else the first whose check is not met (the last when all are).
func (m Model) Current() string {
	if m.chosen {
		return m.SelectedExercise()
	}
	for _, e := range m.exercises {
		if !m.done(e.ID) {
			return e.ID
		}
	}
	return m.exercises[len(m.exercises)-1].ID
}

// selectExercise selects the first question of exercise id, if there is one, as the
// learner's choice.
func (m Model) selectExercise(id string) Model {
	m = m.ShowExercise(id)
	m.chosen = true
	return m
}

// ShowExercise selects the first question of exercise id, if there is one, without
// making it the learner's choice: Current goes on following the first unmet exercise.
func (m Model) ShowExercise(id string) Model {
	for i := range m.questions {
		if m.exercises[m.stepOf[i]].ID == id {
			m.selected = i
			return m
		}
	}
	return m
}

// StepExercise selects the first question of the exercise d places on (d is -1 or 1),
// within the four.
func (m Model) StepExercise(d int) Model {
	ex := m.stepOf[m.selected] + d
	if ex < 0 || ex >= len(m.exercises) {
		return m
	}
	return m.selectExercise(m.exercises[ex].ID)
}

// writingPlaceholder is the empty answer's placeholder while it is open.
const writingPlaceholder = "Type your answer; it is saved as you type."

// idlePlaceholder is the empty answer's placeholder while it is closed: it names the key
// that opens it, since until then letters are the screen's keys (r replays, x kills the
// job, q quits).
func idlePlaceholder(keys KeyMap) string {
	return keys.Edit.Help().Key + ": write your answer here; it is saved as you type."
}

// edit starts editing the selected answer.
func (m Model) edit() (Model, tea.Cmd) {
	m.editing = true
	m.areas[m.selected].Placeholder = writingPlaceholder
	cmd := m.areas[m.selected].Focus()
	return m, cmd
}

func (m Model) stopEditing() Model {
	m.editing = false
	m.areas[m.selected].Placeholder = idlePlaceholder(m.keys)
	m.areas[m.selected].Blur()
	return m
}

// IsText reports whether k is typed or pasted text rather than a key: Bubble Tea v1
// delivers a burst of text (a paste without bracketed paste, fast typing over ssh) as
// KeyRunes whose String() can equal a key's name ("end", "home", "tab", "esc", "q"), so
// an editor must take these as text before it consults any binding.
func IsText(k tea.KeyMsg) bool {
	return (k.Type == tea.KeyRunes && !k.Alt) || k.Type == tea.KeySpace || k.Paste
}

// IsBurst reports whether k is more text than one key press can be: a paste, or typing
// that reached labtui as one read (several runes in one KeyRunes). On the panel it is an
// answer being written, never a run of commands.
func IsBurst(k tea.KeyMsg) bool {
	return k.Paste || (k.Type == tea.KeyRunes && !k.Alt && len(k.Runes) > 1)
}

// Update handles keys while the panel has the focus, and the textarea's own messages.
// While an answer is being written, text is inserted verbatim before any key binding
// is looked at. A burst of text (IsBurst) while no answer is open opens the selected
// one and goes into it.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, isKey := msg.(tea.KeyMsg)
	var opened tea.Cmd
	if isKey && !m.editing && IsBurst(k) { // a burst is text (IsText): inserted below
		m, opened = m.edit()
	}
	if isKey && m.editing && IsText(k) {
		m.areas[m.selected].InsertString(string(k.Runes))
		m.revision++
		return m, opened
	}
	if isKey && m.editing && k.Type == tea.KeyTab {
		m.areas[m.selected].InsertString("\t")
		m.revision++
		return m, nil
	}
	switch {
	case isKey && m.editing && key.Matches(k, m.keys.Done):
		return m.stopEditing(), nil
	case isKey && !m.editing:
		switch {
		case key.Matches(k, m.keys.Prev):
			m.selected, m.chosen = max(0, m.selected-1), true
		case key.Matches(k, m.keys.Next):
			m.selected, m.chosen = min(len(m.questions)-1, m.selected+1), true
		case key.Matches(k, m.keys.Edit):
			return m.edit()
		}
		return m, nil
	}
	before := m.areas[m.selected].Value()
	var cmd tea.Cmd
	m.areas[m.selected], cmd = m.areas[m.selected].Update(msg)
	if m.areas[m.selected].Value() != before {
		m.revision++
	}
	return m, cmd
}
