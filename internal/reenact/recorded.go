package reenact

import (
	"context"
	"io"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/enginejob"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// rereadable is a Source that can be read again from its first line: a recording file
// (*recording.Reader from Open), not a pipe.
type rereadable interface {
	Reopenable() bool
	Reopen() (*recording.Reader, error)
}

// ordering is how a recorded replay found the order of its records.
type ordering uint8

const (
	// sortedWhole: the file read whole, then sorted (early lost its bet before any record
	// was dropped, or handed nothing over before the end).
	sortedWhole ordering = iota + 1
	// handedEarly: early's bet held, and its job's output was released at the end.
	handedEarly
	// readAgain: early lost its bet after dropping records, and the file was read again.
	readAgain
)

// runRecorded re-enacts src on the simulated clock, the records in (arrival, partition,
// offset) order, equal ones in file order: the order a full stable sort of the file
// gives, and nothing else. The job runs while the file is still being read (see early),
// its output held back until the end of the file shows that order was the sort's. When
// the file shows it was not, that job is dropped, and the file, read whole (again, when
// records handed over were dropped), is sorted and replayed as it is without early.
func runRecorded(ctx context.Context, src Source, cfg Config, topic partitionCount, sink func(jobspec.Result), skip, bad func(int, error), sum *Summary) error {
	recs := newRecords(topic)
	ahead := readAhead(src)
	defer ahead.stop()
	again, _ := src.(rereadable)
	recycle := again != nil && again.Reopenable()
	e := newEarly(recs, cfg, ahead, recycle)
	defer e.close()
	var readErr error
	lastLine := 0 // the last line read and, if skipped, reported
	for readErr == nil {
		batch, from, err := ahead.keep()
		if len(batch) > 0 {
			lastLine = batch[len(batch)-1].Line
		}
		b := recs.add(batch, skip)
		readErr = err
		if ctx.Err() != nil {
			sum.Entries = int64(recs.n) // the records read, as an interrupted read says
			return ctx.Err()
		}
		if recs.beyond != nil { // before anything the job wrote is let out
			sum.Entries = int64(recs.n)
			return recs.beyond
		}
		if e != nil && (b >= 0 && !e.read(b, from) || !e.knowsPartitions() || err == nil && !e.handOver(ctx, false)) {
			if e.dropped {
				ahead.stop()
				sum.ordered = readAgain
				return rereadSorted(ctx, again, lastLine, cfg, topic, sink, skip, bad, sum)
			}
			e = nil // recs still holds every record read: read on, and sort them
		}
	}
	sum.Entries = int64(recs.n)
	if readErr == io.EOF {
		readErr = nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e == nil || e.job == nil { // with nothing handed over, recs holds the whole file
		sum.ordered = sortedWhole

		if err := replaySorted(ctx, recs, cfg, sink, bad, sum); err != nil {
			return err
		}
		return readErr
	}
	// The whole file is read and no record came before one handed over: what the job
	// was handed is the start of the sort's order, and the rest follows it.
	sum.ordered = handedEarly
	if err := e.release(sink, bad, sum); err != nil {
		return err
	}
	if e.handOver(ctx, true); ctx.Err() != nil {
		return ctx.Err()
	}
	e.job.Runtime().RunUntilIdle()
	finish(e.job, cfg, sum, sink)
	return readErr
}

// rereadSorted is a recorded replay after a lost bet of early's, when what it handed over
// is gone: src is read again, whole, and replayed sorted. The lines up to lastLine were
// read before, and those skipped reported: they are not reported again.
func rereadSorted(ctx context.Context, src rereadable, lastLine int, cfg Config, topic partitionCount, sink func(jobspec.Result), skip, bad func(int, error), sum *Summary) error {
	again, err := src.Reopen()
	if err != nil {
		return err
	}
	defer again.Close()
	recs, readErr := readAll(again, topic, sum, func(line int, err error) {
		if line > lastLine {
			skip(line, err)
		}
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if recs.beyond != nil {
		return recs.beyond
	}
	if err := replaySorted(ctx, recs, cfg, sink, bad, sum); err != nil {
		return err
	}
	return readErr
}

// replaySorted replays recs, read whole, in (arrival, partition, offset) order.
func replaySorted(ctx context.Context, recs *records, cfg Config, sink func(jobspec.Result), bad func(int, error), sum *Summary) error {
	order := recs.arrivalOrder()
	start := int64(0)
	if len(order) > 0 {
		start = recs.at(order[0]).Arrival
	}
	job, err := enginejob.New(engine.NewRuntime(start), withPartitions(cfg.Job, recs), sink)
	if err != nil {
		return err
	}
	sum.Started = start
	for i, k := range order {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rec := recs.at(k)
		job.Advance(rec.Arrival)
		if err := job.ProcessParsed(rec.Partition, &rec.Event, rec.Err, rec.Timestamp); err != nil {
			sum.BadEvents++
			bad(rec.Line, err)
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
	return nil
}
