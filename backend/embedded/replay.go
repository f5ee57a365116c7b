package embedded

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/backend"
	"github.com/labtui/labtui/backend/labrt"
	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/internal/thousands"
	"github.com/labtui/labtui/livejob"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
)

// Replay writes a recording into a fresh topic of the broker, keeping each record's
// partition, key and timestamp, and restarts the job on that topic from the earliest
// offset with field as its event timestamp, as a learner points the lab's job at a
// recorded topic. The generator stops first. Replay returns when the job has read every
// record; the job then stands as an unbounded Kafka job would, with the last event-time
// windows open. Progress arrives on Updates ten times a second.
func (l *Lab) Replay(ctx context.Context, path string, field meter.TimestampField) error {
	entries, topic, lines, unread, err := l.recordingEntries(ctx, path)
	if err != nil {
		return err
	}
	defer unread()
	return l.replay(ctx, path, field, topic.Partitions, entries, lines)
}

// replay is Replay of the entries of the recording at path, as they come, into a topic
// of partitions partitions (the recording's topic line's count; 0 for the broker's); lines
// says how many lines it has so far (see recordingEntries).
// BenchmarkReplayHourThroughBroker's "memory" hands it entries held in memory.
func (l *Lab) replay(ctx context.Context, path string, field meter.TimestampField, partitions int32, entries func(func(recording.Entry, error) bool), lines func() int64) error {
	if err := l.SetGenerator(false); err != nil {
		return err
	}
	if partitions <= 0 {
		partitions = broker.DefaultPartitions
	}
	topic := l.ReplayTopic()
	if err := l.createTopic(ctx, topic, partitions); err != nil {
		return err
	}
	start := time.Now()
	spec := l.Spec()
	spec.Topic, spec.StartAt, spec.Timestamp = topic, labrt.Earliest, field
	if err := l.Restart(ctx, backend.Restart{Cause: backend.CauseReplay, Reason: "replay of " + path, Recording: path}, spec); err != nil {
		return err
	}
	if err := l.emptyLive(ctx); err != nil {
		l.Logf("%v", err)
	}
	var produced recording.Progress // Sent grows as the recording is read; final when done is sent
	total := &produced.Sent
	done := make(chan error, 1)
	go func() { done <- l.produceAll(ctx, topic, partitions, entries, &produced) }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for producing := true; ; {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-l.jobChanged(producing):
		case err := <-done:
			producing = false
			if err != nil {
				l.Progress(backend.ReplayProgress{Path: path, Total: total.Load(), Done: true, Err: err})
				return err
			}
		case <-tick.C:
		}
		p := l.replayProgress(path, total.Load(), start)
		p.Writing, p.Written, p.Lines = producing, produced.Acked.Load(), lines()
		if !producing && p.Records >= p.Total {
			p.Done = true
			l.Progress(p)
			l.Logf("replayed %s records of %s in %s (%s records/s)", thousands.Format(p.Total), filepath.Base(path),
				time.Since(start).Round(time.Millisecond), thousands.Format(int64(p.Rate)))
			return nil
		}
		l.Progress(p)
	}
}

// jobChanged is the job's Changed channel once the recording is all produced, when the
// replay waits for the job to read the last record; nil (never ready) before.
func (l *Lab) jobChanged(producing bool) <-chan struct{} {
	if producing {
		return nil
	}
	if job := l.job.current(); job != nil {
		return job.Changed()
	}
	return nil
}

func (l *Lab) replayProgress(path string, total int64, start time.Time) backend.ReplayProgress {
	var s livejob.Snapshot
	if job := l.job.current(); job != nil {
		s = job.Snapshot()
	}
	p := backend.ReplayProgress{Path: path, Records: s.Consumed, Total: total, EventTime: s.Watermark}
	if len(s.Reads.Partitions) > 0 {
		reads := s.Reads
		p.Reads = &reads
	}
	if el := time.Since(start).Seconds(); el > 0 {
		p.Rate = float64(s.Consumed) / el
	}
	if p.Rate > 0 && total > s.Consumed {
		p.Left = time.Duration(float64(total-s.Consumed) / p.Rate * float64(time.Second))
	}
	return p
}

// recordingEntries yields the entries of the recording at path, read from the file while
// they are produced. Nothing of it is kept once it has been produced: the replay's topic
// in the broker is the one copy of the recording in memory. (Keeping the entries for the
// next replay, as labtui once did, held a second copy, about 40 MB for the recorded hour,
// to save some 0.15 s of reading when the same file was replayed again.) lines says how
// many lines the recording has (see backend.ReplayProgress.Lines), as a goroutine counts
// them beside the producer. The file is opened at once, so a recording that cannot be
// read is an error before the job restarts; unread closes it if entries was never
// iterated (the replay failed before producing), and does nothing once it was: the
// iteration closes it, and its goroutines have ended when it does.
func (l *Lab) recordingEntries(ctx context.Context, path string) (entries func(func(recording.Entry, error) bool), topic recording.Topic, lines func() int64, unread func(), err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, topic, nil, nil, fmt.Errorf("cannot read recording: %w", err)
	}
	src, err := recording.Open(ctx, path)
	if err != nil {
		return nil, topic, nil, nil, err
	}
	topic = src.Topic() // before the read ahead reads on
	if topic.Partitions > 0 {
		l.Logf("%s was recorded from a topic of %d partitions", filepath.Base(path), topic.Partitions)
	}
	var taken atomic.Bool // by the iteration or by unread, whichever comes first
	unread = func() {
		if !taken.Swap(true) {
			src.Close()
		}
	}
	ahead := readAhead(src, path, l.Logf)
	entries = func(yield func(recording.Entry, error) bool) {
		if taken.Swap(true) {
			yield(recording.Entry{}, fmt.Errorf("recording %s was closed before it was read", path))
			return
		}
		ahead(yield)
	}
	var counted atomic.Int64
	if info.Mode().IsRegular() { // a pipe is read once, by the producer
		go func() {
			if n, err := countLines(ctx, path); err == nil {
				counted.Store(n)
			}
		}()
	}
	return entries, topic, counted.Load, unread, nil
}

// countLines counts the lines of the file at path that are not blank (white space
// only), decompressing it when its name ends in .gz; it stops with ctx's error. It
// reads the file a second time, beside the replay, so it skips from line end to line
// end (bytes.IndexByte) and decompresses with the gzip the reader uses: a byte at a
// time and with compress/gzip it took a fifth of a replay's processor time.
func countLines(ctx context.Context, path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(bufio.NewReaderSize(f, 64<<10))
		if err != nil {
			return 0, err
		}
		r = gz
	}
	buf := make([]byte, 256<<10)
	var n int64
	blank := true // the line so far has only white space
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		k, err := r.Read(buf)
		for b := buf[:k]; len(b) > 0; {
			if blank {
				switch b[0] {
				case ' ', '\t', '\r', '\n':
					b = b[1:]
					continue
				}
				blank = false
			}
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				break
			}
			n++
			blank, b = true, b[i+1:]
		}
		if err == io.EOF {
			if !blank {
				n++
			}
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// readAhead is readEntries on a goroutine of its own, a batch ahead of the producer, so
// decompressing and decoding the file runs beside producing it. It closes src, and its
// goroutine has ended by the time the iteration does, however it ends.
func readAhead(src *recording.Reader, path string, logf func(string, ...any)) func(yield func(recording.Entry, error) bool) {
	type batch struct {
		entries []recording.Entry
		err     error
	}
	return func(yield func(recording.Entry, error) bool) {
		batches, stop := make(chan batch, 4), make(chan struct{})
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			defer close(batches)
			defer src.Close()
			var b batch
			send := func() bool {
				select {
				case batches <- b:
					b = batch{entries: make([]recording.Entry, 0, readAheadBatch)}
					return true
				case <-stop:
					return false
				}
			}
			b.entries = make([]recording.Entry, 0, readAheadBatch)
			for e, err := range readEntries(src, path, logf) {
				if err != nil {
					b.err = err
					break
				}
				if b.entries = append(b.entries, e); len(b.entries) == readAheadBatch && !send() {
					return
				}
			}
			send()
		}()
		defer func() { close(stop); <-finished }()
		for b := range batches {
			for _, e := range b.entries {
				if !yield(e, nil) {
					return
				}
			}
			if b.err != nil {
				yield(recording.Entry{}, b.err)
				return
			}
		}
	}
}

// readAheadBatch is how many entries readAhead hands over at a time.
const readAheadBatch = 1024

// readEntries yields a recording's entries, each a copy it owns (in a recording.Arena);
// the lines it skips are logged when it ends (the first recording.DefaultSkipReports of
// them, then their count). A read error is yielded and ends it.
func readEntries(src *recording.Reader, path string, logf func(string, ...any)) func(yield func(recording.Entry, error) bool) {
	return func(yield func(recording.Entry, error) bool) {
		var skips recording.Skips
		defer func() {
			for _, line := range skips.Lines(path) {
				logf("%s", line)
			}
		}()
		for e, err := range recording.Owned(src.Records(skips.Add)) {
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// createTopic creates topic with partitions partitions.
func (l *Lab) createTopic(ctx context.Context, topic string, partitions int32) error {
	return l.admin(ctx, "create topic "+topic, func(adm *kadm.Client) error {
		resp, err := adm.CreateTopic(ctx, partitions, 1, nil, topic)
		if err == nil {
			err = resp.Err
		}
		return err
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
