package recording

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// refEntry is what the reference decoder makes of a line: an entry, a tombstone, or a
// malformed line.
type refEntry struct {
	line      int
	entry     Entry
	tombstone bool
	malformed bool
	// strict says encoding/json takes the line as valid JSON with no escaped key: only
	// then must the fast reader's verdict be the reference's (on lines that are not, it
	// may be more lenient: control characters in strings, a nested value it only
	// balances the brackets of).
	strict bool
}

// refDecode is the reference reader: the rules of the package doc written plainly, with
// bytes.Split for the lines and encoding/json for the JSON.
func refDecode(data []byte) []refEntry {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	var out []refEntry
	for i, l := range lines {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if i == 0 {
			l = bytes.TrimPrefix(l, bom)
		}
		if len(l) > maxLine {
			out = append(out, refEntry{line: i + 1, malformed: true})
			continue
		}
		if len(bytes.Trim(l, " \t\r\n")) == 0 {
			continue
		}
		r := refLine(l)
		r.line = i + 1
		out = append(out, r)
	}
	return out
}

func refLine(l []byte) refEntry {
	bad := refEntry{malformed: true, strict: stdjson.Valid(l)}
	dec := stdjson.NewDecoder(bytes.NewReader(l))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != stdjson.Delim('{') {
		return bad
	}
	var e Entry
	var has = map[string]bool{}
	var value []byte
	tombstone := false
	for dec.More() {
		before := dec.InputOffset()
		t, err := dec.Token()
		if err != nil {
			return bad
		}
		key := t.(string)
		if bytes.IndexByte(l[before:dec.InputOffset()], '\\') >= 0 { // an escaped key
			bad.strict = false
			return bad
		}
		var raw stdjson.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return bad
		}
		integer := func(lo, hi int64) (int64, bool) {
			var n int64
			if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') || stdjson.Unmarshal(raw, &n) != nil || n < lo || n > hi {
				return 0, false
			}
			return n, true
		}
		var ok = true
		switch key {
		case "partition":
			var p int64
			p, ok = integer(0, 1<<31-1)
			e.Partition = int32(p)
		case "offset":
			e.Offset, ok = integer(0, 1<<63-1)
		case "timestamp", "ts":
			e.Timestamp, ok = integer(minTime, maxTime)
			key = "timestamp"
		case "arrival":
			e.Arrival, ok = integer(minTime, maxTime)
		case "key":
			switch raw[0] {
			case '"':
				var s string
				ok = stdjson.Unmarshal(raw, &s) == nil
				e.Key = []byte(s)
			case 't', 'f', 'n':
			default:
				ok = false
			}
		case "value", "payload":
			switch raw[0] {
			case '{':
				value = raw
			case '"':
				var s string
				ok = stdjson.Unmarshal(raw, &s) == nil
				value = []byte(s)
			case 'n':
				tombstone = true
			case 't', 'f':
			default:
				ok = false
			}
		}
		if !ok {
			return bad
		}
		has[key] = true
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		return bad
	}
	if !has["partition"] || !has["offset"] || !has["timestamp"] {
		return bad
	}
	if value == nil {
		if tombstone {
			return refEntry{tombstone: true, strict: bad.strict}
		}
		return bad
	}
	if !has["arrival"] {
		e.Arrival = e.Timestamp
	}
	e.Value = value
	return refEntry{entry: e, strict: bad.strict}
}

// perByteValid replaces each byte that is not UTF-8 with U+FFFD, as encoding/json does
// when it decodes a string.
func perByteValid(b []byte) string {
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out.WriteRune(utf8.RuneError)
		} else {
			out.Write(b[:n])
		}
		b = b[n:]
	}
	return out.String()
}

// FuzzRecordsAgainstReference runs Reader.Records and the reference decoder on the same
// bytes. Every line that is not blank is one entry or one skip, in line order; on lines
// encoding/json takes as valid, the two agree on the verdict (entry, tombstone or
// malformed) and on every field of an entry.
func FuzzRecordsAgainstReference(f *testing.F) {
	seed, _ := os.ReadFile("../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl")
	f.Add(seed)
	for _, s := range []string{
		line(0) + "\n" + line(1),
		"\xef\xbb\xbf" + line(0) + "\r\n\r\n   \n" + line(1) + "\n",
		`{"topic":"t","partition":2,"offset":3,"ts":2000,"key":null,"payload":"{\"type\":\"x\"}"}`,
		`{"partition":0,"offset":1,"timestamp":5,"value":null}` + "\n" + `{"partition":0,"offset":1,"timestamp":5,"value":null,"payload":{}}`,
		`{"partition":4294967296,"offset":0,"timestamp":1,"value":{}}` + "\n" + `{"partition":-1,"offset":0,"timestamp":1,"value":{}}`,
		`{"partition":0,"offset":0,"timestamp":1,"arrival":9223372036854775000,"value":{}}`,
		`{"partition":0,"offset":0,"timestamp":1,"key":"a\u0000\ud800","value":"\u001b[31m"}`,
		`{"partition":0,"offset":0,"timestamp":1.0,"value":{}}` + "\n" + `{"partition":01,"offset":0,"timestamp":1,"value":{}}`,
		`{"partition":0,"offset":0,"timestamp":1,"value":{"a":[1,{"b":"}"}]}}`,
		`{"part\u0069tion":0,"offset":0,"timestamp":1,"value":{}}`,
		"{\"partition\":0,\"offset\":0,\"timestamp\":1,\"key\":\"\xff\x00\",\"value\":{}}",
		`not json` + "\n" + `{"partition":0}` + "\n" + `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := refDecode(data)
		type got struct {
			line int
			e    Entry
			err  error
		}
		var seen []got
		for e, err := range NewReader(bytes.NewReader(data), nil).Records(func(line int, err error) {
			seen = append(seen, got{line: line, err: err})
		}) {
			if err != nil {
				t.Fatalf("an in-memory read ended with %v", err)
			}
			seen = append(seen, got{line: e.Line, e: e.clone()})
		}
		if len(seen) != len(want) {
			t.Fatalf("%d entries and skips, the reference has %d lines that are not blank", len(seen), len(want))
		}
		for i, g := range seen {
			w := want[i]
			if g.line != w.line {
				t.Fatalf("item %d is line %d, the reference's line %d", i, g.line, w.line)
			}
			if !w.strict {
				continue
			}
			tomb := errors.Is(g.err, ErrTombstone)
			switch {
			case w.malformed != (g.err != nil && !tomb) || w.tombstone != tomb:
				t.Fatalf("line %d: reader says %v, the reference malformed=%v tombstone=%v", g.line, g.err, w.malformed, w.tombstone)
			case g.err == nil:
				a, b := g.e, w.entry
				if a.Partition != b.Partition || a.Offset != b.Offset || a.Timestamp != b.Timestamp || a.Arrival != b.Arrival ||
					!bytes.Equal(a.Key, b.Key) && perByteValid(a.Key) != string(b.Key) ||
					!bytes.Equal(a.Value, b.Value) && perByteValid(a.Value) != string(b.Value) {
					t.Fatalf("line %d: reader %+v\nreference %+v", g.line, a, b)
				}
			}
		}
	})
}
