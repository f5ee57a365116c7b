package tui

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// TestTheStartsWarningStaysUntilAKey starts with a warning (what labtui could not
// save): once the lab is up the status line shows it, the lab's log lines do not push it
// away, and after a key they show again.
func TestTheStartsWarningStaysUntilAKey(t *testing.T) {
	fb := fakebackend.New()
	t.Cleanup(func() { fb.Close() })
	const warning = "cannot save the recorded hour in /x (permission denied): set XDG_CACHE_HOME to a folder you can write"
	var m tea.Model = New(fb, Config{Warning: warning})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(startedMsg{})
	if s := m.(Model).status; s != warning {
		t.Fatalf("status %q after the start", s)
	}
	mm, _ := m.(Model).apply(backend.Update{Log: "generator started"})
	if mm.status != warning {
		t.Fatalf("a log line replaced the warning: %q", mm.status)
	}
	m, _ = mm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	mm, _ = m.(Model).apply(backend.Update{Log: "hiccup on gw-1 for 35s"})
	if mm.status != "hiccup on gw-1 for 35s" {
		t.Fatalf("after a key the log line did not show: %q", mm.status)
	}
}

// TestAnErrorStaysUntilAKey: a replay that fails (TOPIC_ALREADY_EXISTS on a shared
// cluster) says so on the status line, the lab's next log line does not push it away,
// and after a key log lines show again.
func TestAnErrorStaysUntilAKey(t *testing.T) {
	fb := fakebackend.New()
	t.Cleanup(func() { fb.Close() })
	var m tea.Model = New(fb, Config{})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(startedMsg{})
	m, _ = m.Update(replayedMsg{err: errors.New("create topic gateway-events-replay-1: TOPIC_ALREADY_EXISTS")})
	const want = "replay: create topic gateway-events-replay-1: TOPIC_ALREADY_EXISTS"
	if s := m.(Model).status; s != want {
		t.Fatalf("status %q after the failed replay", s)
	}
	mm, _ := m.(Model).apply(backend.Update{Log: "job 42 is RUNNING"})
	if mm.status != want {
		t.Fatalf("a log line replaced the error: %q", mm.status)
	}
	m, _ = mm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	mm, _ = m.(Model).apply(backend.Update{Log: "generator started"})
	if mm.status != "generator started" {
		t.Fatalf("after a key the log line did not show: %q", mm.status)
	}
}

// TestTheHeaderKeepsTheLateDollarsWholeAt80Columns: the walk's 80x24 header read
// "late dropped 148 ($4.304…"; the wall clock's words give way before the count does.
func TestTheHeaderKeepsTheLateDollarsWholeAt80Columns(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: withJob(status(at("03:21.563"), at("03:21.463")), 148, 4.3043)})
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "late dropped 148 ($4.3043)", "10:03:21.463 · 0.1 s behind")
}
