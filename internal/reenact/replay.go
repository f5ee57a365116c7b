// Package reenact drives the GatewayMeter job from a recording: re-enacted on a simulated
// clock at the pace it was recorded, or read as fast as it can be on the wall clock.
package reenact

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/enginejob"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/watermark"
)

// Pace says how a replay moves processing time.
type Pace uint8

const (
	// Recorded re-enacts the recording on a simulated clock: each record reaches the job
	// at processing time = its arrival, in (arrival, partition, offset) order. The result
	// is deterministic.
	Recorded Pace = iota
	// Fast reads the recording in topic order as fast as it can, on the wall clock.
	Fast
)

// String names the pace as the flag does.
func (p Pace) String() string {
	if p == Fast {
		return "fast"
	}
	return "recorded"
}

// Config is one replay's settings.
type Config struct {
	Pace Pace
	Job  jobspec.Options
	// Drain emits the maximum watermark at the end of input, as `flink stop --drain`
	// does, so every event-time window fires.
	Drain bool
	// Now is the wall clock of a Fast replay, in milliseconds; nil means time.Now.
	Now func() int64
	// Partitions is the topic's partition count, when the replay is told it (`replay
	// --partitions`): with watermarks at the source partitions 0 … Partitions-1 are
	// splits from the start, whether or not a record names them, as a KafkaSource assigns
	// every partition of its topic. 0 takes the count of the recording's topic line
	// (recording.Topic), and without one the partitions up to the highest a record or a
	// tombstone names. A record or a tombstone of a partition beyond the count refuses
	// the replay with its line.
	Partitions int32
}

// Summary is what a replay read and what the job did with it. Every line of the
// recording that is not blank is counted once: Entries + BadLines + Tombstones.
type Summary struct {
	// Entries counts the records read and given to the job, BadEvents those of them
	// whose value is no valid event (the job skips them).
	Entries, BadEvents int64
	// BadLines counts the lines that are not a record, Tombstones the records with a
	// null value; neither reaches the job.
	BadLines, Tombstones int64
	Stats                jobspec.Stats
	// Pending counts windows still open at the end, printed as pending.
	Pending int
	// Started and Ended are the processing times of the first record and of the end.
	Started, Ended int64
	Elapsed        time.Duration
	// ordered says how a recorded replay found its order (for tests).
	ordered ordering
}

// Source is what a replay reads: a recording's lines that are not blank, in batches, in
// file order, each batch then the error reading ended with after it (io.EOF at the end):
// *recording.Reader is one. A replay parses the batches (recording.Lines.Parse) on
// goroutines of its own.
type Source interface {
	ReadLines(l *recording.Lines, maxLines, maxBytes int) error
	// Topic is what the recording's topic line says, called before any ReadLines.
	Topic() recording.Topic
}

// Run replays src through a new job, writing every result to sink and every unreadable
// line or malformed event to bad (with its line number: a recording.Skips' Add keeps
// them in line order, which a replay at recorded pace does not find them in). It stops
// early, with ctx's error, when ctx is done. An error of the source itself (a damaged
// file) ends the reading: the records before it are replayed, and the error is returned
// with the summary.
func Run(ctx context.Context, src Source, cfg Config, sink func(jobspec.Result), bad func(line int, err error)) (Summary, error) {
	begin := time.Now()
	var sum Summary
	var err error
	skip := func(line int, err error) {
		if errors.Is(err, recording.ErrTombstone) {
			sum.Tombstones++
		} else {
			sum.BadLines++
		}
		bad(line, err)
	}
	topic := topicOf(src, cfg)
	if cfg.Pace == Recorded {
		err = runRecorded(ctx, src, cfg, topic, sink, skip, bad, &sum)
	} else {
		err = runFast(ctx, src, cfg, topic, sink, skip, bad, &sum)
	}
	sum.Elapsed = time.Since(begin)
	return sum, err
}

func runFast(ctx context.Context, src Source, cfg Config, topic partitionCount, sink func(jobspec.Result), skip, bad func(int, error), sum *Summary) error {
	now := cfg.Now
	if now == nil {
		now = func() int64 { return time.Now().UnixMilli() }
	}
	opts := cfg.Job
	var next func() ([]recording.Record, error)
	if opts.Watermarks.At != watermark.Source {
		ahead := readAhead(src)
		defer ahead.stop()
		next = ahead.batch
	} else {
		// The source's splits are every partition of the topic from the start: read the
		// recording first to know them, then replay it from memory.
		recs, err := readAll(src, topic, sum, skip)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if recs.beyond != nil {
			return recs.beyond
		}
		opts = withPartitions(opts, recs)
		sum.Entries = 0
		next = recs.batches(err)
	}
	sum.Started = now()
	job, err := enginejob.New(engine.NewRuntime(sum.Started), opts, sink)
	if err != nil {
		return err
	}
	var readErr error
	for readErr == nil {
		var batch []recording.Record
		batch, readErr = next()
		for i := range batch {
			rec := &batch[i]
			if err := topic.check(rec); err != nil {
				return err
			}
			if rec.Skipped {
				skip(rec.Line, rec.Err)
				continue
			}
			if sum.Entries&255 == 0 { // the wall clock, read every 256 records: 50 µs at 5 M/s
				if ctx.Err() != nil {
					return ctx.Err()
				}
				job.Advance(now())
			}
			sum.Entries++
			if err := job.ProcessParsed(rec.Partition, &rec.Event, rec.Err, rec.Timestamp); err != nil {
				sum.BadEvents++
				bad(rec.Line, err)
			}
		}
	}
	if readErr == io.EOF {
		readErr = nil
	}
	// Stand where the job stands one watermark interval after reaching the end of the
	// topic: the periodic emit of that interval has run (with the interval at 0 there is
	// none), and so has every processing-time window ending before it.
	if ctx.Err() != nil {
		return ctx.Err()
	}
	job.Advance(now() + job.Options().Watermarks.Period().Milliseconds())
	finish(job, cfg, sum, sink)
	return readErr
}

// withPartitions returns opts with, for watermarks at the source, one split for every
// partition of the topic: its partition count when the replay knows it, else every
// partition up to the highest a record or a tombstone names (one above it, with no record
// at all, is unknown then).
func withPartitions(opts jobspec.Options, recs *records) jobspec.Options {
	if opts.Watermarks.At != watermark.Source {
		return opts
	}
	opts.Watermarks.Partitions = max(opts.Watermarks.Partitions, int(recs.topic.n), int(recs.maxPartition)+1)
	return opts
}

// finish drains if asked, reports what never fired as pending, and fills the summary.
func finish(job *enginejob.Job, cfg Config, sum *Summary, sink func(jobspec.Result)) {
	if cfg.Drain {
		job.Drain()
	}
	pending := job.OpenWindows()
	for _, r := range pending {
		sink(r)
	}
	sum.Pending = len(pending)
	sum.Stats = job.Stats()
	sum.Ended = job.Now()
}
