package enginejob

import (
	"slices"
	"testing"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

// TestKeysAreOnlyAShortcut runs the same events with the keys a parser fills in, with no
// keys (events built by hand), and with the tenant and model numbers wrong (swapped
// around, and numbers never given out): every Result and the stats are the same.
func TestKeysAreOnlyAShortcut(t *testing.T) {
	run := func(change func(*gateway.Event)) ([]string, jobspec.Stats) {
		evs := slices.Clone(syntheticEvents(3_000))
		var got []string
		job, err := New(engine.NewRuntime(evs[0].TS), jobspec.Options{Trace: true}, func(r jobspec.Result) { got = append(got, string(r.AppendJSON(nil))) })
		if err != nil {
			t.Fatal(err)
		}
		for i := range evs {
			ev := &evs[i]
			if i%211 == 0 {
				continue // its other half is forgotten
			}
			if i%97 == 0 {
				ev.TS -= 70_000 // late, when it completes its request
			}
			change(ev)
			job.Advance(ev.TS)
			job.ProcessEvent(0, ev, ev.TS)
		}
		job.Drain()
		job.rt.RunUntilIdle()
		return got, job.Stats()
	}
	want, wantStats := run(func(*gateway.Event) {})
	if wantStats.Forgotten == 0 || wantStats.Late == 0 || len(want) < 3_000 {
		t.Fatalf("the reference run is not what it should test: %+v, %d results", wantStats, len(want))
	}
	for name, change := range map[string]func(*gateway.Event){
		"no keys": func(e *gateway.Event) { e.IDHash, e.TenantNo, e.ModelNo = 0, 0, 0 },
		"wrong numbers": func(e *gateway.Event) {
			e.TenantNo, e.ModelNo = e.ModelNo, e.TenantNo+gateway.NameNo(e.TS%3)
		},
		"numbers never given out": func(e *gateway.Event) { e.TenantNo, e.ModelNo = 60_000+e.TenantNo, 1<<31 },
	} {
		got, stats := run(change)
		if stats != wantStats {
			t.Errorf("%s: stats %+v, want %+v", name, stats, wantStats)
		}
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%s: result %d is\n%s\nwant\n%s", name, i, got[i], want[i])
				}
			}
			t.Fatalf("%s: %d results, want %d", name, len(got), len(want))
		}
	}
}
