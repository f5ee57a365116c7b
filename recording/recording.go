// Package recording reads and writes recordings of the gateway-events topic: JSON lines,
// one Kafka record a line, gzip-compressed when the file name ends in .gz.
//
// labtui's own line is
//
//	{"partition":0,"offset":12,"timestamp":1795946444000,"arrival":1795946475000,"key":"r-103","value":{…event…}}
//
// where timestamp is the Kafka record timestamp and arrival, optional and defaulting to
// timestamp, is the processing time at which the record reached the job's source. Lines
// in kcat's -J envelope ({"topic":…,"partition":…,"offset":…,"ts":…,"key":…,"payload":"…"})
// are read too, so a topic dumped with kcat replays as it is.
package recording

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	gzip "github.com/klauspost/compress/gzip"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/labtui/labtui/internal/flatjson"
)

// Entry is one Kafka record of a recording.
type Entry struct {
	// Line is the 1-based line number the entry was read from (0 for entries not read
	// from a file).
	Line      int
	Partition int32
	Offset    int64
	// Timestamp is the Kafka record timestamp in milliseconds since the epoch.
	Timestamp int64
	// Arrival is when the record reached the job's source, in milliseconds since the epoch.
	Arrival int64
	Key     []byte
	// Value is the record value: an event's JSON.
	Value []byte
}

// Clone returns a copy of e that owns its Key and Value. Entries from Reader.Next borrow
// the reader's buffer; keep one past the next call only as a clone.
func (e Entry) Clone() Entry {
	buf := make([]byte, 0, len(e.Key)+len(e.Value))
	buf = append(append(buf, e.Key...), e.Value...)
	e.Key, e.Value = buf[:len(e.Key):len(e.Key)], buf[len(e.Key):]
	return e
}

// Arena clones entries into shared blocks: a recording held in memory whole costs one
// allocation a block instead of one an entry. Its zero value is ready.
type Arena struct{ block []byte }

// arenaBlock is the size of an Arena's blocks.
const arenaBlock = 256 << 10

// Clone is Entry.Clone with the bytes in the arena's current block.
func (a *Arena) Clone(e Entry) Entry {
	n := len(e.Key) + len(e.Value)
	if cap(a.block)-len(a.block) < n {
		a.block = make([]byte, 0, max(n, arenaBlock))
	}
	start, mid := len(a.block), len(a.block)+len(e.Key)
	a.block = append(append(a.block, e.Key...), e.Value...)
	e.Key, e.Value = a.block[start:mid:mid], a.block[mid:len(a.block):len(a.block)]
	return e
}

// AppendJSON appends the entry as one line of labtui's format, without the newline.
// Value is written as it is, so it must be JSON.
func (e Entry) AppendJSON(b []byte) []byte {
	b = append(b, `{"partition":`...)
	b = strconv.AppendInt(b, int64(e.Partition), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, e.Offset, 10)
	b = append(b, `,"timestamp":`...)
	b = strconv.AppendInt(b, e.Timestamp, 10)
	b = append(b, `,"arrival":`...)
	b = strconv.AppendInt(b, e.Arrival, 10)
	b = append(b, `,"key":`...)
	b = flatjson.AppendString(b, string(e.Key))
	b = append(b, `,"value":`...)
	b = append(b, e.Value...)
	return append(b, '}')
}

// LineError is a line that could not be read as an entry. Reading goes on after it.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Reader reads entries from a recording, line by line.
type Reader struct {
	sc     *bufio.Scanner
	closer io.Closer
	line   int
}

// Open opens a recording file, decompressing it when its name ends in .gz. An error
// here is the one a person sees: it names the file and what is wrong with it.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read recording: %w", err)
	}
	var r io.Reader = f
	closer := io.Closer(f)
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot read recording %s: not gzip data (%v)", path, err)
		}
		r = gz
		closer = multiCloser{gz, f}
	}
	return NewReader(r, closer), nil
}

// NewReader reads entries from r; closer, which may be nil, is closed by Close.
func NewReader(r io.Reader, closer io.Closer) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	return &Reader{sc: sc, closer: closer}
}

// Next returns the next entry, whose Key and Value are valid until the next call (see
// Entry.Clone). A line that is not an entry returns a *LineError and
// reading can go on; the end of the recording returns io.EOF; any other error is the
// file's, and ends reading. Blank lines are skipped.
func (r *Reader) Next() (Entry, error) {
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		e, err := parseLine(b)
		if err != nil {
			return Entry{}, &LineError{Line: r.line, Err: err}
		}
		e.Line = r.line
		return e, nil
	}
	if err := r.sc.Err(); err != nil {
		return Entry{}, fmt.Errorf("reading recording at line %d: %w", r.line+1, err)
	}
	return Entry{}, io.EOF
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
// they had escapes to undo.
func parseLine(b []byte) (Entry, error) {
	var e Entry
	var hasPartition, hasOffset, hasTimestamp, hasArrival bool
	var value []byte
	err := flatjson.Fields(b, func(f flatjson.Field) error {
		var err error
		switch string(f.Key) {
		case "partition":
			var p int64
			p, err = f.Int()
			e.Partition, hasPartition = int32(p), true
		case "offset":
			e.Offset, err = f.Int()
			hasOffset = true
		case "timestamp", "ts":
			e.Timestamp, err = f.Int()
			hasTimestamp = true
		case "arrival":
			e.Arrival, err = f.Int()
			hasArrival = true
		case "key":
			if f.Kind != flatjson.Literal { // kcat writes null for a record without a key
				e.Key, err = f.Bytes()
			}
		case "value", "payload":
			switch f.Kind {
			case flatjson.Object:
				value = f.Raw
			case flatjson.String: // a value written as a JSON string holds the event's text
				value, err = f.Bytes()
			case flatjson.Literal:
			default:
				err = fmt.Errorf("%s must be an object or a string", f.Key)
			}
		}
		return err
	})
	switch {
	case errors.Is(err, flatjson.ErrSyntax):
		return Entry{}, fmt.Errorf("not a recording line: %v", err)
	case err != nil:
		return Entry{}, err
	case !hasPartition:
		return Entry{}, errors.New(`no "partition"`)
	case !hasOffset:
		return Entry{}, errors.New(`no "offset"`)
	case !hasTimestamp:
		return Entry{}, errors.New(`no "timestamp" (or kcat "ts")`)
	case value == nil:
		return Entry{}, errNoValue
	}
	if !hasArrival {
		e.Arrival = e.Timestamp
	}
	e.Value = value
	return e, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var first error
	for _, c := range m {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
