// Package fakebackend is a backend.Backend for tests: Start sends a script of updates,
// Send sends more, and every call the TUI makes is recorded.
package fakebackend

import (
	"context"
	"sync"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// Call is one method call the TUI made.
type Call struct {
	Method   string
	Instance string
	Duration time.Duration
	Path     string
	Field    jobspec.TimestampField
	On       bool
	// Watermarks are Reconfigure's.
	Watermarks watermark.Strategy
}

// Backend is a scripted backend. Its zero value is not usable; use New.
type Backend struct {
	// ReplayFn, if set, runs for Replay and its error is returned.
	ReplayFn func(ctx context.Context, path string, field jobspec.TimestampField) error
	// StartErr, if set, is what Start returns.
	StartErr error
	// CloseOnStartErr makes Start send the script and close Updates before it returns
	// StartErr.
	CloseOnStartErr bool

	script  []backend.Update
	updates chan backend.Update
	mu      sync.Mutex
	calls   []Call
	closed  bool
	done    chan struct{}
}

// New returns a backend that sends script when started.
func New(script ...backend.Update) *Backend {
	return &Backend{script: script, updates: make(chan backend.Update, 1024), done: make(chan struct{})}
}

// Name is "fake".
func (b *Backend) Name() string { return "fake" }

// Start sends the script.
func (b *Backend) Start(ctx context.Context) error {
	b.record(Call{Method: "Start"})
	if b.StartErr != nil && b.CloseOnStartErr {
		// As the embedded lab does when its broker cannot listen: the script (a last
		// status), its updates closed, then the error.
		for _, u := range b.script {
			b.Send(u)
		}
		b.Close()
	}
	if b.StartErr != nil {
		return b.StartErr
	}
	for _, u := range b.script {
		b.Send(u)
	}
	return nil
}

// Send sends one update, unless the backend is closed.
func (b *Backend) Send(u backend.Update) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.updates <- u
	}
}

// Updates is the stream of updates.
func (b *Backend) Updates() <-chan backend.Update { return b.updates }

// SetGenerator records the call.
func (b *Backend) SetGenerator(on bool) error {
	b.record(Call{Method: "SetGenerator", On: on})
	return nil
}

// Inject records the call.
func (b *Backend) Inject(instance string, d time.Duration) error {
	b.record(Call{Method: "Inject", Instance: instance, Duration: d})
	return nil
}

// Replay records the call and runs ReplayFn.
func (b *Backend) Replay(ctx context.Context, path string, field jobspec.TimestampField) error {
	b.record(Call{Method: "Replay", Path: path, Field: field})
	if b.ReplayFn != nil {
		return b.ReplayFn(ctx, path, field)
	}
	return nil
}

// Close closes Updates; later calls do nothing.
func (b *Backend) Close() error {
	b.record(Call{Method: "Close"})
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.updates)
		close(b.done)
	}
	return nil
}

// Closed is closed when Close was called.
func (b *Backend) Closed() <-chan struct{} { return b.done }

// Calls returns the calls made so far.
func (b *Backend) Calls() []Call {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Call(nil), b.calls...)
}

// Called returns the calls of method made so far.
func (b *Backend) Called(method string) []Call {
	var out []Call
	for _, c := range b.Calls() {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

func (b *Backend) record(c Call) {
	b.mu.Lock()
	b.calls = append(b.calls, c)
	b.mu.Unlock()
}

// Reconfigurable is a Backend that is also a backend.Reconfigurer: Reconfigure records
// the call and sends the Restarted update a backend sends, with CauseStrategy (or
// CauseTimestamp when the field changes) and run one more than run.
type Reconfigurable struct {
	*Backend
	mu  sync.Mutex
	run int
}

// NewReconfigurable wraps b; the first Reconfigure begins run firstRun.
func NewReconfigurable(b *Backend, firstRun int) *Reconfigurable {
	return &Reconfigurable{Backend: b, run: firstRun - 1}
}

// Reconfigure records the call and announces the new run.
func (r *Reconfigurable) Reconfigure(ctx context.Context, field jobspec.TimestampField, wm watermark.Strategy) error {
	r.record(Call{Method: "Reconfigure", Field: field, Watermarks: wm})
	r.mu.Lock()
	r.run++
	run := r.run
	r.mu.Unlock()
	cause, reason := backend.CauseStrategy, "new watermark strategy"
	r.Send(backend.Update{Run: run, Restarted: &backend.Restart{Run: run, Cause: cause, Reason: reason, Timestamp: field, Watermarks: wm}})
	return nil
}
