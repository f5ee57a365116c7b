package labrt

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/thousands"
)

// ReplayTarget is what a backend gives Replay: how to write a recording into its Kafka.
// The runtime does the rest, the same on every backend.
type ReplayTarget struct {
	// Producer returns the client the recording is written with, to the backend's
	// brokers (recording.NewProducer, with the backend's tuning); Replay closes it. It
	// also creates the replay's topic.
	Producer func() (*kgo.Client, error)
	// Partitions is how many partitions the replay's topic has: the recording's
	// partitions are kept, so it is the live topic's count.
	Partitions int
	// Owned says the entries may be handed to the producer as they are
	// (recording.ProduceOptions.Owned): the recording's reader gives each its own copy.
	Owned bool
	// Reading, if set, runs once the job reads the replay's topic, before the recording
	// is written (the embedded lab empties its live topic there); its error is logged.
	Reading func(ctx context.Context) error
}

// Replay writes the recording at path into a fresh topic of the backend's Kafka
// (ReplayTopic, of the partitions the recording's topic line says, else
// target.Partitions), keeping each record's partition, key and
// timestamp, and restarts the job on that topic from the earliest offset with field as
// its event timestamp, as a learner points the lab's job at a recorded topic. The
// generator stops first. Progress arrives on Updates ten times a second (and whenever
// the job says it read more, if it can say so at once: see Changer); its Records count
// what the job has read of the topic (JobStatus.Read), Written what Kafka acknowledged.
// Once the job has read every record written, a job that is a Drainer is drained
// (progress then says Finishing): Replay returns when the job has read every record
// and processed it, every result of them queued before the completion (Done, with
// Records == Total): the job then stands as an unbounded Kafka job would, with the last
// event-time windows open. A backend's job that cannot say how
// much it read never completes a replay: it must fill JobStatus.Read.
func (rt *Runtime) Replay(ctx context.Context, path string, field jobspec.TimestampField, target ReplayTarget) error {
	if err := rt.Ready(); err != nil {
		return err
	}
	ctx, cancel := rt.bound(ctx)
	defer cancel()
	info, _ := os.Stat(path)
	entries, topic, lines, unread, err := openRecording(ctx, path, rt.Logf, rt.counts.get(path, info))
	if err != nil {
		return err
	}
	defer unread()
	if topic.Partitions > 0 {
		target.Partitions = int(topic.Partitions)
	}
	if err := rt.ReplayEntries(ctx, path, field, entries, lines, target); err != nil {
		return err
	}
	rt.counts.put(path, info, lines())
	return nil
}

// lineCounts remembers how many lines each recording a replay counted to the end has,
// by its path, size and modification time, so that replaying the same file again (`r`
// after `r`) reads it once, not twice: counting the recorded hour's lines is a seventh of
// a replay's processor time. A file changed since has another size or time and is
// counted again.
type lineCounts struct {
	mu sync.Mutex
	m  map[string]countedFile
}

type countedFile struct {
	size  int64
	mod   time.Time
	lines int64
}

// get returns the lines counted of the file at path, info its os.Stat, or 0.
func (c *lineCounts) get(path string, info os.FileInfo) int64 {
	if info == nil || !info.Mode().IsRegular() {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.m[path]; ok && f.size == info.Size() && f.mod.Equal(info.ModTime()) {
		return f.lines
	}
	return 0
}

// put remembers the lines of the file at path, info its os.Stat before it was read; 0
// lines (not yet counted) are not remembered.
func (c *lineCounts) put(path string, info os.FileInfo, lines int64) {
	if info == nil || !info.Mode().IsRegular() || lines <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]countedFile)
	}
	c.m[path] = countedFile{info.Size(), info.ModTime(), lines}
}

// ReplayEntries is Replay of entries as they come, the recording at path; lines says
// how many lines it has so far (see OpenRecording). A benchmark hands it entries held
// in memory.
func (rt *Runtime) ReplayEntries(ctx context.Context, path string, field jobspec.TimestampField,
	entries func(func(recording.Entry, error) bool), lines func() int64, target ReplayTarget) error {
	if err := rt.SetGenerator(false); err != nil {
		return err
	}
	cl, err := target.Producer()
	if err != nil {
		return fmt.Errorf("connect to Kafka on %s: %w", rt.brokerAddr(), err)
	}
	defer cl.Close()
	topic, err := rt.createReplayTopic(ctx, kadm.NewClient(cl), target.Partitions)
	if err != nil {
		return err
	}
	rt.Logf("created topic %s with %d partitions on %s", topic, target.Partitions, rt.brokerAddr())
	start := time.Now()
	spec := rt.Spec()
	spec.Topic, spec.StartAt, spec.Timestamp = topic, Earliest, field
	if err := rt.Restart(ctx, backend.Restart{Cause: backend.CauseReplay, Reason: "replay of " + path, Recording: path}, spec); err != nil {
		return err
	}
	if target.Reading != nil {
		if err := target.Reading(ctx); err != nil {
			rt.Logf("%v", err)
		}
	}
	var produced recording.Progress // Sent grows as the recording is read; final when done is sent
	done := make(chan error, 1)
	go func() {
		done <- recording.Produce(ctx, cl, topic, entries,
			recording.ProduceOptions{Partitions: int32(target.Partitions), Owned: target.Owned, Progress: &produced})
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	// drained is the job's Drain under way, once it has read every record; then
	// drainDone says it returned, with drainErr.
	var drained <-chan error
	var drainErr error
	drainDone := false
	for producing := true; ; {
		select {
		case <-ctx.Done():
			if producing {
				<-done
			}
			if drained != nil {
				<-drained
			}
			return ctx.Err()
		case <-rt.jobChanged(producing || drained != nil):
		case err := <-done:
			producing = false
			if err != nil {
				rt.progress(backend.ReplayProgress{Path: path, Total: produced.Sent.Load(), Written: produced.Acked.Load(), Done: true, Err: err})
				return err
			}
		case drainErr = <-drained:
			drained, drainDone = nil, true
		case <-tick.C:
		}
		p := rt.replayProgress(path, produced.Sent.Load(), start)
		p.Writing, p.Written, p.Lines = producing, produced.Acked.Load(), lines()
		if !producing && p.Records >= p.Total {
			p.Records = p.Total
			if !drainDone && drained == nil {
				drained, drainDone = rt.drain(ctx, p.Total)
			}
			if !drainDone {
				p.Finishing = true
				rt.progress(p)
				continue
			}
			p.Done, p.Err = true, drainErr
			rt.progress(p)
			if drainErr != nil {
				return drainErr
			}
			rt.Logf("replayed %s records of %s in %s (%s records/s): the job has read and processed them all", thousands.Format(p.Total), filepath.Base(path),
				time.Since(start).Round(time.Millisecond), thousands.Format(int64(p.Rate)))
			return nil
		}
		rt.progress(p)
	}
}

// drainer is a Job whose results trail what its source has read (a real Flink job,
// whose operators hand records on in bundles and through network buffers). Drain
// returns once every record its source had read when it was called has been processed
// by every operator, and every result of them has been handed to collect; ctx's end
// or a failure to tell is its error. A Job that is not a Drainer processes each record
// as it reads it.
type drainer interface {
	Drain(ctx context.Context) error
}

// drain starts the job's Drain, once the job has read all total records of a replay:
// its error comes on the channel when it returns. A job that is not a Drainer is
// drained already (done).
func (rt *Runtime) drain(ctx context.Context, total int64) (_ <-chan error, done bool) {
	d, ok := rt.job.(drainer)
	if !ok {
		return nil, true
	}
	rt.Logf("the job has read all %s records of the replay: the replay completes once its operators have processed them all", thousands.Format(total))
	out := make(chan error, 1)
	go func() { out <- d.Drain(ctx) }()
	return out, false
}

// changer is a Job that can say at once that it read more: Changed receives a token
// then, so a replay waiting for its last record need not wait for the next tick.
type changer interface {
	Changed() <-chan struct{}
}

// jobChanged is the job's Changed channel once the recording is all produced, when the
// replay waits for the job to read the last record; nil (never ready) before, or when
// the job cannot say.
func (rt *Runtime) jobChanged(producing bool) <-chan struct{} {
	if producing {
		return nil
	}
	if c, ok := rt.job.(changer); ok {
		return c.Changed()
	}
	return nil
}

// replayProgress is the replay's progress as the job's status says it now: what it read
// of total, how fast, and how it read the partitions.
func (rt *Runtime) replayProgress(path string, total int64, start time.Time) backend.ReplayProgress {
	js := rt.job.Status()
	read := max(js.Read, 0)
	p := backend.ReplayProgress{Path: path, Records: read, Total: total, EventTime: js.Watermark}
	if js.Reads != nil && len(js.Reads.Partitions) > 0 {
		p.Reads = js.Reads
	}
	if el := time.Since(start).Seconds(); el > 0 {
		p.Rate = float64(read) / el
	}
	if p.Rate > 0 && total > read {
		p.Left = time.Duration(float64(total-read) / p.Rate * float64(time.Second))
	}
	return p
}

// brokerAddr is where the learner reaches Kafka, for messages.
func (rt *Runtime) brokerAddr() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.broker
}

// maxTakenReplayTopics bounds how many existing replay topics a replay skips before it
// says why it cannot make one.
const maxTakenReplayTopics = 1000

// createReplayTopic creates the next replay topic (ReplayTopic) with partitions. A name
// some other topic already has (an earlier session's under the same name on a shared
// broker) is skipped, never written into: its records would mix with the recording's.
func (rt *Runtime) createReplayTopic(ctx context.Context, adm *kadm.Client, partitions int) (string, error) {
	for range maxTakenReplayTopics {
		topic := rt.replayTopic()
		err := CreateTopic(ctx, adm, topic, partitions)
		if !errors.Is(err, kerr.TopicAlreadyExists) {
			return topic, err
		}
		rt.Logf("topic %s already exists on %s (an earlier session's replay?): it is left as it is, and the replay takes the next name", topic, rt.brokerAddr())
	}
	return "", fmt.Errorf("create a replay topic on %s: the next %d replay topic names are all taken; delete old %s-replay-N topics or start labtui with another --session", rt.brokerAddr(), maxTakenReplayTopics, rt.live)
}

// CreateTopic creates a replay's topic with partitions partitions and one replica, and
// no retention by time: its records keep the recording's timestamps, and a recording
// older than the broker's retention (Kafka's default is 7 days) would otherwise be
// deleted before the job reads it, the whole topic at the broker's next retention check.
func CreateTopic(ctx context.Context, adm *kadm.Client, topic string, partitions int) error {
	keepForever := "-1"
	resp, err := adm.CreateTopic(ctx, int32(partitions), 1, map[string]*string{"retention.ms": &keepForever}, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	return nil
}

// OpenRecording yields the entries of the recording at path, read from the file while
// they are produced, and the topic its topic line says it was recorded from (none, zero,
// when it has no such line). Nothing of it is kept once it has been produced: the replay's topic
// in the broker is the one copy of the recording in memory, so a second replay of the same
// file reads it again (about 0.15 s for the recorded hour; kept, it would hold another
// 40 MB). lines says how many lines the recording has (see backend.ReplayProgress.Lines), as a goroutine counts
// them beside the producer. The file is opened at once, so a recording that cannot be
// read is an error before the job restarts; unread closes it if entries was never
// iterated (the replay failed before producing), and does nothing once it was: the
// iteration closes it, and its goroutines have ended when it does.
func OpenRecording(ctx context.Context, path string, logf func(string, ...any)) (entries func(func(recording.Entry, error) bool), topic recording.Topic, lines func() int64, unread func(), err error) {
	return openRecording(ctx, path, logf, 0)
}

// openRecording is OpenRecording, with the file's lines counted already when known > 0.
func openRecording(ctx context.Context, path string, logf func(string, ...any), known int64) (entries func(func(recording.Entry, error) bool), topic recording.Topic, lines func() int64, unread func(), err error) {
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
		logf("%s was recorded from a topic of %d partitions", filepath.Base(path), topic.Partitions)
	}
	var taken atomic.Bool // by the iteration or by unread, whichever comes first
	unread = func() {
		if !taken.Swap(true) {
			src.Close()
		}
	}
	ahead := readAhead(src, path, logf)
	entries = func(yield func(recording.Entry, error) bool) {
		if taken.Swap(true) {
			yield(recording.Entry{}, fmt.Errorf("recording %s was closed before it was read", path))
			return
		}
		ahead(yield)
	}
	var counted atomic.Int64
	counted.Store(known)
	if known <= 0 && info.Mode().IsRegular() { // a pipe is read once, by the producer
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
// end (bytes.IndexByte) and decompresses with the gzip the reader uses (a byte at a
// time with compress/gzip, counting costs a fifth of a replay's processor time).
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
// the lines it skips are logged when it ends (the first 100 of them, recording's default,
// then their count). A read error is yielded and ends it.
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
