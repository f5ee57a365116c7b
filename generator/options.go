package generator

import "github.com/labtui/labtui/gateway"

// Source yields events in ts order, each with the index of the instance that writes it.
// *Schedule is the Source a Generator uses unless given another.
type Source interface {
	Next() (gateway.Event, int)
}

// Option changes how a Generator runs.
type Option func(*options)

type options struct {
	clock     Clock
	dialer    func(instance int) DialFunc
	source    Source
	maxEvents int64
}

// WithClock paces and stamps events by c instead of the WallClock.
func WithClock(c Clock) Option { return func(o *options) { o.clock = c } }

// WithDialer gives each instance's producer its own dialer, as returned by dial for that
// instance; this is where a fault between a gateway and its broker is injected
// (inject.Injector.Dialer fits). A nil result keeps franz-go's own dialer.
func WithDialer(dial func(instance int) DialFunc) Option {
	return func(o *options) { o.dialer = dial }
}

// WithSource releases src's events instead of those of the schedule that Start would
// draw from the clock's time. The events' instance indexes must be below
// Config.Instances.
func WithSource(src Source) Option { return func(o *options) { o.source = src } }

// WithMaxEvents ends the release loop, and closes Done, after n events; 0, the default,
// means never.
func WithMaxEvents(n int64) Option { return func(o *options) { o.maxEvents = n } }
