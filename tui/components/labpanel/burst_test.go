package labpanel

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/tui/theme"
)

// TestTheClosedAnswerNamesTheKeyThatOpensIt: the empty answer's placeholder names the
// key the key map opens it with while it is closed, and says to type once it is open.
func TestTheClosedAnswerNamesTheKeyThatOpensIt(t *testing.T) {
	keys := DefaultKeyMap()
	keys.Edit = key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "write the answer"))
	m := New(theme.New(), keys, nil).SetSize(100, 20).SetFocused(true)
	if v := m.View(); !strings.Contains(v, "a: write your answer here; it is saved as you type.") {
		t.Fatalf("closed answer:\n%s", v)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	if !m.Editing() {
		t.Fatal("a did not open the answer")
	}
	if v := m.View(); !strings.Contains(v, writingPlaceholder) {
		t.Fatalf("open answer:\n%s", v)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if v := m.View(); m.Editing() || !strings.Contains(v, "a: write your answer here") {
		t.Fatalf("esc: editing %v\n%s", m.Editing(), v)
	}
}

// TestABurstOpensTheClosedAnswerAndAKeyDoesNot: several runes in one message, or a
// paste, open the selected answer and go into it whole; one rune, an alt+rune or a
// space is a key, and leaves the answer closed.
func TestABurstOpensTheClosedAnswerAndAKeyDoesNot(t *testing.T) {
	for _, tc := range []struct {
		msg   tea.KeyMsg
		burst bool
	}{
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("late")}, true},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q"), Paste: true}, true},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}, false},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("xy"), Alt: true}, false},
		{tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}, false},
		{tea.KeyMsg{Type: tea.KeyDown}, false},
	} {
		if got := IsBurst(tc.msg); got != tc.burst {
			t.Errorf("IsBurst(%q) = %v, want %v", tc.msg.String(), got, tc.burst)
		}
		m := New(theme.New(), DefaultKeyMap(), nil).SetSize(100, 20).SetFocused(true)
		m, _ = m.Update(tc.msg)
		if m.Editing() != tc.burst {
			t.Errorf("%q: editing %v, want %v", tc.msg.String(), m.Editing(), tc.burst)
		}
		if want := map[bool]string{true: string(tc.msg.Runes)}[tc.burst]; m.Answers()["4.1a"] != want {
			t.Errorf("%q: answer %q, want %q", tc.msg.String(), m.Answers()["4.1a"], want)
		}
	}
}
