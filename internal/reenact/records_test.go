package reenact

import (
	"context"
	"testing"

	"github.com/labtui/labtui/internal/recording"
)

// readFile reads the recording at path whole, as a recorded replay does.
func readFile(t *testing.T, path string) *records {
	t.Helper()
	r, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var sum Summary
	recs, err := readAll(r, partitionCount{}, &sum, func(line int, err error) { t.Fatalf("line %d: %v", line, err) })
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestMergingThePartitionsIsTheStableSort: on the recorded hour, whose partitions are
// each in arrival order but not the file (1,020 records arrive before one above them),
// merging the partitions gives the order the stable sort gives; a partition out of
// arrival order is not merged, and sorted instead.
func TestMergingThePartitionsIsTheStableSort(t *testing.T) {
	recs := readFile(t, "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz")
	merged, ok := recs.merged()
	if !ok {
		t.Fatal("the recorded hour's partitions were not merged")
	}
	sorted := recs.sorted()
	if len(merged) != 143_400 || len(sorted) != len(merged) {
		t.Fatalf("%d records merged, %d sorted", len(merged), len(sorted))
	}
	inFileOrder := 0
	for i := range merged {
		if merged[i] != sorted[i] {
			t.Fatalf("record %d: merged line %d, sorted line %d", i, recs.at(merged[i]).Line, recs.at(sorted[i]).Line)
		}
		if recs.at(merged[i]).Line == i+1 {
			inFileOrder++
		}
	}
	if inFileOrder == len(merged) {
		t.Fatal("the recorded hour is in arrival order already: the test shows nothing")
	}
	b := recs.kept[0]
	b[5].Arrival, b[9].Arrival = b[9].Arrival, b[5].Arrival
	b[5].Partition, b[9].Partition = 0, 0
	if _, ok := recs.merged(); ok {
		t.Fatal("a partition out of arrival order was merged")
	}
	order := recs.arrivalOrder()
	for i := 1; i < len(order); i++ {
		a, c := recs.at(order[i-1]), recs.at(order[i])
		if a.Arrival > c.Arrival || a.Arrival == c.Arrival && (a.Partition > c.Partition || a.Partition == c.Partition && a.Offset > c.Offset) {
			t.Fatalf("records %d and %d out of order: %+v, %+v", i-1, i, a, c)
		}
	}
}
