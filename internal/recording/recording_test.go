package recording

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const event = `{"type":"RequestStarted","request_id":"r-1","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":1000,"prompt_tokens":5}`

func readAll(t *testing.T, r *Reader) ([]Entry, []int) {
	t.Helper()
	var es []Entry
	var bad []int
	for e, err := range r.Records(func(line int, _ error) { bad = append(bad, line) }) {
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e.clone())
	}
	return es, bad
}

func TestReadsLabtuiAndKcatLinesAndSkipsBadOnes(t *testing.T) {
	in := strings.Join([]string{
		`{"partition":1,"offset":7,"timestamp":1000,"arrival":1500,"key":"r-1","value":` + event + `}`,
		`{"topic":"gateway-events","partition":2,"offset":3,"tstype":"create","ts":2000,"broker":0,"key":"r-1","payload":` + quote(event) + `}`,
		`not json`,
		``,
		`{"partition":0,"offset":1,"key":"r-1","value":{}}`,
		`{"partition":0,"offset":2,"timestamp":3000,"key":"r-2","value":` + quote(event) + `}`,
	}, "\n")
	es, bad := readAll(t, NewReader(strings.NewReader(in), nil))
	if len(es) != 3 || len(bad) != 2 || bad[0] != 3 || bad[1] != 5 {
		t.Fatalf("entries %d, bad lines %v", len(es), bad)
	}
	if e := es[0]; e.Partition != 1 || e.Offset != 7 || e.Timestamp != 1000 || e.Arrival != 1500 || string(e.Value) != event || e.Line != 1 {
		t.Errorf("labtui line: %+v", e)
	}
	if e := es[1]; e.Partition != 2 || e.Timestamp != 2000 || e.Arrival != 2000 || string(e.Value) != event {
		t.Errorf("kcat line: %+v (arrival defaults to the timestamp)", e)
	}
	if e := es[2]; string(e.Value) != event {
		t.Errorf("string value: %q", e.Value)
	}
}

func TestWriteThenReadGzipRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl.gz")
	w, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Partition: 2, Offset: 9, Timestamp: 1000, Arrival: 4000, Key: []byte("r-1"), Value: []byte(event)}
	if err := w.Write(want); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if _, err := gzip.NewReader(bytes.NewReader(raw)); err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	r, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, bad := readAll(t, r)
	want.Line = 1
	if len(es) != 1 || len(bad) != 0 || string(es[0].Key) != string(want.Key) || es[0].Arrival != want.Arrival || string(es[0].Value) != event {
		t.Fatalf("got %+v", es)
	}
}

func TestOpenNamesTheProblem(t *testing.T) {
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "cannot read recording") {
		t.Fatalf("missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "plain.jsonl.gz")
	os.WriteFile(bad, []byte("{}\n"), 0o644)
	if _, err := Open(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "not gzip data") {
		t.Fatalf("not gzip: %v", err)
	}
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

func TestArenaClonesOwnTheirBytes(t *testing.T) {
	var a Arena
	buf := []byte("k1v1")
	e := a.Clone(Entry{Key: buf[:2], Value: buf[2:]})
	f := a.Clone(Entry{Key: []byte("k2"), Value: []byte("v2")})
	copy(buf, "xxxx")
	e.Key = append(e.Key, '!') // must not run into the value or the next entry
	if string(e.Key) != "k1!" || string(e.Value) != "v1" || string(f.Key) != "k2" || string(f.Value) != "v2" {
		t.Fatalf("clones %q %q %q %q", e.Key, e.Value, f.Key, f.Value)
	}
	big := a.Clone(Entry{Value: make([]byte, arenaBlock+1)})
	if len(big.Value) != arenaBlock+1 {
		t.Fatalf("an entry larger than a block: %d bytes", len(big.Value))
	}
}

// TestTheLastOfDuplicateValueKeysWins reads lines that give their value twice: as in the
// event contract, the last one counts, so a later null makes a tombstone and a later
// object undoes an earlier null; a value that is true or false is a bad line that says so.
func TestTheLastOfDuplicateValueKeysWins(t *testing.T) {
	head := `{"partition":0,"offset":1,"timestamp":1000,`
	for _, c := range []struct {
		line, value string
		err         error
		errText     string
	}{
		{line: head + `"value":` + event + `,"value":null}`, err: ErrTombstone},
		{line: head + `"value":null,"value":` + event + `}`, value: event},
		{line: head + `"value":{"a":1},"payload":` + quote(event) + `}`, value: event},
		{line: head + `"value":` + event + `,"value":true}`, errText: "value must be an object, a string or null, not true"},
	} {
		e, err := parseLine([]byte(c.line))
		switch {
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("%s: error %v, want %v", c.line, err, c.err)
		case c.errText != "" && (err == nil || err.Error() != c.errText):
			t.Errorf("%s: error %v, want %q", c.line, err, c.errText)
		case c.value != "" && (err != nil || string(e.Value) != c.value):
			t.Errorf("%s: value %q, %v; want %q", c.line, e.Value, err, c.value)
		}
	}
}
