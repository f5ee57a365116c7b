package localcluster

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// TestClusterIDNeverStartsWithDash draws enough ids that, were one in 64 allowed to begin
// with '-' (which kafka-storage format reads as a missing --cluster-id value), the test
// would see one with near certainty; every id must also decode to Kafka's 16 bytes.
func TestClusterIDNeverStartsWithDash(t *testing.T) {
	for i := 0; i < 5000; i++ {
		id := clusterID()
		if id[0] == '-' {
			t.Fatalf("cluster id %q begins with '-'", id)
		}
		b, err := base64.RawURLEncoding.DecodeString(id)
		if err != nil || len(b) != 16 {
			t.Fatalf("cluster id %q: %d bytes, %v; want 16", id, len(b), err)
		}
	}
}

// A broker that answers on the port but is not this run's (another took the port as the
// JVM started) is not taken for it: waitReady says so, naming both cluster ids.
func TestWaitReadyRefusesAnotherKafkaOnThePort(t *testing.T) {
	k, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ClusterID("someone-else"))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	_, port, _ := net.SplitHostPort(k.ListenAddrs()[0])
	var o Options
	p, err := o.startProcess("Kafka broker", command{Path: "sleep", Args: []string{"300"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop(time.Second)
	b := &Broker{opts: o, proc: p, clusterID: "this-run"}
	b.Port, _ = strconv.Atoi(port)
	err = b.waitReady(context.Background(), "broker.log")
	var taken *portTakenError
	if !errors.As(err, &taken) || !strings.Contains(err.Error(), `"someone-else"`) || !strings.Contains(err.Error(), `"this-run"`) {
		t.Fatalf("waitReady = %v, want another Kafka named", err)
	}
	// Its own, under the id it was formatted with, is ready.
	b.clusterID = "someone-else"
	if err := b.waitReady(context.Background(), "broker.log"); err != nil {
		t.Fatalf("waitReady on its own broker: %v", err)
	}
}
