package embedded

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
)

// TestAReplayDeletesTheTopicOfTheReplayBefore replays twice: the second replay's restart
// deletes the first replay's topic, so the broker holds one replay at a time, and the
// live topic stays.
func TestAReplayDeletesTheTopicOfTheReplayBefore(t *testing.T) {
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	go func() {
		for range lab.Updates() {
		}
	}()
	const scenario = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"
	topics := func() []string {
		cl, err := kgo.NewClient(kgo.SeedBrokers(lab.broker.Addr()))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		td, err := kadm.NewClient(cl).ListTopics(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return td.Names()
	}
	for range 2 {
		if err := lab.Replay(context.Background(), scenario, jobspec.CompletedTS); err != nil {
			t.Fatal(err)
		}
	}
	live := lab.broker.Topic()
	if got, want := topics(), []string{live, live + "-replay-2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("topics %q, want %q", got, want)
	}
}

// TestAReplayDeletesTheLiveTopicsRecords runs the generator, then replays: once the
// replay's job has started, every record of the live topic is deleted (the broker held
// them in memory beside the recording), and the live topic's start offsets count them
// all, as a job restarted from its earliest offset reports them.
func TestAReplayDeletesTheLiveTopicsRecords(t *testing.T) {
	gen := generator.Defaults()
	gen.Rate = 300
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: gen})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	go func() {
		for range lab.Updates() {
		}
	}()
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	// Records on the live topic first.
	testkit.EventuallyWithin(t, testkit.Hang, "300 live records are on the topic", func() bool { return lab.Totals().Acked >= 300 })
	const scenario = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"
	if err := lab.Replay(context.Background(), scenario, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	produced := lab.Totals().Acked
	if produced == 0 {
		t.Fatal("the generator produced nothing in a second")
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(lab.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	starts, err := adm.ListStartOffsets(context.Background(), lab.broker.Topic())
	if err != nil {
		t.Fatal(err)
	}
	ends, err := adm.ListEndOffsets(context.Background(), lab.broker.Topic())
	if err != nil {
		t.Fatal(err)
	}
	var gone, end int64
	starts.Each(func(o kadm.ListedOffset) { gone += o.Offset })
	ends.Each(func(o kadm.ListedOffset) { end += o.Offset })
	if gone != end || gone != produced {
		t.Errorf("the live topic starts at %d records of its %d after the replay; the generator produced %d", gone, end, produced)
	}
	if n, err := lab.deletedFromLive(context.Background()); err != nil || n != produced {
		t.Errorf("deletedFromLive says %d (%v), want %d", n, err, produced)
	}
}

// TestAReplayMakesTheTopicItsRecordingSays: a recording whose topic line says 5
// partitions is replayed into a topic of 5 partitions, every record in its own; without a
// topic line the topic has the broker's 3.
func TestAReplayMakesTheTopicItsRecordingSays(t *testing.T) {
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	go func() {
		for range lab.Updates() {
		}
	}()
	seed, err := os.ReadFile("../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	five := filepath.Join(dir, "five.jsonl")
	moved := regexp.MustCompile(`^\{"partition":\d+,`).ReplaceAllString(string(seed), `{"partition":4,`)
	moved = regexp.MustCompile(`\n\{"partition":\d+,`).ReplaceAllString(moved, "\n"+`{"partition":4,`)
	if err := os.WriteFile(five, []byte(`{"topic":"gateway-events","partitions":5}`+"\n"+moved), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.jsonl")
	if err := os.WriteFile(plain, seed, 0o644); err != nil {
		t.Fatal(err)
	}
	partitions := func(topic string) map[int32]int64 {
		cl, err := kgo.NewClient(kgo.SeedBrokers(lab.broker.Addr()))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		ends, err := kadm.NewClient(cl).ListEndOffsets(context.Background(), topic)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int32]int64{}
		ends.Each(func(o kadm.ListedOffset) { got[o.Partition] = o.Offset })
		return got
	}
	records := int64(strings.Count(string(seed), "\n"))
	if err := lab.Replay(context.Background(), five, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	if got, want := partitions(lab.broker.Topic()+"-replay-1"), map[int32]int64{0: 0, 1: 0, 2: 0, 3: 0, 4: records}; !reflect.DeepEqual(got, want) {
		t.Fatalf("end offsets by partition %v, want %v", got, want)
	}
	if err := lab.Replay(context.Background(), plain, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	if got := partitions(lab.broker.Topic() + "-replay-2"); len(got) != 3 {
		t.Fatalf("end offsets by partition %v, want 3 partitions", got)
	}
}

// TestAReplayTakesTheNextNameWhenATopicOfItsNameExists: a topic named as the first
// replay's (left by an earlier session under the same name on a shared broker) is
// neither reused nor an error: the replay writes into the next free name, and the other
// topic stays as it was.
func TestAReplayTakesTheNextNameWhenATopicOfItsNameExists(t *testing.T) {
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer lab.Close()
	go func() {
		for range lab.Updates() {
		}
	}()
	cl, err := kgo.NewClient(kgo.SeedBrokers(lab.broker.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	live := lab.broker.Topic()
	if _, err := adm.CreateTopic(context.Background(), 1, 1, nil, live+"-replay-1"); err != nil {
		t.Fatal(err)
	}
	const scenario = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"
	if err := lab.Replay(context.Background(), scenario, jobspec.CompletedTS); err != nil {
		t.Fatalf("the first replay beside an existing %s-replay-1: %v", live, err)
	}
	td, err := adm.ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := td.Names(), []string{live, live + "-replay-1", live + "-replay-2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("topics %q, want %q", got, want)
	}
	if n := len(td[live+"-replay-1"].Partitions); n != 1 {
		t.Errorf("the existing topic has %d partitions, want its own 1", n)
	}
}
