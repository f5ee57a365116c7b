package reenact

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/watermark"
)

// replayed is everything a replay hands its caller: each result, each line reported bad
// (skipped lines and malformed events, in the order they were reported), the summary
// and the error.
type replayed struct {
	results []string
	bad     []string
	sum     Summary
	err     error
}

func collect(run func(sink func(jobspec.Result), bad func(int, error)) (Summary, error)) replayed {
	var got replayed
	got.sum, got.err = run(func(r jobspec.Result) { got.results = append(got.results, fmt.Sprintf("%+v", r)) },
		func(line int, err error) { got.bad = append(got.bad, fmt.Sprintf("%d: %v", line, err)) })
	got.sum.Elapsed, got.sum.ordered = 0, 0
	return got
}

// sortedReplay is the recorded replay without early: the file read whole, then the job
// run on the records in the full sort's order (what every recorded replay did before
// early, and still does when its bet is lost).
func sortedReplay(src Source, cfg Config) replayed {
	return collect(func(sink func(jobspec.Result), bad func(int, error)) (Summary, error) {
		var sum Summary
		recs, readErr := readAll(src, topicOf(src, cfg), &sum, func(line int, err error) {
			if errors.Is(err, recording.ErrTombstone) {
				sum.Tombstones++
			} else {
				sum.BadLines++
			}
			bad(line, err)
		})
		if err := replaySorted(context.Background(), recs, cfg, sink, bad, &sum); err != nil {
			return sum, err
		}
		return sum, readErr
	})
}

// recordedReplay is Run at recorded pace; ordered is how it found its order.
func recordedReplay(src Source, cfg Config) (got replayed, ordered ordering) {
	cfg.Pace = Recorded
	got = collect(func(sink func(jobspec.Result), bad func(int, error)) (Summary, error) {
		sum, err := Run(context.Background(), src, cfg, sink, bad)
		ordered = sum.ordered
		return sum, err
	})
	return got, ordered
}

func sameReplay(t *testing.T, what string, got, want replayed) {
	t.Helper()
	if fmt.Sprint(got.err) != fmt.Sprint(want.err) {
		t.Fatalf("%s: error %v, the sorted replay's %v", what, got.err, want.err)
	}
	if got.sum != want.sum {
		t.Fatalf("%s: summary\n %+v\nthe sorted replay's\n %+v", what, got.sum, want.sum)
	}
	for i := range max(len(got.results), len(want.results)) {
		if i >= len(got.results) || i >= len(want.results) || got.results[i] != want.results[i] {
			t.Fatalf("%s: result %d of %d/%d differs:\n %s\nthe sorted replay's\n %s", what, i, len(got.results), len(want.results),
				at(got.results, i), at(want.results, i))
		}
	}
	if !slices.Equal(got.bad, want.bad) {
		t.Fatalf("%s: lines reported bad\n %q\nthe sorted replay's\n %q", what, got.bad, want.bad)
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

// fileSource writes text to a file (gzip when name ends in .gz) and opens it: a source
// that can be read again.
func fileSource(t testing.TB, name string, text []byte) *recording.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if strings.HasSuffix(name, ".gz") {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write(text)
		z.Close()
		text = b.Bytes()
	}
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// pipeSource is a source that cannot be read again, as a pipe cannot.
func pipeSource(text []byte) *recording.Reader {
	return recording.NewReader(bytes.NewReader(text), nil)
}

// genLine is a line of a generated recording: a record unless skip.
type genLine struct {
	partition       int32
	offset, arrival int64
	malformed, skip bool
	text            string
}

// genRecording makes a recording of the shapes a recorded replay meets: as labtui
// writes them (each partition in arrival order, arrivals rising over the file, some
// equal across partitions), then, by shape's bits, bent: lines swapped within or across
// partitions, a stretch of the file repeated at its end (two recordings concatenated), a
// partition first seen late (before or after what came before it), more partitions than
// are merged, a partition going quiet, duplicate lines, equal arrivals with offsets out of
// order, and bad lines, blank lines and tombstones. A few values are malformed events:
// the job reports them in the order it is handed them, which shows that order.
func genRecording(rng *rand.Rand, n int, shape uint8) ([]byte, []genLine) {
	parts := 1 + rng.IntN(4)
	if shape&0x40 != 0 {
		parts = 60 + rng.IntN(10)
	}
	models := gateway.DefaultPrices().Models()
	offsets := make([]int64, 70)
	arrival := clock(0, 0, 0)
	var lines []genLine
	record := func(p int32, arr int64, id int, malformed bool) genLine {
		l := genLine{partition: p, offset: offsets[p], arrival: arr}
		offsets[p]++
		var value string
		switch {
		case malformed || rng.IntN(8) == 0:
			l.malformed = true
			value = fmt.Sprintf(`{"type":"Nope","request_id":"m-%d"}`, id)
		case id%2 == 0:
			value = fmt.Sprintf(`{"type":"RequestStarted","request_id":"r-%d","tenant_id":"t%d","model":%q,"gateway":"gw-%d","ts":%d,"prompt_tokens":%d}`,
				id/2, id%3, models[id%len(models)], p%3, arr-int64(rng.IntN(3000)), 10+rng.IntN(500))
		default:
			value = fmt.Sprintf(`{"type":"RequestCompleted","request_id":"r-%d","tenant_id":"t%d","model":%q,"gateway":"gw-%d","ts":%d,"completion_tokens":%d}`,
				id/2, (id-1)%3, models[(id-1)%len(models)], p%3, arr-int64(rng.IntN(3000)), 10+rng.IntN(500))
		}
		l.text = fmt.Sprintf(`{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`, p, l.offset, arr, arr, value)
		return l
	}
	quiet := int32(-1)
	if shape&0x20 != 0 && parts > 1 {
		quiet = int32(rng.IntN(parts))
	}
	for i := range n {
		if rng.IntN(3) > 0 { // a third of the records arrive with the one before them
			arrival += int64(rng.IntN(400))
		}
		p := int32(rng.IntN(parts))
		if p == quiet && i > n/4 && i < 3*n/4 {
			p = (p + 1) % int32(parts)
		}
		lines = append(lines, record(p, arrival, i, false))
	}
	if shape&0x01 != 0 && len(lines) > 0 { // lines swapped
		for range 1 + rng.IntN(3) {
			i, j := rng.IntN(len(lines)), rng.IntN(len(lines))
			lines[i], lines[j] = lines[j], lines[i]
		}
	}
	if shape&0x02 != 0 && len(lines) > 2 { // a stretch repeated at the end
		i := rng.IntN(len(lines) - 1)
		lines = append(lines, lines[i:i+1+rng.IntN(len(lines)-i-1)]...)
	}
	if shape&0x04 != 0 { // a new partition, first seen somewhere in the file
		i := rng.IntN(len(lines) + 1)
		arr := arrival + 1
		if i < len(lines) && rng.IntN(2) == 0 {
			arr = clock(0, 0, 0) + rng.Int64N(lines[i].arrival-clock(0, 0, 0)+1)
		}
		lines = slices.Insert(lines, i, record(int32(parts), arr, 2*n+1, true))
	}
	if shape&0x08 != 0 && len(lines) > 0 { // a duplicate line, and equal arrivals with offsets out of order
		i := rng.IntN(len(lines))
		lines = slices.Insert(lines, i+1, lines[i])
		p := int32(rng.IntN(parts))
		a, b := record(p, arrival+5, 2*n+2, true), record(p, arrival+5, 2*n+3, true)
		if rng.IntN(2) == 0 {
			a, b = b, a
		}
		lines = append(lines, a, b)
	}
	if shape&0x10 != 0 { // bad lines, blank lines, tombstones
		for range 1 + rng.IntN(5) {
			bad := []string{`not json`, ``, `   `, `{"partition":0,"offset":1}`,
				fmt.Sprintf(`{"partition":0,"offset":3,"timestamp":%d,"value":null}`, arrival)}[rng.IntN(5)]
			lines = slices.Insert(lines, rng.IntN(len(lines)+1), genLine{skip: true, text: bad})
		}
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.Bytes(), lines
}

// malformedInSortedOrder is the line numbers of the malformed events in the order a
// stable sort of the records by (arrival, partition, offset) puts them: the order the
// job must be handed them in.
func malformedInSortedOrder(lines []genLine) []string {
	type rec struct {
		genLine
		line int
	}
	var recs []rec
	for i, l := range lines {
		if !l.skip {
			recs = append(recs, rec{l, i + 1})
		}
	}
	slices.SortStableFunc(recs, func(a, b rec) int {
		return cmp.Or(cmp.Compare(a.arrival, b.arrival), cmp.Compare(a.partition, b.partition), cmp.Compare(a.offset, b.offset))
	})
	var want []string
	for _, r := range recs {
		if r.malformed {
			want = append(want, fmt.Sprint(r.line))
		}
	}
	return want
}

// malformedReported is the line numbers of the malformed events among the lines reported bad.
func malformedReported(bad []string) []string {
	var got []string
	for _, b := range bad {
		if line, why, _ := strings.Cut(b, ": "); strings.Contains(why, "Nope") {
			got = append(got, line)
		}
	}
	return got
}

// checkRecordedIsSorted replays a generated recording at recorded pace, from a file and
// from a pipe, and checks each gives exactly what the sorted replay gives, and hands the
// job the malformed events in the sort's order.
func checkRecordedIsSorted(t *testing.T, seed uint64, n int, shape uint8) (fromFile ordering) {
	rng := rand.New(rand.NewPCG(seed, uint64(shape)))
	text, lines := genRecording(rng, n, shape)
	cfg := Config{Job: jobspec.Options{Trace: rng.IntN(2) == 0}, Drain: rng.IntN(2) == 0}
	switch rng.IntN(3) {
	case 1:
		cfg.Job.Watermarks = watermark.Strategy{At: watermark.Source, Idleness: time.Duration(rng.IntN(2)) * 2 * time.Second}
	case 2:
		cfg.Job.Watermarks.OutOfOrderness = 1500 * time.Millisecond
	}
	what := fmt.Sprintf("seed %d, %d records, shape %#x, %+v", seed, n, shape, cfg)
	want := sortedReplay(pipeSource(text), cfg)
	if got, order := malformedReported(want.bad), malformedInSortedOrder(lines); !slices.Equal(got, order) {
		t.Fatalf("%s: the sorted replay handed the malformed events over in the order\n %v\nnot the sort's\n %v", what, got, order)
	}
	for _, src := range []struct {
		name string
		src  Source
	}{{"file", fileSource(t, "r.jsonl", text)}, {"gzip file", fileSource(t, "r.jsonl.gz", text)}, {"pipe", pipeSource(text)}} {
		got, ordered := recordedReplay(src.src, cfg)
		sameReplay(t, what+", from a "+src.name, got, want)
		if src.name == "file" {
			fromFile = ordered
		}
	}
	return fromFile
}

// TestRecordedPaceIsTheSortedReplayOnRandomRecordings: whatever order a recording's lines
// are in, a recorded replay gives exactly what replaying the fully sorted records gives
// (every result, every line reported bad and in that order, the summary, the error), from
// a file and from a pipe: a record handed to the job before its place in the order is
// certain, and kept there, would change the order the malformed events are reported in,
// or a result.
func TestRecordedPaceIsTheSortedReplayOnRandomRecordings(t *testing.T) {
	iterations := 300
	if testing.Short() {
		iterations = 40
	}
	seen := map[ordering]int{}
	for i := range iterations {
		seed := uint64(i)
		seen[checkRecordedIsSorted(t, seed, 1+int(seed*37%3000), uint8(seed*11))]++
	}
	if seen[handedEarly] == 0 || seen[readAgain] == 0 || seen[sortedWhole] == 0 {
		t.Fatalf("the recordings were ordered %v times each way (sorted whole, handed early, read again): a way was never tried", seen)
	}
	t.Logf("ordered %v times each way (sorted whole, handed early, read again)", seen)
}

// FuzzRecordedPaceIsTheSortedReplay is TestRecordedPaceIsTheSortedReplayOnRandomRecordings
// on any seed, size and shape.
func FuzzRecordedPaceIsTheSortedReplay(f *testing.F) {
	for i := range 8 {
		f.Add(uint64(i), uint16(600*i), uint8(1<<i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, shape uint8) {
		checkRecordedIsSorted(t, seed, int(n%5000), shape)
	})
}

// TestRecordedPaceHandsTheRecordedHourOverWhileReadingIt: labtui's recordings are in the
// order early bets on (each partition in arrival order), so the recorded hour is replayed
// while it is read, and its results (with traces, more than heldResults of them, fewer
// than its records) are the sorted replay's.
func TestRecordedPaceHandsTheRecordedHourOverWhileReadingIt(t *testing.T) {
	for _, cfg := range []Config{
		{Job: jobspec.Options{Trace: true}},
		{Job: jobspec.Options{Watermarks: watermark.Strategy{At: watermark.Source}}, Drain: true},
	} {
		open := func() *recording.Reader {
			r, err := recording.Open(context.Background(), recordedHour)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return r
		}
		want := sortedReplay(open(), cfg)
		got, ordered := recordedReplay(open(), cfg)
		sameReplay(t, fmt.Sprintf("the recorded hour, %+v", cfg), got, want)
		if ordered != handedEarly {
			t.Fatalf("the recorded hour was ordered by %d, not handed over early", ordered)
		}
		if cfg.Job.Trace && len(want.results) <= heldResults {
			t.Fatalf("%d results: the job never held more than heldResults", len(want.results))
		}
	}
}

// TestALostBetReadsTheFileAgainAndReportsEachBadLineOnce: the recorded hour with a bad
// line early on and then its first thousand lines again at the end (two recordings
// concatenated) loses early's bet at the very end, after most of the file was handed over
// and dropped: the file is read again, and each bad line is reported once. The same from
// a pipe, which cannot be read again, keeps every record and sorts them. A gzip file
// truncated after the bet is lost reads again up to the same damage.
func TestALostBetReadsTheFileAgainAndReportsEachBadLineOnce(t *testing.T) {
	r, err := recording.Open(context.Background(), recordedHour)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	first := 0
	for e, err := range r.Records(nil) {
		if err != nil {
			t.Fatal(err)
		}
		b.Write(e.AppendJSON(nil))
		b.WriteByte('\n')
		if first++; first == 10 {
			b.WriteString("not a record\n")
		}
	}
	r.Close()
	hour := b.Bytes()
	end := 0
	for range 1000 {
		end += bytes.IndexByte(hour[end:], '\n') + 1
	}
	text := append(append(slices.Clip(hour), hour[:end]...), "{ still not a record\n"...)
	cfg := Config{Job: jobspec.Options{Trace: true}}
	want := sortedReplay(pipeSource(text), cfg)
	if len(want.bad) != 3 {
		t.Fatalf("the sorted replay reported %q bad", want.bad)
	}
	for _, c := range []struct {
		src  Source
		want ordering
	}{{fileSource(t, "concat.jsonl", text), readAgain}, {pipeSource(text), sortedWhole}} {
		got, ordered := recordedReplay(c.src, cfg)
		sameReplay(t, "two recordings concatenated", got, want)
		if ordered != c.want {
			t.Fatalf("ordered by %d, want %d", ordered, c.want)
		}
	}

	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(text)
	zw.Close()
	cut := z.Bytes()[:z.Len()-200]
	path := filepath.Join(t.TempDir(), "cut.jsonl.gz")
	if err := os.WriteFile(path, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *recording.Reader {
		r, err := recording.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	want = sortedReplay(open(), cfg)
	var re *recording.ReadError
	if !errors.As(want.err, &re) {
		t.Fatalf("the truncated file read to its end: %v", want.err)
	}
	got, ordered := recordedReplay(open(), cfg)
	sameReplay(t, "two recordings concatenated, truncated", got, want)
	if ordered != readAgain {
		t.Fatalf("the truncated file was ordered by %d, not read again", ordered)
	}
}

// TestAJobHoldingMoreResultsThanRecordsSpillsThem: a recording whose every request
// has a tenant and a minute of its own makes three results a request (both windows and the trace),
// more than one a record: the job run early holds heldResults in memory and the rest in
// a temporary file, and gives exactly what the sorted replay gives.
func TestAJobHoldingMoreResultsThanRecordsSpillsThem(t *testing.T) {
	var b strings.Builder
	const requests = 20_000
	for i := range requests {
		ts := clock(int64(i), 0, 0)
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":{"type":"RequestStarted","request_id":"r-%d","tenant_id":"t-%d","model":"flat-10c","gateway":"gw-0","ts":%d,"prompt_tokens":10}}`+"\n",
			i%2, i, ts, ts, i, i, ts)
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":{"type":"RequestCompleted","request_id":"r-%d","tenant_id":"t-%d","model":"flat-10c","gateway":"gw-0","ts":%d,"completion_tokens":10}}`+"\n",
			1-i%2, i, ts+1, ts+1, i, i, ts+1)
	}
	text := []byte(b.String())
	cfg := Config{Job: jobspec.Options{Trace: true}, Drain: true}
	want := sortedReplay(pipeSource(text), cfg)
	if len(want.results) < 3*requests {
		t.Fatalf("%d results for %d requests", len(want.results), requests)
	}
	got, ordered := recordedReplay(fileSource(t, "tenants.jsonl", text), cfg)
	sameReplay(t, "a tenant a request", got, want)
	if ordered != handedEarly {
		t.Fatalf("ordered by %d, not handed over early", ordered)
	}
	// Without a temporary file the job holds heldResults, then one a record handed over,
	// then waits for the end of the file.
	src := fileSource(t, "tenants.jsonl", text)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	got, ordered = recordedReplay(src, cfg)
	sameReplay(t, "a tenant a request, no temporary file", got, want)
	if ordered != handedEarly {
		t.Fatalf("without a temporary file ordered by %d, not handed over early", ordered)
	}
}
