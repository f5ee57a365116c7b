package generator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/labtui/labtui/gateway"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Generator runs the gateway fleet: it releases each event of its source when the clock
// reaches the event's ts and produces it, keyed by request_id and with the ts as the
// record's CreateTime, through the producer of the instance that owns it. Create it with
// New, run it with Start, and always end it with Stop.
type Generator struct {
	cfg      Config
	opts     options
	clients  []*kgo.Client
	counters []counters
	promises []func(*kgo.Record, error)

	// produceCtx is handed to every Produce; it is canceled only when Stop gives up on
	// the events still buffered, since canceling it can fail them.
	produceCtx context.Context
	abandon    context.CancelFunc

	mu        sync.Mutex
	started   bool
	stopped   bool
	cancelRun context.CancelFunc
	done      chan struct{}
}

// New validates cfg and creates one producer per instance. Producers connect lazily, on
// their first event.
func New(cfg Config, opts ...Option) (*Generator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Generator{
		cfg:      cfg,
		opts:     options{clock: WallClock{}},
		clients:  make([]*kgo.Client, 0, cfg.Instances),
		counters: make([]counters, cfg.Instances),
		promises: make([]func(*kgo.Record, error), cfg.Instances),
		done:     make(chan struct{}),
	}
	for _, o := range opts {
		o(&g.opts)
	}
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
		g.clients = append(g.clients, cl)
		g.promises[i] = g.counters[i].promise
	}
	g.produceCtx, g.abandon = context.WithCancel(context.Background())
	return g, nil
}

// Start begins releasing events in a goroutine and returns at once. Unless a Source was
// given, the schedule starts at the clock's current time. Releasing ends when ctx is
// done, when Stop is called, or after WithMaxEvents events; Done is closed then. Start
// may be called once.
func (g *Generator) Start(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.started || g.stopped {
		return errors.New("the generator was already started")
	}
	src := g.opts.source
	if src == nil {
		s, err := NewSchedule(g.cfg, g.opts.clock.Now().UnixMilli())
		if err != nil {
			return err
		}
		src = s
	}
	g.started = true
	runCtx, cancel := context.WithCancel(ctx)
	g.cancelRun = cancel
	go func() {
		defer close(g.done)
		g.release(runCtx, src)
	}()
	return nil
}

// Done is closed when the generator has stopped releasing events. Events already
// released may still be in flight: Stop waits for them.
func (g *Generator) Done() <-chan struct{} { return g.done }

// release is the loop that paces and produces events.
func (g *Generator) release(ctx context.Context, src Source) {
	stop := ctx.Done()
	for n := int64(0); g.opts.maxEvents == 0 || n < g.opts.maxEvents; n++ {
		select {
		case <-stop:
			return
		default:
		}
		ev, instance := src.Next()
		if wait := time.UnixMilli(ev.TS).Sub(g.opts.clock.Now()); wait > 0 {
			if g.opts.clock.Sleep(ctx, wait) != nil {
				return
			}
		}
		g.produce(ev, instance)
	}
}

// produce hands one event to its instance's producer. Key and value share one buffer.
func (g *Generator) produce(ev gateway.Event, instance int) {
	c := &g.counters[instance]
	if ev.Type == gateway.RequestStarted {
		c.requests.Add(1)
	}
	buf := make([]byte, len(ev.RequestID), len(ev.RequestID)+224)
	copy(buf, ev.RequestID)
	r := &kgo.Record{
		Topic:     g.cfg.Topic,
		Key:       buf[:len(ev.RequestID):len(ev.RequestID)],
		Value:     ev.AppendJSON(buf[len(ev.RequestID):]),
		Timestamp: time.UnixMilli(ev.TS),
	}
	c.produced.Add(1)
	g.clients[instance].Produce(g.produceCtx, r, g.promises[instance])
}

// Stats returns a snapshot of every instance's counts, in instance order. It is safe to
// call from any goroutine at any time.
func (g *Generator) Stats() []InstanceStats {
	out := make([]InstanceStats, len(g.counters))
	for i := range g.counters {
		out[i] = g.counters[i].snapshot(InstanceName(i))
	}
	return out
}

// InFlight returns how many events instance has produced that are not yet acknowledged
// or failed: during a broker hiccup, the events its retry buffer holds. It is safe to
// call from any goroutine and returns 0 for an instance that does not exist.
func (g *Generator) InFlight(instance int) int64 {
	if instance < 0 || instance >= len(g.counters) {
		return 0
	}
	return g.counters[instance].inFlight()
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
		// The loop is blocked in Produce on a full buffer; abandoning unblocks it.
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
	errs := make([]error, len(g.clients))
	var wg sync.WaitGroup
	for i, cl := range g.clients {
		wg.Go(func() { errs[i] = cl.Flush(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (g *Generator) closeClients() {
	for _, cl := range g.clients {
		cl.Close()
	}
}
