package recording

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

const topicEvent = `{"type":"RequestStarted","request_id":"r-1","tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":1000,"prompt_tokens":5}`

// readAll reads data as a replay does (Topic first, then ReadLines and Parse) and
// returns the topic and every record, skipped lines as "line N: error".
func readAllRecords(t *testing.T, data string) (Topic, []string) {
	t.Helper()
	r := NewReader(strings.NewReader(data), nil)
	topic := r.Topic()
	var l Lines
	var p gateway.Parser
	var got []string
	for {
		err := r.ReadLines(&l, 512, 1<<20)
		for _, rec := range l.Parse(&p, nil) {
			if rec.Skipped {
				got = append(got, fmt.Sprintf("line %d: p%d o%d t%d a%d: %v", rec.Line, rec.Partition, rec.Offset, rec.Timestamp, rec.Arrival, rec.Err))
			} else {
				got = append(got, fmt.Sprintf("line %d: p%d o%d %s", rec.Line, rec.Partition, rec.Offset, rec.Event.RequestID))
			}
		}
		if err != nil {
			return topic, got
		}
	}
}

func expectStrings(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n got\n  %s\n want\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestATombstoneKeepsItsEnvelope: a tombstone is skipped, but its record says which
// partition (and where in it) it is: a partition of the topic even if it holds nothing
// else.
func TestATombstoneKeepsItsEnvelope(t *testing.T) {
	_, got := readAllRecords(t, `{"partition":2,"offset":7,"timestamp":1000,"arrival":1005,"key":"r-1","value":null}`+"\n"+
		`{"topic":"t","partition":1,"offset":3,"ts":2000,"key":null,"payload":null}`+"\n")
	expectStrings(t, "records", got,
		"line 1: p2 o7 t1000 a1005: a tombstone (null value)",
		"line 2: p1 o3 t2000 a2000: a tombstone (null value)")
}

// TestTheTopicLineSaysThePartitionCount: a recording's first line that is not blank may
// be its topic line; it is no record and no bad line, and Topic returns it before any
// line is read, and leaves every line after it to be read.
func TestTheTopicLineSaysThePartitionCount(t *testing.T) {
	rec := `{"partition":0,"offset":0,"timestamp":1000,"arrival":1000,"key":"r-1","value":` + topicEvent + `}`
	topic, got := readAllRecords(t, "\xef\xbb\xbf\n"+`{"topic":"gateway-events","partitions":5}`+"\n"+rec+"\n")
	if topic != (Topic{Name: "gateway-events", Partitions: 5}) {
		t.Fatalf("topic %+v", topic)
	}
	expectStrings(t, "records", got, "line 3: p0 o0 r-1")

	topic, got = readAllRecords(t, rec+"\n")
	if topic != (Topic{}) {
		t.Fatalf("no topic line: topic %+v", topic)
	}
	expectStrings(t, "records without a topic line", got, "line 1: p0 o0 r-1")

	// Read without Topic, the topic line is passed over all the same.
	var es []int
	var bad []string
	for e, err := range NewReader(strings.NewReader(`{"partitions":2}`+"\n"+rec), nil).Records(func(line int, err error) {
		bad = append(bad, fmt.Sprintf("line %d: %v", line, err))
	}) {
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e.Line)
	}
	if len(es) != 1 || es[0] != 2 || bad != nil {
		t.Fatalf("entries at lines %v, bad %v", es, bad)
	}
}

// TestATopicLineOnlyCountsFirst: a topic line after the first line, or one that is
// wrong, is a bad line with its number and why.
func TestATopicLineOnlyCountsFirst(t *testing.T) {
	rec := `{"partition":0,"offset":0,"timestamp":1000,"arrival":1000,"key":"r-1","value":` + topicEvent + `}`
	topic, got := readAllRecords(t, rec+"\n"+`{"topic":"gateway-events","partitions":5}`+"\n")
	expectStrings(t, "a topic line second", got, "line 1: p0 o0 r-1", `line 2: p0 o0 t0 a0: no "partition": a topic line ("partitions") is read only as a recording's first line`)
	if topic != (Topic{}) {
		t.Fatalf("topic %+v", topic)
	}
	for line, want := range map[string]string{
		`{"partitions":0}`:           "the topic line: partitions 0 is out of range: a topic has 1 to 2147483647 partitions",
		`{"partitions":"3"}`:         "the topic line: partitions is not an integer",
		`{"topic":7,"partitions":3}`: "the topic line: topic is not a string",
		`{"partitions":3`:            "not a topic line: invalid JSON: unexpected end",
	} {
		topic, got := readAllRecords(t, line+"\n"+rec+"\n")
		expectStrings(t, line, got, "line 1: p0 o0 t0 a0: "+want, "line 2: p0 o0 r-1")
		if topic != (Topic{}) {
			t.Fatalf("%s: topic %+v", line, topic)
		}
	}
}

// TestTheWriterWritesTheTopicLineFirst: what WriteTopic and Write write, the reader reads
// back.
func TestTheWriterWritesTheTopicLineFirst(t *testing.T) {
	var b bytes.Buffer
	w := newWriter(&b)
	if err := w.WriteTopic(Topic{Name: "gateway-events", Partitions: 3}); err != nil {
		t.Fatal(err)
	}
	w.Write(Entry{Partition: 2, Offset: 4, Timestamp: 1000, Arrival: 1000, Key: []byte("r-1"), Value: []byte(topicEvent)})
	w.Close()
	want := `{"topic":"gateway-events","partitions":3}` + "\n" +
		`{"partition":2,"offset":4,"timestamp":1000,"arrival":1000,"key":"r-1","value":` + topicEvent + "}\n"
	if b.String() != want {
		t.Fatalf("wrote\n%s\nwant\n%s", b.String(), want)
	}
	topic, got := readAllRecords(t, b.String())
	if topic != (Topic{Name: "gateway-events", Partitions: 3}) {
		t.Fatalf("topic %+v", topic)
	}
	expectStrings(t, "records", got, "line 2: p2 o4 r-1")
}

// TestRecordsAndTombstonesYieldsTheTombstones: what writes a recording into a topic again
// gets its tombstones as records with a null value, and writes them back as they were.
func TestRecordsAndTombstonesYieldsTheTombstones(t *testing.T) {
	tomb := `{"partition":2,"offset":7,"timestamp":1000,"arrival":1005,"key":"z","value":null}`
	rec := `{"partition":0,"offset":0,"timestamp":1000,"arrival":1000,"key":"r-1","value":` + topicEvent + `}`
	var skipped []int
	var got []Entry
	for e, err := range NewReader(strings.NewReader(tomb+"\n"+rec+"\ngarbage\n"), nil).RecordsAndTombstones(func(line int, err error) {
		skipped = append(skipped, line)
	}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.clone())
	}
	if len(got) != 2 || !got[0].Tombstone || got[0].Partition != 2 || got[0].Offset != 7 || got[1].Tombstone || len(skipped) != 1 || skipped[0] != 3 {
		t.Fatalf("entries %+v, skipped %v", got, skipped)
	}
	if line := string(got[0].AppendJSON(nil)); line != tomb {
		t.Fatalf("wrote %s, want %s", line, tomb)
	}
}
