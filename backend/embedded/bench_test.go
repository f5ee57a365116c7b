package embedded

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
)

const recordedHour = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

// BenchmarkReplayHourThroughBroker is `r` in the TUI: the recorded hour (143,400
// records) written into the embedded broker and read by the job, both windows running,
// until the job has consumed the last record. "file" reads the gzipped recording while
// producing it, as the first replay does; "memory" replays it from memory, as a second
// replay of the same file does (`t` after `r`) and as the baseline's prepared records are.
func BenchmarkReplayHourThroughBroker(b *testing.B) {
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
			if from == "memory" { // prime the cache
				if err := lab.Replay(context.Background(), recordedHour, meter.CompletedTS); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			var records int64
			for i := 0; i < b.N; i++ {
				if from == "file" {
					lab.cached.set(nil)
				}
				if err := lab.Replay(context.Background(), recordedHour, meter.CompletedTS); err != nil {
					b.Fatal(err)
				}
				records += lab.Status().Job.Events
			}
			b.ReportMetric(float64(records)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkBareProduceConsume is the baseline: the same records produced into the same
// broker and consumed back by a bare franz-go consumer, no job.
func BenchmarkBareProduceConsume(b *testing.B) {
	src, err := recording.Open(context.Background(), recordedHour)
	if err != nil {
		b.Fatal(err)
	}
	var entries []recording.Entry
	for e, err := range readEntries(src, recordedHour, func(string, ...any) {}) {
		if err != nil {
			b.Fatal(err)
		}
		entries = append(entries, e)
	}
	src.Close()
	br, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	lab := &Lab{broker: br}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		topic := "bare-" + time.Now().Format("150405.000000")
		if err := lab.createTopic(context.Background(), topic); err != nil {
			b.Fatal(err)
		}
		if err := lab.produceAll(context.Background(), topic, recording.All(entries), new(recording.Progress)); err != nil {
			b.Fatal(err)
		}
		cl, err := kgo.NewClient(kgo.SeedBrokers(br.Addr()), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		if err != nil {
			b.Fatal(err)
		}
		for n := 0; n < len(entries); {
			fs := cl.PollFetches(context.Background())
			n += fs.NumRecords()
		}
		cl.Close()
	}
	b.ReportMetric(float64(b.N*len(entries))/b.Elapsed().Seconds(), "events/s")
}
