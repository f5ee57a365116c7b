package tui

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// longStatus is a status as long as the one the walk saw cut at 80 and at 160 columns.
const longStatus = "run 4 is not a replay (r replays with this strategy, t with the other field): the job restarted on " +
	"the replay's topic and reads the recorded hour again from the earliest offset, with no replay progress and no comparison"

// TestALongStatusWrapsOntoLinesThePanesGiveUp: a status longer than its line was cut
// with "…", the rest only in the log (issue 22, item 8). At 80x24, with the panes or
// the lab panel focused, and at 160x48, it wraps onto lines the panes give up, whole, the
// screen its height; the next short status gives the lines back.
func TestALongStatusWrapsOntoLinesThePanesGiveUp(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		keys []string
	}{{"80x24", 80, 24, nil}, {"80x24, lab panel focused", 80, 24, []string{"tab"}}, {"160x48", 160, 48, nil}} {
		t.Run(c.name, func(t *testing.T) {
			fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))}, backend.Update{Log: longStatus})
			var cfg Config
			log := logTo(&cfg)
			tm := start(t, fb, cfg, c.w, c.h)
			waitLogged(t, log, "no comparison")
			for _, k := range c.keys {
				press(tm, k)
			}
			fm, view := finalView(t, tm)
			lines := strings.Split(view, "\n")
			if len(lines) != c.h {
				t.Errorf("%d lines, want %d:\n%s", len(lines), c.h, view)
			}
			var words []string
			for _, l := range lines {
				words = append(words, strings.Fields(l)...)
			}
			if !strings.Contains(strings.Join(words, " "), longStatus) {
				t.Errorf("the status is not on screen whole:\n%s", view)
			}
			if !strings.Contains(view, "processing time") {
				t.Errorf("the panes gave up all their lines:\n%s", view)
			}
			short := fm.say(0, "marked")
			if short.layout.statusLines != 1 || short.layout.panesH != fm.layout.panesH+fm.layout.statusLines-1 {
				t.Errorf("a short status after it: %d status lines, panes %d (were %d with %d)", short.layout.statusLines,
					short.layout.panesH, fm.layout.panesH, fm.layout.statusLines)
			}
		})
	}
}

// TestARestartSetsOneStatusAndLogsEverySentence: a kill on a replay's topic has three
// things to say (the restart, the kill, what the run is not); the status line shows the
// last, the one that matters most (the replay took over the first run, so the kill's is
// run 2), and the log keeps all three in order.
func TestARestartSetsOneStatusAndLogsEverySentence(t *testing.T) {
	var cfg Config
	log := logTo(&cfg)
	m := New(fakebackend.New(), cfg)
	m = update(t, m, resize(160, 48))
	m, _ = m.apply(backend.Update{Run: 2, Restarted: &backend.Restart{Run: 2, Cause: backend.CauseReplay, Reason: "replay",
		Timestamp: jobspec.CompletedTS, Recording: "/cache/hour.jsonl", At: at("01:00")}})
	m, _ = m.apply(backend.Update{Run: 3, Restarted: &backend.Restart{Run: 3, Cause: backend.CauseKill, Reason: "killed",
		Timestamp: jobspec.CompletedTS, Recording: "/cache/hour.jsonl", At: at("02:00")}})
	if !strings.HasPrefix(m.status, "run 2 is not a replay") {
		t.Errorf("the status line says %q, want run 2's note", m.status)
	}
	logged := log.String()
	restarted := strings.Index(logged, "the job restarted (killed) reading completed_ts: the panes show run 2")
	killed := strings.Index(logged, "run 2: job killed, restarted with empty state")
	note := strings.Index(logged, "run 2 is not a replay")
	if restarted < 0 || killed < restarted || note < killed {
		t.Errorf("the log lacks a sentence, or has them out of order:\n%s", logged)
	}
}
