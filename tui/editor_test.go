package tui

import (
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// burst sends text the way Bubble Tea v1's input reader delivers a burst that is not a
// bracketed paste: each run of letters without a space is one KeyRunes message, a space
// is KeySpace, and a newline is enter. A word such as "end" is then a KeyRunes whose
// String() is "end", the name of a key.
func burst(tm interface{ Send(tea.Msg) }, text string) {
	var word []rune
	flush := func() {
		if len(word) > 0 {
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: word})
			word = nil
		}
	}
	for _, r := range text {
		switch r {
		case ' ':
			flush()
			tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		case '\n':
			flush()
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		default:
			word = append(word, r)
		}
	}
	flush()
}

func TestBurstsOfKeyNamesAreSavedVerbatim(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "running")
	press(tm, "tab")
	press(tm, "enter")
	burst(tm, "past the window end 07:19:59.999")
	// Control keys between the bursts act as keys: to the line's start and back.
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlA})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlE})
	burst(tm, " home up left down tab shift+tab esc enter q g x i r t e ? end\nsecond line pgup pgdown")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlE})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" pasted end"), Paste: true})
	waitFor(t, tm, "pasted end")
	fm, _ := finalView(t, tm)
	want := "past the window end 07:19:59.999 home up left down tab shift+tab esc enter q g x i r t e ? end\n" +
		"second line pgup pgdown pasted end"
	if got := fm.lab.Answers()["4.1a"]; got != want {
		t.Errorf("answer 4.1a =\n%q\nwant\n%q", got, want)
	}
	if !fm.lab.Editing() || fm.focus != areaLab {
		t.Errorf("the burst left the editor: editing %v, focus %v", fm.lab.Editing(), fm.focus)
	}
	for _, c := range fb.Calls() {
		if !strings.EqualFold(c.Method, "Start") {
			t.Errorf("a word in the burst ran as a command: %+v", c)
		}
	}
}

// TestABurstOnTheClosedAnswerIsWrittenNotRun: typed text that reaches labtui as a burst
// while the panel has the focus but no answer is open (the learner did not press enter)
// opens the selected answer and is written into it: its "q", "x" and "r" neither quit,
// kill the job nor replay. The empty answer says to press enter first.
func TestABurstOnTheClosedAnswerIsWrittenNotRun(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "running")
	press(tm, "tab")
	waitFor(t, tm, "enter: write your answer here; it is saved as you type.")
	burst(tm, "Both windows agree, then q x r")
	waitFor(t, tm, "Both windows agree, then q x r")
	press(tm, "esc")
	press(tm, "q")
	fm := tm.FinalModel(t).(Model)
	if got, want := fm.lab.Answers()["4.1a"], "Both windows agree, then q x r"; got != want {
		t.Errorf("answer = %q, want %q", got, want)
	}
	for _, c := range fb.Calls() {
		if c.Method != "Start" && c.Method != "Close" { // Close: the q after esc
			t.Errorf("a word of the burst ran as a command: %+v", c)
		}
	}
}

// TestATabInABurstIsText: a paste without bracketed paste that holds a tab arrives as
// runes, a tab key, then more runes; the tab must not leave the editor, or the rest of the
// answer would run as commands (its "q" quits), and the footer says so. Esc leaves the editor. The answer keeps
// the tab as four spaces: bubbles' textarea cannot hold a tab character.
func TestATabInABurstIsText(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "running")
	press(tm, "tab")
	press(tm, "enter")
	// The footer says what tab does while writing, not that it moves the focus.
	waitFor(t, tm, "tab indents (esc first to move on)")
	burst(tm, "col1")
	press(tm, "tab")
	burst(tm, "col2 q")
	press(tm, "esc")
	press(tm, "q")
	fm := tm.FinalModel(t).(Model)
	if got, want := fm.lab.Answers()["4.1a"], "col1    col2 q"; got != want {
		t.Errorf("answer = %q, want %q", got, want)
	}
}

// TestTheRealInputReaderKeepsABurstVerbatim writes the bytes a terminal sends for
// tab, enter and a pasted sentence into Bubble Tea's own input reader, as tmux
// send-keys -l does, and checks the answer.
func TestTheRealInputReaderKeepsABurstVerbatim(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	t.Cleanup(func() { fb.Close() })
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg := Config{Now: func() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }}
	// The program quits once the esc that ends the burst reaches Update, however long a
	// loaded machine takes to read and parse the burst.
	escaped := make(chan struct{})
	var once sync.Once
	seeEsc := func(_ tea.Model, msg tea.Msg) tea.Msg {
		if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyEsc {
			once.Do(func() { close(escaped) })
		}
		return msg
	}
	p := tea.NewProgram(New(fb, cfg), tea.WithInput(r), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithFilter(seeEsc))
	go func() {
		p.Send(resize(100, 32))
		// Tab to the lab panel, enter to write, the sentence, esc to stop writing.
		if _, err := w.Write([]byte("\t\rpast the window end 07:19:59.999, home up left tab q\x1b")); err != nil {
			t.Error(err)
		}
		select {
		case <-escaped:
		case <-time.After(60 * time.Second): // a hang
			t.Error("the burst's esc never reached the program")
		}
		p.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	}()
	fm, err := p.Run()
	if err != nil {
		t.Fatal(err)
	}
	want := "past the window end 07:19:59.999, home up left tab q"
	if got := fm.(Model).lab.Answers()["4.1a"]; got != want {
		t.Errorf("answer 4.1a = %q, want %q", got, want)
	}
}

func TestTheFilterTakesABurstAsText(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 32)
	waitFor(t, tm, "running")
	press(tm, "/")
	waitFor(t, tm, "filter (tenant, gateway or request id)")
	burst(tm, "home end")
	press(tm, "enter")
	fm, _ := finalView(t, tm)
	if got := fm.inspector.Filter(); got != "home end" {
		t.Errorf("filter = %q", got)
	}
}
