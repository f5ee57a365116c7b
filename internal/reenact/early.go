package reenact

import (
	"context"
	"slices"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/enginejob"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

// heldResults is how many results a job run early holds back in memory (32,768: 5.8 MB);
// the rest wait in a temporary file (spill), so a replay's memory does not grow with the
// recording's length. Only when no temporary file can be made does the job hold more in
// memory: then at most one a record handed over, and else it waits for the end of the
// file (every record read after is kept then: a Record is 168 bytes, a Result 176, so
// that costs no more than keeping the records would). A replay without traces holds a
// few results a minute of the recording, one with traces one a request.
const heldResults = 1 << 15

// early runs a recorded replay's job while the file is still being read, so that the
// reading, the parsing and the job overlap as they do at fast pace.
//
// Nothing in a file's first lines says where its later lines go in the (arrival,
// partition, offset) order: any line may arrive before every other. So no record's
// place is certain before the end of the file, and early bets on what labtui's
// recordings are: each partition's records in (arrival, offset) order (a consumer reads
// a partition in offset order, and `labtui record` stamps arrival as it reads;
// `--simulate` writes in arrival order). On that bet a partition's least record left is
// the first of it read, and the least of those firsts, taken while every partition
// read so far has one, is the least record left of all; early hands that to the job.
// It holds back everything the job writes (in a spill), and ends the bet (ok false) at the first
// record that loses it: one before its partition's last, or before the one handed over
// last, or, with watermarks at the source, of a partition the job was not made with. At
// the end of the file every record was handed over in order or came after the last one
// handed over, which is the stable sort's order, and release lets the job's output out.
type early struct {
	recs *records
	cfg  Config
	// ahead is the read ahead the batches come from. With recycle, a batch whose every
	// record is handed over is given back to it for reuse (from says to which parser),
	// and so dropped from recs (dropped says one was): a bet lost after that reads the
	// file again.
	ahead   *reader
	recycle bool
	dropped bool
	from    []uint8
	// left counts each kept batch's records not yet handed over.
	left []int32
	// queues holds each partition's records read and not yet handed over (indices into
	// recs, in file order); tail is the arrival and offset of each one's last record read.
	queues      [mergedPartitions]queue
	tailArrival [mergedPartitions]int64
	tailOffset  [mergedPartitions]int64
	// live lists the partitions read so far, lowest first; waiting counts those of them
	// with an empty queue.
	live    []int32
	waiting int
	// last is the record handed over last, handed their number; job is nil until the first.
	last       *recordKey
	handed     int
	lastKey    recordKey
	job        *enginejob.Job
	start      int64
	partitions int
	// held is what the job wrote before release, heldBad its malformed events, each
	// with the number of results written before it. After release, sink and bad take
	// them as they come.
	held    spill
	heldBad []heldBad
	sink    func(jobspec.Result)
	bad     func(int, error)
	sum     *Summary
}

// recordKey is a record's place in the order: (arrival, partition, offset).
type recordKey struct {
	arrival   int64
	offset    int64
	partition int32
}

// heldBad is a malformed event the job met before release, after `at` results.
type heldBad struct {
	at   int
	line int
	err  error
}

func newEarly(recs *records, cfg Config, ahead *reader, recycle bool) *early {
	return &early{recs: recs, cfg: cfg, ahead: ahead, recycle: recycle}
}

// read takes in kept batch b, just read from parser from; ok false ends the bet.
func (e *early) read(b, from int) (ok bool) {
	batch := e.recs.kept[b]
	e.from = append(e.from, uint8(from))
	e.left = append(e.left, int32(len(batch)))
	for i := range batch {
		rec := &batch[i]
		p := rec.Partition
		if p >= mergedPartitions {
			return false
		}
		q := &e.queues[p]
		switch {
		case q.buf == nil: // the partition's first record (knowsPartitions checks its split)
			e.live = append(e.live, p)
			slices.Sort(e.live)
			q.buf = make([]int32, 0, batchLines)
		case rec.Arrival < e.tailArrival[p] || rec.Arrival == e.tailArrival[p] && rec.Offset < e.tailOffset[p]:
			return false
		case q.len() == 0:
			e.waiting--
		}
		if e.last != nil && (rec.Arrival < e.last.arrival || rec.Arrival == e.last.arrival &&
			(p < e.last.partition || p == e.last.partition && rec.Offset < e.last.offset)) {
			return false
		}
		e.tailArrival[p], e.tailOffset[p] = rec.Arrival, rec.Offset
		q.push(int32(b<<batchShift | i))
	}
	return true
}

// knowsPartitions says whether the job, once made, was made with a split for every
// partition read so far, with watermarks at the source: false ends the bet, when a record
// or a tombstone of another partition came after the job was made.
func (e *early) knowsPartitions() bool {
	return e.job == nil || e.cfg.Job.Watermarks.At != watermark.Source || int(e.recs.maxPartition) < e.partitions
}

// handOver hands the job the records whose turn has come: while every partition read
// so far has one waiting and the job may hold more (spill.room), or, at the end of
// the file (all), every record left. It returns early when ctx is done, and ok false
// when the job cannot be made.
func (e *early) handOver(ctx context.Context, all bool) (ok bool) {
	for n := 0; all || e.waiting == 0 && e.held.room(e.handed); n++ {
		if n&1023 == 1023 && ctx.Err() != nil {
			return true
		}
		least := int32(-1)
		var head int64
		for _, p := range e.live {
			if q := &e.queues[p]; q.len() > 0 {
				if a := e.recs.at(q.buf[q.head]).Arrival; least < 0 || a < head {
					least, head = p, a
				}
			}
		}
		if least < 0 {
			return true
		}
		q := &e.queues[least]
		k := q.buf[q.head]
		if q.head++; q.len() == 0 {
			q.buf, q.head = q.buf[:0], 0
			e.waiting++
		}
		rec := e.recs.at(k)
		if e.job == nil && !e.startJob(rec.Arrival) {
			return false
		}
		e.lastKey, e.last = recordKey{rec.Arrival, rec.Offset, rec.Partition}, &e.lastKey
		e.handed++
		e.job.Advance(rec.Arrival)
		if err := e.job.ProcessParsed(rec.Partition, &rec.Event, rec.Err, rec.Timestamp); err != nil {
			if e.bad != nil {
				e.sum.BadEvents++
				e.bad(rec.Line, err)
			} else {
				e.heldBad = append(e.heldBad, heldBad{e.held.len(), rec.Line, err})
			}
		}
		e.done(k)
	}
	return true
}

// done counts record k handed over; with recycle, its batch goes back to the read ahead
// once its last record is.
func (e *early) done(k int32) {
	b := k >> batchShift
	if e.left[b]--; e.left[b] == 0 && e.recycle {
		e.ahead.give(int(e.from[b]), e.recs.kept[b])
		e.recs.kept[b], e.dropped = nil, true
	}
}

// startJob makes the job, its clock starting at the first record's arrival.
func (e *early) startJob(start int64) bool {
	opts := withPartitions(e.cfg.Job, e.recs)
	job, err := enginejob.New(engine.NewRuntime(start), opts, e.collect)
	if err != nil {
		return false
	}
	e.job, e.start, e.partitions = job, start, opts.Watermarks.Partitions
	return true
}

// collect is the job's sink: held back until release.
func (e *early) collect(r jobspec.Result) {
	if e.sink != nil {
		e.sink(r)
		return
	}
	e.held.add(r)
}

// release hands what the job held back to sink and bad, in the order the job wrote
// it, and from then on lets it through. An error reading back what was held ends it.
func (e *early) release(sink func(jobspec.Result), bad func(int, error), sum *Summary) error {
	sum.Started = e.start
	next := 0
	i := 0
	err := e.held.each(func(r jobspec.Result) {
		for ; next < len(e.heldBad) && e.heldBad[next].at == i; next++ {
			sum.BadEvents++
			bad(e.heldBad[next].line, e.heldBad[next].err)
		}
		sink(r)
		i++
	})
	if err != nil {
		return err
	}
	for ; next < len(e.heldBad); next++ {
		sum.BadEvents++
		bad(e.heldBad[next].line, e.heldBad[next].err)
	}
	e.heldBad = nil
	e.sink, e.bad, e.sum = sink, bad, sum
	return nil
}

// close lets go of what the job still holds back (its temporary file).
func (e *early) close() { e.held.close() }

// queue is a partition's records read and not yet handed over, in file order: buf[head:].
// Appending reuses the room taking from the front leaves once it is half the buffer, so a
// queue that stays short allocates nothing after it has grown.
type queue struct {
	buf  []int32
	head int
}

func (q *queue) len() int { return len(q.buf) - q.head }

func (q *queue) push(k int32) {
	if len(q.buf) == cap(q.buf) && q.head >= len(q.buf)/2 {
		n := copy(q.buf, q.buf[q.head:])
		q.buf, q.head = q.buf[:n], 0
	}
	q.buf = append(q.buf, k)
}
