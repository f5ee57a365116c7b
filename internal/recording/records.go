package recording

import (
	"math"

	"github.com/labtui/labtui/internal/flatjson"
	"github.com/labtui/labtui/internal/gateway"
)

// Record is one line of a recording as a replay reads it: a Kafka record with its value
// parsed as an event, or a line that is not a record (Skipped).
type Record struct {
	// Line is the 1-based line number.
	Line      int
	Partition int32
	// Skipped says the line is not a record; Err says why, and nothing else is set but
	// for a tombstone (Err ErrTombstone): its partition, offset, timestamp and arrival.
	Skipped   bool
	Offset    int64
	Timestamp int64
	Arrival   int64
	// Event is the value read as an event, unless Err is set.
	Event gateway.Event
	// Err is why a skipped line is not a record, or why a record's value is no valid
	// event (it wraps gateway.ErrMalformed): what gateway.Parser.Parse says of it.
	Err error
}

// Lines is a batch of a recording's lines that are not blank, copied out of the reader:
// ReadLines fills it on one goroutine, and Parse makes its records on another, so that
// two goroutines may parse a recording's batches side by side. Its zero value is ready;
// a Lines is reused batch after batch.
//
// A line in the shape labtui writes is parsed in one pass: the envelope up to "value",
// then the value by the Parser's canonical path, which also confirms where the value
// ends (so the envelope's full parse, which would scan the value a first time, is not
// needed). A line in any other shape takes both full parses.
type Lines struct {
	text []byte
	// ends are where each line ends in text, nums their line numbers.
	ends, nums []int
	// bad holds the error of each line too long to hold, by its index.
	bad map[int]error
	// Err is the error reading ended with after these lines, as ReadLines returns it.
	Err error
}

// ReadLines fills l with the next lines, up to maxLines of them or about maxBytes of
// text, and the error reading ended with after them (l.Err, also returned): io.EOF at
// the end of the recording, a *ReadError, or ctx's error; nil while there may be more.
func (r *Reader) ReadLines(l *Lines, maxLines, maxBytes int) error {
	l.text, l.ends, l.nums, l.Err = l.text[:0], l.ends[:0], l.nums[:0], nil
	clear(l.bad)
	for len(l.nums) < maxLines && len(l.text) < maxBytes {
		b, bad, err := r.nextLine()
		if err != nil {
			l.Err = err
			return err
		}
		if bad != nil {
			if l.bad == nil {
				l.bad = make(map[int]error)
			}
			l.bad[len(l.nums)] = bad
		}
		l.text = append(l.text, b...)
		l.ends, l.nums = append(l.ends, len(l.text)), append(l.nums, r.line)
	}
	return nil
}

// Parse appends l's lines to dst as records, parsing each value with p, and returns it.
// What a Record holds is what Records yields for the line followed by p.Parse of its
// value; an Event's strings are p's, never l's, so a Record stays valid.
func (l *Lines) Parse(p *gateway.Parser, dst []Record) []Record {
	start := 0
	for i, end := range l.ends {
		dst = append(dst, Record{Line: l.nums[i]})
		if bad := l.bad[i]; bad != nil { // the reader's error for a line too long to hold
			dst[len(dst)-1].Skipped, dst[len(dst)-1].Err = true, bad
		} else {
			parseRecord(l.text[start:end], p, &dst[len(dst)-1])
		}
		start = end
	}
	return dst
}

// parseRecord reads line b into rec, all of it but the line number: a skipped line when
// it is not a record.
func parseRecord(b []byte, p *gateway.Parser, rec *Record) {
	if value, ok := canonicalEnvelope(b, rec); ok {
		var canonical bool
		if rec.Event, canonical, rec.Err = p.ParseCanonical(value); canonical {
			return
		}
	}
	e, err := parseLine(b)
	if err == ErrTombstone {
		*rec = Record{Line: rec.Line, Skipped: true, Err: err, Partition: e.Partition, Offset: e.Offset,
			Timestamp: e.Timestamp, Arrival: e.Arrival}
		return
	}
	if err != nil {
		*rec = Record{Line: rec.Line, Skipped: true, Err: err}
		return
	}
	rec.Partition, rec.Offset, rec.Timestamp, rec.Arrival = e.Partition, e.Offset, e.Timestamp, e.Arrival
	rec.Event, rec.Err = p.Parse(e.Value)
}

// The envelope AppendJSON writes, up to the value.
var (
	envPartition = flatjson.NewLit(`{"partition":`)
	envOffset    = flatjson.NewLit(`,"offset":`)
	envTimestamp = flatjson.NewLit(`,"timestamp":`)
	envArrival   = flatjson.NewLit(`,"arrival":`)
	envKey       = flatjson.NewLit(`,"key":"`)
	envValue     = flatjson.NewLit(`","value":`)
)

// canonicalEnvelope reads b when it is in the shape AppendJSON writes with a value that
// is an object: the keys in its order, nothing between the tokens, integers
// flatjson.ScanInt reads and in range, a key string without a backslash or a control
// character, and the line's last byte the brace that closes it. It fills rec's
// partition, offset, timestamp and arrival, and returns the value assumed to run from
// its opening brace to just before that last byte: a parse that confirms the value is
// one object ending there confirms the line is what parseLine reads. At the first byte it
// does not expect it returns ok false.
func canonicalEnvelope(b []byte, rec *Record) (value []byte, ok bool) {
	var n int64
	i := 0
	if n, i, ok = intAfter(b, i, &envPartition); !ok || n < 0 || n > math.MaxInt32 {
		return nil, false
	}
	rec.Partition = int32(n)
	if rec.Offset, i, ok = intAfter(b, i, &envOffset); !ok || rec.Offset < 0 {
		return nil, false
	}
	if rec.Timestamp, i, ok = intAfter(b, i, &envTimestamp); !ok || rec.Timestamp < minTime || rec.Timestamp > maxTime {
		return nil, false
	}
	if rec.Arrival, i, ok = intAfter(b, i, &envArrival); !ok || rec.Arrival < minTime || rec.Arrival > maxTime {
		return nil, false
	}
	if !envKey.At(b, i) {
		return nil, false
	}
	if i, _, ok = flatjson.PlainStringEnd(b, i+envKey.N); !ok {
		return nil, false
	}
	if !envValue.At(b, i) {
		return nil, false
	}
	i += envValue.N
	if i >= len(b)-1 || b[i] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	return b[i : len(b)-1], true
}

// intAfter reads the integer that follows the literal lit at b[i:].
func intAfter(b []byte, i int, lit *flatjson.Lit) (n int64, end int, ok bool) {
	if !lit.At(b, i) {
		return 0, 0, false
	}
	return flatjson.ScanInt(b, i+lit.N)
}
