package embedded

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/recording"
)

// TestAReplayWritesEveryRecordToItsPartitionInOrder writes the recorded hour the way a
// replay does (produceAll: the replay's producer, recording.Produce) and reads the topic
// back: every record is there once, in its recorded partition, in the file's order
// within the partition, with its key, value and timestamp; the progress counts them all.
func TestAReplayWritesEveryRecordToItsPartitionInOrder(t *testing.T) {
	entries, err := loadHour()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	br, err := broker.Start(ctx, broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	lab := &Lab{broker: br}
	if err := lab.createTopic(ctx, "replayed", broker.DefaultPartitions); err != nil {
		t.Fatal(err)
	}
	var p recording.Progress
	if err := lab.produceAll(ctx, "replayed", broker.DefaultPartitions, recording.All(entries), &p); err != nil {
		t.Fatal(err)
	}
	want := make(map[int32][]recording.Entry)
	var maxTS int64
	for _, e := range entries {
		want[e.Partition%broker.DefaultPartitions] = append(want[e.Partition%broker.DefaultPartitions], e)
		maxTS = max(maxTS, e.Timestamp)
	}
	if n := int64(len(entries)); p.Sent.Load() != n || p.Acked.Load() != n || p.EventTime.Load() != maxTS {
		t.Fatalf("progress sent %d, acked %d, event time %d; want %d, %d, %d", p.Sent.Load(), p.Acked.Load(), p.EventTime.Load(), n, n, maxTS)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(br.Addr()), kgo.ConsumeTopics("replayed"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	got := make(map[int32]int)
	for read := 0; read < len(entries); {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			t.Fatal(err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			read++
			i := got[r.Partition]
			got[r.Partition]++
			if i >= len(want[r.Partition]) {
				t.Fatalf("partition %d has more than its %d records", r.Partition, len(want[r.Partition]))
			}
			e := want[r.Partition][i]
			if r.Offset != int64(i) || !bytes.Equal(r.Key, e.Key) || !bytes.Equal(r.Value, e.Value) || r.Timestamp.UnixMilli() != e.Timestamp {
				t.Fatalf("partition %d offset %d is key %q ts %d value %.40q; want record %d of the partition, line %d: key %q ts %d value %.40q",
					r.Partition, r.Offset, r.Key, r.Timestamp.UnixMilli(), r.Value, i, e.Line, e.Key, e.Timestamp, e.Value)
			}
		})
	}
	for part, es := range want {
		if got[part] != len(es) {
			t.Errorf("partition %d: %d records read, want %d", part, got[part], len(es))
		}
	}
}
