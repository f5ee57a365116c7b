package embedded

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/livejob"
	"github.com/labtui/labtui/internal/recording"
)

// readHourAt produces the recorded hour into a fresh topic of the broker at addr as a
// replay does (recording.Produce through newReplayProducer: each record's key, timestamp
// and partition kept) and reads it with the embedded lab's job consumer (livejob with
// jobClientOpts) from the earliest offset, under for_monotonous_timestamps after the
// source. With concurrent the job starts before the first record is produced, as a
// replay starts it; else once every record is acknowledged. It returns the job's Reads
// once it has read every record.
func readHourAt(t *testing.T, addr string, concurrent bool, opts ...kgo.Opt) (jobspec.Reads, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	topic := fmt.Sprintf("fairness-%d", time.Now().UnixNano())
	adm, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	if resp, err := kadm.NewClient(adm).CreateTopic(ctx, broker.DefaultPartitions, 1, nil, topic); err != nil || resp.Err != nil {
		t.Fatalf("create topic %s: %v %v", topic, err, resp.Err)
	}
	produce := func() int64 { return produceHour(t, ctx, addr, topic) }
	var job *livejob.Job
	runs, last := 0, int32(-1) // runs counts the stretches of records read from one partition
	startJob := func() {
		job, err = livejob.Start(ctx, livejob.Config{Brokers: []string{addr}, Topic: topic, StartAt: livejob.Earliest,
			Job: jobspec.Options{}, ClientOpts: append(jobClientOpts(), opts...),
			Consumed: func(r *kgo.Record, _ int64) {
				if r.Partition != last {
					runs, last = runs+1, r.Partition
				}
			}}, func(jobspec.Result) {})
		if err != nil {
			t.Fatal(err)
		}
	}
	var total int64
	if concurrent {
		startJob()
		total = produce()
	} else {
		total = produce()
		startJob()
	}
	defer job.Stop()
	for job.Snapshot().Consumed < total {
		select {
		case <-ctx.Done():
			t.Fatalf("the job read %d of %d records", job.Snapshot().Consumed, total)
		case <-job.Changed():
		case <-time.After(100 * time.Millisecond):
		}
	}
	s, err := job.Stop()
	if err != nil {
		t.Fatal(err)
	}
	return s.Reads, runs
}

func logReads(t *testing.T, what string, r jobspec.Reads, runs int) {
	t.Helper()
	t.Logf("%s: %d stretches of one partition; largest lead %.1f s (partition %d ahead of %d, at event %d); late %d, %d of them only because of a lead; per partition %+v",
		what, runs, float64(r.Max.By)/1000, r.Max.Ahead, r.Max.Behind, r.Max.Read, r.Late, r.AheadLate, r.Partitions)
}

// TestRealKafkaReadsTheHourAsKfakeDoes measures how unevenly the embedded lab's job
// consumer reads the recorded hour from a real Kafka broker (LABTUI_REAL_KAFKA, a
// bootstrap address, as conformance/broker.sh starts one) and from kfake, produced and
// read the same way. It is skipped unless LABTUI_REAL_KAFKA is set.
func TestRealKafkaReadsTheHourAsKfakeDoes(t *testing.T) {
	real := os.Getenv("LABTUI_REAL_KAFKA")
	if real == "" {
		t.Skip("LABTUI_REAL_KAFKA (a Kafka broker's bootstrap address) is not set")
	}
	br, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	for _, concurrent := range []bool{true, false} {
		mode := map[bool]string{true: "read while produced", false: "read after produced"}[concurrent]
		for _, v := range fetchVariants {
			for i := 0; i < 2; i++ {
				r, runs := readHourAt(t, real, concurrent, v.opts...)
				logReads(t, "real Kafka, "+v.name+", "+mode, r, runs)
				k, runs := readHourAt(t, br.Addr(), concurrent, v.opts...)
				logReads(t, "kfake, "+v.name+", "+mode, k, runs)
				// Both brokers hold the same records in the same partitions: only the order
				// they are read in across partitions may differ.
				if fmt.Sprint(r.Partitions) != fmt.Sprint(k.Partitions) {
					t.Errorf("real Kafka's partitions %+v, kfake's %+v", r.Partitions, k.Partitions)
				}
			}
		}
	}
}

// fetchVariants are the fetch sizes compared: the job's own, and a Kafka consumer's
// defaults as Flink's KafkaSource reads with them (fetch.max.bytes 50 MiB,
// max.partition.fetch.bytes 1 MiB).
var fetchVariants = []struct {
	name string
	opts []kgo.Opt
}{
	{"job's fetch sizes", nil},
	{"Kafka consumer defaults", []kgo.Opt{kgo.FetchMaxBytes(50 << 20), kgo.FetchMaxPartitionBytes(1 << 20)}},
	{"1 MiB, 256 KiB a partition", []kgo.Opt{kgo.FetchMaxBytes(1 << 20), kgo.FetchMaxPartitionBytes(256 << 10)}},
}

// TestProduceTheHourForFlink only produces the recorded hour, as a replay does, into
// the topic LABTUI_FAIRNESS_TOPIC of the broker at LABTUI_REAL_KAFKA, for the anchor (real
// Flink's KafkaSource) to read: conformance/fairness.sh runs it. It is skipped unless both
// are set.
func TestProduceTheHourForFlink(t *testing.T) {
	addr, topic := os.Getenv("LABTUI_REAL_KAFKA"), os.Getenv("LABTUI_FAIRNESS_TOPIC")
	if addr == "" || topic == "" {
		t.Skip("LABTUI_REAL_KAFKA and LABTUI_FAIRNESS_TOPIC are not both set")
	}
	n := produceHour(t, context.Background(), addr, topic)
	t.Logf("produced %d records into %s", n, topic)
}

// produceHour produces the recorded hour into topic at addr as a replay does and returns
// how many records the broker acknowledged.
func produceHour(t *testing.T, ctx context.Context, addr, topic string) int64 {
	t.Helper()
	entries, _, _, unread, err := labrt.OpenRecording(ctx, recordedHour, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer unread()
	cl, err := newReplayProducer(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var p recording.Progress
	if err := recording.Produce(ctx, cl, topic, entries, recording.ProduceOptions{Partitions: broker.DefaultPartitions, Owned: true, Progress: &p}); err != nil {
		t.Fatal(err)
	}
	return p.Acked.Load()
}
