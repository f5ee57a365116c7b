package labrt

import (
	"sync"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/gateway"
)

// ledger keeps the books of everything the fleet generated, across generator runs, so a
// run's summary can show that every dollar generated ended up somewhere.
type ledger struct {
	prices gateway.PriceTable

	mu        sync.Mutex
	prompt    map[string]int64 // prompt tokens of requests started and not yet completed
	completed int64
	usd       float64
	retired   []generator.InstanceStats
	live      *generator.Generator
}

func newLedger(p gateway.PriceTable) *ledger {
	return &ledger{prices: p, prompt: make(map[string]int64)}
}

// observe books one event the fleet produced; it runs on the instances' goroutines.
func (l *ledger) observe(ev gateway.Event, _ int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ev.Type == gateway.RequestStarted {
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
	// Stalled counts the requests not made because their partition was stalled
	// (StallPartition): they are not in Requests.
	Stalled         int64
	USD             float64
	Instances       []generator.InstanceStats
	Produced, Acked int64
	Failed          int64
}

func (l *ledger) totals() Totals {
	l.mu.Lock()
	live := l.live
	t := Totals{Completed: l.completed, USD: l.usd}
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
	t.Requests, t.Stalled = all.Requests, all.Stalled
	return t
}

func add(a, b generator.InstanceStats) generator.InstanceStats {
	a.Name = b.Name
	a.Requests += b.Requests
	a.Produced += b.Produced
	a.Acked += b.Acked
	a.Failed += b.Failed
	a.Stalled += b.Stalled
	a.InFlight = b.InFlight
	if b.LastError != nil {
		a.LastError = b.LastError
	}
	return a
}
