package generator

import (
	"slices"
	"strconv"

	"github.com/labtui/labtui/internal/gateway"
)

// stream is the timetable of one gateway instance: its own Poisson process of requests
// at its share of the fleet's rate, drawn from its own random numbers, so that each
// instance can be released on its own and the fleet's Schedule is the merge of its
// instances' streams. (A Poisson process split evenly at random is the same thing as
// independent Poisson processes at the split rates.)
type stream struct {
	rng      *random
	instance int
	name     string
	tenants  []string
	models   []string
	shapes   *shapes
	// meanGapMs is the mean time between this instance's arrivals.
	meanGapMs float64
	// idPrefix and idStep number requests so that IDs are unique across instances: the
	// n-th request of instance i of N is number n*N + i.
	idPrefix string
	idStep   int64
	requests int64

	// arrivalMs is the exact (fractional) time of the next arrival; nextArrival is that
	// request's RequestStarted, drawn ahead so that its ts can be compared.
	arrivalMs   float64
	nextArrival pending
	completions completionQueue
	seq         uint64
}

// pending is an event waiting in a stream, ordered by ts and then by seq, the order in
// which the stream drew it. kind numbers its (type, tenant, model) combination, which is
// all that tells apart the JSON of two events of one instance besides request_id, ts
// and the token count (see encoder).
type pending struct {
	ev   gateway.Event
	kind int
	seq  uint64
}

// newStream returns instance's stream; cfg must be valid for a schedule.
func newStream(cfg Config, startMs int64, instance int) *stream {
	s := &stream{
		rng:       newRandom(cfg.Seed, instance),
		instance:  instance,
		name:      InstanceName(instance),
		tenants:   slices.Clone(cfg.Tenants),
		models:    slices.Clone(cfg.Models),
		shapes:    newShapes(cfg.Models),
		meanGapMs: 1000 * float64(cfg.Instances) / cfg.Rate,
		idPrefix:  "r-" + strconv.FormatInt(startMs/1000, 36) + "-",
		idStep:    int64(cfg.Instances),
		arrivalMs: float64(startMs),
	}
	s.drawArrival()
	return s
}

// peekTS returns the ts of the stream's next event.
func (s *stream) peekTS() int64 {
	if ts, ok := s.completions.peekTS(); ok && ts <= s.nextArrival.ev.TS {
		return ts
	}
	return s.nextArrival.ev.TS
}

// next returns the stream's next event and its kind. Events with equal ts come in the
// order they were drawn; a request's RequestStarted always comes before its
// RequestCompleted, whose ts is strictly later.
func (s *stream) next() (gateway.Event, int) {
	if ts, ok := s.completions.peekTS(); ok && ts <= s.nextArrival.ev.TS {
		p := s.completions.pop()
		return p.ev, p.kind
	}
	p := s.nextArrival
	s.drawArrival()
	return p.ev, p.kind
}

// kinds returns how many kinds of event the stream has: one per type, tenant and model.
func (s *stream) kinds() int { return 2 * len(s.tenants) * len(s.models) }

// drawArrival draws the next request: its RequestStarted becomes nextArrival and its
// RequestCompleted waits among the completions.
func (s *stream) drawArrival() {
	s.arrivalMs += s.rng.exp() * s.meanGapMs
	ts := int64(s.arrivalMs)

	number := s.requests*s.idStep + int64(s.instance)
	s.requests++
	model := s.rng.intn(len(s.models))
	tenant := s.rng.intn(len(s.tenants))
	startedKind := tenant*len(s.models) + model
	started := gateway.Event{
		Type:      gateway.RequestStarted,
		RequestID: s.idPrefix + strconv.FormatInt(number, 10),
		TenantID:  s.tenants[tenant],
		Model:     s.models[model],
		Gateway:   s.name,
		TS:        ts,
	}
	prompt, completion := s.shapes.tokens(s.rng, model)
	started.PromptTokens = prompt

	completed := started
	completed.Type = gateway.RequestCompleted
	completed.TS = ts + s.shapes.latencyMs(s.rng, model)
	completed.PromptTokens = 0
	completed.CompletionTokens = completion

	s.nextArrival = pending{ev: started, kind: startedKind, seq: s.nextSeq()}
	s.completions.push(pending{ev: completed, kind: s.kinds()/2 + startedKind, seq: s.nextSeq()})
}

func (s *stream) nextSeq() uint64 {
	s.seq++
	return s.seq
}
