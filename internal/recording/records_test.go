package recording

import (
	"bufio"
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

// twoPasses is what ReadLines then Parse must equal: Records, then Parse of each value, the
// skipped lines among the records in line order.
func twoPasses(t testing.TB, data []byte) []Record {
	var out []Record
	var p gateway.Parser
	lines := bytes.Split(data, []byte("\n"))
	for e, err := range NewReader(bytes.NewReader(data), nil).Records(func(line int, err error) {
		rec := Record{Line: line, Skipped: true, Err: err}
		if err == ErrTombstone { // a tombstone's Record keeps its envelope
			e, _ := parseLine(dropCR(bytes.TrimPrefix(lines[line-1], bom)))
			rec.Partition, rec.Offset, rec.Timestamp, rec.Arrival = e.Partition, e.Offset, e.Timestamp, e.Arrival
		}
		out = append(out, rec)
	}) {
		if err != nil {
			t.Fatalf("an in-memory read ended with %v", err)
		}
		ev, err := p.Parse(e.Value)
		out = append(out, Record{Line: e.Line, Partition: e.Partition, Offset: e.Offset, Timestamp: e.Timestamp, Arrival: e.Arrival, Event: ev, Err: err})
	}
	return out
}

// linesPass reads data as a replay's parse-ahead does: ReadLines, batch lines or about
// 4 KiB at a time, then Parse.
func linesPass(t testing.TB, data []byte, batch int) []Record {
	var out []Record
	p := gateway.Parser{IDBlocks: true}
	r := NewReader(bytes.NewReader(data), nil)
	var l Lines
	for {
		err := r.ReadLines(&l, batch, 4<<10)
		out = l.Parse(&p, out)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("an in-memory read ended with %v", err)
		}
	}
}

// sameRecords fails t unless a and b are the same records, errors by their text.
func sameRecords(t testing.TB, a, b []Record) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d records and skips, the two passes have %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if fmt.Sprint(x.Err) != fmt.Sprint(y.Err) {
			t.Fatalf("line %d: error %v, the two passes' %v", x.Line, x.Err, y.Err)
		}
		x.Err, y.Err = nil, nil
		if x != y {
			t.Fatalf("line %d:\n one pass   %+v\n two passes %+v", x.Line, x, y)
		}
	}
}

// contractLines is every value of the event-contract table in labtui's envelope (as an
// object when it is one, else as a string), then in kcat's.
func contractLines(t testing.TB) []byte {
	f, err := os.Open("../../labs/04-event-time-and-processing-time/job/event-contract.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for i := 0; sc.Scan(); i++ {
		var row struct{ Value, Partner string }
		if err := stdjson.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		for j, v := range []string{row.Value, row.Partner} {
			e := Entry{Partition: int32(j), Offset: int64(i), Timestamp: 1795946400000 + int64(i), Arrival: 1795946400005 + int64(i), Key: []byte("k"), Value: []byte(v)}
			out = append(e.AppendJSON(out), '\n')
		}
		out = fmt.Appendf(out, "{\"topic\":\"t\",\"partition\":0,\"offset\":%d,\"ts\":1,\"key\":null,\"payload\":%s}\n", i, mustJSON(t, row.Value))
	}
	return out
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := stdjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadRecordsIsRecordsThenParse: on the lab's files, the event contract's table
// and nearly canonical lines, the one-pass read (ReadLines, then Parse) gives what
// reading the line and then parsing its value gives, line for line, at every batch size.
func TestReadRecordsIsRecordsThenParse(t *testing.T) {
	hourData := recordedHourBytes(t)
	seed, err := os.ReadFile("../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"recorded hour":  hourData,
		"seed burst":     seed,
		"event contract": contractLines(t),
		"bad lines":      []byte(strings.Join(nearlyCanonical(), "\n")),
	} {
		want := twoPasses(t, data)
		for _, batch := range []int{1, 7, 512} {
			t.Run(fmt.Sprintf("%s/%d", name, batch), func(t *testing.T) {
				sameRecords(t, linesPass(t, data, batch), want)
			})
		}
	}
}

// nearlyCanonical is labtui's line with one thing changed at a time: each must be read
// as the full parses read it.
func nearlyCanonical() []string {
	ev := `{"type":"RequestStarted","request_id":"r-1","tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":1000,"prompt_tokens":5}`
	env := func(p, o, ts, arr, key, value string) string {
		return `{"partition":` + p + `,"offset":` + o + `,"timestamp":` + ts + `,"arrival":` + arr + `,"key":` + key + `,"value":` + value + `}`
	}
	return []string{
		env("0", "1", "1000", "1005", `"r-1"`, ev),
		env("2147483648", "1", "1000", "1005", `"r-1"`, ev),
		env("-1", "1", "1000", "1005", `"r-1"`, ev),
		env("0", "-1", "1000", "1005", `"r-1"`, ev),
		env("0", "01", "1000", "1005", `"r-1"`, ev),
		env("0", "1", "1.5", "1005", `"r-1"`, ev),
		env("0", "1", "1000", "1e3", `"r-1"`, ev),
		env("0", "1", "1000", "253402300800000", `"r-1"`, ev),
		env("0", "1", "-62135596800001", "1005", `"r-1"`, ev),
		env("0", "1", "1000", "1005", `"r-\"1"`, ev),
		env("0", "1", "1000", "1005", "\"r-\x011\"", ev),
		env("0", "1", "1000", "1005", "\"r-\xff\"", ev),
		env("0", "1", "1000", "1005", `null`, ev),
		env("0", "1", "1000", "1005", `"r-1"`, ev+`,"value":{}`),
		env("0", "1", "1000", "1005", `"r-1"`, ev+`,"value":null`),
		env("0", "1", "1000", "1005", `"r-1"`, ev+`,"partition":-4`),
		env("0", "1", "1000", "1005", `"r-1"`, ev+` `),
		env("0", "1", "1000", "1005", `"r-1"`, ev+"\r"),
		env("0", "1", "1000", "1005", `"r-1"`, ev) + " ",
		env("0", "1", "1000", "1005", `"r-1"`, ev[:len(ev)-1]),
		env("0", "1", "1000", "1005", `"r-1"`, ev[:len(ev)-1]+`}}`),
		env("0", "1", "1000", "1005", `"r-1"`, `{}`),
		env("0", "1", "1000", "1005", `"r-1"`, `null`),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `"r-1"`, `"r-}1"`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `"r-1"`, `"r-\u00311"`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `"acme"`, `"ac\xffme"`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `"RequestStarted"`, `"RequestFinished"`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `prompt_tokens`, `completion_tokens`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `:5}`, `:-5}`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `"gw-1"`, `""`, 1)),
		env("0", "1", "1000", "1005", `"r-1"`, strings.Replace(ev, `"acme",`, `"acme",,`, 1)),
		strings.Replace(env("0", "1", "1000", "1005", `"r-1"`, ev), `"offset"`, `"offset" `, 1),
		`{"partition":0,"offset":1,"timestamp":1000,"key":"r-1","value":` + ev + `}`,
		`{"partition":0,"offset":1,"timestamp":1000,"arrival":1005,"arrival":1006,"key":"r-1","value":` + ev + `}`,
	}
}

// FuzzReadRecordsAgreesWithRecords: whatever the bytes, the one-pass read is the line
// read then its value parsed.
func FuzzReadRecordsAgreesWithRecords(f *testing.F) {
	for _, s := range nearlyCanonical() {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Join(nearlyCanonical()[:3], "\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := twoPasses(t, data)
		sameRecords(t, linesPass(t, data, 3), want)
	})
}

// TestReadRecordsAllocatesNothingPerRecord: the recorded hour's canonical lines cost
// no allocation each, request ids included (they go in the Parser's blocks).
func TestReadRecordsAllocatesNothingPerRecord(t *testing.T) {
	var data []byte
	for i := range 2000 {
		ev := gateway.Event{Type: gateway.RequestStarted, RequestID: fmt.Sprintf("r-%06d", i), TenantID: "acme", Model: "flat-10c", Gateway: "gw-1", TS: 1000, PromptTokens: 5}
		data = append(Entry{Offset: int64(i), Timestamp: 1000, Arrival: 1000, Key: []byte(ev.RequestID), Value: ev.AppendJSON(nil)}.AppendJSON(data), '\n')
	}
	p := gateway.Parser{IDBlocks: true}
	buf := make([]Record, 0, 512)
	src := bytes.NewReader(data)
	r := NewReader(src, nil)
	var l Lines
	r.ReadLines(&l, 512, 1<<20) // the batch's buffers grow once
	allocs := testing.AllocsPerRun(20, func() {
		src.Reset(data)
		r.lines = newLineReader(src)
		for r.ReadLines(&l, 512, 1<<20) == nil {
			l.Parse(&p, buf[:0])
		}
		l.Parse(&p, buf[:0])
	})
	// The line reader's buffer is one allocation a read, the id blocks about one for
	// each 400 records; one for each record would be 2000.
	if allocs > 20 {
		t.Fatalf("%.0f allocations to read 2000 records", allocs)
	}
	ids := map[string]bool{}
	for _, rec := range linesPass(t, data, 2000) {
		ids[rec.Event.RequestID] = true
	}
	if len(ids) != 2000 || !ids["r-000000"] || !ids["r-001999"] {
		t.Fatalf("%d distinct request ids read from 2000 records", len(ids))
	}
}

// TestReadLinesKeepsALongLineAsASkip: a line over MaxLine is one skipped line in its
// batch, between the records around it.
func TestReadLinesKeepsALongLineAsASkip(t *testing.T) {
	data := []byte(line(0) + "\n" + `{"key":"` + strings.Repeat("x", maxLine) + `"}` + "\n\n" + line(1) + "\n")
	want := twoPasses(t, data)
	if len(want) != 3 || !want[1].Skipped || want[2].Line != 4 {
		t.Fatalf("the two passes read %+v", want)
	}
	sameRecords(t, linesPass(t, data, 512), want)
}
