package reenact

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

// spillResult is a result with every field set, told apart by i.
func spillResult(i int) jobspec.Result {
	return jobspec.Result{
		Kind: jobspec.Kind(1 + i%3), Window: jobspec.Kind(i % 2), At: int64(i) - 5,
		Minute: gateway.TenantCostMinute{TenantID: []string{"acme", "globex", ""}[i%3], WindowStart: 60_000 * int64(i),
			WindowEnd: 60_000*int64(i) + 60_000, USD: float64(i) / 3, Requests: int64(i)},
		Record: jobspec.RecordTrace{RequestID: "r-" + string(rune('a'+i%26)), TenantID: "t", Gateway: "gw-1", Timestamp: int64(i) * 7,
			KafkaTimestamp: -int64(i), Arrival: math.MaxInt64 - int64(i), Watermark: math.MinInt64 + int64(i),
			EventWindowEnd: 1, ProcessingWindowEnd: 2, Late: i%2 == 1, USD: math.Copysign(0, -1) + float64(i)*1e-9},
	}
}

// TestSpillRoundTripsEveryField: results beyond heldResults go to a temporary file and
// come back, in order, equal field for field (a field added to a Result must be added
// to appendResult and read).
func TestSpillRoundTripsEveryField(t *testing.T) {
	for typ, fields := range map[reflect.Type]int{
		reflect.TypeFor[jobspec.Result](): 5, reflect.TypeFor[jobspec.RecordTrace](): 11, reflect.TypeFor[gateway.TenantCostMinute](): 5,
	} {
		if typ.NumField() != fields {
			t.Fatalf("%v has %d fields, the spill encodes %d", typ, typ.NumField(), fields)
		}
	}
	var s spill
	n := 2*heldResults + 5
	for i := range n {
		s.add(spillResult(i))
	}
	if s.file == nil || s.spilled != 2*heldResults || len(s.mem) != 5 {
		t.Fatalf("%d results: %d spilled, %d in memory", n, s.spilled, len(s.mem))
	}
	if !s.room(0) {
		t.Fatal("a spill with a file has no room")
	}
	i := 0
	if err := s.each(func(r jobspec.Result) {
		if want := spillResult(i); r != want {
			t.Fatalf("result %d came back as %+v, want %+v", i, r, want)
		}
		i++
	}); err != nil {
		t.Fatal(err)
	}
	if i != n || s.len() != 0 || s.file != nil {
		t.Fatalf("%d of %d results came back, %d left", i, n, s.len())
	}
}

// TestSpillWithoutATemporaryFileHoldsResultsInMemory: with no temporary file to be had,
// every result stays in memory and comes back in order, and the room is as before
// spilling: heldResults, or one a record handed over.
func TestSpillWithoutATemporaryFileHoldsResultsInMemory(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var s spill
	n := heldResults + 10
	for i := range n {
		s.add(spillResult(i))
	}
	if !s.failed || s.file != nil || len(s.mem) != n {
		t.Fatalf("without a temporary file: failed %v, %d in memory", s.failed, len(s.mem))
	}
	if s.room(n) || !s.room(n+1) {
		t.Fatalf("room for %d results with %d handed over: %v, with %d: %v", n, n, s.room(n), n+1, s.room(n+1))
	}
	i := 0
	if err := s.each(func(r jobspec.Result) {
		if r != spillResult(i) {
			t.Fatalf("result %d came back as %+v", i, r)
		}
		i++
	}); err != nil || i != n {
		t.Fatalf("%d of %d came back: %v", i, n, err)
	}
}

// BenchmarkSpill holds 100,000 traced results, of which all but the newest heldResults go
// to the temporary file, and lets them out: what a recorded replay with traces pays per
// result beyond holding it in memory.
func BenchmarkSpill(b *testing.B) {
	const n = 100_000
	rs := make([]jobspec.Result, n)
	for i := range rs {
		rs[i] = spillResult(i)
	}
	b.ReportAllocs()
	for b.Loop() {
		var s spill
		for i := range rs {
			s.add(rs[i])
		}
		got := 0
		if err := s.each(func(jobspec.Result) { got++ }); err != nil || got != n {
			b.Fatalf("%d of %d results: %v", got, n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/result")
}
