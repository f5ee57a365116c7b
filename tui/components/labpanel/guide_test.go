package labpanel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/labtui/labtui/tui/theme"
)

var guideKeys = GuideKeys{
	Up:       key.NewBinding(key.WithKeys("up")),
	Down:     key.NewBinding(key.WithKeys("down")),
	PageUp:   key.NewBinding(key.WithKeys("pgup")),
	PageDown: key.NewBinding(key.WithKeys("pgdown")),
	Home:     key.NewBinding(key.WithKeys("home")),
	End:      key.NewBinding(key.WithKeys("end")),
}

// TestTheWholeGuideScrollsWithinItsLines: 4.2's guide at 80x10, a page down and a line
// up, with its prompt; end shows the last page, the wheel and home go back up.
func TestTheWholeGuideScrollsWithinItsLines(t *testing.T) {
	lines := New(theme.New(), DefaultKeyMap(), nil).selectExercise("4.2").Whole(80)
	g := NewGuide(guideKeys).SetSize(80, 10).SetLines(lines)
	for _, k := range []tea.KeyType{tea.KeyPgDown, tea.KeyUp} {
		g, _ = g.Update(tea.KeyMsg{Type: k})
	}
	golden.RequireEqual(t, []byte(g.View()+"\n"+g.Prompt("4.2")))

	g, _ = g.Update(tea.KeyMsg{Type: tea.KeyEnd})
	if !strings.Contains(g.Prompt("4.2"), fmt.Sprintf("–%d of %d", len(lines), len(lines))) {
		t.Errorf("end: %q, want the last line shown", g.Prompt("4.2"))
	}
	g, _ = g.Update(tea.MouseMsg{Button: tea.MouseButtonWheelUp})
	if g.top != len(lines)-10-3 {
		t.Errorf("end, then the wheel up: top %d, want %d", g.top, len(lines)-13)
	}
	if g, _ = g.Update(tea.KeyMsg{Type: tea.KeyHome}); g.top != 0 {
		t.Errorf("home: top %d", g.top)
	}
}
