package embedded

import (
	"sync"

	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/generator"
)

// ledger keeps the books of everything the fleet generated, across generator runs, so a
// run's summary can show that every dollar generated ended up somewhere.
type ledger struct {
	prices gateway.PriceTable

	mu        sync.Mutex
	prompt    map[string]int64 // prompt tokens of requests started and not yet completed
	fetched   int64            // events the fleet has taken from its schedule
	pending   *gateway.Event   // the last one taken: produced only once the next is taken
	requests  int64
	completed int64
	usd       float64
	retired   []generator.InstanceStats
	live      *generator.Generator
}

func newLedger(p gateway.PriceTable) *ledger {
	return &ledger{prices: p, prompt: make(map[string]int64)}
}

// watch wraps a schedule so the ledger sees each event the fleet releases.
func (l *ledger) watch(src generator.Source) generator.Source {
	return &watched{src: src, l: l}
}

type watched struct {
	src generator.Source
	l   *ledger
}

func (w *watched) Next() (gateway.Event, int) {
	ev, i := w.src.Next()
	w.l.record(ev)
	return ev, i
}

// record books the event taken before ev, which the fleet has produced by now (it takes
// the next event only after producing the last), and holds ev until it is produced too.
func (l *ledger) record(ev gateway.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.commitPending()
	l.pending = &ev
	l.fetched++
}

func (l *ledger) commitPending() {
	if l.pending == nil {
		return
	}
	ev := *l.pending
	l.pending = nil
	if ev.Type == gateway.RequestStarted {
		l.requests++
		l.prompt[ev.RequestID] = ev.PromptTokens
		return
	}
	p, ok := l.prompt[ev.RequestID]
	if !ok {
		return
	}
	delete(l.prompt, ev.RequestID)
	usd, _ := l.prices.Cost(ev.Model, p, ev.CompletionTokens)
	l.completed++
	l.usd += usd
}

// attach makes g the live generator whose stats count now.
func (l *ledger) attach(g *generator.Generator) {
	l.mu.Lock()
	l.live = g
	l.mu.Unlock()
}

// retire adds a stopped generator's final counts to the books.
func (l *ledger) retire(g *generator.Generator) {
	stats := g.Stats()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live == g {
		l.live = nil
	}
	for i, s := range stats {
		if i < len(l.retired) {
			l.retired[i] = add(l.retired[i], s)
		} else {
			l.retired = append(l.retired, s)
		}
	}
}

// Totals is what the fleet generated, over every run.
type Totals struct {
	Requests, Completed int64
	USD                 float64
	Instances           []generator.InstanceStats
	Produced, Acked     int64
	Failed              int64
}

func (l *ledger) totals() Totals {
	l.mu.Lock()
	live := l.live
	t := Totals{Requests: l.requests, Completed: l.completed, USD: l.usd}
	t.Instances = append(t.Instances, l.retired...)
	l.mu.Unlock()
	if live != nil {
		for i, s := range live.Stats() {
			if i < len(t.Instances) {
				t.Instances[i] = add(t.Instances[i], s)
			} else {
				t.Instances = append(t.Instances, s)
			}
		}
	}
	all := generator.Total(t.Instances)
	t.Produced, t.Acked, t.Failed = all.Produced, all.Acked, all.Failed
	l.mu.Lock()
	if all.Produced == l.fetched { // the last event taken was produced too
		l.commitPending()
	}
	t.Requests, t.Completed, t.USD = l.requests, l.completed, l.usd
	l.mu.Unlock()
	return t
}

func add(a, b generator.InstanceStats) generator.InstanceStats {
	a.Name = b.Name
	a.Requests += b.Requests
	a.Produced += b.Produced
	a.Acked += b.Acked
	a.Failed += b.Failed
	a.InFlight = b.InFlight
	if b.LastError != nil {
		a.LastError = b.LastError
	}
	return a
}
