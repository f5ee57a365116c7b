package inject

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/labtui/labtui/generator"
)

// defaultDuration is how long a hiccup lasts unless told otherwise: long enough that
// held events land in a later minute than the one they belong to.
const defaultDuration = 35 * time.Second

// Injector switches broker hiccups on and off per gateway instance. It is safe for
// concurrent use.
type Injector struct {
	clock generator.Clock
	dial  generator.DialFunc

	mu    sync.Mutex
	gates []gate
}

// gate is one instance's link to Kafka.
type gate struct {
	// until is when the current hiccup ends; the hiccup is on while the clock is before it.
	until time.Time
	// since is when the current (or last) hold began; endSaid that Ended has told of
	// its end.
	since   time.Time
	endSaid bool
	// stopped is how much of the hold Stop cut off.
	stopped time.Duration
	conns   map[*conn]struct{}
	// dropped and refused count the connections closed and dials refused by hiccups.
	dropped, refused int64
}

// Option changes how an Injector works.
type Option func(*Injector)

// WithClock times hiccups by c instead of the wall clock.
func WithClock(c generator.Clock) Option { return func(in *Injector) { in.clock = c } }

// withBaseDialer dials real connections with dial instead of a net.Dialer with a 5 s
// timeout; use it to add TLS, for example.
func withBaseDialer(dial generator.DialFunc) Option {
	return func(in *Injector) { in.dial = dial }
}

// New returns an injector for instances gw-0 … gw-<instances-1>, every hiccup off.
func New(instances int, opts ...Option) *Injector {
	in := &Injector{
		clock: generator.WallClock{},
		dial:  (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		gates: make([]gate, instances),
	}
	for i := range in.gates {
		in.gates[i].conns = make(map[*conn]struct{})
	}
	for _, o := range opts {
		o(in)
	}
	return in
}

// Dialer returns the dialer instance's producer must use (generator.WithDialer takes
// in.Dialer as it is). While a hiccup is on for the instance it refuses to connect, as a
// broker that is down does.
func (in *Injector) Dialer(instance int) generator.DialFunc {
	return func(ctx context.Context, network, host string) (net.Conn, error) {
		if err := in.check(instance); err != nil {
			return nil, err
		}
		if in.refuse(instance) {
			return nil, refused(network, host)
		}
		c, err := in.dial(ctx, network, host)
		if err != nil {
			return nil, err
		}
		in.mu.Lock()
		defer in.mu.Unlock()
		g := &in.gates[instance]
		if in.onLocked(g) { // the hiccup began while dialing
			g.refused++
			c.Close()
			return nil, refused(network, host)
		}
		wrapped := &conn{Conn: c, in: in, instance: instance}
		g.conns[wrapped] = struct{}{}
		return wrapped, nil
	}
}

// refuse reports whether a dial for instance must be refused now, and counts it.
func (in *Injector) refuse(instance int) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	g := &in.gates[instance]
	if in.onLocked(g) {
		g.refused++
		return true
	}
	return false
}

// refused is the error a dial to a broker whose listener is down returns.
func refused(network, host string) error {
	return &net.OpError{Op: "dial", Net: network, Addr: hostAddr(host), Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// hostAddr names the dialed address in an error without resolving it.
type hostAddr string

func (a hostAddr) Network() string { return "tcp" }
func (a hostAddr) String() string  { return string(a) }

// StartNamed is Start for an instance named as the fleet names it, gw-<index>.
func (in *Injector) StartNamed(name string, d time.Duration) (Hold, error) {
	i, err := generator.ParseInstance(name)
	if err != nil {
		return Hold{}, err
	}
	return in.Start(i, d)
}

// Start begins a hiccup of duration d on instance now: its open connections are closed
// and new ones refused until d has passed or Stop is called. A hiccup started while one
// is on joins it: the hold ends at the later of the two ends, so a later, shorter
// hiccup never shortens an earlier one. The Hold returned says when it now ends and
// whether it joined one.
func (in *Injector) Start(instance int, d time.Duration) (Hold, error) {
	if err := in.check(instance); err != nil {
		return Hold{}, err
	}
	if d <= 0 {
		return Hold{}, fmt.Errorf("a hiccup must last a positive time, got %v", d)
	}
	in.mu.Lock()
	g := &in.gates[instance]
	now := in.clock.Now()
	h := Hold{Instance: instance, At: now, For: d, Until: now.Add(d)}
	if in.onLocked(g) {
		h.Joined, h.Since, h.Before = true, g.since, g.until
		if h.Until.Before(g.until) {
			h.Until = g.until
		}
	} else {
		g.since = now
	}
	g.until, g.endSaid, g.stopped = h.Until, false, 0
	open := make([]*conn, 0, len(g.conns))
	for c := range g.conns {
		open = append(open, c)
	}
	clear(g.conns)
	g.dropped += int64(len(open))
	in.mu.Unlock()
	for _, c := range open {
		c.Conn.Close()
	}
	return h, nil
}

// stop ends instance's hiccup now, if one is on; its producer reconnects on its next
// retry.
func (in *Injector) stop(instance int) error {
	if err := in.check(instance); err != nil {
		return err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	g := &in.gates[instance]
	if now := in.clock.Now(); now.Before(g.until) {
		g.stopped = g.until.Sub(now)
		g.until = now
	}
	return nil
}

// StopAll ends every instance's hiccup now, as a lab that closes does.
func (in *Injector) StopAll() {
	for i := range in.gates {
		in.stop(i)
	}
}

func (in *Injector) onLocked(g *gate) bool {
	return in.clock.Now().Before(g.until)
}

func (in *Injector) check(instance int) error {
	if instance < 0 || instance >= len(in.gates) {
		return fmt.Errorf("%s does not exist: the gateway instances are gw-0 … %s",
			generator.InstanceName(instance), generator.InstanceName(len(in.gates)-1))
	}
	return nil
}

// conn is a connection of one instance, tracked so that a hiccup can drop it.
type conn struct {
	net.Conn
	in       *Injector
	instance int
}

// Close forgets the connection and closes it.
func (c *conn) Close() error {
	c.in.mu.Lock()
	delete(c.in.gates[c.instance].conns, c)
	c.in.mu.Unlock()
	return c.Conn.Close()
}
