package inject

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/generator"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// arrival is one record as the test's consumer read it.
type arrival struct {
	rec *kgo.Record
	at  time.Time
}

// watcher consumes a topic from its start, stamping each record with the wall time it
// was read.
type watcher struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	got    []arrival
}

func watch(t *testing.T, brokers []string, topic string) *watcher {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumeTopics(topic),
		kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{cancel: cancel}
	w.wg.Go(func() {
		defer cl.Close()
		for ctx.Err() == nil {
			fs := cl.PollFetches(ctx)
			now := time.Now()
			w.mu.Lock()
			fs.EachRecord(func(r *kgo.Record) { w.got = append(w.got, arrival{r, now}) })
			w.mu.Unlock()
		}
	})
	t.Cleanup(func() { w.stop() })
	return w
}

func (w *watcher) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.got)
}

// stop ends the consumer and returns everything it read.
func (w *watcher) stop() []arrival {
	w.cancel()
	w.wg.Wait()
	return w.got
}

// brokersUnderTest returns the embedded broker, or the real Kafka cluster named by
// LABTUI_TEST_KAFKA (host:port) with a fresh three-partition topic.
func brokersUnderTest(t *testing.T) (brokers []string, topic string) {
	if addr := os.Getenv("LABTUI_TEST_KAFKA"); addr != "" {
		topic = fmt.Sprintf("labtui-hiccup-test-%d", time.Now().UnixNano())
		cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		adm := kadm.NewClient(cl)
		if _, err := adm.CreateTopic(t.Context(), 3, 1, nil, topic); err != nil {
			t.Fatalf("create topic %s on %s: %v", topic, addr, err)
		}
		t.Cleanup(func() {
			cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
			if err == nil {
				kadm.NewClient(cl).DeleteTopics(context.Background(), topic)
				cl.Close()
			}
		})
		t.Logf("against the Kafka cluster at %s, topic %s", addr, topic)
		return []string{addr}, topic
	}
	b, err := broker.Start(t.Context(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return []string{b.Addr()}, b.Topic()
}

// TestHiccupHoldsOneInstanceAndDeliversItsEventsOnceInOrderWhenItEnds is the issue's
// acceptance test, on the wall clock with the hiccup shortened to 4 s.
func TestHiccupHoldsOneInstanceAndDeliversItsEventsOnceInOrderWhenItEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for about 10 s on the wall clock")
	}
	checkGoroutines(t)
	const (
		victim    = 1
		hiccupAt  = 2 * time.Second
		hiccupFor = 4 * time.Second
		runFor    = 9 * time.Second
	)
	brokers, topic := brokersUnderTest(t)
	cfg := generator.Defaults()
	cfg.Brokers, cfg.Topic, cfg.Rate, cfg.Seed = brokers, topic, 100, 7

	w := watch(t, brokers, topic)

	in := New(cfg.Instances)
	gen, err := generator.New(cfg, generator.WithDialer(in.Dialer))
	if err != nil {
		t.Fatal(err)
	}
	stopGen := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := gen.Stop(ctx); err != nil {
			t.Errorf("stop the generator: %v", err)
		}
	}
	t.Cleanup(stopGen)
	if err := gen.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	began := time.UnixMilli(gen.StartMs())

	// The hiccup, and what the injector reports while it lasts.
	if err := in.Run(t.Context(), began, []Hiccup{{victim, hiccupAt, hiccupFor}}); err != nil {
		t.Fatal(err)
	}
	hiccupEnd := in.State(nil)[victim].Until
	time.Sleep(hiccupFor - 500*time.Millisecond)
	during := in.State(gen)
	time.Sleep(runFor - hiccupAt - hiccupFor + 500*time.Millisecond)
	after := in.State(gen)
	stopGen()

	stats := generator.Total(gen.Stats())
	if stats.Failed != 0 || stats.Acked != stats.Produced {
		t.Fatalf("generator stats %+v: every produced event must be acknowledged", stats)
	}
	if d := during[victim]; d.Dropped == 0 || d.Refused == 0 {
		t.Errorf("%s state = %+v: the hiccup neither dropped a connection nor refused a retry", d.Name, d)
	}
	if !during[victim].On || during[victim].Held < 50 {
		t.Errorf("near the hiccup's end, %s state = %+v: want on, holding the events of ~3.5 s", during[victim].Name, during[victim])
	}
	for i, s := range during {
		if i != victim && (s.On || s.Held > 50) {
			t.Errorf("during %s's hiccup, %s state = %+v: want off and holding little", during[victim].Name, s.Name, s)
		}
	}
	if after[victim].On || after[victim].Held > 50 {
		t.Errorf("after the hiccup, %s state = %+v: want off, its held events delivered", after[victim].Name, after[victim])
	}

	// Regenerate what was produced: each instance released the first events of its part
	// of the schedule, as many as its producer counted.
	replay, _ := generator.NewSchedule(cfg, gen.StartMs())
	type sent struct {
		pos      int
		ev       gateway.Event
		instance int
	}
	want := map[string]sent{}
	left := gen.Stats()
	for i := 0; ; i++ {
		ev, instance := replay.Next()
		if left[instance].Produced == 0 {
			if generator.Total(left).Produced == 0 {
				break
			}
			continue
		}
		left[instance].Produced--
		want[string(ev.AppendJSON(nil))] = sent{i, ev, instance}
	}

	// Every event is acknowledged; wait until the consumer has read them all, and a
	// little longer to catch any duplicate.
	for deadline := time.Now().Add(20 * time.Second); w.count() < len(want) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	got := w.stop()

	seen := map[string]bool{}
	last := map[[2]int]int{}
	var held, heldLate int
	var worstOther, worstHeld time.Duration
	for _, a := range got {
		s, ok := want[string(a.rec.Value)]
		if !ok {
			t.Fatalf("the topic holds a record that was never generated: %s", a.rec.Value)
		}
		if seen[string(a.rec.Value)] {
			t.Fatalf("event delivered twice: %s", a.rec.Value)
		}
		seen[string(a.rec.Value)] = true
		if a.rec.Timestamp.UnixMilli() != s.ev.TS || string(a.rec.Key) != s.ev.RequestID {
			t.Errorf("record ts %d key %s, want the original ts %d and key %s", a.rec.Timestamp.UnixMilli(), a.rec.Key, s.ev.TS, s.ev.RequestID)
		}
		k := [2]int{int(a.rec.Partition), s.instance}
		if p, ok := last[k]; ok && p > s.pos {
			t.Errorf("partition %d: %s's event %d arrived after its event %d", a.rec.Partition, s.ev.Gateway, s.pos, p)
		}
		last[k] = s.pos
		delay := a.at.Sub(time.UnixMilli(s.ev.TS))
		ts := time.UnixMilli(s.ev.TS)
		switch {
		case s.instance != victim:
			worstOther = max(worstOther, delay)
		case ts.After(began.Add(hiccupAt)) && ts.Before(hiccupEnd):
			held++
			if a.at.Before(hiccupEnd) {
				t.Errorf("%s's event of %v arrived at %v, before the hiccup ended at %v", s.ev.Gateway, ts, a.at, hiccupEnd)
			}
			if late := a.at.Sub(hiccupEnd); late > time.Second {
				heldLate++
			}
			worstHeld = max(worstHeld, a.at.Sub(hiccupEnd))
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d of %d generated events are in the topic", len(seen), len(want))
	}
	if held < 100 {
		t.Errorf("only %d events were produced by %s during its hiccup, want ~%v", held, generator.InstanceName(victim), hiccupFor.Seconds()*cfg.Rate*2/3)
	}
	if heldLate > 0 {
		t.Errorf("%d of %d held events arrived more than 1 s after the hiccup ended (the last %v after)", heldLate, held, worstHeld)
	}
	if worstOther > 750*time.Millisecond {
		t.Errorf("another instance's event took %v from its ts to the topic during a hiccup it was not part of", worstOther)
	}
	t.Logf("%d events, %d held by %s for up to %v (%d connections dropped, %d dials refused), all delivered by %v after the hiccup; other instances' worst delay %v",
		len(seen), held, generator.InstanceName(victim), hiccupFor, during[victim].Dropped, during[victim].Refused, worstHeld, worstOther)
}
