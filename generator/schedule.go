package generator

import "github.com/labtui/labtui/internal/gateway"

// Schedule is the pure, clock-free timetable of the gateway fleet: an endless stream of
// events in ts order. Requests arrive as a Poisson process at Config.Rate, spread evenly
// at random over the instances; each request has a uniformly chosen tenant and model,
// yields a RequestStarted at its arrival and a RequestCompleted one latency later. The
// same Config (instances, rate, tenants, models, seed) and start time always yield the
// same events.
//
// Each instance draws its requests from its own random numbers, so an instance's events
// do not depend on the others': a Generator releases each instance on its own, and the
// Schedule merges them. A Schedule is not safe for concurrent use.
type Schedule struct {
	streams []*stream
}

// NewSchedule returns the schedule of cfg's fleet starting at startMs (milliseconds since
// the epoch); each instance's first request arrives one exponential gap after it. Only
// the fields a schedule uses are validated: Brokers and Topic may be empty.
//
// Request IDs are r-<run>-<n>, where run is startMs in seconds written in base 36, so
// that two runs writing to one topic do not reuse each other's IDs.
func NewSchedule(cfg Config, startMs int64) (*Schedule, error) {
	if err := cfg.ValidateSchedule(); err != nil {
		return nil, err
	}
	s := &Schedule{streams: make([]*stream, cfg.Instances)}
	for i := range s.streams {
		s.streams[i] = newStream(cfg, startMs, i)
	}
	return s, nil
}

// Next returns the next event in ts order and the index of the instance that writes it.
// Events with equal ts come in instance order, then in the order they were drawn; a
// request's RequestStarted always comes before its RequestCompleted, whose ts is
// strictly later.
func (s *Schedule) Next() (gateway.Event, int) {
	first := 0
	for i := 1; i < len(s.streams); i++ {
		if s.streams[i].peekTS() < s.streams[first].peekTS() {
			first = i
		}
	}
	ev, _ := s.streams[first].next()
	return ev, first
}
