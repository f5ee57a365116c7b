package labrt

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/testkit"
)

const recordedHour = "../../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

func openHour(t *testing.T) *recording.Reader {
	t.Helper()
	src, err := recording.Open(context.Background(), recordedHour)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestReadAheadYieldsWhatReadEntriesYields reads the recorded hour both ways: the
// goroutine reading ahead hands over the same entries, in the same order.
func TestReadAheadYieldsWhatReadEntriesYields(t *testing.T) {
	testkit.CheckGoroutines(t)
	quiet := func(string, ...any) {}
	var want, got []recording.Entry
	src := openHour(t)
	for e, err := range readEntries(src, recordedHour, quiet) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, e)
	}
	src.Close()
	for e, err := range readAhead(openHour(t), recordedHour, quiet) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if len(got) != len(want) || !reflect.DeepEqual(got, want) {
		t.Fatalf("read ahead %d entries, read in line %d, or they differ", len(got), len(want))
	}
}

// TestReadAheadStopsWhenTheProducerDoes stops after a few entries, as a cancelled replay
// does: the reading goroutine ends and the file is closed.
func TestReadAheadStopsWhenTheProducerDoes(t *testing.T) {
	testkit.CheckGoroutines(t)
	n := 0
	for _, err := range readAhead(openHour(t), recordedHour, func(string, ...any) {}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 3*readAheadBatch+5 {
			break
		}
	}
}

// TestARecordingTheReplayNeverReadIsClosed opens the recorded hour (a .gz: its inflating
// runs on a goroutine of its own) as a replay does, and lets it go unread, as a replay
// whose restart failed does: unread closes it and nothing is left running. Once read,
// unread does nothing, and entries after unread says the recording was closed.
func TestARecordingTheReplayNeverReadIsClosed(t *testing.T) {
	testkit.CheckGoroutines(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // the line count beside it stops with the replay's context
	entries, _, _, unread, err := OpenRecording(ctx, recordedHour, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	unread()
	unread()
	var errs int
	for _, err := range entries {
		if err == nil || !strings.Contains(err.Error(), "was closed before it was read") {
			t.Fatalf("entries after unread yielded %v", err)
		}
		errs++
	}
	if errs != 1 {
		t.Fatalf("entries after unread yielded %d errors, want 1", errs)
	}

	entries, _, _, unread, err = OpenRecording(ctx, recordedHour, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range entries {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	unread()
	if n != 143400 {
		t.Fatalf("read %d entries of the hour, want 143400", n)
	}
}

// TestCountLinesCountsTheRecordingsLines counts the recorded hour's lines, as the
// progress of its first replay does while it is written: 143,400, every one a record.
func TestCountLinesCountsTheRecordingsLines(t *testing.T) {
	n, err := countLines(context.Background(), recordedHour)
	if err != nil || n != 143400 {
		t.Errorf("countLines = %d, %v; want 143400", n, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := countLines(ctx, recordedHour); err == nil {
		t.Error("a cancelled count went on")
	}
}

// TestCountLinesSkipsBlankLinesOnly counts lines that hold anything but white space,
// wherever the reads split them: blank ones, white space before a value, CRLF ends, a
// last line without its newline.
func TestCountLinesSkipsBlankLinesOnly(t *testing.T) {
	for text, want := range map[string]int64{
		"":                  0,
		"\n\n \t\r\n":       0,
		"a":                 1,
		"a\n":               1,
		"a\r\n\r\nb\r\n":    2,
		"  a\n \n\tb\n\n c": 3,
		strings.Repeat("x", 300<<10) + "\n" + strings.Repeat(" ", 300<<10) + "\ny": 2,
	} {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if n, err := countLines(context.Background(), path); err != nil || n != want {
			t.Errorf("countLines(%.20q) = %d, %v; want %d", text, n, err, want)
		}
	}
}

// TestALineCountIsRememberedForTheSameFileOnly: a recording counted to its end gives its
// count again while its size and modification time are the same; a file written since,
// another path, a pipe or a count of 0 give 0 (count it).
func TestALineCountIsRememberedForTheSameFileOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(path, []byte("{}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var c lineCounts
	if n := c.get(path, info); n != 0 {
		t.Fatalf("nothing counted yet gave %d", n)
	}
	c.put(path, info, 0)
	c.put(path, nil, 2)
	if n := c.get(path, info); n != 0 {
		t.Fatalf("a count of 0 or of no file was remembered: %d", n)
	}
	c.put(path, info, 2)
	if n := c.get(path, info); n != 2 {
		t.Fatalf("the same file gave %d, want 2", n)
	}
	if n := c.get(path+".other", info); n != 0 {
		t.Fatalf("another path gave %d", n)
	}
	if err := os.WriteFile(path, []byte("{}\n{}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if info, err = os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if n := c.get(path, info); n != 0 {
		t.Fatalf("the file written since gave %d", n)
	}
}
