package generator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/labtui/labtui/internal/gateway"
)

// Generator runs the gateway fleet. Each instance has its own producer and its own
// release loop, as a separate gateway process would: the loop waits until the clock
// reaches the ts of the instance's next event, then produces it, keyed by request_id and
// with the ts as the record's CreateTime. An instance whose producer is stuck (a broker
// hiccup with a full buffer) never holds up the others. Create a Generator with New, run
// it with Start, and always end it with Stop.
type Generator struct {
	cfg       Config
	opts      options
	instances []*instance

	// produceCtx is handed to every Produce; it is canceled only when Stop gives up on
	// the events still buffered, since canceling it can fail them.
	produceCtx context.Context
	abandon    context.CancelFunc

	mu        sync.Mutex
	started   bool
	stopped   bool
	startMs   int64
	cancelRun context.CancelFunc
	done      chan struct{}
	// stall is the partition the fleet does not write to now (StallPartition).
	stall stallState
}

// New validates cfg and creates one producer per instance. Producers connect lazily, on
// their first event.
func New(cfg Config, opts ...Option) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Generator{cfg: cfg, opts: options{clock: WallClock{}}, done: make(chan struct{})}
	for _, o := range opts {
		o(&g.opts)
	}
	g.produceCtx, g.abandon = context.WithCancel(context.Background())
	for i := range cfg.Instances {
		var dial DialFunc
		if g.opts.dialer != nil {
			dial = g.opts.dialer(i)
		}
		cl, err := newClient(cfg, i, dial)
		if err != nil {
			g.closeClients()
			return nil, err
		}
		in := newInstance(cl, cfg.Topic, g.produceCtx)
		in.stall = &g.stall
		if obs := g.opts.observe; obs != nil {
			i := len(g.instances)
			in.observe = func(ev gateway.Event) { obs(ev, i) }
		}
		if report := g.opts.behind; report != nil {
			i := len(g.instances)
			in.behind = func(behind bool, lag time.Duration) { report(i, behind, lag) }
		}
		g.instances = append(g.instances, in)
	}
	return g, nil
}

// Start begins releasing events and returns at once. The schedule starts at the clock's
// current time (StartMs). Releasing ends when ctx is done, when Stop is called, or at
// the WithUntil time; Done is closed then. Start may be called once.
func (g *Generator) Start(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.started || g.stopped {
		return errors.New("the generator was already started")
	}
	g.started = true
	g.startMs = g.opts.clock.Now().UnixMilli()
	runCtx, cancel := context.WithCancel(ctx)
	g.cancelRun = cancel
	var wg sync.WaitGroup
	for i, in := range g.instances {
		s := newStream(g.cfg, g.startMs, i)
		wg.Go(func() { in.release(runCtx, g.opts.clock, s, g.opts.untilMs) })
	}
	go func() {
		wg.Wait()
		close(g.done)
	}()
	return nil
}

// StartMs returns the time Start read from the clock, in milliseconds since the epoch,
// and 0 before Start. NewSchedule(cfg, StartMs()) yields the events this generator
// releases, in the order the fleet as a whole released them.
func (g *Generator) StartMs() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.startMs
}

// Done is closed when the generator has stopped releasing events. Events already
// released may still be in flight: Stop waits for them.
func (g *Generator) Done() <-chan struct{} { return g.done }

// Stats returns a snapshot of every instance's counts, in instance order. It is safe to
// call from any goroutine at any time.
func (g *Generator) Stats() []InstanceStats {
	out := make([]InstanceStats, len(g.instances))
	for i, in := range g.instances {
		out[i] = in.counters.snapshot(InstanceName(i))
	}
	return out
}

// InFlight returns how many events instance has produced that are not yet acknowledged
// or failed: during a broker hiccup, the events its retry buffer holds. It is safe to
// call from any goroutine and returns 0 for an instance that does not exist.
func (g *Generator) InFlight(instance int) int64 {
	if instance < 0 || instance >= len(g.instances) {
		return 0
	}
	return g.instances[instance].counters.inFlight()
}

// Stop stops releasing events, waits until every event released so far is acknowledged
// (flushing every producer), then closes the producers. If ctx ends first, the events
// still buffered are given up, counted as failed, and the error says how many. Stop is
// safe to call more than once, and without Start.
func (g *Generator) Stop(ctx context.Context) error {
	g.mu.Lock()
	if g.stopped {
		g.mu.Unlock()
		return nil
	}
	g.stopped = true
	started := g.started
	g.mu.Unlock()

	defer g.closeClients()
	defer g.abandon()
	if !started {
		return nil
	}
	g.cancelRun()
	select {
	case <-g.done:
	case <-ctx.Done():
		// A loop is blocked in Produce on a full buffer; abandoning unblocks it.
		g.abandon()
		<-g.done
	}
	if err := g.flush(ctx); err != nil {
		held := Total(g.Stats()).InFlight
		return fmt.Errorf("stop the generator: %d events were not acknowledged: %w", held, err)
	}
	return nil
}

// flush waits for every producer's buffered events, all producers at once.
func (g *Generator) flush(ctx context.Context) error {
	errs := make([]error, len(g.instances))
	var wg sync.WaitGroup
	for i, in := range g.instances {
		wg.Go(func() { errs[i] = in.client.Flush(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (g *Generator) closeClients() {
	for _, in := range g.instances {
		in.client.Close()
	}
}
