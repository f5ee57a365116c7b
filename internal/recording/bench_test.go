package recording

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

const recordedHour = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

// recordedHourBytes returns the recorded hour's lines, decompressed.
func recordedHourBytes(tb testing.TB) []byte {
	tb.Helper()
	f, err := os.Open(recordedHour)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkReadRecordedHour reads the recorded hour's 143,400 lines, already
// decompressed in memory, so what is measured is the line decoding a replay does.
func BenchmarkReadRecordedHour(b *testing.B) {
	data := recordedHourBytes(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = 0
		for _, err := range NewReader(bytes.NewReader(data), nil).Records(nil) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkReadRecordsRecordedHour is what a replay reads the recorded hour with, its
// bytes already decompressed in memory: the lines, then the envelope and the event in
// one pass, 512 records a batch, on one goroutine.
func BenchmarkReadRecordsRecordedHour(b *testing.B) {
	data := recordedHourBytes(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	p := gateway.Parser{IDBlocks: true}
	buf := make([]Record, 0, 512)
	var l Lines
	var n int
	for b.Loop() {
		n = 0
		r := NewReader(bytes.NewReader(data), nil)
		for {
			err := r.ReadLines(&l, 512, 256<<10)
			n += len(l.Parse(&p, buf[:0]))
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}
