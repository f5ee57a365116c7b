package generator

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

const start = 1795946400000 // 2026-11-30T10:00:00Z, a minute boundary

type drawn struct {
	ev       gateway.Event
	instance int
}

// draw returns the first n events of cfg's schedule.
func draw(t testing.TB, cfg Config, n int) []drawn {
	t.Helper()
	s, err := NewSchedule(cfg, start)
	if err != nil {
		t.Fatalf("NewSchedule: %v", err)
	}
	out := make([]drawn, n)
	for i := range out {
		out[i].ev, out[i].instance = s.Next()
	}
	return out
}

// drawFor returns every event of cfg's schedule with a ts before start+ms, and the
// requests started in that span.
func drawFor(t testing.TB, cfg Config, ms int64) []drawn {
	t.Helper()
	s, err := NewSchedule(cfg, start)
	if err != nil {
		t.Fatalf("NewSchedule: %v", err)
	}
	var out []drawn
	for {
		ev, inst := s.Next()
		if ev.TS >= start+ms {
			return out
		}
		out = append(out, drawn{ev, inst})
	}
}

func TestScheduleIsDeterministicPerSeed(t *testing.T) {
	cfg := Defaults()
	a, b := draw(t, cfg, 10000), draw(t, cfg, 10000)
	if !slices.Equal(a, b) {
		t.Fatal("two schedules with the same seed and start differ")
	}
	cfg.Seed = 2
	if c := draw(t, cfg, 100); slices.Equal(a[:100], c) {
		t.Fatal("schedules with seeds 1 and 2 are identical")
	}
}

func TestScheduleIsInTimeOrderAndEveryRequestCompletesAfterItStarts(t *testing.T) {
	events := draw(t, Defaults(), 50000)
	started := map[string]gateway.Event{}
	var prev int64
	for i, d := range events {
		ev := d.ev
		if ev.TS < prev {
			t.Fatalf("event %d has ts %d after %d", i, ev.TS, prev)
		}
		prev = ev.TS
		if ev.Gateway != InstanceName(d.instance) {
			t.Fatalf("event %d is written by instance %d but says gateway %s", i, d.instance, ev.Gateway)
		}
		if _, err := gateway.ParseEvent(ev.AppendJSON(nil)); err != nil {
			t.Fatalf("event %d does not parse back: %v", i, err)
		}
		switch ev.Type {
		case gateway.RequestStarted:
			if _, dup := started[ev.RequestID]; dup {
				t.Fatalf("request %s started twice", ev.RequestID)
			}
			started[ev.RequestID] = ev
		case gateway.RequestCompleted:
			s, ok := started[ev.RequestID]
			if !ok {
				t.Fatalf("request %s completed before it started", ev.RequestID)
			}
			if ev.TS <= s.TS || ev.Gateway != s.Gateway || ev.TenantID != s.TenantID || ev.Model != s.Model {
				t.Fatalf("completion %+v does not match its start %+v", ev, s)
			}
		}
	}
}

func TestScheduleArrivalsArePoissonAtTheConfiguredRate(t *testing.T) {
	cfg := Defaults() // 20 requests/s
	const hourMs = 3600 * 1000
	var arrivals []int64
	for _, d := range drawFor(t, cfg, hourMs) {
		if d.ev.Type == gateway.RequestStarted {
			arrivals = append(arrivals, d.ev.TS)
		}
	}
	// 72,000 expected; a Poisson count's standard deviation is its square root, 268.
	if n, want := float64(len(arrivals)), cfg.Rate*3600; math.Abs(n-want) > 4*math.Sqrt(want) {
		t.Errorf("%v requests in an hour, want %v ± %v", n, want, 4*math.Sqrt(want))
	}
	// Exponential gaps have a coefficient of variation of 1 (regular ones would have 0).
	var sum, sumSq float64
	for i := 1; i < len(arrivals); i++ {
		g := float64(arrivals[i] - arrivals[i-1])
		sum += g
		sumSq += g * g
	}
	n := float64(len(arrivals) - 1)
	mean := sum / n
	cv := math.Sqrt(sumSq/n-mean*mean) / mean
	if cv < 0.95 || cv > 1.05 {
		t.Errorf("inter-arrival coefficient of variation %.3f, want about 1", cv)
	}
}

func TestScheduleSpreadsRequestsOverInstancesTenantsAndModels(t *testing.T) {
	cfg := Defaults()
	byInstance, byTenant, byModel := map[string]int{}, map[string]int{}, map[string]int{}
	requests := 0
	for _, d := range drawFor(t, cfg, 1800*1000) {
		if d.ev.Type != gateway.RequestStarted {
			continue
		}
		requests++
		byInstance[d.ev.Gateway]++
		byTenant[d.ev.TenantID]++
		byModel[d.ev.Model]++
	}
	check := func(what string, counts map[string]int, names []string) {
		for _, name := range names {
			share := float64(counts[name]) / float64(requests)
			if want := 1 / float64(len(names)); math.Abs(share-want) > 0.1*want {
				t.Errorf("%s %s has %.3f of the requests, want %.3f ± 10%%", what, name, share, want)
			}
		}
		if len(counts) != len(names) {
			t.Errorf("requests went to %d %ss, want %d", len(counts), what, len(names))
		}
	}
	check("instance", byInstance, []string{"gw-0", "gw-1", "gw-2"})
	check("tenant", byTenant, cfg.Tenants)
	check("model", byModel, cfg.Models)
}

func TestLatencyIsHeavyTailedSoSomeRequestsCrossMinutes(t *testing.T) {
	started := map[string]int64{}
	var latencies []int64
	crossing := 0
	for _, d := range drawFor(t, Defaults(), 3600*1000) {
		switch d.ev.Type {
		case gateway.RequestStarted:
			started[d.ev.RequestID] = d.ev.TS
		case gateway.RequestCompleted:
			s := started[d.ev.RequestID]
			latencies = append(latencies, d.ev.TS-s)
			if s/60000 != d.ev.TS/60000 {
				crossing++
			}
		}
	}
	slices.Sort(latencies)
	median := latencies[len(latencies)/2]
	over30 := len(latencies) - slices.IndexFunc(latencies, func(l int64) bool { return l > 30000 })
	share := float64(over30) / float64(len(latencies))
	if median < 1000 || median > 5000 {
		t.Errorf("median latency %d ms, want a few seconds", median)
	}
	if share < 0.01 || share > 0.06 {
		t.Errorf("%.4f of requests take over 30 s, want a few percent", share)
	}
	if last := latencies[len(latencies)-1]; last > int64(maxLatency*1000) {
		t.Errorf("a request took %d ms, longer than the gateway timeout", last)
	}
	if crossing == 0 {
		t.Error("no request crossed a minute boundary")
	}
	t.Logf("median %d ms, %.2f%% over 30 s, %d of %d requests cross a minute", median, 100*share, crossing, len(latencies))
}

func TestTokenCountsArePlausiblePerModel(t *testing.T) {
	prompts, completions := map[string][]int64{}, map[string][]int64{}
	for _, d := range drawFor(t, Defaults(), 1800*1000) {
		if d.ev.Type == gateway.RequestStarted {
			prompts[d.ev.Model] = append(prompts[d.ev.Model], d.ev.PromptTokens)
		} else {
			completions[d.ev.Model] = append(completions[d.ev.Model], d.ev.CompletionTokens)
		}
	}
	for _, v := range append(prompts["flat-10c"], completions["flat-10c"]...) {
		if v != 1000 {
			t.Fatalf("flat-10c request with %d tokens, want exactly 1000", v)
		}
	}
	for _, m := range []string{"nova-large", "nova-small", "orca-70b"} {
		p := profileFor(m)
		for _, c := range []struct {
			what   string
			counts []int64
			median float64
		}{{"prompt", prompts[m], p.promptMedian}, {"completion", completions[m], p.completionMedian}} {
			slices.Sort(c.counts)
			got := float64(c.counts[len(c.counts)/2])
			if c.counts[0] < 1 || math.Abs(got-c.median) > 0.1*c.median {
				t.Errorf("%s %s tokens: median %v (min %d), want about %v", m, c.what, got, c.counts[0], c.median)
			}
		}
	}
}

func TestRequestIDsAreUniquePerRun(t *testing.T) {
	ev, _ := must(NewSchedule(Defaults(), start)).Next()
	other, _ := must(NewSchedule(Defaults(), start+1000)).Next()
	if !strings.HasPrefix(ev.RequestID, "r-") || ev.RequestID == other.RequestID {
		t.Errorf("runs starting a second apart both begin with request %s / %s", ev.RequestID, other.RequestID)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestValidateExplainsWhatIsWrong(t *testing.T) {
	cases := []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Instances = 0 }, "instances must be between 1 and 64, got 0"},
		{func(c *Config) { c.Rate = -1 }, "rate must be a positive number of requests per second, got -1"},
		{func(c *Config) { c.Rate = math.NaN() }, "rate must be a positive number"},
		{func(c *Config) { c.Tenants = nil }, "at least one tenant is needed"},
		{func(c *Config) { c.Tenants = []string{"acme", "acme"} }, "tenant acme is listed twice"},
		{func(c *Config) { c.Models = []string{""} }, "a model name is empty"},
		{func(c *Config) { c.Brokers = nil }, "at least one broker address is needed"},
		{func(c *Config) { c.Topic = "" }, "the topic name is empty"},
	}
	if err := Defaults().Validate(); err != nil {
		t.Fatalf("Defaults().Validate() = %v", err)
	}
	for _, c := range cases {
		cfg := Defaults()
		c.change(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v, want %q", err, c.want)
		}
	}
	cfg := Defaults()
	cfg.Brokers, cfg.Topic = nil, ""
	if _, err := NewSchedule(cfg, start); err != nil {
		t.Errorf("NewSchedule needs no brokers or topic, but said %v", err)
	}
}

func TestParseInstance(t *testing.T) {
	for name, want := range map[string]int{"gw-0": 0, "gw-1": 1, "gw-12": 12} {
		if got, err := ParseInstance(name); err != nil || got != want {
			t.Errorf("ParseInstance(%q) = %d, %v; want %d", name, got, err, want)
		}
		if InstanceName(want) != name {
			t.Errorf("InstanceName(%d) = %q, want %q", want, InstanceName(want), name)
		}
	}
	for _, bad := range []string{"", "gw", "gw-", "gw--1", "gw-01", "gw-x", "1", "GW-1"} {
		if _, err := ParseInstance(bad); err == nil {
			t.Errorf("ParseInstance(%q) succeeded", bad)
		}
	}
}
