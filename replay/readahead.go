package replay

import (
	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/recording"
)

// batchSize is how many records a batch read ahead holds, and aheadBatches how many
// batches the reader may be ahead of the job.
const (
	batchSize    = 512
	aheadBatches = 4
)

// reader reads a Source on a goroutine of its own, a batch at a time, while the job runs
// on the caller's: on two cores the read and the parse run beside the job instead of
// before each record. The batches come back in the order they were read, so the job sees
// the records in file order, exactly as a read on its own goroutine would give them; the
// batches are reused, so reading allocates nothing for each record.
type reader struct {
	full chan batch
	free chan []recording.Record
	quit chan struct{}
	// last is the batch handed out last, given back for reuse at the next call.
	last []recording.Record
}

// batch is records read, then the error the read ended with (nil while there is more).
type batch struct {
	recs []recording.Record
	err  error
}

// readAhead starts reading src. The caller calls next until it returns an error, or stop.
func readAhead(src Source) *reader {
	r := &reader{
		full: make(chan batch, aheadBatches),
		free: make(chan []recording.Record, aheadBatches+1),
		quit: make(chan struct{}),
	}
	for range aheadBatches + 1 {
		r.free <- make([]recording.Record, 0, batchSize)
	}
	go r.run(src)
	return r
}

func (r *reader) run(src Source) {
	defer close(r.full)
	p := gateway.Parser{IDBlocks: true}
	for {
		var recs []recording.Record
		select {
		case recs = <-r.free:
		case <-r.quit:
			return
		}
		recs, err := src.ReadRecords(&p, recs[:0])
		select {
		case r.full <- batch{recs, err}:
		case <-r.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// next returns the next batch of records, valid until the next call, and the error
// reading ended with after them: io.EOF at the end.
func (r *reader) next() ([]recording.Record, error) {
	if r.last != nil {
		r.free <- r.last
	}
	b := <-r.full
	r.last = b.recs
	return b.recs, b.err
}

// stop ends the reading and waits for its goroutine to return: after it, nothing reads
// the source any more.
func (r *reader) stop() {
	close(r.quit)
	for range r.full {
	}
}
