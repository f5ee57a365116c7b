package recording

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"
	gzip "github.com/klauspost/compress/gzip"

	"github.com/labtui/labtui/internal/flatjson"
	"github.com/labtui/labtui/internal/gateway"
)

// The times a recording may hold (timestamp and arrival, milliseconds since the epoch)
// lie from 0001-01-01 to 9999-12-31 UTC: far from the int64 ends, so a window's end
// (start + size) never overflows, and every time prints as a date.
const (
	minTime int64 = -62135596800000
	maxTime int64 = 253402300799999
)

// ErrTombstone is the error of a line whose value is null, a Kafka tombstone: the job's
// source has no event to read from it, so it is skipped, and counted apart from
// malformed lines (see Skips). Its partition still is one of the topic's: the Entry or
// Record of a tombstone holds its envelope (partition, offset, timestamp, arrival).
var ErrTombstone = errors.New("a tombstone (null value)")

// ReadError is an error of the file itself, such as damaged gzip data: it ends the read,
// after every line before it.
type ReadError struct {
	// Name is the file's path.
	Name string
	// Offset is where in the file, as stored (compressed, for gzip), reading failed.
	Offset int64
	// Line is the number of the last whole line read.
	Line int
	Err  error
}

func (e *ReadError) Error() string {
	where := fmt.Sprintf("at byte %d", e.Offset)
	if strings.HasSuffix(e.Name, ".gz") {
		where += " of the compressed file"
	}
	return fmt.Sprintf("%s is unreadable %s (%s); the %d lines before it were read", e.Name, where, describeReadErr(e.Err), e.Line)
}

func (e *ReadError) Unwrap() error { return e.Err }

// describeReadErr says what a read error means for the file.
func describeReadErr(err error) string {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the gzip data ends early: the file is truncated"
	case errors.Is(err, gzip.ErrChecksum):
		return "the gzip checksum does not match: the data is corrupt"
	case errors.Is(err, gzip.ErrHeader):
		return "what follows is not gzip data"
	}
	var corrupt flate.CorruptInputError
	if errors.As(err, &corrupt) {
		return "the gzip data is corrupt"
	}
	return err.Error()
}

// Reader reads entries from a recording, line by line.
type Reader struct {
	lines *lineReader
	// ctx, when set, ends the read with its error once it is done.
	ctx    context.Context
	name   string
	closer io.Closer
	// offset is where in the file as stored reading stands, for a ReadError.
	offset func() int64
	line   int
	// file is the regular file Open opened, nil for any other source (see Reopen).
	file os.FileInfo
	// first says the first line that is not blank was read; topic is what it said, when
	// it was a topic line. peeked is the line Topic read ahead, not handed out yet.
	first  bool
	topic  Topic
	peeked *peekedLine
}

// Open opens a recording file, decompressing it when its name ends in .gz. An error
// here is the one a person sees: it names the file and what is wrong with it. Reading
// stops with ctx's error once ctx is done, even when the file is a FIFO or a pipe that
// blocks (the open and every read see the cancelled context).
func Open(ctx context.Context, path string) (*Reader, error) {
	f, err := openFile(ctx, path)
	if err != nil {
		return nil, err
	}
	// A blocked read of a FIFO or pipe (which Go's poller serves) ends at a deadline; a
	// regular file's reads do not block, and the iteration checks ctx between lines.
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Unix(1, 0)) })
	closer := closeFunc(func() error { stop(); return f.Close() })
	cr := &countingReader{ctx: ctx, r: f}
	r := &Reader{ctx: ctx, name: path, closer: closer, offset: func() int64 { return cr.n }}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		r.file = fi
	}
	var src io.Reader = cr
	if strings.HasSuffix(path, ".gz") {
		br := bufio.NewReaderSize(cr, 64<<10)
		gz, err := gzip.NewReader(br)
		if err != nil {
			closer.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("cannot read recording %s: not gzip data (%v)", path, err)
		}
		z := inflateAheadOf(gz, func() int64 { return cr.n - int64(br.Buffered()) })
		src, r.offset = z, z.offset
		r.closer = closeFunc(func() error { return z.stop(closer.Close) })
	}
	r.lines = newLineReader(src)
	return r, nil
}

// Reopenable says whether Reopen can read r's recording again: whether r reads a regular
// file that Open opened (a FIFO or a pipe can be read once only).
func (r *Reader) Reopenable() bool { return r.file != nil }

// Reopen opens the recording r reads again, as Open does, for a Reader of its own that
// reads it from its first line; the caller closes it. It fails when r is not Reopenable or
// when r's path no longer names the file r reads (it was replaced or removed).
func (r *Reader) Reopen() (*Reader, error) {
	if r.file == nil {
		return nil, fmt.Errorf("cannot read recording %s again: it is not a regular file", r.name)
	}
	again, err := Open(r.ctx, r.name)
	if err != nil {
		return nil, err
	}
	if again.file == nil || !os.SameFile(r.file, again.file) {
		again.Close()
		return nil, fmt.Errorf("cannot read recording %s again: it is no longer the file that was being read", r.name)
	}
	return again, nil
}

// openFile opens path for reading on a goroutine of its own, so that an open that blocks
// (a FIFO nobody writes to yet) gives way to ctx. Such an open is left behind, and what it
// opens in the end is closed.
func openFile(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, fmt.Errorf("cannot read recording: %w", o.err)
		}
		return o.f, nil
	case <-ctx.Done():
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// NewReader reads entries from r; closer, which may be nil, is closed by Close.
func NewReader(r io.Reader, closer io.Closer) *Reader {
	cr := &countingReader{r: r}
	return &Reader{lines: newLineReader(cr), closer: closer, offset: func() int64 { return cr.n }}
}

// Records yields the recording's entries in file order, each with its line number. A line
// that is not an entry is handed to skip, which may be nil (a *Skips' Add counts and keeps
// them), and reading goes on; blank lines are passed over. An entry's Key and Value are
// valid until the next one is yielded (see Entry.clone and Arena). An error of the file
// itself (a *ReadError), or ctx's error once it is done, is yielded last, after every
// entry before it.
func (r *Reader) Records(skip func(line int, err error)) iter.Seq2[Entry, error] {
	return r.records(skip, false)
}

// RecordsAndTombstones is Records with the tombstones yielded too (Tombstone set), not
// handed to skip: what writes a recording into a topic again, as it was (`labtui feed`).
func (r *Reader) RecordsAndTombstones(skip func(line int, err error)) iter.Seq2[Entry, error] {
	return r.records(skip, true)
}

func (r *Reader) records(skip func(line int, err error), tombstones bool) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for {
			e, bad, err := r.next()
			switch {
			case err == io.EOF:
				return
			case err != nil:
				yield(Entry{}, err)
				return
			case tombstones && bad == ErrTombstone:
				e.Tombstone = true
				if !yield(e, nil) {
					return
				}
			case bad != nil:
				if skip != nil {
					skip(e.Line, bad)
				}
			case !yield(e, nil):
				return
			}
		}
	}
}

// ctxCheckLines is how often, in lines, a read looks at its context.
const ctxCheckLines = 1024

// bom is the UTF-8 byte order mark, which some editors put before the first line.
var bom = []byte("\xef\xbb\xbf")

// next reads the next entry. A line that is not one returns its error as bad, with the
// line in e.Line; the end of the recording returns io.EOF as err.
func (r *Reader) next() (e Entry, bad, err error) {
	b, bad, err := r.nextLine()
	if err != nil || bad != nil {
		return Entry{Line: r.line}, bad, err
	}
	e, bad = parseLine(b)
	e.Line = r.line
	return e, bad, nil
}

// nextLine returns the next line that is not blank, numbered r.line, valid until the
// next call. A line too long to hold returns its error as bad; the end of the recording
// returns io.EOF as err.
func (r *Reader) nextLine() (b []byte, bad, err error) {
	if p := r.peeked; p != nil {
		r.peeked = nil
		return p.b, p.bad, p.err
	}
	for {
		b, long, err := r.lines.next()
		if err != nil {
			return nil, nil, r.fileErr(err)
		}
		r.line++
		if r.line%ctxCheckLines == 0 && r.ctx != nil && r.ctx.Err() != nil {
			return nil, nil, r.ctx.Err()
		}
		if long > 0 {
			r.first = true // a line, if no record: a topic line after it is none
			return nil, fmt.Errorf("the line is %d bytes long, over the %d MiB a recording line may hold", long, maxLine>>20), nil
		}
		if r.line == 1 {
			b = bytes.TrimPrefix(b, bom)
		}
		if len(b) == 0 || b[0] != '{' && flatjson.OnlySpace(b) {
			continue
		}
		if !r.first {
			r.first = true
			if t, ok, err := parseTopic(b); ok {
				if err != nil {
					return nil, err, nil
				}
				r.topic = t
				continue
			}
		}
		return b, nil, nil
	}
}

// fileErr is the error a read of the file ends with: io.EOF at its end, ctx's error when
// it is done, else a *ReadError.
func (r *Reader) fileErr(err error) error {
	if err == io.EOF {
		return io.EOF
	}
	if r.ctx != nil && r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	return &ReadError{Name: r.name, Offset: r.offset(), Line: r.line, Err: err}
}

// Close closes the underlying file.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

var errNoValue = errors.New(`no "value" (or kcat "payload")`)

// parseLine reads labtui's envelope or kcat's -J one. Key and Value point into b unless
// they had escapes to undo. The bytes of key and value are taken as they are (a Kafka
// record is bytes): what an event may hold is the event parser's to say.
func parseLine(b []byte) (Entry, error) {
	var e Entry
	var hasPartition, hasOffset, hasTimestamp, hasArrival, tombstone bool
	var value []byte
	err := flatjson.Fields(b, func(f flatjson.Field) error {
		var err error
		switch string(f.Key) {
		case "partition":
			var p int64
			p, err = f.Int()
			if err == nil && (p < 0 || p > math.MaxInt32) {
				err = fmt.Errorf("partition %d is out of range: a Kafka partition is 0 to %d", p, math.MaxInt32)
			}
			e.Partition, hasPartition = int32(p), true
		case "offset":
			e.Offset, err = f.Int()
			if err == nil && e.Offset < 0 {
				err = fmt.Errorf("offset %d is negative: a Kafka offset is 0 or more", e.Offset)
			}
			hasOffset = true
		case "timestamp", "ts":
			e.Timestamp, err = timeField(f)
			hasTimestamp = true
		case "arrival":
			e.Arrival, err = timeField(f)
			hasArrival = true
		case "key":
			if f.Kind != flatjson.Literal { // kcat writes null for a record without a key
				e.Key, err = f.Bytes()
			}
		case "value", "payload":
			// The last of duplicate keys wins, as in the event contract: a later null
			// makes the line a tombstone, a later object or string undoes one.
			value, tombstone = nil, false
			switch f.Kind {
			case flatjson.Object:
				value = f.Raw
			case flatjson.String: // a value written as a JSON string holds the event's text
				if f.Escaped && !utf8.Valid(f.Raw) {
					// Unquoting replaces each byte that is not UTF-8 apart; Java's decoder,
					// which Flink's SimpleStringSchema uses, one maximal ill-formed sequence
					// at a time. No escape joins or splits one, so replacing them first
					// gives the text the job reads.
					f.Raw = gateway.ReplaceInvalidUTF8(f.Raw)
				}
				value, err = f.Bytes()
			case flatjson.Literal:
				tombstone = string(f.Raw) == "null"
				if !tombstone {
					err = fmt.Errorf("%s must be an object, a string or null, not %s", f.Key, f.Raw)
				}
			default:
				err = fmt.Errorf("%s must be an object, a string or null", f.Key)
			}
		}
		return err
	})
	switch {
	case errors.Is(err, flatjson.ErrSyntax):
		return Entry{}, fmt.Errorf("not a recording line: %v", err)
	case err != nil:
		return Entry{}, err
	case !hasPartition && bytes.Contains(b, partitionsKey):
		return Entry{}, errors.New(`no "partition": a topic line ("partitions") is read only as a recording's first line`)
	case !hasPartition:
		return Entry{}, errors.New(`no "partition"`)
	case !hasOffset:
		return Entry{}, errors.New(`no "offset"`)
	case !hasTimestamp:
		return Entry{}, errors.New(`no "timestamp" (or kcat "ts")`)
	case value == nil && tombstone:
		if !hasArrival {
			e.Arrival = e.Timestamp
		}
		return e, ErrTombstone
	case value == nil:
		return Entry{}, errNoValue
	}
	if !hasArrival {
		e.Arrival = e.Timestamp
	}
	e.Value = value
	return e, nil
}

// timeField reads a time in milliseconds since the epoch, which must lie between MinTime
// and MaxTime.
func timeField(f flatjson.Field) (int64, error) {
	t, err := f.Int()
	if err == nil && (t < minTime || t > maxTime) {
		err = fmt.Errorf("%s %d is out of range: times are milliseconds since the epoch from year 1 to 9999 (%d to %d)", f.Key, t, minTime, maxTime)
	}
	return t, err
}

// countingReader counts the bytes read through it.
// countingReader counts what is read through it. With a ctx, it reads nothing once ctx
// is done: a file that never blocks and never ends (/dev/zero) is read in a loop that
// no line ends, and this is where that loop learns to stop.
type countingReader struct {
	ctx context.Context
	r   io.Reader
	n   int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.ctx != nil && c.ctx.Err() != nil {
		return 0, c.ctx.Err()
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type closeFunc func() error

func (f closeFunc) Close() error { return f() }
