package generator

import (
	"strconv"

	"github.com/labtui/labtui/gateway"
)

// Schedule is the pure, clock-free timetable of the gateway fleet: an endless stream of
// events in ts order. Requests arrive as a Poisson process at Config.Rate; each goes to
// a uniformly chosen instance, tenant and model, yields a RequestStarted at its arrival
// and a RequestCompleted one latency later. The same Config (instances, rate, tenants,
// models, seed) and start time always yield the same events. A Schedule is not safe for
// concurrent use.
type Schedule struct {
	rng       random
	instances []string
	tenants   []string
	models    []string
	profiles  []modelProfile
	meanGapMs float64

	idPrefix string
	requests int64

	// arrivalMs is the exact (fractional) time of the next arrival; nextArrival is that
	// request's RequestStarted, drawn ahead so that its ts can be compared.
	arrivalMs   float64
	nextArrival pending
	completions pendingHeap
	seq         uint64
}

// pending is an event waiting in the schedule, ordered by ts and then by seq, the order
// in which the schedule drew it.
type pending struct {
	ev       gateway.Event
	instance int
	seq      uint64
}

// NewSchedule returns the schedule of cfg's fleet starting at startMs (milliseconds since
// the epoch); the first request arrives one exponential gap after it. Only the fields a
// schedule uses are validated: Brokers and Topic may be empty.
//
// Request IDs are r-<run>-<n>, where run is startMs in seconds written in base 36, so
// that two runs writing to one topic do not reuse each other's IDs.
func NewSchedule(cfg Config, startMs int64) (*Schedule, error) {
	if err := cfg.validateSchedule(); err != nil {
		return nil, err
	}
	s := &Schedule{
		rng:       newRandom(cfg.Seed),
		instances: make([]string, cfg.Instances),
		tenants:   append([]string(nil), cfg.Tenants...),
		models:    append([]string(nil), cfg.Models...),
		profiles:  make([]modelProfile, len(cfg.Models)),
		meanGapMs: 1000 / cfg.Rate,
		idPrefix:  "r-" + strconv.FormatInt(startMs/1000, 36) + "-",
		arrivalMs: float64(startMs),
	}
	for i := range s.instances {
		s.instances[i] = InstanceName(i)
	}
	for i, m := range s.models {
		s.profiles[i] = profileFor(m)
	}
	s.drawArrival()
	return s, nil
}

// Next returns the next event in ts order and the index of the instance that writes it.
// Events with equal ts come in the order they were drawn; a request's RequestStarted
// always comes before its RequestCompleted, whose ts is strictly later.
func (s *Schedule) Next() (gateway.Event, int) {
	if c, ok := s.completions.peek(); ok && c.ev.TS <= s.nextArrival.ev.TS {
		s.completions.pop()
		return c.ev, c.instance
	}
	p := s.nextArrival
	s.drawArrival()
	return p.ev, p.instance
}

// drawArrival draws the next request: its RequestStarted becomes nextArrival and its
// RequestCompleted waits among the completions.
func (s *Schedule) drawArrival() {
	s.arrivalMs += s.rng.exp() * s.meanGapMs
	ts := int64(s.arrivalMs)

	s.requests++
	instance := s.rng.intn(len(s.instances))
	model := s.rng.intn(len(s.models))
	started := gateway.Event{
		Type:      gateway.RequestStarted,
		RequestID: s.idPrefix + strconv.FormatInt(s.requests, 10),
		TenantID:  s.tenants[s.rng.intn(len(s.tenants))],
		Model:     s.models[model],
		Gateway:   s.instances[instance],
		TS:        ts,
	}
	profile := s.profiles[model]
	prompt, completion := profile.tokens(s.rng)
	started.PromptTokens = prompt

	completed := started
	completed.Type = gateway.RequestCompleted
	completed.TS = ts + profile.latencyMs(s.rng)
	completed.PromptTokens = 0
	completed.CompletionTokens = completion

	s.nextArrival = pending{ev: started, instance: instance, seq: s.nextSeq()}
	s.completions.push(pending{ev: completed, instance: instance, seq: s.nextSeq()})
}

func (s *Schedule) nextSeq() uint64 {
	s.seq++
	return s.seq
}
