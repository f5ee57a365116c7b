package recording

import (
	"bytes"
	"compress/gzip"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/labtui/labtui/internal/gateway"
)

// line is a good recording line at offset n.
func line(n int) string {
	return fmt.Sprintf(`{"partition":0,"offset":%d,"timestamp":1000,"key":"r-1","value":%s}`, n, event)
}

// read reads in through Records, returning the entries (cloned), the skips and the
// error the read ended with.
func read(r *Reader) ([]Entry, *Skips, error) {
	var es []Entry
	skips := &Skips{}
	for e, err := range r.Records(skips.Add) {
		if err != nil {
			return es, skips, err
		}
		es = append(es, e.clone())
	}
	return es, skips, nil
}

func TestALineOverTheLimitIsSkippedAsOneBadLineAndReadingGoesOn(t *testing.T) {
	long := `{"partition":0,"offset":1,"timestamp":1,"key":"` + strings.Repeat("x", maxLine) + `","value":{}}`
	in := line(0) + "\n" + long + "\n" + line(2) + "\n" + strings.Repeat("y", maxLine+5)
	es, skips, err := read(NewReader(strings.NewReader(in), nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Line != 1 || es[1].Line != 3 {
		t.Fatalf("entries %+v", es)
	}
	r := skips.reports()
	if len(r) != 2 || r[0].Line != 2 || r[1].Line != 4 || !strings.Contains(r[0].Err.Error(), fmt.Sprintf("%d bytes long, over the 16 MiB", len(long))) {
		t.Fatalf("skips %v", r)
	}
}

func TestAByteOrderMarkDoesNotSkipTheFirstLine(t *testing.T) {
	es, skips, err := read(NewReader(strings.NewReader("\xef\xbb\xbf"+line(0)+"\r\n"+line(1)), nil))
	if err != nil || len(es) != 2 || skips.Total() != 0 || es[0].Line != 1 {
		t.Fatalf("entries %d, skips %v, err %v", len(es), skips.Lines("f"), err)
	}
}

// gzipFile writes n good lines, gzip-compressed, to a file and returns its path and bytes.
func gzipFile(t *testing.T, n int) (string, []byte) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := range n {
		fmt.Fprintln(zw, line(i))
	}
	zw.Close()
	return filepath.Join(t.TempDir(), "rec.jsonl.gz"), buf.Bytes()
}

func TestATruncatedGzipKeepsTheRecordsBeforeTheDamageThenNamesFileAndOffset(t *testing.T) {
	path, data := gzipFile(t, 20000)
	cut := len(data) / 2
	os.WriteFile(path, data[:cut], 0o644)
	r, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, skips, err := read(r)
	var re *ReadError
	if !errors.As(err, &re) {
		t.Fatalf("the read ended with %v, want a *ReadError", err)
	}
	if len(es) < 5000 || skips.Total() != 0 || re.Line != len(es) {
		t.Fatalf("%d entries kept, %d skipped, error after line %d", len(es), skips.Total(), re.Line)
	}
	for i, e := range es {
		if e.Offset != int64(i) {
			t.Fatalf("entry %d has offset %d", i, e.Offset)
		}
	}
	if re.Offset < int64(cut)-(64<<10) || re.Offset > int64(cut) {
		t.Errorf("offset %d, the file is %d bytes", re.Offset, cut)
	}
	want := fmt.Sprintf("%s is unreadable at byte %d of the compressed file (the gzip data ends early: the file is truncated); the %d lines before it were read", path, re.Offset, len(es))
	if err.Error() != want {
		t.Errorf("error\n %s\nwant\n %s", err, want)
	}
}

func TestACorruptGzipKeepsTheRecordsBeforeTheDamage(t *testing.T) {
	path, data := gzipFile(t, 20000)
	bad := bytes.Clone(data)
	for i := len(bad) / 2; i < len(bad)/2+64; i++ {
		bad[i] ^= 0x5a
	}
	os.WriteFile(path, bad, 0o644)
	r, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, skips, err := read(r)
	var re *ReadError
	if !errors.As(err, &re) || len(es) < 5000 || !strings.Contains(err.Error(), path+" is unreadable at byte ") {
		t.Fatalf("%d entries, %d skipped, err %v", len(es), skips.Total(), err)
	}
	t.Logf("%d of 20000 lines kept, %d skipped: %v", len(es), skips.Total(), err)
}

func TestSkipsKeepTheFirstReportsInLineOrderAndCountTheRest(t *testing.T) {
	s := Skips{Limit: 3}
	for _, l := range []int{9, 7, 8, 2, 5, 4} {
		s.Add(l, errors.New("bad"))
	}
	s.Add(3, fmt.Errorf("line: %w", ErrTombstone))
	got := strings.Join(s.Lines("f"), "\n")
	want := "f:2: skipped: bad\nf:4: skipped: bad\nf:5: skipped: bad\n" +
		"f: 3 more malformed lines skipped, not shown (only the first 3 are)\n" +
		"f: 1 tombstones (records with a null value) skipped"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if s.Malformed != 6 || s.Tombstones != 1 || s.Total() != 7 {
		t.Fatalf("counts %d %d", s.Malformed, s.Tombstones)
	}
}

func TestAMillionBadLinesWriteAHundredReports(t *testing.T) {
	in := strings.Repeat("garbage\n", 1_000_000)
	_, skips, err := read(NewReader(strings.NewReader(in), nil))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	skips.Report(&out, "bomb.jsonl")
	if n := strings.Count(out.String(), "\n"); skips.Malformed != 1_000_000 || n != defaultSkipReports+1 {
		t.Fatalf("%d malformed, %d lines written", skips.Malformed, n)
	}
	if !strings.HasSuffix(out.String(), "bomb.jsonl: 999900 more malformed lines skipped, not shown (only the first 100 are)\n") {
		t.Fatalf("last line: %q", out.String()[len(out.String())-120:])
	}
}

func TestOutOfRangeNumbersAreBadLines(t *testing.T) {
	cases := map[string]string{
		`{"partition":4294967296,"offset":0,"timestamp":1,"value":{}}`:                      "partition 4294967296 is out of range: a Kafka partition is 0 to 2147483647",
		`{"partition":-1,"offset":0,"timestamp":1,"value":{}}`:                              "partition -1 is out of range",
		`{"partition":0,"offset":-3,"timestamp":1,"value":{}}`:                              "offset -3 is negative",
		`{"partition":0,"offset":0,"timestamp":1,"arrival":9223372036854775000,"value":{}}`: "arrival 9223372036854775000 is out of range: times are milliseconds since the epoch from year 1 to 9999",
		`{"partition":0,"offset":0,"ts":-9223372036854775808,"value":{}}`:                   "ts -9223372036854775808 is out of range",
		`{"partition":0,"offset":0,"timestamp":1,"arrival":1e30,"value":{}}`:                "arrival is not an integer",
	}
	for in, want := range cases {
		_, skips, err := read(NewReader(strings.NewReader(in), nil))
		if err != nil {
			t.Fatal(err)
		}
		r := skips.reports()
		if len(r) != 1 || !strings.Contains(r[0].Err.Error(), want) {
			t.Errorf("%s: skips %v, want %q", in, r, want)
		}
	}
}

func TestTombstonesAreSkippedAndCountedApart(t *testing.T) {
	in := line(0) + "\n" + `{"topic":"t","partition":0,"offset":1,"ts":5,"key":"r-1","payload":null}` + "\n" +
		`{"partition":0,"offset":2,"timestamp":5,"key":"r-1","value":null}` + "\n" + `{"partition":0,"offset":3,"timestamp":5}`
	es, skips, err := read(NewReader(strings.NewReader(in), nil))
	if err != nil || len(es) != 1 || skips.Tombstones != 2 || skips.Malformed != 1 {
		t.Fatalf("entries %d, skips %v, err %v", len(es), skips.Lines("f"), err)
	}
}

func TestTheWriterWritesValidJSONForAnyKeyAndValue(t *testing.T) {
	var buf bytes.Buffer
	w := newWriter(&buf)
	keys := []string{"r-\x00\x1b\"\\\n\t\x7f", "ü €", "bad \xff utf-8"}
	values := []string{event, "not json \x00 \xff", `{"type":"x","tenant_id":"a\u0000"}`, `{"broken":`}
	for i, k := range keys {
		for j, v := range values {
			w.Write(Entry{Partition: int32(i), Offset: int64(j), Timestamp: 1, Arrival: 2, Key: []byte(k), Value: []byte(v)})
		}
	}
	w.Close()
	for i, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if !jsonValid(l) {
			t.Errorf("line %d is not valid JSON: %q", i+1, l)
		}
	}
	es, skips, err := read(NewReader(&buf, nil))
	if err != nil || skips.Total() != 0 || len(es) != len(keys)*len(values) {
		t.Fatalf("read back %d, skips %v, err %v", len(es), skips.Lines("f"), err)
	}
	for _, e := range es {
		wantKey := strings.ToValidUTF8(keys[e.Partition], "\ufffd")
		wantValue := strings.ToValidUTF8(values[e.Offset], "\ufffd")
		if string(e.Key) != wantKey || string(e.Value) != wantValue {
			t.Errorf("read back key %q value %q, want %q %q", e.Key, e.Value, wantKey, wantValue)
		}
	}
}

func TestOpeningAFIFONobodyWritesStopsWhenCancelled(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := Open(ctx, fifo)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(begin) > 5*time.Second { // a hang, with room for a loaded machine
		t.Fatalf("Open returned %v after %s", err, time.Since(begin))
	}
}

func TestReadingAStalledFIFOStopsWhenCancelled(t *testing.T) {
	for _, name := range []string{"fifo.jsonl", "fifo.jsonl.gz"} {
		fifo := filepath.Join(t.TempDir(), name)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		writer := make(chan *os.File, 1)
		go func() {
			f, _ := os.OpenFile(fifo, os.O_WRONLY, 0)
			if strings.HasSuffix(name, ".gz") { // a gzip header, then nothing
				zw := gzip.NewWriter(f)
				zw.Flush()
			} else {
				f.WriteString(line(0) + "\n")
			}
			writer <- f // held open, writing nothing more: a stalled pipe
		}()
		ctx, cancel := context.WithCancel(context.Background())
		r, err := Open(ctx, fifo)
		if err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(200*time.Millisecond, cancel)
		begin := time.Now()
		_, _, err = read(r)
		if !errors.Is(err, context.Canceled) || time.Since(begin) > 5*time.Second { // a hang, with room for a loaded machine
			t.Fatalf("%s: the read ended with %v after %s", name, err, time.Since(begin))
		}
		r.Close()
		(<-writer).Close()
	}
}

func jsonValid(s string) bool { return stdjson.Valid([]byte(s)) }

// TestAStringValueWithEscapesReadsIllFormedBytesAsJavaDoes: a value written as a JSON
// string with escapes and bytes that are not UTF-8 reaches the event parser as the same
// text the value written as an object does: "\xe2\x82" before "x" is one U+FFFD, as
// Java's UTF-8 decoder (Flink's SimpleStringSchema) and Python's read it. encoding/json's
// unquoting replaced each byte apart and gave two (found by conformance/oracle).
func TestAStringValueWithEscapesReadsIllFormedBytesAsJavaDoes(t *testing.T) {
	for _, bad := range []string{"\xe2\x82", "\xf0\x9f", "\xe2\x82\xe2\x82\xac", "\xed\xa0\x80", "\xff"} {
		obj := `{"type":"RequestStarted","request_id":"u","tenant_id":"t` + bad + `x","model":"flat-10c","gateway":"gw-0","ts":1,"prompt_tokens":1}`
		str := strings.ReplaceAll(obj, `"`, `\"`)
		in := `{"partition":0,"offset":0,"timestamp":1,"key":"u","value":` + obj + "}\n" +
			`{"partition":0,"offset":1,"timestamp":1,"key":"u","value":"` + str + "\"}\n"
		want := "t" + javaDecoded(bad) + "x"
		for _, recs := range [][]Record{twoPasses(t, []byte(in)), linesPass(t, []byte(in), 16)} {
			if len(recs) != 2 {
				t.Fatalf("%q: %d records", bad, len(recs))
			}
			for _, r := range recs {
				if r.Err != nil || r.Event.TenantID != want {
					t.Errorf("%q, line %d: tenant %q, err %v; want %q", bad, r.Line, r.Event.TenantID, r.Err, want)
				}
			}
		}
	}
}

// javaDecoded is what Java's UTF-8 decoder makes of the test's ill-formed sequences.
func javaDecoded(bad string) string {
	return map[string]string{"\xe2\x82": "\ufffd", "\xf0\x9f": "\ufffd", "\xe2\x82\xe2\x82\xac": "\ufffd€",
		"\xed\xa0\x80": "\ufffd\ufffd\ufffd", "\xff": "\ufffd"}[bad]
}

// TestReadingDevZeroStopsWhenCancelled: /dev/zero never blocks and never ends a line, so
// the reader steps over one endless too-long line; a cancel must stop it as it stops a
// FIFO's read.
func TestReadingDevZeroStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Open(ctx, "/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero here:", err)
	}
	defer r.Close()
	time.AfterFunc(200*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { _, _, err := read(r); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the read of /dev/zero ended with %v", err)
		}
	case <-time.After(60 * time.Second): // a read that ignores the cancel never ends
		t.Fatal("the read of /dev/zero still runs 60 s after the cancel")
	}
}

// TestAnEntryWhoseValueIsNotUTF8IsWrittenAsAUTF8LineTheJobReadsTheSame: record and feed
// --shifted-out copied a value's raw bytes into the line, which was then no UTF-8 JSON.
func TestAnEntryWhoseValueIsNotUTF8IsWrittenAsAUTF8LineTheJobReadsTheSame(t *testing.T) {
	raw := `{"type":"RequestStarted","request_id":"r-1","tenant_id":"ac` + "\xe2\x82" + `me","model":"flat-10c","gateway":"gw-0","ts":1000,"prompt_tokens":5}`
	for _, value := range []string{raw, "not json \xff"} {
		line := Entry{Timestamp: 1000, Arrival: 1000, Key: []byte("r-\xff1"), Value: []byte(value)}.AppendJSON(nil)
		if !utf8.Valid(line) || !stdjson.Valid(line) {
			t.Fatalf("the line is not UTF-8 JSON: %q", line)
		}
		es, _, err := read(NewReader(bytes.NewReader(append(line, '\n')), nil))
		if err != nil || len(es) != 1 {
			t.Fatalf("read back %d entries, %v", len(es), err)
		}
		if want := string(gateway.ReplaceInvalidUTF8([]byte(value))); string(es[0].Value) != want {
			t.Errorf("read back value %q, want the text Java's decoder reads, %q", es[0].Value, want)
		}
	}
}
