package reenact

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/watermark"
)

// onPartition moves l to partition p, for tenant globex.
func onPartition(p int32, l line) line {
	l.partition = p
	l.value = strings.Replace(l.value, `"acme"`, `"globex"`, 1)
	return l
}

// stalled is acme on partition 0 every minute, and globex on partition 1 once, at
// 10:00:20-10:00:21, then never again: partition 1 stalls.
func stalled() []line {
	return []line{
		startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)),
		onPartition(1, startedAt("g-1", clock(0, 20, 0))), onPartition(1, completedAt("g-1", clock(0, 21, 0))),
		startedAt("r-2", clock(1, 10, 0)), completedAt("r-2", clock(1, 11, 0)),
		startedAt("r-3", clock(2, 10, 0)), completedAt("r-3", clock(2, 11, 0)),
	}
}

func atSource(idleness time.Duration) Config {
	return Config{Pace: Recorded, Job: jobspec.Options{Watermarks: watermark.Strategy{At: watermark.Source, Idleness: idleness}}}
}

// TestAStalledPartitionFreezesEventTimeAtTheSource: with the watermark strategy on the
// source, partition 1's watermark stays at 10:00:20.999 once it stops sending, and the
// source's minimum with it: no event-time window fires, every one waits. After the parse
// (the course's shape) one generator sees both partitions and follows partition 0.
func TestAStalledPartitionFreezesEventTimeAtTheSource(t *testing.T) {
	processing := []string{
		tenantMinute("processing-time", "acme", 0, "0.1", 1), tenantMinute("processing-time", "globex", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1), minute("processing-time", 2, "0.1", 1),
	}
	got, _ := replayLines(t, atSource(0), stalled()...)
	expectLines(t, got, append(processing,
		pendingMinute("event-time", 0, "0.1", 1), pendingTenantMinute("event-time", "globex", 0, "0.1", 1),
		pendingMinute("event-time", 1, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1))...)
}

// TestIdlenessUnfreezesAStalledPartition: with withIdleness(30 s) partition 1 is idle
// at 10:00:51.400 (its last record is seen by the emit at 10:00:21.000, the countdown
// starts at 10:00:21.200 and passes 30 s at the emit after 10:00:51.200), so the source
// follows partition 0 again: the results are those of the watermarks after the parse.
func TestIdlenessUnfreezesAStalledPartition(t *testing.T) {
	want := []string{
		tenantMinute("processing-time", "acme", 0, "0.1", 1), tenantMinute("processing-time", "globex", 0, "0.1", 1),
		minute("event-time", 0, "0.1", 1), tenantMinute("event-time", "globex", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1), minute("event-time", 1, "0.1", 1),
		minute("processing-time", 2, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1),
	}
	got, _ := replayLines(t, atSource(30*time.Second), stalled()...)
	expectLines(t, got, want...)
	got, _ = replayLines(t, Config{Pace: Recorded}, stalled()...)
	expectLines(t, got, want...)
}

// TestAPartitionTooHighForASplitEachIsOneErrorAtOnce: with watermarks at the source a
// replay keeps a split for every partition up to the highest its recording names, so one
// record of partition 2147483647 asked for 2^31 splits: 18 GB and 200 s before the kernel
// killed labtui replay (found by conformance/oracle). It is one plain error instead, before
// anything is replayed; after the parse the partition number costs nothing.
func TestAPartitionTooHighForASplitEachIsOneErrorAtOnce(t *testing.T) {
	high := []line{startedAt("r-1", clock(0, 10, 0)), onPartition(math.MaxInt32, completedAt("r-1", clock(0, 11, 0)))}
	var b strings.Builder
	for i, l := range high {
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`+"\n", l.partition, i, l.arrival, l.arrival, l.value)
	}
	results := 0
	_, err := Run(context.Background(), recording.NewReader(strings.NewReader(b.String()), nil), atSource(0),
		func(jobspec.Result) { results++ }, func(int, error) {})
	if err == nil || !strings.Contains(err.Error(), "partition 2147483647") || results != 0 {
		t.Fatalf("err %v after %d results; want the partition named, before any result", err, results)
	}
	got, _ := replayLines(t, Config{Pace: Recorded}, high...)
	expectLines(t, got, minute("processing-time", 0, "0.1", 1), pendingMinute("event-time", 0, "0.1", 1))
}

// arrivingAt is l reaching the job at arrival, its event time unchanged.
func arrivingAt(arrival int64, l line) line {
	l.arrival = arrival
	return l
}

// farAhead is acme on partition 0 every minute from 10:00 to 10:02, and globex's one
// request on partition 1 stamped 10:05:10-10:05:11 but read at 10:00:20-10:00:21:
// partition 1 is three minutes ahead in event time, and falls quiet first.
func farAhead() []line {
	return []line{
		startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)),
		arrivingAt(clock(0, 20, 0), onPartition(1, startedAt("g-1", clock(5, 10, 0)))),
		arrivingAt(clock(0, 21, 0), onPartition(1, completedAt("g-1", clock(5, 11, 0)))),
		startedAt("r-2", clock(1, 10, 0)), completedAt("r-2", clock(1, 11, 0)),
		startedAt("r-3", clock(2, 10, 0)), completedAt("r-3", clock(2, 11, 0)),
	}
}

// TestWhenEveryPartitionIsIdleAfterTheEndTheWatermarkIsTheFurthestAhead: with
// withIdleness(60 s) partition 1 is idle at 10:01:21.600 (its last record seen by the emit
// at 10:00:21.200, the countdown from 10:00:21.400) and partition 0, never quiet for a
// minute, holds the minimum; after the last record partition 0 is idle too, at
// 10:03:11.600, and with every
// split idle Flink's source emits the largest split watermark, partition 1's 10:05:10.999
// (CombinedWatermarkStatus: allIdle ? max : min). Every acme minute fires; globex's
// [10:05, 10:06) waits.
func TestWhenEveryPartitionIsIdleAfterTheEndTheWatermarkIsTheFurthestAhead(t *testing.T) {
	got, _ := replayLines(t, atSource(time.Minute), farAhead()...)
	expectLines(t, got,
		minute("processing-time", 0, "0.1", 1), tenantMinute("processing-time", "globex", 0, "0.1", 1),
		minute("event-time", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1), minute("event-time", 1, "0.1", 1),
		minute("processing-time", 2, "0.1", 1), minute("event-time", 2, "0.1", 1),
		pendingTenantMinute("event-time", "globex", 5, "0.1", 1))
}

// TestEveryPartitionIdleDuringASilenceMakesWhatFollowsLate: the same, then a silence of
// two minutes, and acme's r-4 at 10:04:10-10:04:11. The silence made every split idle and
// the watermark 10:05:10.999, so r-4 is late when it comes (its split back in the minimum
// at 10:04:10.999 does not lower the watermark): it is dropped with that watermark.
func TestEveryPartitionIdleDuringASilenceMakesWhatFollowsLate(t *testing.T) {
	lines := append(farAhead(), startedAt("r-4", clock(4, 10, 0)), completedAt("r-4", clock(4, 11, 0)))
	got, _ := replayLines(t, atSource(time.Minute), lines...)
	expectLines(t, got,
		minute("processing-time", 0, "0.1", 1), tenantMinute("processing-time", "globex", 0, "0.1", 1),
		minute("event-time", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1), minute("event-time", 1, "0.1", 1),
		minute("processing-time", 2, "0.1", 1), minute("event-time", 2, "0.1", 1),
		`{"sink":"late","request_id":"r-4","tenant_id":"acme","gateway":"gw-0","timestamp":1795946651000,"watermark":1795946710999,"usd":0.1}`,
		minute("processing-time", 4, "0.1", 1),
		pendingTenantMinute("event-time", "globex", 5, "0.1", 1))
}

// tombstoneOn is a tombstone of partition p read at arrival.
func tombstoneOn(p int32, arrival int64) line { return line{arrival, "null", p} }

// onlyTombstones is acme on partition 0 every minute, and partition 1 holding nothing but
// tombstones.
func onlyTombstones() []line {
	return []line{
		startedAt("r-1", clock(0, 10, 0)), tombstoneOn(1, clock(0, 10, 500)), completedAt("r-1", clock(0, 11, 0)),
		startedAt("r-2", clock(1, 10, 0)), tombstoneOn(1, clock(1, 30, 0)), completedAt("r-2", clock(1, 11, 0)),
		startedAt("r-3", clock(2, 10, 0)), completedAt("r-3", clock(2, 11, 0)),
	}
}

// TestAPartitionOfOnlyTombstonesHoldsTheWatermarkBack: a KafkaSource assigns partition 1
// as it assigns every partition, and its deserializer (which skips a null value) never
// hands it an event: its split stays at Long.MIN_VALUE, and so does the source's
// watermark. Every event-time window waits; with withIdleness(30 s) the split is idle
// and the source follows partition 0, as after the parse. At either pace.
func TestAPartitionOfOnlyTombstonesHoldsTheWatermarkBack(t *testing.T) {
	processing := []string{minute("processing-time", 0, "0.1", 1), minute("processing-time", 1, "0.1", 1), minute("processing-time", 2, "0.1", 1)}
	got, bad := replayLines(t, atSource(0), onlyTombstones()...)
	expectLines(t, got, append(processing,
		pendingMinute("event-time", 0, "0.1", 1), pendingMinute("event-time", 1, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1))...)
	if bad != 2 {
		t.Fatalf("%d lines reported, want the 2 tombstones", bad)
	}
	want := []string{
		minute("processing-time", 0, "0.1", 1), minute("event-time", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1), minute("event-time", 1, "0.1", 1),
		minute("processing-time", 2, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1),
	}
	got, _ = replayLines(t, atSource(30*time.Second), onlyTombstones()...)
	expectLines(t, got, want...)
	got, _ = replayLines(t, Config{Pace: Recorded}, onlyTombstones()...)
	expectLines(t, got, want...)

	fast := atSource(0)
	fast.Pace, fast.Now = Fast, func() int64 { return clock(30, 0, 0) }
	got, _ = replayLines(t, fast, onlyTombstones()...)
	expectLines(t, got, pendingMinute("processing-time", 30, "0.30000000000000004", 3),
		pendingMinute("event-time", 0, "0.1", 1), pendingMinute("event-time", 1, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1))
}

// acmeOnly is acme on partition 0 every minute, nothing on any other partition.
func acmeOnly() []line {
	return []line{
		startedAt("r-1", clock(0, 10, 0)), completedAt("r-1", clock(0, 11, 0)),
		startedAt("r-2", clock(1, 10, 0)), completedAt("r-2", clock(1, 11, 0)),
		startedAt("r-3", clock(2, 10, 0)), completedAt("r-3", clock(2, 11, 0)),
	}
}

// TestATopicsEmptyPartitionsHoldTheWatermarkBack: told that the topic has 3 partitions
// (`replay --partitions 3`), a replay of a recording holding partition 0 only has 3
// splits, and the two that never bring a record hold the source's watermark at
// Long.MIN_VALUE, as on a topic whose partitions nobody writes to: every event-time window
// waits. Told nothing, it knows partition 0 only.
func TestATopicsEmptyPartitionsHoldTheWatermarkBack(t *testing.T) {
	processing := []string{minute("processing-time", 0, "0.1", 1), minute("processing-time", 1, "0.1", 1), minute("processing-time", 2, "0.1", 1)}
	three := atSource(0)
	three.Partitions = 3
	got, _ := replayLines(t, three, acmeOnly()...)
	expectLines(t, got, append(processing,
		pendingMinute("event-time", 0, "0.1", 1), pendingMinute("event-time", 1, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1))...)
	got, _ = replayLines(t, atSource(0), acmeOnly()...)
	expectLines(t, got,
		minute("processing-time", 0, "0.1", 1), minute("event-time", 0, "0.1", 1),
		minute("processing-time", 1, "0.1", 1), minute("event-time", 1, "0.1", 1),
		minute("processing-time", 2, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1))
}

// TestTheRecordingsTopicLineGivesItsPartitions: a recording made by labtui starts with its
// topic's partition count, and a replay of it has a split for each of them.
func TestTheRecordingsTopicLineGivesItsPartitions(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"topic":"gateway-events","partitions":2}` + "\n")
	for i, l := range acmeOnly() {
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`+"\n", l.partition, i, l.arrival, l.arrival, l.value)
	}
	var got []string
	bad := 0
	sum, err := Run(context.Background(), recording.NewReader(strings.NewReader(b.String()), nil), atSource(0),
		func(r jobspec.Result) { got = append(got, string(r.AppendJSON(nil))) }, func(int, error) { bad++ })
	if err != nil || bad != 0 || sum.Entries != 6 || sum.BadLines != 0 {
		t.Fatalf("err %v, %d bad, summary %+v", err, bad, sum)
	}
	expectLines(t, got,
		minute("processing-time", 0, "0.1", 1), minute("processing-time", 1, "0.1", 1), minute("processing-time", 2, "0.1", 1),
		pendingMinute("event-time", 0, "0.1", 1), pendingMinute("event-time", 1, "0.1", 1), pendingMinute("event-time", 2, "0.1", 1))
}

// TestARecordBeyondTheTopicsPartitionsRefusesTheReplay: a record or a tombstone of a
// partition the topic does not have is one sentence, with its line and where the count
// came from, before any result (but at fast pace after the parse, where results are
// written as they come).
func TestARecordBeyondTheTopicsPartitionsRefusesTheReplay(t *testing.T) {
	lines := append(acmeOnly(), onPartition(2, startedAt("g-1", clock(2, 30, 0))))
	fastSource := atSource(0)
	fastSource.Pace, fastSource.Now = Fast, func() int64 { return clock(30, 0, 0) }
	for _, cfg := range []Config{atSource(0), {Pace: Recorded}, fastSource} {
		cfg.Partitions = 2
		for _, last := range []line{lines[len(lines)-1], tombstoneOn(2, clock(2, 30, 0))} {
			var b strings.Builder
			for i, l := range append(lines[:len(lines)-1:len(lines)-1], last) {
				fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`+"\n", l.partition, i, l.arrival, l.arrival, l.value)
			}
			results := 0
			_, err := Run(context.Background(), recording.NewReader(strings.NewReader(b.String()), nil), cfg,
				func(jobspec.Result) { results++ }, func(int, error) {})
			want := "line 7 names partition 2, but the topic has 2 partitions, 0 to 1, as --partitions says"
			if err == nil || err.Error() != want || results != 0 {
				t.Fatalf("%+v: err %v after %d results; want %q before any", cfg, err, results, want)
			}
		}
	}
	var b strings.Builder
	b.WriteString(`{"partitions":1}` + "\n")
	for i, l := range lines {
		fmt.Fprintf(&b, `{"partition":%d,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":%s}`+"\n", l.partition, i, l.arrival, l.arrival, l.value)
	}
	_, err := Run(context.Background(), recording.NewReader(strings.NewReader(b.String()), nil), Config{Pace: Recorded},
		func(jobspec.Result) {}, func(int, error) {})
	if want := "line 8 names partition 2, but the topic has 1 partition, partition 0, as the recording's topic line says"; err == nil || err.Error() != want {
		t.Fatalf("err %v, want %q", err, want)
	}
}
