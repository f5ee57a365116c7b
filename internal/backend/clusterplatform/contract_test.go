package clusterplatform

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend/backendtest"
	"github.com/labtui/labtui/internal/backend/flinklab"
	"github.com/labtui/labtui/internal/localcluster"
)

// The cluster lab keeps the backend contract on real Kafka and Flink: started from the
// install in $LABTUI_REAL_CLUSTER (a cache folder, such as the conformance run's), its
// TaskManager killed once, the job resubmitted with another strategy, and the seed burst
// replayed, which completes only once the job's Kafka source has read all of it (Flink's
// REST metrics) and says how it read each partition. It takes several minutes of two
// busy cores, so it runs only when asked (conformance/backend-cluster.sh asks).
func TestTheClusterLabKeepsTheBackendContract(t *testing.T) {
	cache := os.Getenv("LABTUI_REAL_CLUSTER")
	if cache == "" {
		t.Skip("set LABTUI_REAL_CLUSTER to an install's cache folder to run the real cluster")
	}
	lab, err := New(Config{Lab: flinklab.Config{}, Layout: localcluster.Layout{Cache: cache}, RunDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := lab.Start(ctx); err != nil {
		lab.Close()
		t.Fatal(err)
	}
	backendtest.NoticesArriveInOrderWhileTheReaderIsBehind(t, backendtest.Subject{Lab: lab,
		Recording: "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl", Restarts: 1, Timeout: 8 * time.Minute})
}
