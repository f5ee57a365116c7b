// Package replay drives the GatewayMeter job from a recording: re-enacted on a simulated
// clock at the pace it was recorded, or read as fast as it can be on the wall clock.
package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/labtui/labtui/engine"
	"github.com/labtui/labtui/gatewaymeter"
	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
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

// ParsePace reads "recorded" or "fast".
func ParsePace(s string) (Pace, error) {
	switch s {
	case "recorded", "":
		return Recorded, nil
	case "fast":
		return Fast, nil
	}
	return 0, fmt.Errorf("pace must be recorded or fast, not %q", s)
}

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
	Job  meter.Options
	// Drain emits the maximum watermark at the end of input, as `flink stop --drain`
	// does, so every event-time window fires.
	Drain bool
	// Now is the wall clock of a Fast replay, in milliseconds; nil means time.Now.
	Now func() int64
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
	Stats                meter.Stats
	// Pending counts windows still open at the end, printed as pending.
	Pending int
	// Started and Ended are the processing times of the first record and of the end.
	Started, Ended int64
	Elapsed        time.Duration
}

// Source yields recording entries with their line numbers and hands the lines it skips
// to skip: *recording.Reader is one.
type Source interface {
	Records(skip func(line int, err error)) iter.Seq2[recording.Entry, error]
}

// Run replays src through a new job, writing every result to sink and every unreadable
// line or malformed event to bad (with its line number: a recording.Skips' Add keeps
// them in line order, which a replay at recorded pace does not find them in). It stops
// early, with ctx's error, when ctx is done. An error of the source itself (a damaged
// file) ends the reading: the records before it are replayed, and the error is returned
// with the summary.
func Run(ctx context.Context, src Source, cfg Config, sink func(meter.Result), bad func(line int, err error)) (Summary, error) {
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
	if cfg.Pace == Recorded {
		err = runRecorded(ctx, src, cfg, sink, skip, bad, &sum)
	} else {
		err = runFast(ctx, src, cfg, sink, skip, bad, &sum)
	}
	sum.Elapsed = time.Since(begin)
	return sum, err
}

func runRecorded(ctx context.Context, src Source, cfg Config, sink func(meter.Result), skip, bad func(int, error), sum *Summary) error {
	entries, readErr := readAll(src, sum, skip)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	slices.SortStableFunc(entries, func(a, b recording.Entry) int {
		return cmp.Or(cmp.Compare(a.Arrival, b.Arrival), cmp.Compare(a.Partition, b.Partition), cmp.Compare(a.Offset, b.Offset))
	})
	start := int64(0)
	if len(entries) > 0 {
		start = entries[0].Arrival
	}
	job, err := gatewaymeter.New(engine.NewRuntime(start), withPartitions(cfg.Job, entries), sink)
	if err != nil {
		return err
	}
	sum.Started = start
	for i, e := range entries {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		job.Advance(e.Arrival)
		if err := job.ProcessValue(e.Partition, e.Value, e.Timestamp); err != nil {
			sum.BadEvents++
			bad(e.Line, err)
		}
	}
	// The source never ends, so the clock runs on after the last record, with no more
	// input, until nothing is scheduled: every processing-time window fires at its end,
	// and the periodic emit due within one interval of the last record emits the
	// watermark it brings (TimestampsAndWatermarksOperator.onProcessingTime re-arms
	// whether or not records come). That is where the clock stops: from then on a Flink
	// job would only repeat the same watermark, which its emitter suppresses, so what is
	// still open here stays open in Flink for as long as no record comes.
	job.Runtime().RunUntilIdle()
	finish(job, cfg, sum, sink)
	return readErr
}

func runFast(ctx context.Context, src Source, cfg Config, sink func(meter.Result), skip, bad func(int, error), sum *Summary) error {
	now := cfg.Now
	if now == nil {
		now = func() int64 { return time.Now().UnixMilli() }
	}
	var records iter.Seq2[recording.Entry, error]
	opts := cfg.Job
	if opts.Watermarks.At != meter.SourceWatermarks {
		records = src.Records(skip)
	} else {
		// The source's splits are every partition of the topic from the start: read the
		// recording first to know them, then replay it from memory.
		entries, err := readAll(src, sum, skip)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		opts = withPartitions(opts, entries)
		sum.Entries = 0
		records = func(yield func(recording.Entry, error) bool) {
			for _, e := range entries {
				if !yield(e, nil) {
					return
				}
			}
			if err != nil {
				yield(recording.Entry{}, err)
			}
		}
	}
	sum.Started = now()
	job, err := gatewaymeter.New(engine.NewRuntime(sum.Started), opts, sink)
	if err != nil {
		return err
	}
	var readErr error
	for e, err := range records {
		if err != nil {
			readErr = err
			break
		}
		if sum.Entries&255 == 0 { // the wall clock, read every 256 records: 50 µs at 5 M/s
			if ctx.Err() != nil {
				return ctx.Err()
			}
			job.Advance(now())
		}
		sum.Entries++
		if err := job.ProcessValue(e.Partition, e.Value, e.Timestamp); err != nil {
			sum.BadEvents++
			bad(e.Line, err)
		}
	}
	// Stand where the job stands one watermark interval after reaching the end of the
	// topic: the periodic emit of that interval has run (with the interval at 0 there is
	// none), and so has every processing-time window ending before it.
	if ctx.Err() != nil {
		return ctx.Err()
	}
	job.Advance(now() + job.Options().Watermarks.Interval.Or(meter.DefaultWatermarkInterval))
	finish(job, cfg, sum, sink)
	return readErr
}

// withPartitions returns opts with, for watermarks at the source, one split for every
// partition up to the highest the recording holds: the topic's partitions as far as the
// recording can tell (a partition above the highest, with no record at all, is unknown).
func withPartitions(opts meter.Options, entries []recording.Entry) meter.Options {
	if opts.Watermarks.At != meter.SourceWatermarks {
		return opts
	}
	for _, e := range entries {
		opts.Watermarks.Partitions = max(opts.Watermarks.Partitions, int(e.Partition)+1)
	}
	return opts
}

// finish drains if asked, reports what never fired as pending, and fills the summary.
func finish(job *gatewaymeter.Job, cfg Config, sum *Summary, sink func(meter.Result)) {
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

// readAll reads every record of src into memory, handing the lines it skips to skip; an
// error of the source is returned with the records before it.
func readAll(src Source, sum *Summary, skip func(int, error)) ([]recording.Entry, error) {
	entries, err := recording.Load(src.Records(skip))
	sum.Entries = int64(len(entries))
	return entries, err
}
