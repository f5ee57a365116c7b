package flinklab

import (
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

// event is a record of the lab's topic: one half of request id at ts.
func event(partition int32, offset int64, id string, completed bool, ts int64) *kgo.Record {
	typ, tokens := "RequestStarted", `"prompt_tokens":10`
	if completed {
		typ, tokens = "RequestCompleted", `"completion_tokens":10`
	}
	v := fmt.Sprintf(`{"type":%q,"request_id":%q,"tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":%d,%s}`, typ, id, ts, tokens)
	return &kgo.Record{Partition: partition, Offset: offset, Key: []byte(id), Value: []byte(v)}
}

// Given the index of a topic whose partition 1 runs 70 s ahead of partition 0, when the
// REST API reports the source at the end of both and two records are late, then the
// reads say what the job read of each partition (well-formed events, the largest
// timestamp; a malformed value counts as read but not as an event), partition 1's lead,
// and that only the record of partition 0 was late because of it: its window was open
// by partition 0's own events.
func TestPositionsTellWhatTheJobReadAndWhichLateRecordsALeadMadeLate(t *testing.T) {
	p, _, _ := indexed(
		event(0, 0, "r-a", false, 1_000),
		event(1, 0, "r-b", false, 2_000),
		event(0, 1, "r-a", true, 5_000),
		&kgo.Record{Partition: 0, Offset: 2, Value: []byte("not json")},
		event(1, 1, "r-b", true, 75_000),
	)
	p.report(map[int32]int64{0: -1, 1: 0}) // the source handed on partition 1's first only
	if got := p.read(); got != 1 {
		t.Fatalf("read %d records after the first report, want 1", got)
	}
	p.report(map[int32]int64{0: 2, 1: 1})
	p.late("r-a", 5_000)  // by partition 0's own events (5 s) its minute was open
	p.late("r-b", 59_000) // partition 1's own events (75 s) passed its minute: late by them
	r := p.snapshot()
	want := []jobspec.PartitionRead{{Partition: 0, Records: 2, MaxTS: 5_000}, {Partition: 1, Records: 2, MaxTS: 75_000}}
	if r == nil || fmt.Sprint(r.Partitions) != fmt.Sprint(want) {
		t.Fatalf("partitions %+v, want %+v", r, want)
	}
	if r.Max != (jobspec.Lead{Ahead: 1, Behind: 0, By: 70_000, Read: 4}) {
		t.Errorf("lead %+v, want partition 1 70 s ahead of 0 with 4 events read", r.Max)
	}
	if r.Late != 2 || r.AheadLate != 1 {
		t.Errorf("late %d, late only because of a lead %d; want 2 and 1", r.Late, r.AheadLate)
	}
	if got := p.read(); got != 5 {
		t.Errorf("read %d records, want all 5 (the malformed value too)", got)
	}
}

// The job's late line has no window end: a late record's window is the epoch-aligned
// minute of its timestamp, before the epoch too.
func TestMinuteEndIsTheEndOfTheRecordsMinute(t *testing.T) {
	for ts, want := range map[int64]int64{0: 60_000, 59_999: 60_000, 60_000: 120_000, -1: 0, -60_000: 0, -60_001: -60_000} {
		if got := minuteEnd(ts); got != want {
			t.Errorf("minuteEnd(%d) = %d, want %d", ts, got, want)
		}
	}
}

// Given a job whose source the REST API reports at the end of both partitions before
// labtui's index has read them (its consumer trails the job), then the job is taken to
// have read only what the index has read too, the count and the partitions alike, and
// both move on as the index catches up, with no further report: a replay completes only
// once the two agree (seen under -race: a completion of 12 of 12 records whose
// partitions said 0).
func TestPositionsCountOnlyWhatTheIndexHasReadToo(t *testing.T) {
	x := newTopicIndex(map[int32]int64{0: 0, 1: 0})
	p := &positions{topic: "t", start: x.start, next: map[int32]int64{0: 0, 1: 0}, index: x}
	var parser gateway.Parser
	records := []*kgo.Record{
		event(0, 0, "r-a", false, 1_000),
		event(1, 0, "r-b", false, 2_000),
		event(0, 1, "r-a", true, 5_000),
		event(1, 1, "r-b", true, 6_000),
	}
	p.report(map[int32]int64{0: 1, 1: 1}) // the source has handed on all 4
	for _, c := range []struct {
		indexed int
		read    int64
		parts   string
	}{
		{0, 0, "[{0 0 0} {1 0 0}]"},
		{3, 3, "[{0 2 5000} {1 1 2000}]"},
		{4, 4, "[{0 2 5000} {1 2 6000}]"},
	} {
		for _, r := range records[:c.indexed] {
			x.add(&parser, r) // a record indexed before is left as it is
		}
		if n, r := p.read(), p.snapshot(); n != c.read || r == nil || fmt.Sprint(r.Partitions) != c.parts {
			t.Errorf("with %d of 4 records indexed: read %d, partitions %+v; want %d and %s", c.indexed, n, r, c.read, c.parts)
		}
	}
}

// Given a job whose source the REST API reports at the end of both partitions while
// labtui's index has read partition 1 and only the first record of partition 0, then no
// lead is taken at that report (partition 0 would seem to stand at 1 s, 74 s behind),
// and once the index has read partition 0's second record too, the lead at the reported
// positions is: partition 1 70 s ahead, with all 4 events read.
func TestALeadIsTakenOnlyWhereTheIndexHasRead(t *testing.T) {
	p, x, parser := indexed(
		event(0, 0, "r-a", false, 1_000),
		event(1, 0, "r-b", false, 2_000),
		event(1, 1, "r-b", true, 75_000),
	)
	p.report(map[int32]int64{0: 1, 1: 1})
	if r := p.snapshot(); r == nil || r.Max != (jobspec.Lead{}) {
		t.Fatalf("with partition 0 half indexed: reads %+v, want no lead yet", r)
	}
	x.add(parser, event(0, 1, "r-a", true, 5_000))
	if r := p.snapshot(); r == nil || r.Max != (jobspec.Lead{Ahead: 1, Behind: 0, By: 70_000, Read: 4}) {
		t.Errorf("with both indexed: reads %+v, want partition 1 70 s ahead of 0 with 4 events read", r)
	}
}

// indexed is the positions of a job reading partitions 0 and 1 from offset 0, nothing
// reported yet, over an index that has read records; the index and its parser, to add more.
func indexed(records ...*kgo.Record) (*positions, *topicIndex, *gateway.Parser) {
	x := newTopicIndex(map[int32]int64{0: 0, 1: 0})
	p := &positions{topic: "t", start: x.start, next: map[int32]int64{0: 0, 1: 0}, index: x}
	parser := new(gateway.Parser)
	for _, r := range records {
		x.add(parser, r)
	}
	return p, x, parser
}

// read is status's count of records read.
func (p *positions) read() int64 {
	n, _ := p.status()
	return n
}

// snapshot is status's Reads.
func (p *positions) snapshot() *jobspec.Reads {
	_, r := p.status()
	return r
}
