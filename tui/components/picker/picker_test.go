package picker

import (
	"github.com/charmbracelet/x/ansi"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/tui/theme"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "left", "right", "up", "down", "enter", "esc", "tab":
			msg = tea.KeyMsg{Type: map[string]tea.KeyType{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp,
				"down": tea.KeyDown, "enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab}[k]}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		m, _ = m.Update(msg)
	}
	return m
}

var instances = []string{"gw-0", "gw-1", "gw-2"}

// Given the picker on gw-1, → and ← move the choice round the instances, a digit picks
// gw-N, ↑ switches the start to now, and enter ends it with that choice.
func TestKeysMoveTheChoiceAndEnterChoosesIt(t *testing.T) {
	m := New(theme.New(), instances, 35*time.Second, 1)
	if m.Choice() != "gw-1" || m.Now() || m.Result() != open {
		t.Fatalf("new: %s now %v result %d", m.Choice(), m.Now(), m.Result())
	}
	for _, c := range []struct {
		keys []string
		want string
	}{
		{[]string{"right"}, "gw-2"}, {[]string{"right", "right"}, "gw-0"}, {[]string{"left", "left"}, "gw-2"},
		{[]string{"tab"}, "gw-2"}, {[]string{"0"}, "gw-0"}, {[]string{"2"}, "gw-2"}, {[]string{"7"}, "gw-1"},
	} {
		if got := press(m, c.keys...).Choice(); got != c.want {
			t.Errorf("%v: %s, want %s", c.keys, got, c.want)
		}
	}
	m = press(m, "right", "up")
	golden.RequireEqual(t, []byte(m.View("in 23 s", "", 100)))
	if !m.Now() || m.Result() != open {
		t.Fatalf("after ↑: now %v, result %d", m.Now(), m.Result())
	}
	m = press(m, "enter")
	if m.Result() != Chosen || m.Choice() != "gw-2" || !m.Now() || m.Duration() != 35*time.Second {
		t.Errorf("after enter: result %d, %s, now %v, %s", m.Result(), m.Choice(), m.Now(), m.Duration())
	}
	if press(New(theme.New(), instances, time.Second, 0), "esc").Result() != Cancelled {
		t.Error("esc does not cancel")
	}
}

// Instances not named name-N are picked by their place, 1 for the first.
func TestADigitPicksByPlaceWhenTheInstancesAreNotNumbered(t *testing.T) {
	m := New(theme.New(), []string{"alpha", "beta", "gamma"}, time.Second, 0)
	if got := press(m, "3").Choice(); got != "gamma" {
		t.Errorf("3 picks %s, want gamma", got)
	}
}

// The course's start is offered first, in full where it fits and shorter where not.
func TestTheCoursesStartIsOfferedFirstAndFitsANarrowLine(t *testing.T) {
	m := New(theme.New(), instances, 35*time.Second, 0)
	wide, narrow := m.View("in 23 s", "", 120), m.View("in 23 s", "", 60)
	golden.RequireEqual(t, []byte(wide+"\n---- 60 cells ----\n"+narrow))
	if !strings.Contains(wide, "[at the next :40, in 23 s, so the hold crosses a minute as in the course]") {
		t.Errorf("wide: %q", wide)
	}
	if !strings.Contains(narrow, "[at :40, in 23 s: the hold crosses a minute, as in the course]") {
		t.Errorf("narrow: %q", narrow)
	}
}

// After a restart the start keeps clear of its catch-up minute, and says so at 80 cells
// with the "now" choice still on the line.
func TestTheCoursesStartSaysWhatItKeepsClearOf(t *testing.T) {
	m := New(theme.New(), instances, 35*time.Second, 0)
	wide, narrow := m.View("in 94 s", "07:16's catch-up", 160), m.View("in 94 s", "07:16's catch-up", 80)
	if !strings.Contains(wide, "[at the next :40, in 94 s, clear of 07:16's catch-up, so the hold crosses a minute as in the course]") {
		t.Errorf("wide: %q", wide)
	}
	last := narrow[strings.LastIndex(narrow, "\n")+1:]
	if !strings.Contains(last, "[at :40, in 94 s, clear of 07:16's catch-up]") || !strings.Contains(last, "now") || ansi.StringWidth(last) > 80 {
		t.Errorf("narrow: %q (%d cells)", last, ansi.StringWidth(last))
	}
}
