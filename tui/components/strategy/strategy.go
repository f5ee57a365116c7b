// Package strategy asks which watermark strategy the job should run with:
// for_monotonous_timestamps(), or for_bounded_out_of_orderness with a bound the learner
// picks. Choosing one restarts the job, as a redeploy with the new strategy would.
package strategy

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/tui/theme"
)

// keyMap is the picker's keys.
type keyMap struct {
	Switch key.Binding
	Site   key.Binding
	More   key.Binding
	Less   key.Binding
	Choose key.Binding
	Cancel key.Binding
}

// defaultKeyMap returns the picker's keys.
func defaultKeyMap() keyMap {
	return keyMap{
		Switch: key.NewBinding(key.WithKeys("left", "right", "h", "l", "tab"), key.WithHelp("←/→", "strategy")),
		Site:   key.NewBinding(key.WithKeys("p", "s"), key.WithHelp("p", "after the parse or per partition at the source")),
		More:   key.NewBinding(key.WithKeys("up", "k", "+"), key.WithHelp("↑", "bound +5 s")),
		Less:   key.NewBinding(key.WithKeys("down", "j", "-"), key.WithHelp("↓", "bound -5 s")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "restart the job with it")),
		Cancel: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "cancel")),
	}
}

// Result is how the picker ended.
type Result uint8

const (
	// open means the learner is still choosing.
	open Result = iota
	// Chosen means the learner chose Watermarks.
	Chosen
	// Cancelled means the learner left without choosing.
	Cancelled
)

// step is how much ↑/↓ move the bound.
const step = 5 * time.Second

// maxBound is the largest bound the picker offers: an hour.
const maxBound = time.Hour

// Model is the picker.
type Model struct {
	styles  theme.Styles
	keys    keyMap
	current watermark.Strategy
	bounded bool
	bound   time.Duration
	// typing says digits typed since the picker opened replace the bound.
	typing bool
	hold   time.Duration
	// source says the watermarks are generated on the source, one per partition.
	source bool
	result Result
}

// New returns a picker starting from the job's current strategy; hold is how long the
// hiccup key holds an instance, which a bound must exceed to keep the held records on
// time. A monotonous job is offered a bound a little above hold.
func New(styles theme.Styles, current watermark.Strategy, hold time.Duration) Model {
	m := Model{styles: styles, keys: defaultKeyMap(), current: current, hold: hold,
		bounded: current.OutOfOrderness > 0, bound: current.OutOfOrderness,
		source: current.At == watermark.Source}
	if !m.bounded {
		m.bound = (hold + step).Truncate(step)
	}
	return m
}

// Result says whether the learner is still choosing, chose, or cancelled.
func (m Model) Result() Result { return m.result }

// Watermarks is the strategy chosen: the current one with its bound replaced.
func (m Model) Watermarks() watermark.Strategy {
	w := m.current
	w.OutOfOrderness, w.At = 0, watermark.Stream
	if m.source {
		w.At = watermark.Source
	}
	if m.bounded {
		w.OutOfOrderness = m.bound
	}
	return w
}

// Update moves the choice or ends the picker (see Result). Digits type the bound in
// seconds and backspace deletes one.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Cancel):
		m.result = Cancelled
	case key.Matches(k, m.keys.Choose):
		if m.bounded && m.bound <= 0 {
			return m, nil
		}
		m.result = Chosen
	case key.Matches(k, m.keys.Switch):
		m.bounded = !m.bounded
	case key.Matches(k, m.keys.Site):
		m.source = !m.source
	case key.Matches(k, m.keys.More):
		m.bounded, m.typing = true, false
		m.bound = min(maxBound, (m.bound + step).Truncate(step))
	case key.Matches(k, m.keys.Less):
		m.bounded, m.typing = true, false
		m.bound = max(step, (m.bound - step + step - 1).Truncate(step))
	case k.Type == tea.KeyBackspace:
		m.bounded, m.typing = true, true
		m.bound = (m.bound / time.Second / 10) * time.Second
	case k.Type == tea.KeyRunes:
		n, err := strconv.Atoi(string(k.Runes))
		if err != nil {
			return m, nil
		}
		secs := int64(n)
		if m.typing {
			secs = int64(m.bound/time.Second)*pow10(len(k.Runes)) + int64(n)
		}
		m.bounded, m.typing = true, true
		m.bound = min(maxBound, time.Duration(secs)*time.Second)
	}
	return m, nil
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// Name names a strategy as the job's code writes it (watermark.Strategy.Name).
func Name(w watermark.Strategy) string { return w.Name() }

// seconds writes ms as "40 s" or "1.5 s".
func seconds(ms int64) string {
	if ms%1000 == 0 {
		return strconv.FormatInt(ms/1000, 10) + " s"
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
}

// choices is the line of the two strategies, the selected one in brackets.
func (m Model) choices(mono, bounded string) string {
	if m.bounded {
		return "watermarks  " + mono + "  " + m.styles.Selected.Render("["+bounded+"]")
	}
	return "watermarks " + m.styles.Selected.Render("["+mono+"]") + "  " + bounded + " "
}

// View draws the question on two lines of at most width cells: the strategies, then
// what the one selected does to a hiccup's held records.
func (m Model) View(width int) string {
	first := m.choices("for_monotonous_timestamps()", "for_bounded_out_of_orderness("+seconds(m.bound.Milliseconds())+")") +
		" ←/→ · enter restarts the job · esc cancel"
	if ansi.StringWidth(first) > width {
		first = m.choices("monotonous", "bounded, "+seconds(m.bound.Milliseconds())) + " ←/→ · enter restarts the job · esc"
	}
	hold := seconds(m.hold.Milliseconds())
	site := "p: after the parse (the course's job)"
	if m.source {
		site = "p: per partition at the source (module 5)"
	}
	var second string
	switch {
	case !m.bounded:
		second = "the watermark is the largest timestamp seen: records a hiccup held come in behind it, late, and are dropped"
	case m.bound > m.hold:
		second = "bound ↑/↓ or type seconds · above the " + hold + " hold: held records are on time, the course's event-time column"
	default:
		second = "bound ↑/↓ or type seconds · not above the " + hold + " hold: some held records can still be late"
	}
	if ansi.StringWidth(second+" · "+site) <= width {
		return first + "\n" + second + " · " + site
	}
	if short := strings.Replace(second, "bound ↑/↓ or type seconds · ", "↑/↓ or digits · ", 1); ansi.StringWidth(short+" · "+site) <= width &&
		ansi.StringWidth(first) <= width {
		return first + "\n" + short + " · " + site
	}
	// 80 columns: where the watermarks are generated goes up beside the strategies, and
	// the keys after what the strategy does to held records, each in a few words.
	narrowSite := "p: after the parse"
	if m.source {
		narrowSite = "p: per partition at the source"
	}
	first = m.choices("monotonous", "bounded, "+seconds(m.bound.Milliseconds())) + " · " + narrowSite
	switch {
	case !m.bounded:
		second = "held records arrive behind the watermark, late: dropped"
	case m.bound > m.hold:
		second = "↑/↓ or digits · above the " + hold + " hold: held records on time"
	default:
		second = "↑/↓ or digits · not above the " + hold + " hold: some can be late"
	}
	return first + "\n" + second + " · enter restarts · esc"
}
