package gatewaymeter

import (
	"cmp"
	"github.com/labtui/labtui/meter"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/labtui/labtui/engine"
	"github.com/labtui/labtui/gateway"
)

// syntheticEvents returns n requests' events in timestamp order: 100 requests a second
// of event time (a busy lab), over five tenants, three gateways and the priced models,
// with heavy-tailed latencies: most a second or two, a few over 30 s. Their keys are
// filled in as a Parser fills them (the id's hash, the tenant's and model's numbers).
func syntheticEvents(n int) (evs []gateway.Event) {
	if evs, ok := synthetic[n]; ok {
		return evs
	}
	defer func() { synthetic[n] = evs }()
	rng := rand.New(rand.NewPCG(1, 2))
	tenants := []string{"acme", "globex", "initech", "umbrella", "hooli"}
	models := gateway.DefaultPrices().Models()
	gateways := []string{"gw-0", "gw-1", "gw-2"}
	evs = make([]gateway.Event, 0, 2*n)
	start := int64(1_795_946_400_000)
	for i := range n {
		id := "r-" + strconv.Itoa(i)
		t, m, gw := tenants[rng.IntN(len(tenants))], models[rng.IntN(len(models))], gateways[rng.IntN(len(gateways))]
		s := start + int64(i)*10 + rng.Int64N(10)
		c := s + int64(math.Exp(rng.NormFloat64()+0.3)*1000)
		evs = append(evs,
			gateway.Event{Type: gateway.RequestStarted, RequestID: id, TenantID: t, Model: m, Gateway: gw, TS: s, PromptTokens: 500 + rng.Int64N(2000)},
			gateway.Event{Type: gateway.RequestCompleted, RequestID: id, TenantID: t, Model: m, Gateway: gw, TS: c, CompletionTokens: 100 + rng.Int64N(1000)})
	}
	slices.SortStableFunc(evs, func(a, b gateway.Event) int { return cmp.Compare(a.TS, b.TS) })
	for i := range evs {
		evs[i].FillKeys() // as the parser does
	}
	return evs
}

// synthetic caches syntheticEvents between a benchmark's rounds.
var synthetic = map[int][]gateway.Event{}

// BenchmarkEngineBothWindows drives GatewayMeter alone, parsed events in, no JSON and no
// Kafka, with both windows and the monotonous strategy, each event arriving at processing
// time = its timestamp, so watermark ticks, both kinds of timers and window firings all
// run. The prepared events are replayed again and again, each round shifted later in
// time (in place, so no event is copied on its way in), so the job runs in its steady
// state.
func BenchmarkEngineBothWindows(b *testing.B) {
	evs := slices.Clone(syntheticEvents(benchRequests))
	span := evs[len(evs)-1].TS - evs[0].TS + 60_000
	var fired int64
	job, err := New(engine.NewRuntime(evs[0].TS), meter.Options{}, func(r meter.Result) { fired++ })
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(evs)
		if k == 0 && i > 0 { // the next round, later: one pass over the events per round
			for j := range evs {
				evs[j].TS += span
			}
		}
		ev := &evs[k]
		job.Advance(ev.TS)
		job.ProcessEvent(0, ev, ev.TS)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	if s := job.Stats(); b.N > 200_000 && (s.Records == 0 || fired == 0) {
		b.Fatalf("nothing came out: %+v", s)
	}
}

// BenchmarkBareLoop is the baseline: the same work with no engine around it, a map
// joining halves by request id and two per-tenant maps of running sums.
func BenchmarkBareLoop(b *testing.B) {
	evs := syntheticEvents(benchRequests)
	prices := gateway.DefaultPrices()
	pending := make(map[string]gateway.Event)
	type win struct {
		end int64
		usd float64
		n   int64
	}
	proc, event := map[string]*win{}, map[string]*win{}
	add := func(m map[string]*win, tenant string, end int64, usd float64) {
		w := m[tenant]
		if w == nil {
			w = &win{}
			m[tenant] = w
		}
		if w.end != end {
			*w = win{end: end}
		}
		w.usd += usd
		w.n++
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev := evs[i%len(evs)]
		p, ok := pending[ev.RequestID]
		if !ok {
			pending[ev.RequestID] = ev
			continue
		}
		delete(pending, ev.RequestID)
		rec, _ := gateway.Join(p, ev)
		usd, _ := prices.RecordCost(rec)
		end := engine.WindowStart(ev.TS, 0, meter.Minute) + meter.Minute
		add(proc, rec.TenantID, end, usd)
		add(event, rec.TenantID, end, usd)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkBareLoopTight is the tightest baseline: the same logic as BenchmarkBareLoop
// with nothing copied, the first half remembered by its index in the prepared events.
// It is what Go maps allow on this machine: the ceiling for any engine here.
func BenchmarkBareLoopTight(b *testing.B) {
	evs := syntheticEvents(benchRequests)
	prices := gateway.DefaultPrices()
	pending := make(map[string]int32, 1024)
	type win struct {
		end int64
		usd float64
		n   int64
	}
	proc, event := map[string]*win{}, map[string]*win{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(evs)
		ev := &evs[k]
		p, ok := pending[ev.RequestID]
		if !ok {
			pending[ev.RequestID] = int32(k)
			continue
		}
		delete(pending, ev.RequestID)
		first := &evs[p]
		price := prices[ev.Model]
		usd := float64(first.PromptTokens+ev.PromptTokens)/1000*price.InputPer1K + float64(first.CompletionTokens+ev.CompletionTokens)/1000*price.OutputPer1K
		end := engine.WindowStart(ev.TS, 0, meter.Minute) + meter.Minute
		for _, m := range []map[string]*win{proc, event} {
			w := m[ev.TenantID]
			if w == nil {
				w = &win{}
				m[ev.TenantID] = w
			}
			if w.end != end {
				*w = win{end: end}
			}
			w.usd += usd
			w.n++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// benchRequests is the size of the prepared stream the engine benchmarks replay again
// and again: 20,000 requests (200 s of event time at 100 requests/s), so what is measured
// is the engine's work per event, not the machine streaming a large array from memory.
const benchRequests = 20_000
