package inject

import (
	"fmt"
	"time"

	"github.com/labtui/labtui/generator"
)

// Hold is what one call of Start did to an instance's hold: a hiccup of For asked for
// At, which holds the instance until Until. When a hiccup was already on (Joined), the
// hold began at Since and was to end at Before; Until is the later of Before and At+For.
type Hold struct {
	Instance int
	At       time.Time
	For      time.Duration
	Until    time.Time
	Joined   bool
	Since    time.Time
	Before   time.Time
}

// String is the hold as the lab's log says it, with clock times in the clock's zone:
// "hiccup on gw-1 for 35s, until 07:09:35", and for a hiccup that joined one that was
// on, whether it extended it or left its end as it was.
func (h Hold) String() string {
	name := generator.InstanceName(h.Instance)
	switch {
	case !h.Joined:
		return fmt.Sprintf("hiccup on %s for %v, until %s", name, h.For, clock(h.Until))
	case h.Until.After(h.Before):
		return fmt.Sprintf("hiccup on %s for %v joins the one on since %s and extends it: held until %s (was %s)",
			name, h.For, clock(h.Since), clock(h.Until), clock(h.Before))
	}
	return fmt.Sprintf("hiccup on %s for %v joins the one on since %s, which lasts longer: still held until %s",
		name, h.For, clock(h.Since), clock(h.Until))
}

// Ended is a hold that has ended: Instance was cut off from Kafka from Since to Until,
// Stopped before its time when Stop ended it (a lab closing, say).
type Ended struct {
	Instance int
	Since    time.Time
	Until    time.Time
	Stopped  time.Duration
}

// String is the end as the lab's log says it: "hiccup ended on gw-1 at 07:09:35
// (held 35s): its producer reconnects and sends what it held".
func (e Ended) String() string {
	held := e.Until.Sub(e.Since).Round(time.Millisecond).String()
	if e.Stopped > 0 {
		held += ", stopped " + e.Stopped.Round(time.Millisecond).String() + " early"
	}
	return fmt.Sprintf("hiccup ended on %s at %s (held %s): its producer reconnects and sends what it held",
		generator.InstanceName(e.Instance), clock(e.Until), held)
}

// Ended returns the holds that have ended since the last call, by their time or by
// Stop, each once, in instance order.
func (in *Injector) Ended() []Ended {
	in.mu.Lock()
	defer in.mu.Unlock()
	var out []Ended
	for i := range in.gates {
		g := &in.gates[i]
		if !g.until.IsZero() && !g.endSaid && !in.onLocked(g) {
			g.endSaid = true
			out = append(out, Ended{Instance: i, Since: g.since, Until: g.until, Stopped: g.stopped})
		}
	}
	return out
}

func clock(t time.Time) string { return t.Format("15:04:05") }
