package generator

import (
	"time"

	"github.com/labtui/labtui/internal/gateway"
)

// Option changes how a Generator runs.
type Option func(*options)

type options struct {
	clock  Clock
	dialer func(instance int) DialFunc
	// untilMs, if not zero, is the ts at which release stops.
	untilMs int64
	// observe, if set, sees every event as it is handed to a producer.
	observe func(ev gateway.Event, instance int)
	// behind, if set, hears when an instance falls behind its schedule and catches up.
	behind func(instance int, behind bool, lag time.Duration)
}

// behindAfter is how far behind its schedule an instance's release may fall before
// WithBehind hears of it.
const behindAfter = time.Second

// WithBehind calls report, from the instance's release goroutine, when the instance
// produces an event more than BehindAfter after its ts (behind true: the machine does not
// keep up with the rate; the events still come, in order, late) and when it is on time
// again (behind false). lag is how late the event was.
func WithBehind(report func(instance int, behind bool, lag time.Duration)) Option {
	return func(o *options) { o.behind = report }
}

// WithClock paces and stamps events by c instead of the WallClock.
func WithClock(c Clock) Option { return func(o *options) { o.clock = c } }

// WithDialer gives each instance's producer its own dialer, as returned by dial for that
// instance; this is where a fault between a gateway and its broker is injected
// (inject.Injector.Dialer fits). A nil result keeps franz-go's own dialer.
func WithDialer(dial func(instance int) DialFunc) Option {
	return func(o *options) { o.dialer = dial }
}

// WithUntil ends each instance's release at its first event whose ts is untilMs or
// later; Done is closed when every instance has reached it. The events released are
// then exactly the events of the schedule with a ts before untilMs, which is how a
// simulated recording of a fixed length is made.
func WithUntil(untilMs int64) Option { return func(o *options) { o.untilMs = untilMs } }

// WithObserver calls observe with every event as its instance hands it to its producer,
// from that instance's release goroutine (so observe must be safe for concurrent use and
// quick). The events observed are exactly the events produced: a ledger of what the
// fleet generated, kept outside the generator, balances against the topic.
func WithObserver(observe func(ev gateway.Event, instance int)) Option {
	return func(o *options) { o.observe = observe }
}
