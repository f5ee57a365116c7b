package replay

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/labtui/labtui/meter"
	"github.com/labtui/labtui/recording"
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

func atSource(idleness int64) Config {
	return Config{Pace: Recorded, Job: meter.Options{Watermarks: meter.Watermarks{At: meter.SourceWatermarks, Idleness: idleness}}}
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
	got, _ := replayLines(t, atSource(30_000), stalled()...)
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
		func(meter.Result) { results++ }, func(int, error) {})
	if err == nil || !strings.Contains(err.Error(), "partition 2147483647") || results != 0 {
		t.Fatalf("err %v after %d results; want the partition named, before any result", err, results)
	}
	got, _ := replayLines(t, Config{Pace: Recorded}, high...)
	expectLines(t, got, minute("processing-time", 0, "0.1", 1), pendingMinute("event-time", 0, "0.1", 1))
}
