package tui

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/testkit"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// testReenact is the Reenact cli gives the TUI: the recording at its recorded times.
func testReenact(ctx context.Context, path string, job jobspec.Options) ([]jobspec.Result, error) {
	return reenact.Results(ctx, path, reenact.Config{Pace: reenact.Recorded, Job: job})
}

// reference is the seed burst's (or any recording's) reference run with field.
func reference(path string, field jobspec.TimestampField) ([]jobspec.Result, error) {
	return testReenact(context.Background(), path, jobspec.Options{Trace: true, Timestamp: field})
}

// finishTasks runs the session's tasks to the end, as the update loop would.
func finishTasks(m Model, tasks []session.Task) Model {
	m.sess.RunTasks(context.Background(), tasks)
	return m
}

// t0 is 10:00:00.000 UTC, the minute of the course's table.
const t0 int64 = 1795946400000

// at returns t0 plus a clock offset like "01:09.5" (minutes:seconds).
func at(minSec string) int64 {
	d, err := time.ParseDuration(strings.Replace(minSec, ":", "m", 1) + "s")
	if err != nil {
		panic(err)
	}
	return t0 + d.Milliseconds()
}

// fired is a TenantCostMinute from one of the windows, for minute m (minutes after t0).
func fired(kind jobspec.Kind, tenant string, m int64, usd float64, n int64) jobspec.Result {
	return jobspec.Result{Kind: kind, At: t0 + (m+1)*60000, Minute: gateway.TenantCostMinute{TenantID: tenant,
		WindowStart: t0 + m*60000, WindowEnd: t0 + (m+1)*60000, USD: usd, Requests: n}}
}

// both fires minute m for tenant in both panes with the same value.
func both(tenant string, m int64, usd float64, n int64) []jobspec.Result {
	return []jobspec.Result{fired(jobspec.ProcessingTimeResult, tenant, m, usd, n), fired(jobspec.EventTimeResult, tenant, m, usd, n)}
}

// open is a window still open with its running total.
func open(window jobspec.Kind, tenant string, m int64, usd float64, n int64) jobspec.Result {
	r := fired(window, tenant, m, usd, n)
	r.Kind, r.Window = jobspec.PendingResult, window
	return r
}

// late is a record the event-time window dropped.
func late(id, tenant, gw string, ts, wm int64, usd float64) jobspec.Result {
	return jobspec.Result{Kind: jobspec.LateResult, Record: jobspec.RecordTrace{RequestID: id, TenantID: tenant, Gateway: gw,
		Timestamp: ts, Watermark: wm, Arrival: wm + 2000, USD: usd, Late: true}}
}

// status is a lab with three instances, the generator on, at now with watermark wm.
func status(now, wm int64, openWindows ...jobspec.Result) *backend.Status {
	return &backend.Status{
		Now: now, Backend: "fake", Broker: "127.0.0.1:9092", Generator: true, Watermark: wm,
		Instances: []backend.Instance{
			{Name: "gw-0", Rate: 6.7}, {Name: "gw-1", Rate: 6.7}, {Name: "gw-2", Rate: 6.6},
		},
		Open: openWindows,
	}
}

// courseScript is the course's hiccup as the panes see it: two prompt minutes, then
// gw-1 held from 10:00:40 to 10:01:15, r-103 and r-104 dropped as late, and the 10:01
// minute billed differently by the two windows.
func courseScript() []backend.Update {
	var prompt []jobspec.Result
	for _, m := range []int64{-2, -1} {
		prompt = append(prompt, both("acme", m, 0.3, 3)...)
		prompt = append(prompt, both("globex", m, 0.1234, 2)...)
	}
	return []backend.Update{
		{Status: status(at("00:05"), at("00:04"))},
		{Results: prompt},
		{Status: held(status(at("00:40"), at("00:39")))},
		{Status: status(at("01:15"), at("01:08.999"))},
		{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 0, 0.2, 2), fired(jobspec.ProcessingTimeResult, "globex", 0, 0.05, 1)}},
		{Results: []jobspec.Result{
			fired(jobspec.EventTimeResult, "acme", 0, 0.2, 2), fired(jobspec.EventTimeResult, "globex", 0, 0.05, 1),
			late("r-103", "acme", "gw-1", at("00:44"), at("01:09"), 0.1),
			late("r-104", "acme", "gw-1", at("00:52"), at("01:09"), 0.1),
		}},
		{Results: []jobspec.Result{fired(jobspec.ProcessingTimeResult, "acme", 1, 0.4, 4), fired(jobspec.EventTimeResult, "acme", 1, 0.2, 2)}},
		{Status: withJob(status(at("02:03"), at("02:01.5"),
			open(jobspec.ProcessingTimeResult, "acme", 2, 0.1, 1), open(jobspec.EventTimeResult, "acme", 2, 0.1, 1),
			open(jobspec.ProcessingTimeResult, "globex", 2, 0.0412, 1)), 2, 0.2)},
	}
}

// held is s with gw-1 held by a hiccup.
func held(s *backend.Status) *backend.Status {
	s.Instances[1].Hiccup, s.Instances[1].HiccupLeft = true, 35*time.Second
	return s
}

func withJob(s *backend.Status, late int64, usd float64) *backend.Status {
	s.Job.Late, s.Job.LateUSD = late, usd
	return s
}

// start runs a model over fb in a w x h terminal.
func start(t *testing.T, fb *fakebackend.Backend, cfg Config, w, h int) *teatest.TestModel {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }
	}
	if cfg.Reenact == nil {
		cfg.Reenact = testReenact
	}
	if cfg.Clock == nil {
		cfg.Clock = newTestClock(time.UnixMilli(at("00:25")))
	}
	tm := teatest.NewTestModel(t, New(fb, cfg), teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() { fb.Close() })
	return tm
}

// teatestStart is start for a backend b that wraps the fake fb (to add an interface).
func teatestStart(t *testing.T, b backend.Backend, fb *fakebackend.Backend, cfg Config, w, h int) *teatest.TestModel {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) }
	}
	if cfg.Clock == nil {
		cfg.Clock = newTestClock(time.UnixMilli(at("00:25")))
	}
	tm := teatest.NewTestModel(t, New(b, cfg), teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() { fb.Close() })
	return tm
}

// waitFor waits until the screen shows every one of texts. It returns as soon as they
// show; the 30 s bound is for a loaded CI machine, where go test runs packages side by
// side and an export's picture alone has taken over 5 s.
func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	var seen []byte
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		seen = append(seen, b...)
		for _, s := range texts {
			if !bytes.Contains(seen, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// waitUntil waits until cond holds, checking every 10 ms. The 60 s bound only stops a
// hang: cond usually holds in milliseconds, but a loaded CI machine (load average 14 on
// two cores) has stalled a test's goroutines for seconds.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			n := runtime.Stack(buf, true)
			t.Fatalf("condition not met in 60s; goroutines:\n%s", buf[:n])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// logTo gives cfg a Logger the test can read while the model runs. It holds every line
// the status line said, whether or not a frame drew it before the next one took its
// place.
func logTo(cfg *Config) *testkit.SyncBuffer {
	log := new(testkit.SyncBuffer)
	cfg.Logger = slog.New(slog.NewTextHandler(log, nil))
	return log
}

// waitLogged waits until log holds every one of texts. A key sent after it returns is
// taken after the messages that said them: so what the lab's start says (it is running,
// its job restarted) cannot take the status line from what the key says before a frame
// draws that.
func waitLogged(t *testing.T, log *testkit.SyncBuffer, texts ...string) {
	t.Helper()
	waitUntil(t, func() bool {
		s := log.String()
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// finalView stops the program without its quit path and returns the last screen.
func finalView(t *testing.T, tm *teatest.TestModel) (Model, string) {
	t.Helper()
	tm.Send(tea.Quit())
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(60*time.Second)).(Model)
	return fm, fm.View()
}

// press sends one key press, by name ("tab", "enter", "esc", "ctrl+c") or as runes.
func press(tm *teatest.TestModel, k string) {
	switch k {
	case "tab":
		tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	case "shift+tab":
		tm.Send(tea.KeyMsg{Type: tea.KeyShiftTab})
	case "enter":
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	case "esc":
		tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	case "ctrl+c":
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	case "up":
		tm.Send(tea.KeyMsg{Type: tea.KeyUp})
	case "down":
		tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	case "left":
		tm.Send(tea.KeyMsg{Type: tea.KeyLeft})
	case "right":
		tm.Send(tea.KeyMsg{Type: tea.KeyRight})
	default:
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
}

// resize is the message a terminal resize sends.
func resize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
