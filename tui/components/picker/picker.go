// Package picker asks which gateway instance a hiccup should hold: one line listing
// the instances, chosen with the arrow keys or a digit, confirmed with enter.
package picker

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/tui/theme"
)

// KeyMap is the picker's keys.
type KeyMap struct {
	Prev   key.Binding
	Next   key.Binding
	Choose key.Binding
	Cancel key.Binding
}

// DefaultKeyMap returns the picker's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev:   key.NewBinding(key.WithKeys("left", "h", "up", "k"), key.WithHelp("←", "previous")),
		Next:   key.NewBinding(key.WithKeys("right", "l", "down", "j", "tab"), key.WithHelp("→", "next")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "inject")),
		Cancel: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "cancel")),
	}
}

// Result is how the picker ended.
type Result uint8

const (
	// Open means the learner is still choosing.
	Open Result = iota
	// Chosen means the learner chose Choice.
	Chosen
	// Cancelled means the learner left without choosing.
	Cancelled
)

// Model is the picker.
type Model struct {
	styles    theme.Styles
	keys      KeyMap
	instances []string
	selected  int
	duration  time.Duration
	result    Result
}

// New returns a picker over instances for a hiccup of d, with selected chosen first.
func New(styles theme.Styles, instances []string, d time.Duration, selected int) Model {
	return Model{styles: styles, keys: DefaultKeyMap(), instances: instances, duration: d,
		selected: max(0, min(selected, len(instances)-1))}
}

// Result says whether the learner is still choosing, chose, or cancelled.
func (m Model) Result() Result { return m.result }

// Choice is the instance selected.
func (m Model) Choice() string { return m.instances[m.selected] }

// Duration is the hiccup's duration.
func (m Model) Duration() time.Duration { return m.duration }

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

// View draws the question on one line.
func (m Model) View() string {
	var b strings.Builder
	fmt.Fprintf(&b, "inject a %s hiccup on: ", m.duration)
	for i, in := range m.instances {
		if i == m.selected {
			b.WriteString(m.styles.Selected.Render("[" + in + "]"))
		} else {
			b.WriteString(" " + in + " ")
		}
		b.WriteString(" ")
	}
	b.WriteString(" ←/→ or digit, enter to inject, esc to cancel")
	return b.String()
}
