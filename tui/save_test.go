package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func TestExportWritesAnswersAndEvidence(t *testing.T) {
	// Export to the current directory, as labtui does by default.
	dir, wd := t.TempDir(), mustGetwd(t)
	t.Chdir(dir)
	script := courseScript()
	fb := fakebackend.New(script[:2]...)
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "running", "09:59")
	fb.Send(backend.Update{Status: hiccupStatus(at("00:40"), 35*time.Second, 0)})
	waitFor(t, tm, "HICCUP")
	for _, u := range script[2:] {
		fb.Send(u)
	}
	waitFor(t, tm, "02:01.500")
	press(tm, "tab")
	press(tm, "down")
	press(tm, "enter")
	tm.Type("No: r-103 and r-104 were dropped as late.")
	press(tm, "esc")
	press(tm, "e")
	waitFor(t, tm, "exported")
	_, view := finalView(t, tm)
	if err := os.Chdir(wd); err != nil { // back to the package, where testdata is
		t.Fatal(err)
	}
	teatest.RequireEqualOutput(t, []byte(view))

	md, err := os.ReadFile(filepath.Join(dir, export.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**4.2a** Does the event-time window still receive the burst under for_monotonous_timestamps()?\n\nNo: r-103 and r-104 were dropped as late.",
		"| 4.2 | yes | run 1: start, completed_ts, for_monotonous_timestamps() (your pick) |",
		"**Evidence (found, from run 1: start, completed_ts, for_monotonous_timestamps()):** In run 1 (start, completed_ts), gw-1 was held 10:00:40–10:01:15, " +
			"across the 10:01 boundary: 2 of its records ($0.2000) arrived at 10:01:11 behind the watermark",
		"| 10:01 | acme | $0.4000 (4) | $0.2000 (2) | differs |",
		"| r-103 | acme | gw-1 | 10:00:44.000 | 10:01:11.000 | 10:01:09.000 | 0.1000 |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the markdown lacks %q:\n%s", want, md)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, export.JSONFile)); err != nil {
		t.Error(err)
	}
}

func TestTypedAnswersSurviveQuitAndRestart(t *testing.T) {
	store := state.NewStore(t.TempDir())
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{Store: store}, 80, 24)
	waitFor(t, tm, "running")
	press(tm, "tab")
	press(tm, "enter")
	tm.Type("They agree to the cent.")
	waitFor(t, tm, "to the cent.")
	// Quit while still writing: nothing may be lost.
	press(tm, "ctrl+c")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(Model)
	if !fm.Closed() {
		t.Error("quitting did not close the backend")
	}
	select {
	case <-fb.Closed():
	default:
		t.Error("the backend was not closed")
	}

	saved, found, err := state.NewStore(store.Dir()).Load()
	if err != nil || !found || saved.Answers["4.1a"] != "They agree to the cent." {
		t.Fatalf("saved = %+v, %v, %v", saved.Answers, found, err)
	}

	fb2 := fakebackend.New()
	cfg2 := Config{Store: store, Saved: &saved}
	log2 := logTo(&cfg2)
	tm2 := start(t, fb2, cfg2, 80, 24)
	waitFor(t, tm2, "Continue with the answers")
	waitLogged(t, log2, "lab is running") // or the start's line can hide "restored", and is in the golden
	press(tm2, "y")
	waitFor(t, tm2, "restored 1 answer")
	press(tm2, "tab")
	waitFor(t, tm2, "They agree to the cent.")
	fm2, view := finalView(t, tm2)
	if got := fm2.lab.Answers()["4.1a"]; got != "They agree to the cent." {
		t.Errorf("restored answer = %q", got)
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

func TestStartingFreshKeepsTheOldAnswersAside(t *testing.T) {
	store := state.NewStore(t.TempDir())
	old := state.New()
	old.Revision = 9
	old.Answers["4.3b"] = "one enormous minute"
	store.Save(old)
	saved, _, _ := store.Load()
	fb := fakebackend.New()
	cfg := Config{Store: store, Saved: &saved}
	log := logTo(&cfg)
	tm := start(t, fb, cfg, 80, 24)
	waitFor(t, tm, "Continue with the answers")
	// The lab's start says it is running in the status line: taken after n, it replaced
	// "starting fresh" before a frame drew it, and the wait for that line timed out.
	waitLogged(t, log, "lab is running")
	press(tm, "n")
	waitFor(t, tm, "starting fresh")
	press(tm, "tab")
	press(tm, "enter")
	tm.Type("new")
	// Each key saves; finalView stops the program without the quit path's save, so wait
	// for the last key's write (a fixed 200 ms was too short on a loaded machine).
	waitUntil(t, func() bool {
		st, _, _ := state.NewStore(store.Dir()).Load()
		return st.Answers["4.1a"] == "new"
	})
	finalView(t, tm)
	got, _, _ := state.NewStore(store.Dir()).Load()
	if got.Answers["4.1a"] != "new" || got.Answers["4.3b"] != "" {
		t.Errorf("answers after a fresh start = %+v", got.Answers)
	}
	bak, err := os.ReadFile(store.Path() + ".1.bak")
	if err != nil || !strings.Contains(string(bak), "one enormous minute") {
		t.Errorf("the old answers were not kept aside: %v", err)
	}
}

func TestAutosaveWritesSoonAfterTyping(t *testing.T) {
	store := state.NewStore(t.TempDir())
	fb := fakebackend.New()
	tm := start(t, fb, Config{Store: store}, 80, 24)
	press(tm, "tab")
	press(tm, "enter")
	tm.Type("draft")
	waitUntil(t, func() bool { // each key saves at once: the bound only stops a hang
		st, _, _ := state.NewStore(store.Dir()).Load()
		return st.Answers["4.1a"] == "draft"
	})
	finalView(t, tm)
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// TestEveryPauseOfTypingIsOnDisk drives the model key by key, as a kill -9 would find it
// between two keys: the key's own command writes the answer (no timer first), keys that
// come while that write runs are written together as soon as it returns, and nothing
// typed is left only in memory once the writes are done.
func TestEveryPauseOfTypingIsOnDisk(t *testing.T) {
	store := state.NewStore(t.TempDir())
	fb := fakebackend.New()
	t.Cleanup(func() { fb.Close() })
	var m tea.Model = New(fb, Config{Store: store})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	saved := func() string {
		st, _, _ := state.NewStore(store.Dir()).Load()
		return st.Answers["4.1a"]
	}

	m, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	done, ok := savedBy(cmd)
	if !ok || saved() != "a" {
		t.Fatalf("after the first key the file holds %q (a save ran: %v)", saved(), ok)
	}
	// Two keys while that write is (as far as the model knows) still running: no
	// second writer, and both go out with the next write.
	for _, r := range "bc" {
		var c tea.Cmd
		m, c = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		if _, ok := savedBy(c); ok {
			t.Fatalf("key %q started a second write while one was running", r)
		}
	}
	_, cmd = m.Update(done)
	if _, ok := savedBy(cmd); !ok || saved() != "abc" {
		t.Fatalf("after the first write returned the file holds %q", saved())
	}
}

// savedBy runs cmd and everything it batches or sequences, each for at most 30 s, and
// returns the savedMsg one of them returned. The bound only leaves a command that never
// returns (a listener); a key's commands are the save alone, and a save (its fsync) on
// a loaded machine may take far longer than the 2 s this waited before.
func savedBy(cmd tea.Cmd) (tea.Msg, bool) {
	if cmd == nil {
		return nil, false
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(30 * time.Second):
		return nil, false
	}
	if s, ok := msg.(savedMsg); ok {
		return s, true
	}
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice { // tea.BatchMsg, and Sequence's unexported message
		for i := range v.Len() {
			if c, ok := v.Index(i).Interface().(tea.Cmd); ok {
				if s, ok := savedBy(c); ok {
					return s, true
				}
			}
		}
	}
	return nil, false
}

// TestTypingRightAfterAFreshStartLosesNothing types an answer before the fresh start's
// archive has run (it runs off the TUI's loop): the old answers must end up aside and
// the new one in the file, whatever order the archive and the key's save take.
func TestTypingRightAfterAFreshStartLosesNothing(t *testing.T) {
	store := state.NewStore(t.TempDir())
	old := state.New()
	old.Revision = 9
	old.Answers["4.3b"] = "one enormous minute"
	if _, err := store.Save(old); err != nil {
		t.Fatal(err)
	}
	saved, _, _ := store.Load()
	fb := fakebackend.New()
	t.Cleanup(func() { fb.Close() })
	var m tea.Model = New(fb, Config{Store: store, Saved: &saved})
	m, _ = m.Update(resize(80, 24))
	m, archive := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	if archive == nil {
		t.Fatal("starting fresh did not move the saved answers aside")
	}
	// The archive has not run yet when the learner types.
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	m, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if msg, ok := savedBy(cmd); ok {
		m, _ = m.Update(msg)
	}
	m, cmd = m.Update(archive())
	if msg, ok := savedBy(cmd); ok {
		m, _ = m.Update(msg)
	}

	if data, rerr := os.ReadFile(store.Path() + ".1.bak"); rerr != nil || !strings.Contains(string(data), "one enormous minute") {
		t.Errorf("the old answers were not kept aside: %v\n%s", rerr, data)
	}
	got, found, err := state.NewStore(store.Dir()).Load()
	if err != nil || !found || got.Answers["4.1a"] != "x" || got.Answers["4.3b"] != "" {
		t.Errorf("answers after a fresh start = %+v (found %v, %v)", got.Answers, found, err)
	}
	if !m.(Model).CanSave() {
		t.Error("saving is still off after the archive finished")
	}
}
