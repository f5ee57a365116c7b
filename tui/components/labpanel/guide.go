package labpanel

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/tui/textutil"
)

// GuideKeys are the keys the whole guide scrolls by.
type GuideKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// Guide is the selected exercise's whole guide as a screen of its own (o): the panel's
// Whole lines at the size of the screen's body, read with the scrolling keys. At 80x24
// the panel has room for only the first lines of the check, the runs and what to do.
type Guide struct {
	keys   GuideKeys
	width  int
	height int
	// top is the first line shown; lines are the guide's, set again every frame, since
	// the check changes as the run goes on.
	top   int
	lines []string
}

// NewGuide returns a whole guide at its first line, scrolled by keys.
func NewGuide(keys GuideKeys) Guide { return Guide{keys: keys} }

// SetSize sets the cells the guide fills: at least one line.
func (g Guide) SetSize(w, h int) Guide {
	g.width, g.height = w, max(1, h)
	return g
}

// SetLines sets the guide's lines (Model.Whole at the guide's width).
func (g Guide) SetLines(lines []string) Guide {
	g.lines = lines
	return g
}

// Rewind shows the first line, as a guide opened or of another exercise does.
func (g Guide) Rewind() Guide {
	g.top = 0
	return g
}

// wheel is how many lines a turn of the mouse wheel scrolls.
const wheel = 3

// Update scrolls by the keys and the mouse wheel: a line, a page (the height), the
// first line (home), the last page (end), within the lines set last.
func (g Guide) Update(msg tea.Msg) (Guide, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, g.keys.Up):
			return g.scroll(-1), nil
		case key.Matches(msg, g.keys.Down):
			return g.scroll(1), nil
		case key.Matches(msg, g.keys.PageUp):
			return g.scroll(-g.height), nil
		case key.Matches(msg, g.keys.PageDown):
			return g.scroll(g.height), nil
		case key.Matches(msg, g.keys.Home):
			return g.Rewind(), nil
		case key.Matches(msg, g.keys.End):
			return g.scroll(len(g.lines)), nil
		}
	case tea.MouseMsg:
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			return g.scroll(-wheel), nil
		case tea.MouseButtonWheelDown:
			return g.scroll(wheel), nil
		}
	}
	return g, nil
}

// scroll moves the guide by d lines, within its length.
func (g Guide) scroll(d int) Guide {
	g.top = max(0, min(g.top+d, len(g.lines)-g.height))
	return g
}

// shown is the first line shown: the top, or the last page when the lines got fewer.
func (g Guide) shown() int { return min(g.top, max(0, len(g.lines)-g.height)) }

// View draws the lines from the first shown.
func (g Guide) View() string {
	top := g.shown()
	end := min(len(g.lines), top+g.height)
	return textutil.Block(strings.Join(g.lines[top:end], "\n"), g.width, g.height)
}

// Prompt is the footer's line while the guide of exercise is open: where it is, and how
// to move and leave.
func (g Guide) Prompt(exercise string) string {
	n, top := len(g.lines), g.shown()
	return fmt.Sprintf("guide of %s · lines %d–%d of %d · ↑/↓ pgdn scroll · ←/→ exercise · esc/q back",
		exercise, top+1, min(n, top+g.height), n)
}
