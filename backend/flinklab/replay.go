package flinklab

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/backend/labrt"
	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
)

// Replay writes a recording into a fresh topic of the cluster's Kafka
// (gateway-events-replay-N, 3 partitions), keeping each record's partition, key and
// timestamp, and restarts the job on it: the running job is cancelled through Flink's
// REST API and a new `flink run` reads the new topic from the earliest offset with
// field as its event time. The generator stops first. Progress arrives on Updates ten
// times a second; its Records count what Kafka has acknowledged, as the compose lab
// cannot see what the job has consumed. Replay returns once the whole recording is in
// the topic; the job reads it in the seconds after (a PyFlink job's results trail its
// input by about 5 s).
func (l *Lab) Replay(ctx context.Context, path string, field meter.TimestampField) error {
	if err := l.ready(); err != nil {
		return err
	}
	ctx, cancel := l.bound(ctx)
	defer cancel()
	src, err := recording.Open(ctx, path)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := l.SetGenerator(false); err != nil {
		return err
	}
	cl, err := recording.NewProducer([]string{l.Broker()}, "labtui-replay")
	if err != nil {
		return fmt.Errorf("connect to Kafka on %s: %w", l.Broker(), err)
	}
	defer cl.Close()
	// The topic the recording says it was recorded from, else the lab's.
	partitions := src.Topic().Partitions
	if partitions <= 0 {
		partitions = compose.TopicPartitions
	}
	topic := l.ReplayTopic()
	if err := createTopic(ctx, cl, topic, partitions); err != nil {
		return err
	}
	l.logf("created topic %s with %d partitions on %s", topic, partitions, l.Broker())
	spec := l.Spec()
	spec.Topic, spec.StartAt, spec.Timestamp = topic, labrt.Earliest, field
	if err := l.Restart(ctx, backend.Restart{Cause: backend.CauseReplay, Reason: "replay of " + path, Recording: path}, spec); err != nil {
		return err
	}
	return l.produceAll(ctx, cl, topic, partitions, src, path)
}

// createTopic creates topic with partitions partitions and one replica.
func createTopic(ctx context.Context, cl *kgo.Client, topic string, partitions int32) error {
	resp, err := kadm.NewClient(cl).CreateTopic(ctx, partitions, 1, nil, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	return nil
}

// produceAll writes the recording into topic, each record to its recorded partition,
// and reports progress until Kafka has acknowledged every record; the lines it skips are
// logged at the end (the first recording.DefaultSkipReports of them, then their count).
func (l *Lab) produceAll(ctx context.Context, cl *kgo.Client, topic string, partitions int32, src *recording.Reader, path string) error {
	var n recording.Progress
	var skips recording.Skips
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		done <- recording.Produce(ctx, cl, topic, src.Records(skips.Add),
			recording.ProduceOptions{Partitions: partitions, Progress: &n})
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			for _, line := range skips.Lines(path) {
				l.logf("%s", line)
			}
			p := replayProgress(path, &n, start)
			p.Done, p.Err = true, err
			l.Progress(p)
			if err != nil {
				return err
			}
			l.logf("replayed %s records of %s into %s in %s", thousands.Format(p.Records), filepath.Base(path), topic, time.Since(start).Round(time.Millisecond))
			return nil
		case <-tick.C:
			p := replayProgress(path, &n, start)
			l.Progress(p)
		}
	}
}

// replayProgress is a replay's progress now.
func replayProgress(path string, n *recording.Progress, start time.Time) backend.ReplayProgress {
	p := backend.ReplayProgress{Path: path, Records: n.Acked.Load(), Total: n.Sent.Load(), EventTime: n.EventTime.Load()}
	if el := time.Since(start).Seconds(); el > 0 {
		p.Rate = float64(p.Records) / el
	}
	if p.Rate > 0 && p.Total > p.Records {
		p.Left = time.Duration(float64(p.Total-p.Records) / p.Rate * float64(time.Second))
	}
	return p
}
