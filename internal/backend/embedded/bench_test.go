package embedded

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/testkit"
)

const recordedHour = "../../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

// BenchmarkReplayHourThroughBroker is `r` in the TUI: the recorded hour (143,400
// records) written into the embedded broker and read by the job, both windows running,
// until the job has consumed the last record. "file" is Replay: it reads the gzipped
// file while it is written (nothing of a recording is kept between replays: the
// replay's topic is the one copy in memory). "memory" is the same replay of the
// entries already in memory, the lab with the file's reading taken out, against
// BenchmarkBareProduceConsume's "memory".
func BenchmarkReplayHourThroughBroker(b *testing.B) {
	entries, err := loadHour()
	if err != nil {
		b.Fatal(err)
	}
	for _, from := range []string{"file", "memory"} {
		b.Run(from, func(b *testing.B) {
			lab, err := New(Config{BrokerAddr: "127.0.0.1:0"})
			if err != nil {
				b.Fatal(err)
			}
			if err := lab.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			go func() {
				for range lab.Updates() {
				}
			}()
			defer lab.Close()
			lines := func() int64 { return int64(len(entries)) }
			b.ResetTimer()
			cpu := startCPU()
			var records int64
			for i := 0; i < b.N; i++ {
				if from == "file" {
					err = lab.Replay(context.Background(), recordedHour, jobspec.CompletedTS)
				} else {
					err = lab.replay(context.Background(), recordedHour, jobspec.CompletedTS, 0, recording.All(entries), lines)
				}
				if err != nil {
					b.Fatal(err)
				}
				records += lab.Status().Job.Events
			}
			b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "events/s")
			cpu.report(b)
		})
	}
}

// BenchmarkBareProduceConsume is the baseline of BenchmarkReplayHourThroughBroker: the
// same records (partition, key, value, timestamp) produced into the same broker by a
// franz-go producer and read back by a franz-go consumer at the same time, as the
// replay's job reads while the replay writes, and nothing else: no job, no parsing, no
// lab. "memory" produces records prepared in memory; "file" reads the gzipped recording
// with recording.Reader while producing it, on the same goroutine. "defaults" is
// franz-go's default options (the producer's partitioner is manual, to keep the recorded
// partitions); "lab" is the replay's producer (newReplayProducer). The consumer is
// franz-go's defaults, reading from the start of the topic; it is made before the first
// record is produced.
func BenchmarkBareProduceConsume(b *testing.B) {
	entries, err := loadHour()
	if err != nil {
		b.Fatal(err)
	}
	for _, bench := range []string{"file/defaults", "file/lab", "memory/defaults", "memory/lab"} {
		from, settings, _ := strings.Cut(bench, "/")
		b.Run(bench, func(b *testing.B) {
			br, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
			if err != nil {
				b.Fatal(err)
			}
			defer br.Close()
			lab := &Lab{broker: br}
			b.ResetTimer()
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				topic := fmt.Sprintf("bare-%d", i)
				if err := lab.createTopic(context.Background(), topic, broker.DefaultPartitions); err != nil {
					b.Fatal(err)
				}
				consumed := make(chan error, 1)
				go func() { consumed <- bareConsume(br.Addr(), topic, len(entries)) }()
				records := recording.All(entries)
				var src *recording.Reader
				if from == "file" {
					if src, err = recording.Open(context.Background(), recordedHour); err != nil {
						b.Fatal(err)
					}
					records = recording.Owned(src.Records(nil))
				}
				err := bareProduce(br.Addr(), settings == "lab", topic, records)
				if src != nil {
					src.Close()
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := <-consumed; err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(entries))/b.Elapsed().Seconds(), "events/s")
			cpu.report(b)
		})
	}
}

// loadHour reads the recorded hour into memory.
func loadHour() ([]recording.Entry, error) {
	src, err := recording.Open(context.Background(), recordedHour)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return recording.Load(src.Records(nil))
}

// bareProduce writes records to topic, each to its partition, and waits for them all;
// lab says with the replay's producer, else with franz-go's defaults.
func bareProduce(addr string, lab bool, topic string, records func(func(recording.Entry, error) bool)) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if lab {
		cl, err = newReplayProducer(addr)
	}
	if err != nil {
		return err
	}
	defer cl.Close()
	var failed atomic.Pointer[error]
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			failed.CompareAndSwap(nil, &err)
		}
	}
	for e, err := range records {
		if err != nil {
			return err
		}
		cl.Produce(context.Background(), &kgo.Record{Topic: topic, Partition: e.Partition % broker.DefaultPartitions,
			Key: e.Key, Value: e.Value, Timestamp: time.UnixMilli(e.Timestamp)}, promise)
	}
	if err := cl.Flush(context.Background()); err != nil {
		return err
	}
	if err := failed.Load(); err != nil {
		return *err
	}
	return nil
}

// bareConsume reads topic from the start until it has read n records.
func bareConsume(addr, topic string, n int) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return err
	}
	defer cl.Close()
	for read := 0; read < n; {
		fs := cl.PollFetches(context.Background())
		if err := fs.Err0(); err != nil {
			return err
		}
		read += fs.NumRecords()
	}
	return nil
}

// cpuClock is the process's CPU time (user and system, every thread) at a moment: on a
// machine shared with other work the wall clock of a run swings with the load, the CPU
// time it takes much less.
type cpuClock time.Duration

func startCPU() cpuClock { return cpuClock(testkit.CPUTime()) }

// report reports the CPU time taken since c per iteration, in milliseconds.
func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(startCPU()-c)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
