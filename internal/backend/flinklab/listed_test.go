package flinklab

import (
	"context"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A topic just created can be listed for a moment with no partitions (its metadata has
// not reached the broker asked): a session that took that first answer refused to
// start ("it has 0 partitions"), as one of two sessions starting at once on one broker
// did. The partitions are asked again until they are listed.
func TestATopicListedWithoutPartitionsAtFirstIsAskedAgain(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "res"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	host, p, err := net.SplitHostPort(c.ListenAddrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(p)
	var bare atomic.Int32
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if bare.Add(1) > 2 {
			return nil, nil, false
		}
		// The broker as it is, its topic listed without partitions.
		resp := req.(*kmsg.MetadataRequest).ResponseKind().(*kmsg.MetadataResponse)
		b := kmsg.NewMetadataResponseBroker()
		b.NodeID, b.Host, b.Port = 0, host, int32(port)
		resp.Brokers = append(resp.Brokers, b)
		rt := kmsg.NewMetadataResponseTopic()
		name := "res"
		rt.Topic = &name
		resp.Topics = append(resp.Topics, rt)
		return resp, nil, true
	})
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), resultsMetadataAge)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	began := time.Now()
	n, err := listedPartitions(context.Background(), kadm.NewClient(cl), "res", 30*time.Second)
	t.Logf("took %s, %d metadata requests", time.Since(began), bare.Load())
	if err != nil || n != 1 {
		t.Fatalf("listed %d partitions (%v) after %d metadata requests, want 1 once the metadata has them", n, err, bare.Load())
	}
	if bare.Load() < 3 {
		t.Fatalf("the metadata was asked %d times: the bare answers were never given", bare.Load())
	}
}
