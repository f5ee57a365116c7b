package inject

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/testkit"
)

// LongTestsEnv set (to anything) runs the long version of the tests that have one;
// .ci/run sets it.
const LongTestsEnv = "LABTUI_LONG_TESTS"

// TestManyHiccupsLoseDuplicateAndReorderNothing is issue 16's hostile run kept under
// test: hiccups of 200 ms to 2 s on random instances, one starting about every 450 ms
// (so holds on one instance overlap and join), on the default fleet at 200 requests/s
// through the embedded broker. Then, event by event, every generated event is in the
// topic exactly once, with its own ts and key, and each instance's events keep their
// order within their partition. 100 hiccups (about 50 s) with LABTUI_LONG_TESTS set,
// as .ci/run does; 12 (about 7 s) otherwise.
func TestManyHiccupsLoseDuplicateAndReorderNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs on the wall clock")
	}
	n := 12
	if os.Getenv(LongTestsEnv) != "" {
		n = 100
	}
	testkit.CheckGoroutines(t)
	brokers, topic := brokersUnderTest(t)
	cfg := generator.Defaults()
	cfg.Brokers, cfg.Topic, cfg.Rate, cfg.Seed = brokers, topic, 200, 16
	w := watch(t, brokers, topic)

	rng := rand.New(rand.NewPCG(16, uint64(n)))
	plan := make([]Hiccup, n)
	var last time.Duration
	for i := range plan {
		at := time.Second + time.Duration(i)*450*time.Millisecond + time.Duration(rng.IntN(200))*time.Millisecond
		d := 200*time.Millisecond + time.Duration(rng.IntN(1801))*time.Millisecond
		plan[i] = Hiccup{Instance: rng.IntN(cfg.Instances), At: at, For: d}
		last = max(last, at+d)
	}

	in := New(cfg.Instances)
	gen, err := generator.New(cfg, generator.WithDialer(in.Dialer))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := gen.Stop(ctx); err != nil {
			t.Errorf("stop the generator: %v", err)
		}
	}
	t.Cleanup(stop)
	if err := gen.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	began := time.UnixMilli(gen.StartMs())
	joined := 0
	if err := in.Run(t.Context(), began, plan, func(_ Hiccup, h Hold) {
		if h.Joined {
			joined++
		}
	}); err != nil {
		t.Fatal(err)
	}
	// The hiccups run on the wall clock: the run lasts until a second after the last ends.
	time.Sleep(time.Until(began.Add(last + time.Second)))
	stop()

	total := generator.Total(gen.Stats())
	if total.Failed != 0 || total.Acked != total.Produced {
		t.Fatalf("generator stats %+v: every produced event must be acknowledged", total)
	}
	want := produced(cfg, gen)
	w.readToEnd(t, brokers, topic) // every event, and any duplicate
	got := w.stop()

	seen := make(map[string]bool, len(want))
	last1 := map[[2]int]int{} // (partition, instance) -> schedule position of its last event
	for i, a := range got {
		v := string(a.rec.Value)
		s, ok := want[v]
		if !ok {
			t.Fatalf("record %d of the topic was never generated: %s", i, v)
		}
		if seen[v] {
			t.Fatalf("record %d was delivered twice: %s", i, v)
		}
		seen[v] = true
		if a.rec.Timestamp.UnixMilli() != s.ev.TS || string(a.rec.Key) != s.ev.RequestID {
			t.Fatalf("record %d: ts %d key %s, want its own ts %d and key %s", i, a.rec.Timestamp.UnixMilli(), a.rec.Key, s.ev.TS, s.ev.RequestID)
		}
		k := [2]int{int(a.rec.Partition), s.instance}
		if p, ok := last1[k]; ok && p > s.pos {
			t.Fatalf("partition %d: %s's event %d arrived after its event %d", a.rec.Partition, s.ev.Gateway, s.pos, p)
		}
		last1[k] = s.pos
	}
	if len(seen) != len(want) {
		var missing []string
		for v := range want {
			if !seen[v] && len(missing) < 3 {
				missing = append(missing, v)
			}
		}
		t.Fatalf("%d of %d generated events are in the topic; missing, for example: %v", len(seen), len(want), missing)
	}
	st := in.State(nil)
	var dropped, refused int64
	for _, s := range st {
		dropped, refused = dropped+s.Dropped, refused+s.Refused
	}
	if dropped == 0 || refused == 0 {
		t.Errorf("the hiccups dropped %d connections and refused %d dials: they cut nothing off", dropped, refused)
	}
	t.Logf("%d hiccups (%d joined one on the same instance) over %v: %d events checked one by one, none lost, duplicated or reordered; %d connections dropped, %d dials refused",
		n, joined, (last + time.Second).Round(time.Second), len(seen), dropped, refused)
	if joined == 0 && n >= 100 {
		t.Errorf("no hiccup joined another: the run never tried overlapping holds")
	}
}
