package labrt

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Given a Kafka with its default retention (7 days, as labtui's own cluster, the compose
// lab and a class's cluster run it), when a replay's topic gets a recording whose
// timestamps are 8 days old, then the broker's retention check leaves every record in
// it, while a topic with the broker's defaults loses them all. The recorded hour's
// timestamps are fixed, so every replay of it is older than 7 days a week after it was
// recorded.
func TestAReplaysTopicKeepsARecordingOlderThanTheBrokersRetention(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	adm := kadm.NewClient(cl)
	if err := CreateTopic(ctx, adm, "gateway-events-replay-1", 3); err != nil {
		t.Fatal(err)
	}
	if resp, err := adm.CreateTopic(ctx, 3, 1, nil, "defaults"); err != nil || resp.Err != nil {
		t.Fatal(err, resp.Err)
	}
	old := time.Now().Add(-8 * 24 * time.Hour)
	for _, topic := range []string{"gateway-events-replay-1", "defaults"} {
		for i := range 30 {
			r := &kgo.Record{Topic: topic, Partition: int32(i % 3), Timestamp: old.Add(time.Duration(i) * time.Second), Value: []byte("{}")}
			if err := cl.ProduceSync(ctx, r).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.ApplyRetention()
	kept := func(topic string) int64 {
		starts, err := adm.ListStartOffsets(ctx, topic)
		if err != nil {
			t.Fatal(err)
		}
		ends, err := adm.ListEndOffsets(ctx, topic)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		ends.Each(func(e kadm.ListedOffset) {
			s, _ := starts.Lookup(topic, e.Partition)
			n += e.Offset - s.Offset
		})
		return n
	}
	if n := kept("defaults"); n != 0 {
		t.Fatalf("the broker's retention kept %d of 30 records 8 days old in a topic with its defaults: the test no longer shows what it guards against", n)
	}
	if n := kept("gateway-events-replay-1"); n != 30 {
		t.Fatalf("the replay's topic kept %d of its 30 records 8 days old, want all", n)
	}
}
