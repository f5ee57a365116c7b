// Package recorder makes recordings of gateway-events: from the generator on a simulated
// clock, without waiting (Simulate), or from a live topic as the job reads it.
package recorder

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/labtui/labtui/gateway"
	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/recording"
)

// SimConfig describes a simulated recording.
type SimConfig struct {
	Generator generator.Config
	// Start is when the recording's first event may happen; Duration how much event
	// time it covers. Events at or after Start+Duration are left out.
	Start    time.Time
	Duration time.Duration
	// Hiccups hold an instance's events from At to At+For after Start; they reach the
	// broker when it ends, in their original order, one millisecond apart.
	Hiccups []inject.Hiccup
	// Partitions of the topic, default 3; records go where Kafka's default partitioner
	// puts their key.
	Partitions int
	// Delay from an event's release to its arrival at the job's source, default 5 ms.
	Delay time.Duration
}

// SimStats counts what a simulation wrote.
type SimStats struct {
	Events, Requests, Held int64
}

// Simulate writes the recording the generator would have made over cfg.Duration, with
// the configured hiccups, through write, in topic order. The same configuration always
// writes the same entries.
func Simulate(cfg SimConfig, write func(recording.Entry) error) (SimStats, error) {
	if cfg.Partitions <= 0 {
		cfg.Partitions = 3
	}
	if cfg.Delay <= 0 {
		cfg.Delay = 5 * time.Millisecond
	}
	if cfg.Duration <= 0 {
		return SimStats{}, fmt.Errorf("a simulated recording needs a positive duration")
	}
	start := cfg.Start.UnixMilli()
	end := start + cfg.Duration.Milliseconds()
	sched, err := generator.NewSchedule(cfg.Generator, start)
	if err != nil {
		return SimStats{}, err
	}
	for _, h := range cfg.Hiccups {
		if h.Instance < 0 || h.Instance >= cfg.Generator.Instances {
			return SimStats{}, fmt.Errorf("hiccup %s names an instance the fleet does not have", h)
		}
	}
	type pending struct {
		e   recording.Entry
		seq int
	}
	var all []pending
	var st SimStats
	heldCount := map[int]int64{}
	for seq := 0; ; seq++ {
		ev, inst := sched.Next()
		if ev.TS >= end {
			break
		}
		release := ev.TS
		for _, h := range cfg.Hiccups {
			from := h.StartsAt(time.UnixMilli(start)).UnixMilli()
			to := from + h.For.Milliseconds()
			if h.Instance == inst && ev.TS >= from && ev.TS < to {
				heldCount[inst]++
				release = to + heldCount[inst] - 1
				st.Held++
			}
		}
		key := []byte(ev.RequestID)
		all = append(all, pending{seq: seq, e: recording.Entry{
			Partition: Partition(key, cfg.Partitions), Timestamp: ev.TS,
			Arrival: release + cfg.Delay.Milliseconds(), Key: key, Value: ev.AppendJSON(nil),
		}})
		st.Events++
		if ev.Type == gateway.RequestStarted {
			st.Requests++
		}
	}
	slices.SortStableFunc(all, func(a, b pending) int {
		return cmp.Or(cmp.Compare(a.e.Arrival, b.e.Arrival), cmp.Compare(a.seq, b.seq))
	})
	offsets := make([]int64, cfg.Partitions)
	for _, p := range all {
		p.e.Offset = offsets[p.e.Partition]
		offsets[p.e.Partition]++
		if err := write(p.e); err != nil {
			return st, err
		}
	}
	return st, nil
}
