package recording

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReopenReadsTheSameFileAgainOrSaysWhyNot: a file Open opened reads again from its
// first line, gzip too; a reader of a pipe (NewReader) cannot be reopened, nor a file
// whose path now names another file, nor one removed.
func TestReopenReadsTheSameFileAgainOrSaysWhyNot(t *testing.T) {
	dir := t.TempDir()
	lines := []Entry{{Partition: 0, Offset: 0, Timestamp: 1, Arrival: 2, Key: []byte("a"), Value: []byte(`{"x":1}`)},
		{Partition: 1, Offset: 0, Timestamp: 3, Arrival: 4, Key: []byte("b"), Value: []byte(`{"x":2}`)}}
	for _, name := range []string{"r.jsonl", "r.jsonl.gz"} {
		path := filepath.Join(dir, name)
		w, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range lines {
			w.Write(e)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := readAll(t, r)
		if !r.Reopenable() {
			t.Fatalf("%s: a regular file is not reopenable", name)
		}
		again, err := r.Reopen()
		if err != nil {
			t.Fatal(err)
		}
		second, _ := readAll(t, again)
		again.Close()
		if len(first) != 2 || len(second) != 2 || string(second[1].Key) != "b" || second[0].Line != 1 {
			t.Fatalf("%s: read %+v, then %+v", name, first, second)
		}

		other := filepath.Join(dir, "other-"+name)
		if err := os.Rename(path, other); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Reopen(); err == nil || !strings.Contains(err.Error(), "cannot read recording") {
			t.Fatalf("%s: a removed file reopened: %v", name, err)
		}
		if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Reopen(); err == nil || !strings.Contains(err.Error(), "cannot read recording") {
			t.Fatalf("%s: a replaced file reopened: %v", name, err)
		}
		r.Close()
	}
	p := NewReader(strings.NewReader(""), nil)
	if _, err := p.Reopen(); p.Reopenable() || err == nil {
		t.Fatalf("a pipe's reader reopened: %v", err)
	}
}
