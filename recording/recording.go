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
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
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
	Key     string
	// Value is the record value: an event's JSON.
	Value []byte
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
	b = strconv.AppendQuote(b, e.Key)
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

// Next returns the next entry. A line that is not an entry returns a *LineError and
// reading can go on; the end of the recording returns io.EOF; any other error is the
// file's, and ends reading. Blank lines are skipped.
func (r *Reader) Next() (Entry, error) {
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
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

// wireEntry holds both envelopes: labtui's and kcat's -J.
type wireEntry struct {
	Partition *int32          `json:"partition"`
	Offset    *int64          `json:"offset"`
	Timestamp *int64          `json:"timestamp"`
	TS        *int64          `json:"ts"`
	Arrival   *int64          `json:"arrival"`
	Key       *string         `json:"key"`
	Value     json.RawMessage `json:"value"`
	Payload   *string         `json:"payload"`
}

var errNoValue = errors.New(`no "value" (or kcat "payload")`)

func parseLine(b []byte) (Entry, error) {
	var w wireEntry
	if err := json.Unmarshal(b, &w); err != nil {
		return Entry{}, fmt.Errorf("not a recording line: %v", err)
	}
	var e Entry
	switch {
	case w.Partition == nil:
		return Entry{}, errors.New(`no "partition"`)
	case w.Offset == nil:
		return Entry{}, errors.New(`no "offset"`)
	}
	e.Partition, e.Offset = *w.Partition, *w.Offset
	switch {
	case w.Timestamp != nil:
		e.Timestamp = *w.Timestamp
	case w.TS != nil:
		e.Timestamp = *w.TS
	default:
		return Entry{}, errors.New(`no "timestamp" (or kcat "ts")`)
	}
	e.Arrival = e.Timestamp
	if w.Arrival != nil {
		e.Arrival = *w.Arrival
	}
	if w.Key != nil {
		e.Key = *w.Key
	}
	switch {
	case len(w.Value) > 0 && string(w.Value) != "null":
		e.Value = append([]byte(nil), w.Value...)
		if w.Value[0] == '"' { // a value written as a JSON string holds the event's text
			var s string
			if err := json.Unmarshal(w.Value, &s); err != nil {
				return Entry{}, fmt.Errorf("value: %v", err)
			}
			e.Value = []byte(s)
		}
	case w.Payload != nil:
		e.Value = []byte(*w.Payload)
	default:
		return Entry{}, errNoValue
	}
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
