package embedded

import (
	"reflect"
	"testing"

	"github.com/labtui/labtui/internal/testkit"
	"github.com/labtui/labtui/recording"
)

func openHour(t *testing.T) *recording.Reader {
	t.Helper()
	src, err := recording.Open(recordedHour)
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
