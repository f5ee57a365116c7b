package embedded

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/backend/labrt"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// Replay is labrt's Replay into the broker: a fresh topic of broker.DefaultPartitions,
// written by the replay's producer (newReplayProducer), the live topic's records deleted
// once the job reads the replay (emptyLive). It returns when the job has read every
// record; the job then stands as an unbounded Kafka job would, with the last event-time
// windows open.
func (l *Lab) Replay(ctx context.Context, path string, field jobspec.TimestampField) error {
	return l.Runtime.Replay(ctx, path, field, l.replayTarget())
}

// replay is Replay of the entries of the recording at path, as they come, into a topic
// of partitions partitions (0 for the broker's); lines says how many lines it has so far
// (see labrt.OpenRecording). BenchmarkReplayHourThroughBroker's "memory" hands it entries
// held in memory.
func (l *Lab) replay(ctx context.Context, path string, field jobspec.TimestampField, partitions int32, entries func(func(recording.Entry, error) bool), lines func() int64) error {
	target := l.replayTarget()
	if partitions > 0 {
		target.Partitions = int(partitions)
	}
	return l.ReplayEntries(ctx, path, field, entries, lines, target)
}

// replayTarget is where a replay goes: the broker, through the replay's producer.
func (l *Lab) replayTarget() labrt.ReplayTarget {
	return labrt.ReplayTarget{
		Producer:   func() (*kgo.Client, error) { return newReplayProducer(l.broker.Addr()) },
		Partitions: broker.DefaultPartitions,
		Owned:      true,
		Reading:    l.emptyLive,
	}
}

// createTopic creates topic with partitions partitions.
func (l *Lab) createTopic(ctx context.Context, topic string, partitions int32) error {
	return l.admin(ctx, "create topic "+topic, func(adm *kadm.Client) error {
		return labrt.CreateTopic(ctx, adm, topic, int(partitions))
	})
}

// emptyLive deletes every record of the live topic, once the generator has stopped and
// the job reads a replay's topic: nothing reads the live topic until the generator starts
// again, and the job then reads it from its latest offset. The broker holds a partition's
// records in memory up to its retention (about 15 MB over the three partitions after a
// few minutes of the generator), which would sit beside the recording through every
// replay. A job restarted from the live topic's earliest offset later says exactly how
// many records it cannot read (deletedFromLive counts these too).
func (l *Lab) emptyLive(ctx context.Context) error {
	return l.admin(ctx, "delete the live topic's records", func(adm *kadm.Client) error {
		ends, err := adm.ListEndOffsets(ctx, l.broker.Topic())
		if err == nil {
			err = ends.Error()
		}
		if err != nil {
			return err
		}
		resp, err := adm.DeleteRecords(ctx, ends.Offsets())
		if err == nil {
			err = resp.Error()
		}
		return err
	})
}

// deleteTopic deletes topic.
func (l *Lab) deleteTopic(ctx context.Context, topic string) error {
	return l.admin(ctx, "delete topic "+topic, func(adm *kadm.Client) error {
		resp, err := adm.DeleteTopic(ctx, topic)
		if err == nil {
			err = resp.Err
		}
		return err
	})
}

// admin runs op with an admin client of the broker, for as long as op takes; what names
// the operation in the error.
func (l *Lab) admin(ctx context.Context, what string, op func(*kadm.Client) error) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(l.broker.Addr()))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer cl.Close()
	if err := op(kadm.NewClient(cl)); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// produceAll writes entries to topic, of partitions partitions, in order, each to its
// recorded partition, counting them in p as it goes.
func (l *Lab) produceAll(ctx context.Context, topic string, partitions int32, entries func(func(recording.Entry, error) bool), p *recording.Progress) error {
	cl, err := newReplayProducer(l.broker.Addr())
	if err != nil {
		return err
	}
	defer cl.Close()
	return recording.Produce(ctx, cl, topic, entries, recording.ProduceOptions{Partitions: partitions, Owned: true, Progress: p})
}
