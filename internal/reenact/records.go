package reenact

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/labtui/labtui/internal/recording"
)

// records is a recording read whole into memory, its lines that are not records left
// out: the read ahead's batches, kept as they were parsed (nothing is copied).
type records struct {
	kept [][]recording.Record
	n    int
	// maxPartition is the highest partition a record or a tombstone names, -1 when there
	// is none: a tombstone's partition is one of the topic's too.
	maxPartition int32
	// topic is the topic's partition count, when the replay knows it; beyond is the
	// error of the first record or tombstone of a partition beyond it, which refuses the
	// replay.
	topic  partitionCount
	beyond error
}

func newRecords(topic partitionCount) *records {
	return &records{maxPartition: -1, topic: topic}
}

// partitionCount is a topic's partition count (0 when unknown) and what said it, as
// "as … says" ends a sentence.
type partitionCount struct {
	n    int32
	from string
}

// topicOf is the partition count a replay of src goes by: cfg's, else what the
// recording's topic line says, else none.
func topicOf(src Source, cfg Config) partitionCount {
	if cfg.Partitions > 0 {
		return partitionCount{cfg.Partitions, "--partitions says"}
	}
	if t := src.Topic(); t.Partitions > 0 {
		return partitionCount{t.Partitions, "the recording's topic line says"}
	}
	return partitionCount{}
}

// check returns the error of rec, a record or a tombstone, when it names a partition the
// topic does not have.
func (c partitionCount) check(rec *recording.Record) error {
	if c.n > 0 && rec.Partition >= c.n && (!rec.Skipped || rec.Err == recording.ErrTombstone) {
		has := fmt.Sprintf("%d partitions, 0 to %d", c.n, c.n-1)
		if c.n == 1 {
			has = "1 partition, partition 0"
		}
		return fmt.Errorf("line %d names partition %d, but the topic has %s, as %s", rec.Line, rec.Partition, has, c.from)
	}
	return nil
}

// readAll reads every record of src into memory, handing the lines it skips to skip in
// line order; an error of the source is returned with the records before it. A record
// beyond topic's partitions ends the read with its error (recs.beyond).
func readAll(src Source, topic partitionCount, sum *Summary, skip func(int, error)) (*records, error) {
	recs := newRecords(topic)
	ahead := readAhead(src)
	defer ahead.stop()
	for {
		batch, _, err := ahead.keep()
		recs.add(batch, skip)
		if recs.beyond != nil {
			sum.Entries = int64(recs.n)
			return recs, recs.beyond
		}
		if err != nil {
			sum.Entries = int64(recs.n)
			if err == io.EOF {
				err = nil
			}
			return recs, err
		}
	}
}

// add keeps the records of a batch the read ahead made, handing the lines it skips to
// skip, and returns the number of the batch they are kept as, or -1 when the batch held
// none.
func (r *records) add(batch []recording.Record, skip func(int, error)) int {
	kept := batch[:0]
	for _, rec := range batch {
		if err := r.topic.check(&rec); err != nil && r.beyond == nil {
			r.beyond = err
		}
		if rec.Skipped {
			if rec.Err == recording.ErrTombstone {
				r.maxPartition = max(r.maxPartition, rec.Partition)
			}
			skip(rec.Line, rec.Err)
			continue
		}
		r.maxPartition = max(r.maxPartition, rec.Partition)
		kept = append(kept, rec)
	}
	if len(kept) == 0 {
		return -1
	}
	r.kept = append(r.kept, kept)
	r.n += len(kept)
	return len(r.kept) - 1
}

// batches returns a function that hands out the records a batch at a time, in file
// order, and then io.EOF, or err when it is not nil: a replay's next batch.
func (r *records) batches(err error) func() ([]recording.Record, error) {
	i := 0
	if err == nil {
		err = io.EOF
	}
	return func() ([]recording.Record, error) {
		if i == len(r.kept) {
			return nil, err
		}
		i++
		return r.kept[i-1], nil
	}
}

// mergedPartitions is how many partitions arrivalOrder merges; a recording with more
// is sorted instead.
const mergedPartitions = 64

// at returns the record of index i: a record's index in a records is its batch's number
// times batchLines plus its place in the batch (a batch kept holds at most batchLines
// records), an int32, which the garbage collector does not scan, unlike a pointer.
func (r *records) at(i int32) *recording.Record {
	return &r.kept[i>>batchShift][i&(batchLines-1)]
}

// arrivalOrder returns the indices of the records in (arrival, partition, offset) order,
// equal ones in file order, as a stable sort gives them: the order the job's source reads
// them in when each is read at its arrival. A recording is in topic order, each
// partition's records by offset and, as a consumer reads them, by arrival: then the
// partitions are merged, which costs a comparison or two a record. Otherwise they are
// sorted.
func (r *records) arrivalOrder() []int32 {
	if r.maxPartition < mergedPartitions {
		if order, ok := r.merged(); ok {
			return order
		}
	}
	return r.sorted()
}

// merged merges the partitions when each one's records are in (arrival, offset) order
// in the file; ok is false when one is not. The head of every partition is the least
// record of it, so the least head by (arrival, partition) is the least record left.
func (r *records) merged() (order []int32, ok bool) {
	parts := make([][]int32, r.maxPartition+1)
	lastArrival := make([]int64, len(parts))
	lastOffset := make([]int64, len(parts))
	for b, batch := range r.kept {
		for i := range batch {
			rec := &batch[i]
			p := rec.Partition
			if len(parts[p]) > 0 && (rec.Arrival < lastArrival[p] || rec.Arrival == lastArrival[p] && rec.Offset < lastOffset[p]) {
				return nil, false
			}
			lastArrival[p], lastOffset[p] = rec.Arrival, rec.Offset
			parts[p] = append(parts[p], int32(b<<batchShift|i))
		}
	}
	parts = slices.DeleteFunc(parts, func(p []int32) bool { return len(p) == 0 })
	heads := make([]int64, len(parts)) // the arrival of each part's first record
	for k, p := range parts {
		heads[k] = r.at(p[0]).Arrival
	}
	order = make([]int32, 0, r.n)
	for len(parts) > 0 {
		least := 0
		for k := 1; k < len(parts); k++ { // the parts stay in partition order: ties go to the lower
			if heads[k] < heads[least] {
				least = k
			}
		}
		p := parts[least]
		order = append(order, p[0])
		if p = p[1:]; len(p) > 0 {
			parts[least], heads[least] = p, r.at(p[0]).Arrival
			continue
		}
		parts = slices.Delete(parts, least, least+1)
		heads = slices.Delete(heads, least, least+1)
	}
	return order, true
}

// arrivalKey is what sorted orders records by, with the record's index last so that
// equal keys keep file order, as a stable sort does.
type arrivalKey struct {
	arrival   int64
	offset    int64
	partition int32
	index     int32
}

// sorted sorts the records by (arrival, partition, offset), equal ones in file order.
func (r *records) sorted() []int32 {
	keys := make([]arrivalKey, 0, r.n)
	for b, batch := range r.kept {
		for i := range batch {
			rec := &batch[i]
			keys = append(keys, arrivalKey{rec.Arrival, rec.Offset, rec.Partition, int32(b<<batchShift | i)})
		}
	}
	slices.SortFunc(keys, func(a, b arrivalKey) int {
		return cmp.Or(cmp.Compare(a.arrival, b.arrival), cmp.Compare(a.partition, b.partition),
			cmp.Compare(a.offset, b.offset), cmp.Compare(a.index, b.index))
	})
	order := make([]int32, len(keys))
	for i, k := range keys {
		order[i] = k.index
	}
	return order
}
