package embedded

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
)

func TestARunBalancesAndLeavesNothingBehind(t *testing.T) {
	testkit.CheckGoroutines(t)
	gen := generator.Defaults()
	gen.Rate = 200
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen,
		Hiccups: []inject.Hiccup{{Instance: 1, At: 300 * time.Millisecond, For: 1500 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	results := map[jobspec.Kind]int{}
	sawHiccup, sawHeld := false, false
	var heldSeen, hiccupOver atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range lab.Updates() {
			for _, r := range u.Results {
				results[r.Kind]++
			}
			if u.Status != nil && len(u.Status.Instances) == 3 && u.Status.Instances[1].Hiccup {
				sawHiccup = true
				sawHeld = sawHeld || u.Status.Instances[1].Held > 0
				heldSeen.Store(sawHeld)
			} else if u.Status != nil && sawHiccup {
				hiccupOver.Store(true)
			}
		}
	}()
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	// Run until gw-1's hiccup has come and gone with events held, and 300 requests were
	// made (a loaded machine may take far longer than the 1.5 s that is at 200/s).
	testkit.EventuallyWithin(t, testkit.Hang, "gw-1's hiccup has held events and ended, and 300 requests were made", func() bool {
		return heldSeen.Load() && hiccupOver.Load() && lab.Totals().Requests >= 300
	})
	if err := lab.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	var out bytes.Buffer
	s := lab.Summary()
	s.Print(&out)
	t.Log("\n" + out.String())
	if !s.balanced() || s.Requests < 300 || !strings.Contains(out.String(), "every event and every dollar is accounted for") {
		t.Fatalf("unbalanced run:\n%s", out.String())
	}
	if !sawHiccup || !sawHeld {
		t.Errorf("status never showed gw-1's hiccup with events held (hiccup %v, held %v)", sawHiccup, sawHeld)
	}
	if results[jobspec.TraceResult] != 0 || s.Records == 0 {
		t.Errorf("results %v", results)
	}
}

func TestReplayWritesTheRecordingAndRestartsTheJobFromTheEarliestOffset(t *testing.T) {
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var traces, restarts int
	var done *backendReplay
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for u := range lab.Updates() {
			for _, r := range u.Results {
				if r.Kind == jobspec.TraceResult {
					traces++
				}
			}
			if u.Restarted != nil {
				restarts++
			}
			if u.Replay != nil && u.Replay.Done {
				p := *u.Replay
				done = &p
			}
		}
	}()
	if err := lab.Replay(context.Background(), "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl", jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	st := lab.Status()
	if err := lab.Close(); err != nil {
		t.Fatal(err)
	}
	<-finished
	if done == nil || done.Records != 12 || done.Total != 12 || done.Err != nil {
		t.Fatalf("final progress %+v", done)
	}
	var openEvent float64
	for _, r := range st.Open {
		if r.Window == jobspec.EventTimeResult {
			openEvent += r.Minute.USD
		}
	}
	if st.Job.Records != 6 || !same(st.Job.EventUSD+st.Job.LateUSD+openEvent, 0.6) || restarts != 2 {
		t.Fatalf("after the replay: %+v, open event-time $%v, %d restarts", st.Job, openEvent, restarts)
	}
}

type backendReplay = backend.ReplayProgress

var _ backend.Restarter = (*Lab)(nil)

var _ backend.Staller = (*Lab)(nil)

func TestARestartedJobHasEmptyStateAndRereadsFromTheEarliestOffset(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 300
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	restarts := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range lab.Updates() {
			if u.Restarted != nil {
				restarts++
			}
		}
	}()
	lab.SetGenerator(true)
	testkit.EventuallyWithin(t, testkit.Hang, "300 events are on the topic", func() bool { return lab.Totals().Acked >= 300 })
	lab.SetGenerator(false)
	produced := lab.Totals().Acked
	testkit.EventuallyWithin(t, testkit.Hang, "the job has read every event produced", func() bool { return lab.Status().Job.Events >= produced })
	before := lab.Status().Job
	if err := lab.RestartJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	if fresh := lab.Status().Job; fresh.Events >= before.Events && before.Events > 0 {
		t.Fatalf("the restarted job did not start empty: %d events before, %d after", before.Events, fresh.Events)
	}
	testkit.EventuallyWithin(t, testkit.Hang, "the restarted job has read every event again", func() bool { return lab.Status().Job.Events >= produced })
	after := lab.Status().Job
	lab.Close()
	<-done
	// From the earliest offset, the new job reads every event again: the same records,
	// the same dollars, assembled a second time from empty state.
	if after.Events != produced || after.Records != before.Records || !same(after.RecordsUSD, before.RecordsUSD) || restarts != 2 {
		t.Fatalf("after the restart: %+v; before: %+v; produced %d; %d restarts", after, before, produced, restarts)
	}
}

// TestARestartFromEarliestSaysHowManyRecordsTheBrokerDeleted deletes the oldest records
// of the live topic (as its retention does) and restarts the job: the job reads the rest,
// the learner is told exactly how many it cannot read, and closing does not wait for them.
// A marker event at the end of each partition, later than every other, says when the job
// has read the partition to its end.
func TestARestartFromEarliestSaysHowManyRecordsTheBrokerDeleted(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 300
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	logs := make(chan string, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range lab.Updates() {
			if u.Log != "" {
				select {
				case logs <- u.Log:
				default:
				}
			}
		}
	}()
	lab.SetGenerator(true)
	// 600 events on the topic, about a second's worth at 300 requests/s.
	testkit.EventuallyWithin(t, testkit.Hang, "600 events are on the topic", func() bool { return lab.Totals().Acked >= 600 })
	lab.SetGenerator(false)
	produced := lab.Totals().Acked
	cl, err := kgo.NewClient(kgo.SeedBrokers(lab.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ends, err := adm.ListEndOffsets(context.Background(), broker.DefaultTopic)
	if err != nil {
		t.Fatal(err)
	}
	var deleted int64
	cut := kadm.Offsets{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset >= 4 {
			cut.Add(kadm.Offset{Topic: o.Topic, Partition: o.Partition, At: o.Offset / 2})
			deleted += o.Offset / 2
		}
	})
	if deleted == 0 {
		t.Fatalf("600 events left nothing to delete: %v", ends)
	}
	if _, err := adm.DeleteRecords(context.Background(), cut); err != nil {
		t.Fatal(err)
	}
	markerTS := time.Now().Add(time.Hour).UnixMilli()
	var markers []*kgo.Record
	ends.Each(func(o kadm.ListedOffset) {
		ev := gateway.Event{Type: gateway.RequestStarted, RequestID: fmt.Sprintf("marker-%d", o.Partition), TenantID: "acme",
			Model: gateway.DefaultPrices().Models()[0], Gateway: "gw-0", TS: markerTS, PromptTokens: 1}
		markers = append(markers, &kgo.Record{Topic: o.Topic, Partition: o.Partition, Key: []byte(ev.RequestID), Value: ev.AppendJSON(nil)})
	})
	marked, err := kgo.NewClient(kgo.SeedBrokers(lab.Addr()), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer marked.Close()
	if err := marked.ProduceSync(context.Background(), markers...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := lab.RestartJob(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the %d older records were deleted", deleted)
	deadline := time.After(60 * time.Second) // a hang
	for found := false; !found; {
		select {
		case l := <-logs:
			found = strings.Contains(l, want)
		case <-deadline:
			t.Fatalf("no log line says %q", want)
		}
	}
	testkit.EventuallyWithin(t, testkit.Hang, "the restarted job has read every partition to its marker", func() bool {
		r := lab.Status().Reads
		if r == nil || len(r.Partitions) != len(markers) {
			return false
		}
		for _, p := range r.Partitions {
			if p.MaxTS != markerTS {
				return false
			}
		}
		return true
	})
	if got, want := lab.Status().Job.Events, produced-deleted+int64(len(markers)); got != want {
		t.Errorf("the restarted job read %d events, want the %d kept and %d markers", got, produced-deleted, len(markers))
	}
	start := time.Now()
	lab.Close()
	<-done
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("closing waited %v for records that were deleted", took)
	}
}
