// Package picker asks which gateway instance a hiccup should hold and when it starts:
// a line listing the instances, chosen with ←/→ or a digit, and a line offering the
// course's start (at the next second :40, so the hold crosses a minute boundary) or
// now, chosen with ↑/↓; enter confirms.
package picker

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/tui/theme"
)

// keyMap is the picker's keys.
type keyMap struct {
	Prev   key.Binding
	Next   key.Binding
	When   key.Binding
	Choose key.Binding
	Cancel key.Binding
}

// defaultKeyMap returns the picker's keys.
func defaultKeyMap() keyMap {
	return keyMap{
		Prev:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "previous")),
		Next:   key.NewBinding(key.WithKeys("right", "l", "tab"), key.WithHelp("→", "next")),
		When:   key.NewBinding(key.WithKeys("up", "k", "down", "j", "n"), key.WithHelp("↑/↓", "when")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "inject")),
		Cancel: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "cancel")),
	}
}

// Result is how the picker ended.
type Result uint8

const (
	// open means the learner is still choosing.
	open Result = iota
	// Chosen means the learner chose Choice.
	Chosen
	// Cancelled means the learner left without choosing.
	Cancelled
)

// Model is the picker.
type Model struct {
	styles    theme.Styles
	keys      keyMap
	instances []string
	selected  int
	duration  time.Duration
	// now says the hiccup starts at once rather than at the course's second.
	now    bool
	result Result
}

// New returns a picker over instances for a hiccup of d, with selected chosen first.
func New(styles theme.Styles, instances []string, d time.Duration, selected int) Model {
	return Model{styles: styles, keys: defaultKeyMap(), instances: instances, duration: d,
		selected: max(0, min(selected, len(instances)-1))}
}

// Result says whether the learner is still choosing, chose, or cancelled.
func (m Model) Result() Result { return m.result }

// Choice is the instance selected.
func (m Model) Choice() string { return m.instances[m.selected] }

// Duration is the hiccup's duration.
func (m Model) Duration() time.Duration { return m.duration }

// Now reports whether the learner chose to start the hiccup at once; the default is
// the course's start, at the next second :40.
func (m Model) Now() bool { return m.now }

// Update moves the choice, or ends the picker (see Result). It ends synchronously, so
// the keys that follow go where they should.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || len(m.instances) == 0 {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Cancel):
		m.result = Cancelled
	case key.Matches(k, m.keys.Choose):
		m.result = Chosen
	case key.Matches(k, m.keys.When):
		m.now = !m.now
	case key.Matches(k, m.keys.Prev):
		m.selected = (m.selected + len(m.instances) - 1) % len(m.instances)
	case key.Matches(k, m.keys.Next):
		m.selected = (m.selected + 1) % len(m.instances)
	default:
		if n, err := strconv.Atoi(k.String()); err == nil {
			for i, in := range m.instances {
				if strings.HasSuffix(in, "-"+strconv.Itoa(n)) || (len(m.instances) <= 9 && n == i+1 && !hasNumbered(m.instances)) {
					m.selected = i
				}
			}
		}
	}
	return m, nil
}

// hasNumbered reports whether the instances are named name-N, so a digit picks by N.
func hasNumbered(instances []string) bool {
	for _, in := range instances {
		if i := strings.LastIndexByte(in, '-'); i >= 0 {
			if _, err := strconv.Atoi(in[i+1:]); err == nil {
				return true
			}
		}
	}
	return false
}

// View draws the question on two lines of at most width cells: the instance, then when
// it starts. in says how long until the course's start, such as "in 23 s"; clearOf, when
// not "", what the start keeps clear of, such as "07:16's catch-up".
func (m Model) View(in, clearOf string, width int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "hiccup of %s on ", m.duration)
	for i, name := range m.instances {
		if i == m.selected {
			b.WriteString(m.styles.Selected.Render("[" + name + "]"))
		} else {
			b.WriteString(" " + name + " ")
		}
		b.WriteString(" ")
	}
	b.WriteString("· ←/→ or digit · enter inject · esc cancel\n")
	when := in
	if clearOf != "" {
		when += ", clear of " + clearOf
	}
	course := "at the next :40, " + when + ", so the hold crosses a minute as in the course"
	if len("starts: [] now ↑/↓")+ansi.StringWidth(course) > width {
		course = "at :40, " + in + ": the hold crosses a minute, as in the course"
		if clearOf != "" {
			course = "at :40, " + when
		}
	}
	now := "now"
	if m.now {
		now = m.styles.Selected.Render("[" + now + "]")
		course = " " + course + " "
	} else {
		course = m.styles.Selected.Render("[" + course + "]")
		now = " " + now + " "
	}
	b.WriteString("starts " + course + " " + now + " ↑/↓")
	return b.String()
}
