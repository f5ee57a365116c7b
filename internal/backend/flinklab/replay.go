package flinklab

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// Replay is labrt's Replay into the cluster's Kafka: a fresh topic
// (gateway-events-replay-N, 3 partitions) the recording is written into, keeping each
// record's partition, key and timestamp, and the job restarted on it: the running job is
// cancelled through Flink's REST API and a new `flink run` reads the new topic from the
// earliest offset with field as its event time. The generator stops first. Its progress
// counts what the job's Kafka source has read, per partition, as Flink's REST API
// reports it and as far as labtui's index of the topic has read it too (see
// positions), and Replay returns once both have read every record written: the results
// of the last of them follow within the job's latency.
func (l *Lab) Replay(ctx context.Context, path string, field jobspec.TimestampField) error {
	return l.Runtime.Replay(ctx, path, field, labrt.ReplayTarget{
		Producer: func() (*kgo.Client, error) {
			return recording.NewProducer([]string{l.Broker()}, "labtui-replay")
		},
		Partitions: compose.TopicPartitions,
	})
}
