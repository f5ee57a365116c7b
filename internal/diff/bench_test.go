package diff

import (
	"bytes"
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
)

// BenchmarkCompareRecordedHour is the diff of the recorded hour's re-enactment against a
// fast replay of it, both with traces (about 72,000 trace results and 300 rows a run):
// the rows lined up, both runs indexed, every differing row explained record by record.
func BenchmarkCompareRecordedHour(b *testing.B) {
	hourRuns(b)
	b.ReportAllocs()
	for b.Loop() {
		if r := Compare(hourRecorded, hourFast, Options{}); r.Counts.Unexplained != 0 {
			b.Fatal("unexplained")
		}
	}
}

// BenchmarkCompareRecordedHourProcessingTime is the same on the processing-time sink,
// where every row differs.
func BenchmarkCompareRecordedHourProcessingTime(b *testing.B) {
	hourRuns(b)
	b.ReportAllocs()
	for b.Loop() {
		Compare(hourRecorded, hourFast, Options{Sink: jobspec.ProcessingTimeResult})
	}
}

// BenchmarkReadRecordedHour parses one run's jsonl output with traces, as `labtui diff`
// reads each of its two files.
func BenchmarkReadRecordedHour(b *testing.B) {
	hourRuns(b)
	var buf bytes.Buffer
	for _, r := range hourRecorded {
		buf.Write(append(r.AppendJSON(nil), '\n'))
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}
