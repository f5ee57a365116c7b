package inject

import (
	"time"

	"github.com/labtui/labtui/generator"
)

// HeldCounter reports how many events an instance has produced that the broker has not
// yet acknowledged. *generator.Generator is one: during a hiccup, its InFlight count is
// what the instance's retry buffer holds.
type HeldCounter interface {
	InFlight(instance int) int64
}

// State is what the injector knows about one instance at one moment.
type State struct {
	// Name is the instance's name, gw-<index>.
	Name string
	// On says whether a hiccup is cutting the instance off from Kafka.
	On bool
	// Left is how long the hiccup still lasts; zero when off.
	Left time.Duration
	// Until is when the current or last hiccup ends; zero if there was none.
	Until time.Time
	// Held is how many events the instance has produced and not had acknowledged, from
	// the HeldCounter given to State; zero without one.
	Held int64
	// Dropped counts the connections hiccups have closed, Refused the dials they refused.
	Dropped, Refused int64
}

// State returns the state of every instance, in instance order. held supplies the held
// event counts and may be nil.
func (in *Injector) State(held HeldCounter) []State {
	in.mu.Lock()
	now := in.clock.Now()
	out := make([]State, len(in.gates))
	for i := range in.gates {
		g := &in.gates[i]
		out[i] = State{Name: generator.InstanceName(i), Until: g.until, Dropped: g.dropped, Refused: g.refused}
		if now.Before(g.until) {
			out[i].On, out[i].Left = true, g.until.Sub(now)
		}
	}
	in.mu.Unlock()
	if held != nil {
		for i := range out {
			out[i].Held = held.InFlight(i)
		}
	}
	return out
}
