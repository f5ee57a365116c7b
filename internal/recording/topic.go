package recording

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/labtui/labtui/internal/flatjson"
)

// Topic is what a recording's topic line says of the topic it was recorded from:
//
//	{"topic":"gateway-events","partitions":3}
//
// A Kafka topic's partitions all exist whether or not a record is written to them, and a
// KafkaSource assigns every one of them when it starts, so a partition nobody wrote to
// holds a watermark at the source back: a recording's records alone cannot tell it. The
// topic line is the recording's first line that is not blank, and only that one; a
// recording without it (kcat's dump, a recording of an older labtui) says nothing of its
// topic, and its partitions are those up to the highest a record names.
type Topic struct {
	// Name is the topic's name ("" when the line gives none).
	Name string
	// Partitions is the topic's partition count, 1 or more; 0 when the recording does
	// not say.
	Partitions int32
}

// appendJSON appends the topic line, without its newline.
func (t Topic) appendJSON(b []byte) []byte {
	b = append(b, `{"topic":`...)
	b = flatjson.AppendString(b, t.Name)
	b = append(b, `,"partitions":`...)
	b = strconv.AppendInt(b, int64(t.Partitions), 10)
	return append(b, '}')
}

// partitionsKey is in a topic line and in no record's line.
var partitionsKey = []byte(`"partitions"`)

// parseTopic reads line b as a topic line. ok is false when b is none (it has no
// "partitions", or a record's "partition"): then it is read as a record. A topic line
// that is wrong returns its error.
func parseTopic(b []byte) (t Topic, ok bool, err error) {
	if !bytes.Contains(b, partitionsKey) {
		return Topic{}, false, nil
	}
	// Every key is read, the last of duplicates winning as in a record's line: a
	// "partition" anywhere makes the line a record's.
	var hasPartitions, record bool
	var nameErr, countErr error
	err = flatjson.Fields(b, func(f flatjson.Field) error {
		switch string(f.Key) {
		case "partition":
			record = true
		case "topic":
			t.Name, nameErr = f.Str()
		case "partitions":
			var n int64
			n, countErr = f.Int()
			if countErr == nil && (n < 1 || n > math.MaxInt32) {
				countErr = fmt.Errorf("partitions %d is out of range: a topic has 1 to %d partitions", n, math.MaxInt32)
			}
			t.Partitions, hasPartitions = int32(n), true
		}
		return nil
	})
	if err == nil {
		err = cmp.Or(nameErr, countErr)
	}
	switch {
	case errors.Is(err, flatjson.ErrSyntax):
		return Topic{}, true, fmt.Errorf("not a topic line: %v", err)
	case record:
		return Topic{}, false, nil
	case err != nil:
		return Topic{}, true, fmt.Errorf("the topic line: %w", err)
	case !hasPartitions:
		return Topic{}, false, nil
	}
	return t, true, nil
}

// Topic returns what the recording's topic line says of its topic, the zero Topic when
// its first line that is not blank is no topic line. It reads up to that line, when
// nothing was read yet; call it before reading on another goroutine. The topic line is
// never handed out as a line, and a topic line that is wrong is a bad line (handed out
// as one, with its error).
func (r *Reader) Topic() Topic {
	if !r.first {
		b, bad, err := r.nextLine()
		r.peeked = &peekedLine{b, bad, err}
	}
	return r.topic
}

// peekedLine is a line that Topic read and nextLine has yet to hand out.
type peekedLine struct {
	b        []byte
	bad, err error
}

// WriteTopic writes the topic line; before any entry, as its first line, or a reader
// takes it for a bad line.
func (w *Writer) WriteTopic(t Topic) error {
	w.buf = append(t.appendJSON(w.buf[:0]), '\n')
	_, err := w.bw.Write(w.buf)
	return err
}
