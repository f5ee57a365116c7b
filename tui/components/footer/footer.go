// Package footer draws the bottom lines: the status (the latest notice, problem
// or prompt), wrapped onto more than one line when it is long and the screen has room,
// and the keys, short form, from bubbles/help.
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

// Height is how many lines the footer takes with a status of one line.
const Height = 2

// maxStatusLines is how many lines a long status wraps to at most, where the screen
// gives it the room (SetStatusLines); what is left over is cut with "…".
const maxStatusLines = 4

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

// Model is the footer. It is a pure view: it takes no messages, and draws the status,
// the prompt and the keys it is given at its width and status lines.
type Model struct {
	styles theme.Styles
	help   help.Model
	width  int
	// lines is how many lines the status has (1 when unset).
	lines int
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

// StatusLines is how many lines status takes wrapped to the footer's width, at most
// maxStatusLines: 1 when it fits on one.
func (m Model) StatusLines(status string) int {
	if m.width <= 0 || ansi.StringWidth(status) <= m.width {
		return 1
	}
	return min(maxStatusLines, strings.Count(textutil.Wrap(status, m.width), "\n")+1)
}

// SetStatusLines sets how many lines the status line takes (at least 1): the room the
// screen gives it, which may be less than StatusLines asks.
func (m Model) SetStatusLines(n int) Model {
	m.lines = max(1, n)
	return m
}

// lineCount is how many lines View draws: the status's lines and the keys'.
func (m Model) lineCount() int { return max(1, m.lines) + 1 }

// View draws the status (or prompt, when set) over the short help of keys, in lineCount
// lines. A status longer than its line wraps onto the lines SetStatusLines gave it, the
// last cut with "…" if it is still longer. A prompt takes the status's last line, and a
// prompt of two lines the keys' too; the status's other lines are left blank.
func (m Model) View(status string, level Level, prompt string, keys help.KeyMap) string {
	n := max(1, m.lines)
	blank := strings.Repeat(textutil.Fit("", m.width)+"\n", n-1)
	if prompt != "" {
		if first, second, two := strings.Cut(prompt, "\n"); two {
			return blank + textutil.Fit(first, m.width) + "\n" + textutil.Fit(second, m.width)
		}
		return blank + textutil.Fit(prompt, m.width) + "\n" + m.shortHelp(keys.ShortHelp())
	}
	lines := []string{status}
	if n > 1 {
		lines = strings.Split(textutil.Wrap(status, m.width), "\n")
		if len(lines) > n {
			lines = append(lines[:n-1], strings.Join(lines[n-1:], " "))
		}
	}
	out := make([]string, 0, n+1)
	for _, l := range lines {
		switch level {
		case Warn:
			l = m.styles.Warn.Render(l)
		case Error:
			l = m.styles.Error.Render(l)
		}
		out = append(out, textutil.Fit(l, m.width))
	}
	for len(out) < n {
		out = append(out, textutil.Fit("", m.width))
	}
	return strings.Join(append(out, m.shortHelp(keys.ShortHelp())), "\n")
}

// shortHelp is the line of keys: as many as fit the width, in order, always with the
// last two (the key for every key, and quit), so nothing ends in a cut-off mark.
func (m Model) shortHelp(bs []key.Binding) string {
	sep := m.help.Styles.ShortSeparator.Render(m.help.ShortSeparator)
	item := func(b key.Binding) string {
		return m.help.Styles.ShortKey.Render(b.Help().Key) + " " + m.help.Styles.ShortDesc.Render(b.Help().Desc)
	}
	var enabled []key.Binding
	for _, b := range bs {
		if b.Enabled() {
			enabled = append(enabled, b)
		}
	}
	keep := min(2, len(enabled))
	tail := enabled[len(enabled)-keep:]
	used := 0
	for _, b := range tail {
		used += ansi.StringWidth(item(b)) + ansi.StringWidth(sep)
	}
	var picked []string
	for _, b := range enabled[:len(enabled)-keep] {
		if wd := ansi.StringWidth(item(b)) + ansi.StringWidth(sep); used+wd <= m.width+ansi.StringWidth(sep) {
			picked = append(picked, item(b))
			used += wd
		}
	}
	for _, b := range tail {
		picked = append(picked, item(b))
	}
	return textutil.Fit(strings.Join(picked, sep), m.width)
}

// FullHelp draws every key for the help screen in w cells: each group a column under
// its title, as many columns side by side as fit, the groups shared out so the columns
// are about as tall; descriptions are cut only if two columns do not fit w.
func (m Model) FullHelp(keys help.KeyMap, titles []string, w int) string {
	var blocks [][]string
	for i, g := range keys.FullHelp() {
		title := ""
		if i < len(titles) {
			title = titles[i]
		}
		blocks = append(blocks, m.helpBlock(title, g))
	}
	const gap = 3
	widths := func(cols [][]string) int {
		total := 0
		for _, c := range cols {
			total += blockWidth(c) + gap
		}
		return total - gap
	}
	cols := blocks
	if widths(cols) > w {
		cols = twoColumns(blocks)
	}
	colW := make([]int, len(cols))
	for i, c := range cols {
		colW[i] = blockWidth(c)
	}
	if widths(cols) > w && len(cols) == 2 {
		colW[0] = min(colW[0], (w-gap)/2)
		colW[1] = w - gap - colW[0]
	}
	rendered := make([]string, len(cols))
	for i, c := range cols {
		lines := make([]string, len(c))
		for j, l := range c {
			lines[j] = textutil.Fit(l, colW[i])
		}
		rendered[i] = strings.Join(lines, "\n")
		if i < len(cols)-1 {
			rendered[i] = lipgloss.NewStyle().PaddingRight(gap).Render(rendered[i])
		}
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, rendered...)
}

// helpBlock is a group's title over its enabled keys, the keys aligned.
func (m Model) helpBlock(title string, g []key.Binding) []string {
	kw := 0
	for _, b := range g {
		if b.Enabled() {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
	}
	lines := []string{m.styles.Title.Render(title)}
	for _, b := range g {
		if b.Enabled() {
			k := b.Help().Key
			lines = append(lines, m.help.Styles.FullKey.Render(k)+strings.Repeat(" ", kw-ansi.StringWidth(k)+1)+b.Help().Desc)
		}
	}
	return lines
}

// twoColumns stacks the blocks in two columns, in order, split where the two heights
// come closest, a blank line between blocks.
func twoColumns(blocks [][]string) [][]string {
	height := func(bs [][]string) int {
		h := 0
		for _, b := range bs {
			h += len(b) + 1
		}
		return h - 1
	}
	best, bestDiff := 1, 1<<30
	for k := 1; k < len(blocks); k++ {
		d := height(blocks[:k]) - height(blocks[k:])
		if d < 0 {
			d = -d
		}
		if d < bestDiff {
			best, bestDiff = k, d
		}
	}
	stack := func(bs [][]string) []string {
		var out []string
		for i, b := range bs {
			if i > 0 {
				out = append(out, "")
			}
			out = append(out, b...)
		}
		return out
	}
	if len(blocks) < 2 {
		return [][]string{stack(blocks)}
	}
	return [][]string{stack(blocks[:best]), stack(blocks[best:])}
}

// blockWidth is the widest line of a block.
func blockWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}
