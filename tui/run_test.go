package tui

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/internal/testkit"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// TestRunQuitsCleanlyAndLeavesNoGoroutine drives Run as labtui does, through a pipe for
// a keyboard: q closes the backend (a replay in flight is cancelled), the answers are
// saved, and no goroutine Run started is left.
func TestRunQuitsCleanlyAndLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	replaying := make(chan struct{})
	fb.ReplayFn = func(ctx context.Context, _ string, _ jobspec.TimestampField) error {
		close(replaying)
		<-ctx.Done() // a replay runs until quitting cancels it
		return ctx.Err()
	}
	recording := t.TempDir() + "/hour.jsonl.gz"
	if err := state.WriteFileAtomic(recording, []byte("x")); err != nil {
		t.Fatal(err)
	}
	store := state.NewStore(t.TempDir())
	in, keys := io.Pipe()
	var logs testkit.SyncBuffer
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), fb, Config{Store: store, Recording: recording}, &logs,
			tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	}()
	// Keys before the lab has started are refused, so wait until the model has taken
	// the start (a fixed 100 ms after Start was called is not that, on a loaded machine).
	waitLogged(t, &logs, "lab is running")
	keys.Write([]byte("r"))
	select {
	case <-replaying:
	case <-time.After(60 * time.Second): // a hang
		t.Fatal("r did not start a replay")
	}
	keys.Write([]byte("q"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(60 * time.Second): // a hang
		t.Fatal("Run did not return after q")
	}
	keys.Close()
	select {
	case <-fb.Closed():
	default:
		t.Error("the backend was not closed")
	}
	if _, found, _ := store.Load(); !found {
		t.Error("nothing was saved at quit")
	}
	if !strings.Contains(logs.String(), "replaying") {
		t.Errorf("the log lacks the replay:\n%s", logs.String())
	}
	waitUntil(t, func() bool { return runtime.NumGoroutine() <= before })
}

// TestNoColorMeansNoColorEscapes runs labtui on a colour terminal profile with NO_COLOR
// set: afterwards the screen it draws holds no escape sequence at all, the differing rows
// still marked in text.
func TestNoColorMeansNoColorEscapes(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	fb := fakebackend.New()
	in, keys := io.Pipe()
	var out testkit.SyncBuffer
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), fb, Config{}, nil, tea.WithInput(in), tea.WithOutput(&out), tea.WithoutSignalHandler())
	}()
	waitUntil(t, func() bool { return len(fb.Called("Start")) == 1 })
	keys.Write([]byte("q"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	keys.Close()

	m := New(fakebackend.New(), Config{})
	mm, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = mm.(Model)
	for _, u := range courseScript() {
		m, _ = m.apply(u)
	}
	view := m.View()
	if strings.Contains(view, "\x1b[") {
		t.Errorf("the screen has escape sequences under NO_COLOR: %q", view)
	}
	if !strings.Contains(view, "≠ 10:01  acme") {
		t.Errorf("the differing row is not marked in text:\n%s", view)
	}
}

// TestSIGTERMSavesWhatWasJustTyped ends Run as SIGTERM does (labtui's context is
// cancelled) a moment after the last key: the answer is in the saved file.
func TestSIGTERMSavesWhatWasJustTyped(t *testing.T) {
	fb := fakebackend.New(backend.Update{Status: status(at("00:10"), at("00:09"))})
	store := state.NewStore(t.TempDir())
	in, keys := io.Pipe()
	defer keys.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	// The filter sees each message as the event loop hands it to Update: the context
	// ends once the last key is taken (a fixed wait was too short under -race, and the
	// save then held "last ").
	var mu sync.Mutex
	var typed string
	seen := func(_ tea.Model, msg tea.Msg) tea.Msg {
		if k, ok := msg.(tea.KeyMsg); ok {
			mu.Lock()
			typed += k.String()
			mu.Unlock()
		}
		return msg
	}
	var logs testkit.SyncBuffer
	go func() {
		done <- Run(ctx, fb, Config{Store: store}, &logs, tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithoutSignalHandler(), tea.WithFilter(seen))
	}()
	waitLogged(t, &logs, "lab is running")
	keys.Write([]byte("\t\rlast words"))
	waitUntil(t, func() bool { mu.Lock(); defer mu.Unlock(); return strings.HasSuffix(typed, "words") })
	// Update takes the key in the same turn of the event loop as the filter, before it
	// looks at the context again.
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(60 * time.Second): // a hang
		t.Fatal("Run did not return after its context ended")
	}
	st, _, err := state.NewStore(store.Dir()).Load()
	if err != nil || st.Answers["4.1a"] != "last words" {
		t.Fatalf("saved %+v, %v", st.Answers, err)
	}
}

func TestALabThatDidNotStartShowsWhyWholeAndRunFails(t *testing.T) {
	const why = "port 9092 is already in use: stop what is using it or start labtui with --broker-addr 127.0.0.1:<port>"
	// As the embedded lab does when its broker cannot listen: a last status, its updates
	// closed, then the error. The reason stays on screen, and the status line says it.
	fb := fakebackend.New(backend.Update{Status: status(at("00:01"), jobspec.MinWatermark)})
	fb.StartErr, fb.CloseOnStartErr = errors.New(why), true
	tm := start(t, fb, Config{}, 80, 24)
	waitFor(t, tm, "The lab did not start.")
	_, view := finalView(t, tm)
	if !strings.Contains(strings.Join(strings.Fields(view), " "), why+" Press q to quit") || strings.Contains(view, "stopped sending updates") {
		t.Errorf("the reason is not shown whole, or the status line hides it:\n%s", view)
	}

	fb2 := fakebackend.New()
	fb2.StartErr = errors.New(why)
	in, keys := io.Pipe()
	done := make(chan error, 1)
	var logs testkit.SyncBuffer
	go func() {
		done <- Run(context.Background(), fb2, Config{}, &logs, tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	}()
	// q before the model has taken the failed start would quit a lab still starting.
	waitLogged(t, &logs, "the lab did not start")
	keys.Write([]byte("q"))
	select {
	case err := <-done:
		if err == nil || err.Error() != "the lab did not start: "+why {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(60 * time.Second): // a hang
		t.Fatal("q did not end Run")
	}
}
