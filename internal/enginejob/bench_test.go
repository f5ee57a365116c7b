package enginejob

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/testkit"
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

// benchRequests is the size of the synthetic stream the engine benchmarks replay again
// and again: 20,000 requests (200 s of event time at 100 requests/s), so what is measured
// is the engine's work per event, not the machine streaming a large array from memory.
const benchRequests = 20_000

// benchStream is a stream the engine benchmarks run: the record values as the job reads
// them off the topic, in the order it reads them, each with the processing time it
// arrives at.
type benchStream struct {
	values  [][]byte
	arrival []int64
}

// benchStreams are the two streams every engine benchmark runs: "synthetic" is
// syntheticEvents(benchRequests), each arriving at its timestamp; "hour" is the lab's
// recorded hour (143,400 records) in the order recorded pace hands them to the job
// (arrival, partition, offset), each at its arrival.
var benchStreams = []string{"synthetic", "hour"}

var streams = map[string]*benchStream{}

func loadStream(b *testing.B, name string) *benchStream {
	if s, ok := streams[name]; ok {
		return s
	}
	s := &benchStream{}
	switch name {
	case "synthetic":
		for _, ev := range syntheticEvents(benchRequests) {
			s.values = append(s.values, ev.AppendJSON(nil))
			s.arrival = append(s.arrival, ev.TS)
		}
	case "hour":
		src, err := recording.Open(context.Background(), "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz")
		if err != nil {
			b.Fatal(err)
		}
		entries, err := recording.Load(src.Records(nil))
		src.Close()
		if err != nil {
			b.Fatal(err)
		}
		slices.SortStableFunc(entries, func(x, y recording.Entry) int {
			return cmp.Or(cmp.Compare(x.Arrival, y.Arrival), cmp.Compare(x.Partition, y.Partition), cmp.Compare(x.Offset, y.Offset))
		})
		for _, e := range entries {
			s.values = append(s.values, e.Value)
			s.arrival = append(s.arrival, e.Arrival)
		}
	}
	streams[name] = s
	return s
}

// events parses the stream's values with one Parser, as a replay's source does. keys says
// which of the keys the parser computes for the engine are kept: "parsed" all three,
// "id" only the request id's hash (IDHash), "none" none (IDHash, TenantNo and ModelNo
// zeroed), so that whoever runs the events pays for finding their state from the strings
// alone, as for an event built by hand.
func (s *benchStream) events(b *testing.B, keys string) []gateway.Event {
	var p gateway.Parser
	evs := make([]gateway.Event, len(s.values))
	for i, v := range s.values {
		ev, err := p.Parse(v)
		if err != nil {
			b.Fatal(err)
		}
		switch keys {
		case "none":
			ev.IDHash, ev.TenantNo, ev.ModelNo = 0, 0, 0
		case "id":
			ev.TenantNo, ev.ModelNo = 0, 0
		}
		evs[i] = ev
	}
	return evs
}

// rounds returns how far each pass over a replayed stream moves it later in time, so
// that event time and processing time go on rising from one pass to the next: the
// stream's span and a minute more. Each event is copied, moved, into one Event that the
// job is lent (the job copies what it keeps), as a source lends the event it parsed.
func rounds(evs []gateway.Event, arrival []int64) (span int64) {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range evs {
		lo, hi = min(lo, evs[i].TS, arrival[i]), max(hi, evs[i].TS, arrival[i])
	}
	return hi - lo + 60_000
}

// BenchmarkEngine drives GatewayMeter alone, from events already parsed, on each stream:
// both windows, the monotonous strategy, completed_ts, a forget timer per request; each
// event arrives at its processing time, so watermark ticks, both kinds of timers and
// window firings all run. The stream is replayed again and again, each pass moved later
// in time (rounds), so the job runs in its steady state.
//
// "keys=none" charges the engine for all its work from the event's strings: the events
// carry no key the parser computed (IDHash, TenantNo, ModelNo are zero), as
// BenchmarkBareLoop's do. "keys=parsed" takes the parser's keys: add BenchmarkParse's
// time, which computes them, to compare it with anything that does not.
//
// Besides ns/op (the wall clock) it reports cpu-ns/event, the process's CPU time (user
// and system, all threads, the collector's included), which a loaded machine moves much
// less.
func BenchmarkEngine(b *testing.B) {
	for _, name := range benchStreams {
		for _, keys := range []string{"none", "id", "parsed"} {
			b.Run(name+"/keys="+keys, func(b *testing.B) {
				s := loadStream(b, name)
				evs, arrival := s.events(b, keys), s.arrival
				span := rounds(evs, arrival)
				var fired int64
				job, err := New(engine.NewRuntime(arrival[0]), jobspec.Options{}, func(r jobspec.Result) { fired++ })
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu := startCPU()
				var ev gateway.Event
				for i, k, off := 0, 0, int64(0); i < b.N; i, k = i+1, k+1 {
					if k == len(evs) {
						k, off = 0, off+span
					}
					ev = evs[k]
					ev.TS += off
					job.Advance(arrival[k] + off)
					job.ProcessEvent(0, &ev, arrival[k]+off)
				}
				cpu.report(b)
				if s := job.Stats(); b.N > 300_000 && (s.Records == 0 || fired == 0) {
					b.Fatalf("nothing came out: %+v", s)
				}
			})
		}
	}
}

// BenchmarkBareLoop is BenchmarkEngine's baseline, charged the same way ("keys=none"): the
// same logic written as plainly as Go allows, on the same parsed events, with nothing
// around it. A Go map keyed by the request id joins the halves (the first one's fields
// kept, a duplicate of it ignored), the record is priced through the price table (a map
// keyed by the model), and two Go maps keyed by the tenant hold each tenant's running
// processing-time and event-time minute, emitted to a sink when a later minute begins.
// No watermarks, no timers, no forgetting, no late records: what any engine adds to this
// loop is its cost.
func BenchmarkBareLoop(b *testing.B) {
	for _, name := range benchStreams {
		b.Run(name, func(b *testing.B) {
			s := loadStream(b, name)
			evs, arrival := s.events(b, "none"), s.arrival
			span := rounds(evs, arrival)
			prices := gateway.DefaultPrices()
			type half struct {
				typ                    gateway.EventType
				tenant, model          string
				ts, prompt, completion int64
			}
			type win struct {
				end      int64
				usd      float64
				requests int64
			}
			pending := make(map[string]half)
			proc, event := map[string]*win{}, map[string]*win{}
			var fired int64
			sink := func(gateway.TenantCostMinute) { fired++ }
			add := func(m map[string]*win, tenant string, end int64, usd float64) {
				w := m[tenant]
				if w == nil {
					w = &win{end: end}
					m[tenant] = w
				}
				if end > w.end {
					sink(gateway.TenantCostMinute{TenantID: tenant, WindowStart: w.end - jobspec.Minute, WindowEnd: w.end, USD: w.usd, Requests: w.requests})
					*w = win{end: end}
				}
				w.usd += usd
				w.requests++
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU()
			var ev gateway.Event
			for i, k, off := 0, 0, int64(0); i < b.N; i, k = i+1, k+1 {
				if k == len(evs) {
					k, off = 0, off+span
				}
				ev = evs[k]
				ev.TS += off
				p, ok := pending[ev.RequestID]
				if !ok {
					pending[ev.RequestID] = half{ev.Type, ev.TenantID, ev.Model, ev.TS, ev.PromptTokens, ev.CompletionTokens}
					continue
				}
				if p.typ == ev.Type {
					continue
				}
				delete(pending, ev.RequestID)
				tenant, model, prompt, completion := p.tenant, p.model, p.prompt, ev.CompletionTokens
				if p.typ == gateway.RequestCompleted {
					tenant, model, prompt, completion = ev.TenantID, ev.Model, ev.PromptTokens, p.completion
				}
				usd := prices[model].Cost(prompt, completion)
				add(proc, tenant, engine.WindowStart(arrival[k]+off, 0, jobspec.Minute)+jobspec.Minute, usd)
				add(event, tenant, engine.WindowStart(ev.TS, 0, jobspec.Minute)+jobspec.Minute, usd)
			}
			cpu.report(b)
			if b.N > 300_000 && fired == 0 {
				b.Fatal("nothing came out")
			}
		})
	}
}

// BenchmarkParse is the parse BenchmarkEngine's "keys=parsed" leaves out: a Parser
// reading each stream's values, as a replay's source does, computing the keys.
func BenchmarkParse(b *testing.B) {
	for _, name := range benchStreams {
		b.Run(name, func(b *testing.B) {
			s := loadStream(b, name)
			var p gateway.Parser
			var bytes int64
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				v := s.values[i%len(s.values)]
				if _, err := p.Parse(v); err != nil {
					b.Fatal(err)
				}
				bytes += int64(len(v))
			}
			cpu.report(b)
			b.SetBytes(bytes / int64(b.N))
		})
	}
}

// cpuClock is the process's CPU time (user and system, every thread) at a moment.
type cpuClock time.Duration

func startCPU() cpuClock { return cpuClock(testkit.CPUTime()) }

// report reports the CPU time taken since c per iteration (an event), in nanoseconds.
func (c cpuClock) report(b *testing.B) {
	b.StopTimer()
	b.ReportMetric(float64(startCPU()-c)/float64(b.N), "cpu-ns/event")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
