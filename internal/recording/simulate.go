package recording

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/gateway"
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
	// (kgo.StickyKeyPartitioner(nil), murmur2 as the Java client does it) puts their key.
	Partitions int
	// Delay from an event's release to its arrival at the job's source, default 5 ms.
	Delay time.Duration
}

// SimStats counts what a simulation wrote: events, the requests they start, and those of
// them a hiccup held.
type SimStats struct {
	Events, Requests, Held int64
	// Until is the arrival of the last record written, in milliseconds since the epoch.
	Until int64
}

// simCheckEvents is how often, in events, Simulate looks at its context.
const simCheckEvents = 4096

// Simulate writes the recording the generator would have made over cfg.Duration, with
// the configured hiccups, through write, in topic order (arrival, then the order the
// fleet made them). The same configuration always writes the same entries; an entry's
// bytes are valid only during its write. It writes as it goes, in memory bounded by the
// events a hiccup holds (the simulated clock orders the rest already), and stops with
// ctx's error when ctx is done, having written whole entries only.
func Simulate(ctx context.Context, cfg SimConfig, write func(Entry) error) (SimStats, error) {
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
	type hold struct {
		instance int
		from, to int64
	}
	var holds []hold
	var q simQueue
	defer q.close()
	for _, h := range cfg.Hiccups {
		if h.Instance < 0 || h.Instance >= cfg.Generator.Instances {
			return SimStats{}, fmt.Errorf("hiccup %s names an instance the fleet does not have", h)
		}
		from := h.StartsAt(time.UnixMilli(start)).UnixMilli()
		holds = append(holds, hold{h.Instance, from, from + h.For.Milliseconds()})
		q.held = append(q.held, &heldQueue{})
	}
	delay := cfg.Delay.Milliseconds()
	part := kgo.StickyKeyPartitioner(nil).ForTopic("")
	var keyed kgo.Record
	var st SimStats
	heldCount := make([]int64, cfg.Generator.Instances)
	offsets := make([]int64, cfg.Partitions)
	// flush writes every queued entry that arrives at or before until: no event still to
	// come can arrive before it, as each arrives at its ts + delay or, held, later.
	flush := func(until int64) error {
		for len(q.items) > 0 && q.items[0].e.Arrival <= until {
			p := heap.Pop(&q).(*simPending)
			if p.hold >= 0 {
				if err := q.nextHeld(p.hold); err != nil {
					return err
				}
			}
			p.e.Offset = offsets[p.e.Partition]
			offsets[p.e.Partition]++
			st.Until = p.e.Arrival
			st.Events++
			if p.started {
				st.Requests++
			}
			if p.held {
				st.Held++
			}
			err := write(p.e)
			q.free = append(q.free, p)
			if err != nil {
				return err
			}
		}
		return nil
	}
	for seq := int64(0); ; seq++ {
		if seq%simCheckEvents == 0 && ctx.Err() != nil {
			return st, ctx.Err()
		}
		ev, inst := sched.Next()
		if ev.TS >= end {
			break
		}
		if err := flush(ev.TS + delay); err != nil {
			return st, err
		}
		release, hold := ev.TS, -1
		for i, h := range holds {
			if h.instance == inst && ev.TS >= h.from && ev.TS < h.to {
				heldCount[inst]++
				release, hold = h.to+heldCount[inst]-1, i
			}
		}
		p := q.get()
		p.started, p.held, p.hold = ev.Type == gateway.RequestStarted, hold >= 0, hold
		p.buf = ev.AppendJSON(append(p.buf[:0], ev.RequestID...))
		k := len(ev.RequestID)
		keyed.Key = p.buf[:k:k]
		p.seq = seq
		p.e = Entry{Partition: int32(part.Partition(&keyed, cfg.Partitions)), Timestamp: ev.TS,
			Arrival: release + delay, Key: p.buf[:k:k], Value: p.buf[k:]}
		if err := q.push(p); err != nil {
			return st, err
		}
	}
	return st, flush(maxTime)
}

// simPending is an entry waiting in a simQueue; buf holds its key, then its value.
type simPending struct {
	e             Entry
	seq           int64
	buf           []byte
	started, held bool
	// hold is the index of the hiccup that holds the entry, -1 for none.
	hold int
}

// simQueue orders the entries Simulate has made and not yet written by (arrival, seq),
// and keeps the written ones for reuse. A hiccup's held entries wait in its own
// heldQueue, in the order they arrive, with only the first of them in the heap: what
// the heap holds is bounded by the delay and the number of hiccups.
type simQueue struct {
	items []*simPending
	free  []*simPending
	held  []*heldQueue
}

// push queues an entry Simulate has made.
func (q *simQueue) push(p *simPending) error {
	if p.hold < 0 {
		heap.Push(q, p)
		return nil
	}
	h := q.held[p.hold]
	if !h.inHeap {
		h.inHeap = true
		heap.Push(q, p)
		return nil
	}
	return h.add(p, q)
}

// nextHeld moves the next entry of hiccup i into the heap, after its first was taken.
func (q *simQueue) nextHeld(i int) error {
	h := q.held[i]
	p, err := h.take(q)
	if err != nil || p == nil {
		h.inHeap = false
		return err
	}
	p.hold = i
	heap.Push(q, p)
	return nil
}

func (q *simQueue) close() {
	for _, h := range q.held {
		h.close()
	}
}

func (q *simQueue) get() *simPending {
	if n := len(q.free); n > 0 {
		p := q.free[n-1]
		q.free = q.free[:n-1]
		return p
	}
	return new(simPending)
}

func (q *simQueue) Len() int { return len(q.items) }
func (q *simQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	return cmp.Or(cmp.Compare(a.e.Arrival, b.e.Arrival), cmp.Compare(a.seq, b.seq)) < 0
}
func (q *simQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *simQueue) Push(x any)    { q.items = append(q.items, x.(*simPending)) }
func (q *simQueue) Pop() any {
	p := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return p
}
