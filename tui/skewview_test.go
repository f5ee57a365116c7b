package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// liveBurst is the seed burst as the live lab shows it: gw-1 held from 10:00:40 to
// 10:01:15 (the status says so), the records as the job met them at the pace they were
// recorded, and the windows still open in the last status.
func liveBurst(t testing.TB) []backend.Update {
	t.Helper()
	rs, err := reference(seedBurst, jobspec.CompletedTS)
	if err != nil {
		t.Fatal(err)
	}
	var results, open []jobspec.Result
	for _, r := range rs {
		if r.Kind == jobspec.PendingResult {
			open = append(open, r)
		} else {
			results = append(results, r)
		}
	}
	return []backend.Update{
		{Status: status(at("00:30"), at("00:29"))},
		{Status: hiccupStatus(at("00:40"), 35*time.Second, 0)},
		{Status: hiccupStatus(at("01:00"), 15*time.Second, 2)},
		{Status: status(at("01:15"), at("01:08.999"))},
		{Results: results, Status: status(at("01:40"), at("01:39"), open...)},
	}
}

func TestSkewViewDrawsTheRunWithTheHiccupMarked(t *testing.T) {
	fb := fakebackend.New(liveBurst(t)...)
	tm := start(t, fb, Config{Recording: seedBurst}, 120, 40)
	waitFor(t, tm, "10:01:39.000")
	press(tm, "s")
	waitFor(t, tm, "6 records", "flush 10:01:15")
	fm, view := finalView(t, tm)
	teatest.RequireEqualOutput(t, []byte(view))
	for _, want := range []string{"skew · run 1 · start · completed_ts · 6 records", "gw-1 held apart", "hiccup 10:00:40",
		"◂hiccup", "◂flush", "x event time · y processing time · 6 records"} {
		if !strings.Contains(view, want) {
			t.Errorf("the skew view lacks %q", want)
		}
	}
	if !strings.ContainsAny(view, "⠁⠂⠄⡀⠈⠐⠠⢀") {
		t.Error("the skew view has no braille dots")
	}
	if fm.view != viewSkew {
		t.Errorf("view = %d", fm.view)
	}
}

func TestSkewViewRedrawsAtANewSize(t *testing.T) {
	m := New(fakebackend.New(), Config{})
	m = update(t, m, resize(120, 40))
	for _, u := range liveBurst(t) {
		m, _ = m.apply(u)
	}
	m = update(t, m, keyPress("s"))
	if w, h := m.skewView.DrawnSize(); w != 120 {
		t.Fatalf("drawn at %dx%d", w, h)
	}
	m = update(t, m, resize(90, 30))
	if w, h := m.skewView.PictureSize(); m.skewView.Stale() || w != 90 {
		dw, dh := m.skewView.DrawnSize()
		t.Fatalf("drawn at %dx%d for a view of %dx%d", dw, dh, w, h)
	}
	for i, l := range strings.Split(m.View(), "\n") {
		if w := len([]rune(l)); w != 90 {
			t.Errorf("line %d is %d cells wide after the resize: %q", i, w, l)
		}
	}
}

func TestSkewViewWaitsForRecords(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	tm := start(t, fb, Config{}, 100, 30)
	waitFor(t, tm, "running")
	press(tm, "s")
	waitFor(t, tm, "no record has reached the windows")
	press(tm, "s")
	waitFor(t, tm, "TumblingEventTimeWindows")
	finalView(t, tm)
}

// update runs msg through m, then every command it returns, and their messages in
// turn, as the program would, but for the open views' ticks (they would go on for ever).
func update(t testing.TB, m Model, msg tea.Msg) Model {
	t.Helper()
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		mm, cmd := m.Update(queue[0])
		m, queue = mm.(Model), queue[1:]
		for _, msg := range run(t, cmd) {
			if _, tick := msg.(viewTickMsg); !tick {
				queue = append(queue, msg)
			}
		}
	}
	return m
}

// run runs a command and the batches in it, and returns their messages.
func run(t testing.TB, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(t, c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

func keyPress(k string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)} }

func TestAReplaysHeldGatewayIsTheOneHeldInItsReferenceRun(t *testing.T) {
	m := New(fakebackend.New(), Config{Recording: seedBurst, Reenact: testReenact})
	m.sess.ReplayAsked(m.cfg.Recording, jobspec.CompletedTS)
	m, _ = m.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	run := m.sess.Current()
	if o, withRef := m.sess.SkewOptions(run); o.Far != session.NoneHeld || o.Held != "" || withRef {
		t.Fatalf("without a reference: %+v", o)
	}
	// The replay finishes: the session re-enacts the recording for its reference.
	m = finishTasks(m, m.sess.Apply(backend.Update{Replay: &backend.ReplayProgress{Path: seedBurst, Done: true}}))
	if o, withRef := m.sess.SkewOptions(run); o.Held != "gw-1" || !withRef {
		t.Errorf("held = %q (from the reference: %v), want gw-1 (r-103 and r-104 arrived half a minute late in the live run)", o.Held, withRef)
	}
	// The next replay lets go of the re-enactment's results while it reads; the held
	// gateway stays.
	m, _ = m.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS}})
	if o, withRef := m.sess.SkewOptions(m.sess.Current()); o.Held != "gw-1" || !withRef {
		t.Errorf("during the next replay: held = %q (from the reference: %v), want gw-1", o.Held, withRef)
	}
}
