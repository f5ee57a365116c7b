package reenact

import (
	"errors"
	"sync"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/recording"
)

// A replay reads ahead of its job in batches: one goroutine reads the lines (and so the
// file, and through recording's inflater the gzip data), parsers goroutines parse the
// batches in turn, and the job takes the parsed batches in the order they were read.
const (
	batchShift = 9
	batchLines = 1 << batchShift
	batchBytes = 256 << 10
	parsers    = 2
	// aheadBatches is how many batches each parser may be ahead of the job.
	aheadBatches = 2
)

// reader reads a Source ahead of the job: on two cores the reading and the parsing run
// beside the job instead of before each record. Batch i is parsed by parser i%parsers
// and taken back from it, so the job sees the records in file order, exactly as one
// goroutine reading them would give them; the batches are reused, so reading allocates
// nothing for each record.
type reader struct {
	toParse   [parsers]chan *recording.Lines
	parsed    [parsers]chan batch
	free      [parsers]chan []recording.Record
	freeLines chan *recording.Lines
	quit      chan struct{}
	stopOnce  sync.Once
	wg        sync.WaitGroup
	// next is the number of the next batch the job takes; last the batch handed out
	// last, given back to its parser's pool at the next call.
	next int
	last []recording.Record
}

// batch is records parsed, then the error reading ended with after them (nil while
// there is more).
type batch struct {
	recs []recording.Record
	err  error
}

var errReadAheadEnded = errors.New("replay: the reading ahead ended without its error")

// readAhead starts reading src. The caller takes batches with batch until one comes with
// an error, then (or at any time before) calls stop.
func readAhead(src Source) *reader {
	r := &reader{
		freeLines: make(chan *recording.Lines, parsers*(aheadBatches+1)+1),
		quit:      make(chan struct{}),
	}
	for range cap(r.freeLines) {
		r.freeLines <- new(recording.Lines)
	}
	for k := range parsers {
		r.toParse[k] = make(chan *recording.Lines, aheadBatches)
		r.parsed[k] = make(chan batch, aheadBatches)
		r.free[k] = make(chan []recording.Record, aheadBatches+2)
		for range cap(r.free[k]) {
			r.free[k] <- make([]recording.Record, 0, batchLines)
		}
	}
	r.wg.Add(1 + parsers)
	go r.readLines(src)
	for k := range parsers {
		go r.parse(k)
	}
	return r
}

// readLines reads batches of lines and hands batch i to parser i%parsers.
func (r *reader) readLines(src Source) {
	defer r.wg.Done()
	defer func() {
		for _, c := range r.toParse {
			close(c)
		}
	}()
	for i := 0; ; i++ {
		var l *recording.Lines
		select {
		case l = <-r.freeLines:
		case <-r.quit:
			return
		}
		err := src.ReadLines(l, batchLines, batchBytes)
		select {
		case r.toParse[i%parsers] <- l:
		case <-r.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// parse is parser k: it parses the batches of lines it is handed, in their order, with
// a Parser of its own.
func (r *reader) parse(k int) {
	defer r.wg.Done()
	defer close(r.parsed[k])
	p := gateway.Parser{IDBlocks: true}
	for l := range r.toParse[k] {
		var recs []recording.Record
		select {
		case recs = <-r.free[k]:
		case <-r.quit:
			return
		default: // the job keeps its batches (keep): a new one
			recs = make([]recording.Record, 0, batchLines)
		}
		b := batch{l.Parse(&p, recs[:0]), l.Err}
		r.freeLines <- l // never blocks: the pool holds every Lines there is
		select {
		case r.parsed[k] <- b:
		case <-r.quit:
			return
		}
	}
}

// batch returns the next batch of records, valid until the next call, and the error
// reading ended with after them: io.EOF at the end.
func (r *reader) batch() ([]recording.Record, error) {
	if r.last != nil {
		r.free[(r.next-1)%parsers] <- r.last
		r.last = nil
	}
	b, ok := <-r.parsed[r.next%parsers]
	r.next++
	if !ok {
		return nil, errReadAheadEnded
	}
	r.last = b.recs
	return b.recs, b.err
}

// keep is batch for a caller that keeps the batch: it is not given back for reuse
// unless the caller gives it back (give) with from, the parser it came from; else the
// parsers make new ones.
func (r *reader) keep() (recs []recording.Record, from int, err error) {
	recs, err = r.batch()
	r.last = nil
	return recs, (r.next - 1) % parsers, err
}

// give hands a batch keep returned back to parser from for reuse, once nothing refers
// to its records any more.
func (r *reader) give(from int, recs []recording.Record) {
	select {
	case r.free[from] <- recs[:0]:
	default: // the parser's pool is full: the batch is garbage
	}
}

// stop ends the reading and waits for its goroutines to return: after it, nothing reads
// the source any more. It may be called more than once.
func (r *reader) stop() {
	r.stopOnce.Do(func() { close(r.quit) })
	r.wg.Wait()
}
