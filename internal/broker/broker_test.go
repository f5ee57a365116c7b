package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/testkit"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func startBroker(t *testing.T, cfg Config) *Broker {
	t.Helper()
	b, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(b.Close)
	return b
}

func TestStartOnABusyPortNamesThePortAndTheFix(t *testing.T) {
	testkit.CheckGoroutines(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	port := ln.Addr().(*net.TCPAddr).Port

	_, err = Start(t.Context(), Config{Addr: ln.Addr().String()})

	var busy *PortInUseError
	if !errors.As(err, &busy) || !errors.Is(err, errPortInUse) {
		t.Fatalf("Start on a busy port = %v, want a *PortInUseError", err)
	}
	if busy.Port != port {
		t.Errorf("PortInUseError.Port = %d, want %d", busy.Port, port)
	}
	for _, want := range []string{"port " + strconv.Itoa(port) + " is already in use", "--broker-addr"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestStartRejectsAnAddressOffLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:9092", "10.0.0.1:9092", "[::]:9092", "[fe80::1]:9092", "9092", "127.0.0.1:http"} {
		if b, err := Start(t.Context(), Config{Addr: addr}); err == nil {
			b.Close()
			t.Errorf("Start(%q) succeeded, want an error", addr)
		}
	}
}

func TestProducedRecordsCanBeConsumed(t *testing.T) {
	testkit.CheckGoroutines(t)
	b := startBroker(t, Config{Addr: "127.0.0.1:0"})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	admin, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	topics, err := kadm.NewClient(admin).ListTopics(ctx, DefaultTopic)
	if err != nil {
		t.Fatalf("list topics: %v", err)
	}
	if got := len(topics[DefaultTopic].Partitions); got != DefaultPartitions {
		t.Fatalf("topic %s has %d partitions, want %d", DefaultTopic, got, DefaultPartitions)
	}

	producer, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.DefaultProduceTopic(b.Topic()))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	const n = 100
	for i := range n {
		r := &kgo.Record{Key: []byte(fmt.Sprint("k", i)), Value: []byte(strconv.Itoa(i))}
		if err := producer.ProduceSync(ctx, r).FirstErr(); err != nil {
			t.Fatalf("produce %d: %v", i, err)
		}
	}

	consumer, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.ConsumeTopics(b.Topic()))
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	seen := map[string]bool{}
	for len(seen) < n {
		fetches := consumer.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("consumed %d of %d records before %v", len(seen), n, err)
		}
		fetches.EachRecord(func(r *kgo.Record) {
			if seen[string(r.Value)] {
				t.Errorf("record %s consumed twice", r.Value)
			}
			seen[string(r.Value)] = true
		})
	}
}

func TestCloseReleasesThePort(t *testing.T) {
	testkit.CheckGoroutines(t)
	b, err := Start(t.Context(), Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	addr := b.Addr()
	// A connected client must not keep the port or the broker's goroutines alive.
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Ping(t.Context()); err != nil {
		t.Fatalf("ping: %v", err)
	}

	b.Close()
	b.Close() // twice is harmless

	again, err := Start(t.Context(), Config{Addr: addr})
	if err != nil {
		t.Fatalf("restart on %s after Close: %v", addr, err)
	}
	again.Close()
}

// TestTheLiveTopicKeepsItsNewestBytesAndOtherTopicsKeepAll writes more than
// RetentionBytes into one partition of the live topic and as much, stamped years ago,
// into a replay's topic: within two retention checks the live partition has dropped its
// oldest batches and keeps at most RetentionBytes, its other partitions (small, and
// stamped years ago too) keep all, and the replay's topic keeps every record.
func TestTheLiveTopicKeepsItsNewestBytesAndOtherTopicsKeepAll(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the broker's retention check")
	}
	b := startBroker(t, Config{Addr: "127.0.0.1:0"})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerBatchCompression(kgo.NoCompression()), kgo.ProducerBatchMaxBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	const replayTopic = "gateway-events-replay-1"
	if _, err := adm.CreateTopic(ctx, DefaultPartitions, 1, nil, replayTopic); err != nil {
		t.Fatal(err)
	}
	value := make([]byte, 64<<10)
	for i := range value {
		value[i] = byte(i*7 + i/251) // no run a codec could shrink; compression is off anyway
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	n := (RetentionBytes + 8<<20) / len(value)
	for _, topic := range []string{b.Topic(), replayTopic} {
		for i := range n {
			cl.Produce(ctx, &kgo.Record{Topic: topic, Partition: 0, Value: value, Timestamp: old.Add(time.Duration(i) * time.Millisecond)}, nil)
		}
		for p := int32(1); p < DefaultPartitions; p++ {
			cl.Produce(ctx, &kgo.Record{Topic: topic, Partition: p, Value: []byte("small"), Timestamp: old}, nil)
		}
	}
	if err := cl.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	starts := func(topic string) kadm.ListedOffsets {
		o, err := adm.ListStartOffsets(ctx, topic)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	deadline := time.Now().Add(2*retentionCheck + 5*time.Second)
	for starts(b.Topic())[b.Topic()][0].Offset == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after %v the live topic's partition 0 still starts at 0", 2*retentionCheck)
		}
		time.Sleep(200 * time.Millisecond)
	}
	dirs, err := adm.DescribeAllLogDirs(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept := int64(-1)
	for _, ds := range dirs {
		for _, d := range ds {
			for _, ps := range d.Topics[b.Topic()] {
				if ps.Partition == 0 {
					kept = ps.Size
				}
			}
		}
	}
	if kept < 0 || kept > RetentionBytes {
		t.Errorf("the live partition 0 keeps %d bytes, want at most %d", kept, RetentionBytes)
	}
	for p := int32(1); p < DefaultPartitions; p++ {
		if o := starts(b.Topic())[b.Topic()][p].Offset; o != 0 {
			t.Errorf("the live topic's small partition %d starts at %d: a record was deleted for its age", p, o)
		}
	}
	for p, o := range starts(replayTopic)[replayTopic] {
		if o.Offset != 0 {
			t.Errorf("the replay topic's partition %d starts at %d: a replay lost records", p, o.Offset)
		}
	}
}

// TestTheBrokerListensOnIPv6Loopback starts the broker on [::1] and moves a record
// through it: [::1] is loopback, not an address off it.
func TestTheBrokerListensOnIPv6Loopback(t *testing.T) {
	if ln, err := net.Listen("tcp", "[::1]:0"); err != nil {
		t.Skipf("this machine has no IPv6 loopback: %v", err)
	} else {
		ln.Close()
	}
	b := startBroker(t, Config{Addr: "[::1]:0"})
	if !strings.HasPrefix(b.Addr(), "[::1]:") {
		t.Fatalf("Addr() = %q, want [::1]:port", b.Addr())
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.DefaultProduceTopic(b.Topic()), kgo.ConsumeTopics(b.Topic()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("over ::1")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	fs := cl.PollFetches(ctx)
	if fs.NumRecords() != 1 || string(fs.Records()[0].Value) != "over ::1" {
		t.Fatalf("consumed %d records (%v)", fs.NumRecords(), fs.Errors())
	}
}
