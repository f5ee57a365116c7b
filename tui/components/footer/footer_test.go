package footer

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/tui/theme"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// keyMap is a keymap of the TUI's shape: lab keys, then help and quit last.
type keyMap struct{ groups [][]key.Binding }

func (k keyMap) ShortHelp() []key.Binding {
	var all []key.Binding
	for _, g := range k.groups {
		all = append(all, g...)
	}
	return all
}

func (k keyMap) FullHelp() [][]key.Binding { return k.groups }

func keys() keyMap {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	off := b("x", "kill the job")
	off.SetEnabled(false)
	return keyMap{groups: [][]key.Binding{
		{b("g", "generator"), b("i", "inject a hiccup"), off, b("r", "replay the hour")},
		{b("tab", "focus"), b("↑/↓", "scroll"), b("d", "diff"), b("s", "skew")},
		{b("?", "all keys"), b("q", "quit")},
	}}
}

// Given a status and a keymap wider than the footer, the status line is the status,
// cut to the width, and the keys line keeps as many keys as fit, in order, a disabled
// one never, and always the last two (all keys, quit).
func TestTheKeysLineKeepsHelpAndQuitAtAnyWidth(t *testing.T) {
	m := New(theme.New()).SetWidth(60)
	view := m.View("the generator is on: 20 req/s over gw-0 … gw-2, and this sentence is long", Warn, "", keys())
	golden.RequireEqual(t, []byte(view))
	lines := strings.Split(view, "\n")
	if len(lines) != Height {
		t.Fatalf("%d lines, want %d", len(lines), Height)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("%q is %d cells wide", l, w)
		}
	}
	if !strings.HasSuffix(strings.TrimRight(lines[1], " "), "? all keys  q quit") || strings.Contains(lines[1], "kill the job") {
		t.Errorf("keys line %q: want help and quit last, no disabled key", lines[1])
	}
	for _, w := range []int{20, 30, 200} {
		if l := strings.Split(m.SetWidth(w).View("", Info, "", keys()), "\n")[1]; !strings.Contains(l, "q quit") {
			t.Errorf("at %d cells the keys line %q lost quit", w, l)
		}
	}
}

// A prompt takes the status line; a prompt of two lines takes both.
func TestAPromptTakesTheStatusLine(t *testing.T) {
	m := New(theme.New()).SetWidth(60)
	if got := strings.Split(m.View("status", Info, "answer 4.1: _", keys()), "\n")[0]; strings.TrimRight(got, " ") != "answer 4.1: _" {
		t.Errorf("status line %q, want the prompt", got)
	}
	if got := m.View("status", Info, "first\nsecond", keys()); got != textFit("first", 60)+"\n"+textFit("second", 60) {
		t.Errorf("two-line prompt %q", got)
	}
}

func textFit(s string, w int) string { return s + strings.Repeat(" ", w-len(s)) }

// The help screen lists every enabled key under its group's title, in columns side by
// side when they fit, in two columns when they do not.
func TestFullHelpListsEveryEnabledKeyInColumns(t *testing.T) {
	m := New(theme.New())
	titles := []string{"Lab", "Views", "General"}
	wide := m.FullHelp(keys(), titles, 120)
	narrow := m.FullHelp(keys(), titles, 30)
	golden.RequireEqual(t, []byte(wide+"\n---- 30 cells ----\n"+narrow))
	for _, l := range strings.Split(narrow, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("narrow help line %q is wider than 30", l)
		}
	}
	if strings.Contains(wide, "kill the job") {
		t.Error("a disabled key is listed")
	}
	if first := strings.Split(wide, "\n")[0]; !strings.Contains(first, "Lab") || !strings.Contains(first, "Views") || !strings.Contains(first, "General") {
		t.Errorf("wide help's first line %q: want the three titles side by side", first)
	}
}
