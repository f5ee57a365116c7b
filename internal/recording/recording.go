// Package recording owns recordings of the gateway-events topic: JSON lines, one Kafka
// record a line, gzip-compressed when the file name ends in .gz. It reads them (Open,
// Reader.Records: the one iterator, with line-numbered skips), writes them (Create,
// Writer), makes them from the generator on a simulated clock (Simulate), and produces
// them into a Kafka topic with progress (Produce).
//
// labtui's own line is
//
//	{"partition":0,"offset":12,"timestamp":1795946444000,"arrival":1795946475000,"key":"r-103","value":{…event…}}
//
// where timestamp is the Kafka record timestamp and arrival, optional and defaulting to
// timestamp, is the processing time at which the record reached the job's source. Lines
// in kcat's -J envelope ({"topic":…,"partition":…,"offset":…,"ts":…,"key":…,"payload":"…"})
// are read too, so a topic dumped with kcat replays as it is. A recording's first line may
// be its topic line instead, {"topic":"gateway-events","partitions":3} (see Topic).
//
// What the reader accepts: a line of at most MaxLine bytes (a UTF-8 byte order mark
// before the first is ignored) holding one JSON object with a partition (0 to 2^31-1), an
// offset (0 or more), a timestamp and an arrival between MinTime and MaxTime, and a value
// (an object, or a string holding the event's text). Any other line is skipped with its
// number and why; a null value is a tombstone, skipped and counted apart. The key's and
// the value's bytes are taken as they are, as Kafka takes a record's bytes: invalid UTF-8
// and control characters inside them are the event parser's to judge, and the writer
// writes valid JSON whatever they hold.
package recording

import (
	"strconv"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/labtui/labtui/internal/flatjson"
	"github.com/labtui/labtui/internal/gateway"
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
	// Tombstone says the record's value is null (Value is empty): only
	// Reader.RecordsAndTombstones yields one, for a consumer that writes the topic again.
	Tombstone bool
}

// clone returns a copy of e that owns its Key and Value. Entries from Reader.Next borrow
// the reader's buffer; keep one past the next call only as a clone.
func (e Entry) clone() Entry {
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

// Clone is Entry.clone with the bytes in the arena's current block.
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

// AppendJSON appends the entry as one line of labtui's format, without the newline, which
// is valid JSON whatever the entry holds: the key as a JSON string (a byte that is not
// UTF-8 becomes U+FFFD, as a Kafka client decoding it as text shows it), the value as
// it is when it is a JSON object, else as a JSON string of its bytes (which the reader
// takes back as the same value).
func (e Entry) AppendJSON(b []byte) []byte {
	e.Value = utf8Value(e.Value)
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
	if e.Tombstone {
		b = append(b, "null"...)
	} else if len(e.Value) > 0 && e.Value[0] == '{' && json.Valid(e.Value) {
		b = append(b, e.Value...)
	} else {
		b = flatjson.AppendString(b, string(e.Value))
	}
	return append(b, '}')
}

// utf8Value is a value whose bytes are not all UTF-8 with each maximal ill-formed
// sequence replaced by U+FFFD, as Java's decoder (Flink's SimpleStringSchema) reads it:
// an object's bytes go into the line as they are, and a line of JSON must be UTF-8. The
// job reads the same text from either. A value that is UTF-8 is returned as it is.
func utf8Value(v []byte) []byte {
	if utf8.Valid(v) {
		return v
	}
	return gateway.ReplaceInvalidUTF8(v)
}
