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

// A status longer than its line wraps onto the lines the screen gives it (StatusLines
// says how many it asks), whole, the keys under it; given fewer, its last line is cut
// with "…". A prompt then takes the status's last line and leaves the others blank, so
// the footer keeps its height.
func TestALongStatusWrapsOntoTheLinesItIsGiven(t *testing.T) {
	const status = "run 4 is not a replay (r replays with this strategy, t with the other field): the job restarted on the replay's topic and reads the recorded hour again"
	m := New(theme.New()).SetWidth(60)
	if n := m.StatusLines(status); n != 3 {
		t.Fatalf("StatusLines = %d, want 3 at 60 cells", n)
	}
	if n := m.StatusLines("short"); n != 1 {
		t.Errorf("StatusLines of a short status = %d", n)
	}
	whole := m.SetStatusLines(3)
	lines := strings.Split(whole.View(status, Warn, "", keys()), "\n")
	if len(lines) != 4 || whole.lineCount() != 4 || !strings.Contains(lines[3], "q quit") {
		t.Fatalf("3 status lines and the keys, got:\n%s", strings.Join(lines, "\n"))
	}
	var words []string
	for _, l := range lines[:3] {
		if ansi.StringWidth(l) != 60 || strings.Contains(l, "…") {
			t.Errorf("line %q: want 60 cells, not cut", l)
		}
		words = append(words, strings.Fields(l)...)
	}
	if got := strings.Join(words, " "); got != status {
		t.Errorf("the status reads %q", got)
	}
	two := strings.Split(m.SetStatusLines(2).View(status, Info, "", keys()), "\n")
	if len(two) != 3 || !strings.HasSuffix(strings.TrimRight(two[1], " "), "…") {
		t.Errorf("given 2 lines:\n%s", strings.Join(two, "\n"))
	}
	prompt := strings.Split(whole.View(status, Info, "answer 4.1: _", keys()), "\n")
	if len(prompt) != 4 || strings.TrimSpace(prompt[0]+prompt[1]) != "" || strings.TrimSpace(prompt[2]) != "answer 4.1: _" {
		t.Errorf("a prompt over a 3-line status:\n%s", strings.Join(prompt, "\n"))
	}
}

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
