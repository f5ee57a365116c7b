package replay

import (
	"cmp"
	"io"
	"slices"

	"github.com/labtui/labtui/recording"
)

// chunkSize is how many records one chunk of a recording held in memory holds: the
// chunks are never copied as the recording grows, as one slice's doubling would copy
// every record again.
const chunkSize = 1 << 14

// records is a recording read whole into memory, its lines that are not records left out.
type records struct {
	chunks [][]recording.Record
	n      int
	// maxPartition is the highest partition a record names, -1 when there is none.
	maxPartition int32
}

// readAll reads every record of src into memory, handing the lines it skips to skip in
// line order; an error of the source is returned with the records before it.
func readAll(src Source, sum *Summary, skip func(int, error)) (*records, error) {
	recs := &records{maxPartition: -1}
	ahead := readAhead(src)
	defer ahead.stop()
	var chunk []recording.Record
	for {
		batch, err := ahead.batch()
		for i := range batch {
			rec := &batch[i]
			if rec.Skipped {
				skip(rec.Line, rec.Err)
				continue
			}
			if len(chunk) == cap(chunk) {
				chunk = make([]recording.Record, 0, chunkSize)
				recs.chunks = append(recs.chunks, nil)
			}
			chunk = append(chunk, *rec)
			recs.chunks[len(recs.chunks)-1] = chunk
			recs.maxPartition = max(recs.maxPartition, rec.Partition)
			recs.n++
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

// at returns the i-th record.
func (r *records) at(i int32) *recording.Record {
	return &r.chunks[i/chunkSize][i%chunkSize]
}

// batches returns a function that hands out the records a chunk at a time, in file order,
// and then io.EOF, or err when it is not nil: a replay's next batch.
func (r *records) batches(err error) func() ([]recording.Record, error) {
	i := 0
	if err == nil {
		err = io.EOF
	}
	return func() ([]recording.Record, error) {
		if i == len(r.chunks) {
			return nil, err
		}
		i++
		return r.chunks[i-1], nil
	}
}

// arrivalKey is what a replay at recorded pace orders records by, with the record's
// index last so that equal keys keep file order, as a stable sort does.
type arrivalKey struct {
	arrival   int64
	offset    int64
	partition int32
	index     int32
}

// arrivalOrder returns the indices of the records in (arrival, partition, offset) order,
// equal ones in file order: the order the job's source reads them in when each is
// read at its arrival.
func (r *records) arrivalOrder() []int32 {
	keys := make([]arrivalKey, 0, r.n)
	for _, c := range r.chunks {
		for _, rec := range c {
			keys = append(keys, arrivalKey{rec.Arrival, rec.Offset, rec.Partition, int32(len(keys))})
		}
	}
	byArrival := func(a, b arrivalKey) int {
		return cmp.Or(cmp.Compare(a.arrival, b.arrival), cmp.Compare(a.partition, b.partition),
			cmp.Compare(a.offset, b.offset), cmp.Compare(a.index, b.index))
	}
	if !slices.IsSortedFunc(keys, byArrival) {
		slices.SortFunc(keys, byArrival)
	}
	order := make([]int32, len(keys))
	for i, k := range keys {
		order[i] = k.index
	}
	return order
}
