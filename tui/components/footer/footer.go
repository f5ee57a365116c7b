// Package footer draws the two bottom lines: a status line (the latest notice, problem
// or prompt) and the keys, short form, from bubbles/help.
package footer

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/labtui/labtui/tui/textutil"
	"github.com/labtui/labtui/tui/theme"
)

// Height is how many lines the footer takes.
const Height = 2

// Level says how a status line reads.
type Level uint8

const (
	// Info is a notice.
	Info Level = iota
	// Warn is something to watch.
	Warn
	// Error is a problem.
	Error
)

// Model is the footer.
type Model struct {
	styles theme.Styles
	help   help.Model
	width  int
}

// New returns a footer drawn with styles.
func New(styles theme.Styles) Model {
	h := help.New()
	h.ShortSeparator = "  "
	h.Styles.ShortKey = lipgloss.NewStyle().Bold(true)
	h.Styles.ShortDesc = styles.Dim
	h.Styles.ShortSeparator = styles.Dim
	h.Styles.FullKey = lipgloss.NewStyle().Bold(true)
	h.Styles.FullDesc = lipgloss.NewStyle()
	h.Styles.FullSeparator = styles.Dim
	return Model{styles: styles, help: h}
}

// SetWidth sets the width the footer fills.
func (m Model) SetWidth(w int) Model {
	m.width = w
	m.help.Width = w
	return m
}

// View draws the status line (or prompt, when set) over the short help of keys.
// A prompt of two lines takes both lines.
func (m Model) View(status string, level Level, prompt string, keys help.KeyMap) string {
	if first, second, two := strings.Cut(prompt, "\n"); two {
		return textutil.Fit(first, m.width) + "\n" + textutil.Fit(second, m.width)
	}
	line := status
	switch {
	case prompt != "":
		line = prompt
	case level == Warn:
		line = m.styles.Warn.Render(status)
	case level == Error:
		line = m.styles.Error.Render(status)
	}
	return textutil.Fit(line, m.width) + "\n" + textutil.Fit(m.help.ShortHelpView(keys.ShortHelp()), m.width)
}

// FullHelp draws every key for the help screen: the groups two by two, each pair as
// two columns under the groups' titles, so it fits 80 columns.
func (m Model) FullHelp(keys help.KeyMap, titles []string) string {
	groups := keys.FullHelp()
	var b strings.Builder
	for i := 0; i < len(groups); i += 2 {
		pair := groups[i:min(i+2, len(groups))]
		cols := m.help.FullHelpView(pair)
		switch {
		case len(pair) == 2 && i+1 < len(titles):
			left := textutil.Fit(titles[i], columnWidth(pair[0])+len(m.help.FullSeparator))
			b.WriteString(m.styles.Title.Render(left) + m.styles.Title.Render(titles[i+1]) + "\n")
		case len(pair) == 1 && i < len(titles):
			b.WriteString(m.styles.Title.Render(titles[i]) + "\n")
		}
		b.WriteString(cols + "\n\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// columnWidth is the width bubbles/help gives a column of bindings: the widest key, a
// space, the widest description.
func columnWidth(bs []key.Binding) int {
	kw, dw := 0, 0
	for _, b := range bs {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
		dw = max(dw, ansi.StringWidth(b.Help().Desc))
	}
	return kw + 1 + dw
}
