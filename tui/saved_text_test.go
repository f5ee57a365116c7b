package tui

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/export"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func TestAnAnswerToAQuestionNotAskedIsKeptAndSaid(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/"+state.FileName, []byte(`{"version":1,"answers":{"4.1a":"asked","9.9z":"from another version"}}`), 0o644)
	store := state.NewStore(dir)
	saved, _, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: store, Saved: &saved}
	log := logTo(&cfg)
	tm := start(t, fakebackend.New(), cfg, 160, 48)
	waitFor(t, tm, "Continue with the answers")
	waitLogged(t, log, "lab is running") // or its line can take the status line from what y says
	press(tm, "y")
	waitFor(t, tm, "this lab does not ask (9.9z)")
	press(tm, "tab")
	press(tm, "enter")
	tm.Type(" and typed")
	// finalView stops the program without the quit path's save: wait for the last key's
	// own write (a fixed 300 ms was too short on a loaded machine).
	waitUntil(t, func() bool {
		st, _, _ := state.NewStore(dir).Load()
		return strings.Contains(st.Answers["4.1a"], "typed")
	})
	finalView(t, tm)

	got, _, _ := state.NewStore(dir).Load()
	if got.Answers["9.9z"] != "from another version" {
		t.Errorf("the answer to 9.9z was dropped on the next save: %+v", got.Answers)
	}
	if !strings.Contains(got.Answers["4.1a"], "typed") {
		t.Errorf("the typed answer was not saved: %+v", got.Answers)
	}
}

func TestAControlCharacterInASavedAnswerIsTheSameInTheTUIAndOnTheSheet(t *testing.T) {
	dir := t.TempDir()
	// A NUL and a byte that is not UTF-8, as a hand edit or another tool may leave.
	os.WriteFile(dir+"/"+state.FileName, []byte("{\"version\":1,\"answers\":{\"4.1a\":\"be\\u0000fore \xff after\"}}"), 0o644)
	store := state.NewStore(dir)
	saved, _, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: store, Saved: &saved}
	log := logTo(&cfg)
	tm := start(t, fakebackend.New(), cfg, 160, 48)
	waitFor(t, tm, "Continue with the answers")
	waitLogged(t, log, "lab is running") // or its line can take the status line from what y says
	press(tm, "y")
	waitFor(t, tm, "restored 1 answer")
	fm, _ := finalView(t, tm)

	inTUI := fm.lab.Answers()["4.1a"]
	if inTUI != `be\x00fore \ufffd after` {
		t.Errorf("the TUI holds %q: the NUL or the bad byte was dropped, not shown", inTUI)
	}
	md := export.Markdown(export.Build(saved, time.Unix(0, 0)))
	if !strings.Contains(md, `be\\x00fore \\ufffd after`) {
		t.Errorf("the sheet does not show the answer as the TUI does (%q):\n%s", inTUI, md)
	}
}
