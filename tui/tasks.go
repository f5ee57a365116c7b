package tui

import (
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// tasks counts the commands labtui started that are still running, so Run can wait for
// them before it returns and nothing it started outlives the program.
type tasks struct {
	mu   sync.Mutex
	n    int
	idle *sync.Cond
}

func newTasks() *tasks {
	t := &tasks{}
	t.idle = sync.NewCond(&t.mu)
	return t
}

// cmd wraps fn as a command counted while it runs.
func (t *tasks) cmd(fn func() tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t.mu.Lock()
		t.n++
		t.mu.Unlock()
		defer func() {
			t.mu.Lock()
			t.n--
			t.idle.Broadcast()
			t.mu.Unlock()
		}()
		return fn()
	}
}

// wait waits until no task runs or d passes, and reports whether all finished.
func (t *tasks) wait(d time.Duration) bool {
	timer := time.AfterFunc(d, func() {
		t.mu.Lock()
		t.idle.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(d)
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.n > 0 && time.Now().Before(deadline) {
		t.idle.Wait()
	}
	return t.n == 0
}
