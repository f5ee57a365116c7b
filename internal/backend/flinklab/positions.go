package flinklab

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

// A PyFlink job cannot say which partition a record came from (its Kafka source hands
// the Python code only the value), so how the real job reads its topic is put together
// from two exact sources:
//
//   - where its Kafka source stands in each partition, from Flink's REST API: the
//     connector's currentOffset gauge of each split (localcluster.REST.SourceOffsets), on
//     any Flink deployment labtui can submit to. Consumer-group offsets would not do:
//     the KafkaSource commits them only on a checkpoint, and the lab's job takes none.
//     Flink serves the gauges as its MetricFetcher last fetched them
//     (metrics.fetcher.update-interval: labtui's own clusters set 500 ms, Flink's default
//     is 10 s), so a position is at most that old;
//   - what is at each offset: labtui reads the same topic from the job's starting
//     offsets with a consumer of its own (an index), and keeps for each partition, offset
//     by offset, how many well-formed events and the largest event timestamp up to it,
//     and for each request the partition and offset of its later half.
//
// Together they give jobspec.Reads as the embedded job reports it: per partition the
// well-formed events read and their largest timestamp; the largest lead of one partition
// over another, taken at each position report once the index has read that far (so the
// peak between two reports is not seen); and for each late record, whether its window
// was still open by its own partition's events up to its later half (a lead alone made
// it late).

// positions is how far the running job has read its topic, and what it read there.
type positions struct {
	mu    sync.Mutex
	topic string
	bound int64
	start map[int32]int64 // the first offset the job reads, per partition
	next  map[int32]int64 // the next offset its source hands on, per partition
	// leadAt is the last reported next offsets whose lead (reads.Max) is not taken yet:
	// the index had not read up to them. nil when there is none.
	leadAt   map[int32]int64
	reported bool // the REST API has reported the source
	index    *topicIndex
	reads    jobspec.Reads
	cancel   context.CancelFunc
	done     chan struct{}
}

// newPositions begins the positions of a job reading topic from start (per partition),
// with the strategy's out-of-orderness bound, and starts the index of the topic on
// brokers; stop ends it.
func newPositions(brokers []string, topic string, start map[int32]int64, bound int64) *positions {
	p := &positions{topic: topic, bound: bound, start: start, next: map[int32]int64{}, done: make(chan struct{})}
	p.reads.Bound = bound
	for part, off := range start {
		p.next[part] = off
	}
	p.index = newTopicIndex(start)
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go func() {
		defer close(p.done)
		p.index.follow(ctx, brokers, topic)
	}()
	return p
}

// stop ends the index's consumer and waits for it.
func (p *positions) stop() {
	if p == nil {
		return
	}
	p.cancel()
	<-p.done
}

// startOffsets are the offsets a job reading topic from startAt ("earliest" or
// "latest") begins at, per partition, as the broker lists them now.
func startOffsets(ctx context.Context, brokers []string, topic, startAt string) (map[int32]int64, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	list := adm.ListStartOffsets
	if startAt == "latest" {
		list = adm.ListEndOffsets
	}
	listed, err := list(ctx, topic)
	if err == nil {
		err = listed.Error()
	}
	if err != nil {
		return nil, err
	}
	out := map[int32]int64{}
	listed.Each(func(o kadm.ListedOffset) { out[o.Partition] = o.Offset })
	return out, nil
}

// report takes in what the REST API said of the source: the last offset it handed on,
// per partition of the job's topic (-1 before the first). Positions only move forward.
func (p *positions) report(offsets map[int32]int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lead() // the report before, if the index has read up to it since
	p.reported = true
	for part, last := range offsets {
		if next := last + 1; next > p.next[part] {
			p.next[part] = next
		}
	}
	p.leadAt = maps.Clone(p.next)
	p.lead()
}

// lead takes the largest lead of one partition over another at the reported positions
// waiting for it (leadAt), once the index has read up to them: before, a partition the
// index trails in would seem to stand where the index does, its largest timestamp too
// small, and the lead too large (or one where there is none). A later report replaces
// positions still waiting, as the peak between two reports is not seen either. p.mu is
// held.
func (p *positions) lead() {
	if p.leadAt == nil {
		return
	}
	parts, indexed := p.index.partitions(p.leadAt)
	var want int64
	for part, next := range p.leadAt {
		want += max(next-p.start[part], 0)
	}
	if indexed < want {
		return
	}
	p.leadAt = nil
	var top jobspec.PartitionRead
	var read int64
	for _, pr := range parts {
		read += pr.Records
		if pr.Records > 0 && (top.Records == 0 || pr.MaxTS > top.MaxTS) {
			top = pr
		}
	}
	for _, pr := range parts {
		if pr.Records > 0 && top.MaxTS-pr.MaxTS > p.reads.Max.By {
			p.reads.Max = jobspec.Lead{Ahead: top.Partition, Behind: pr.Partition, By: top.MaxTS - pr.MaxTS, Read: read}
		}
	}
}

// late takes in a record the event-time window dropped as late, with its event
// timestamp ts: a lead alone made it late when, by its own partition's events up to its
// later half, its window was still open (see jobspec.Reads.LateRecord). The job's late line
// carries no window end: the window is the epoch-aligned minute of ts, as the job's.
func (p *positions) late(requestID string, ts int64) {
	if p == nil {
		return
	}
	windowEnd := minuteEnd(ts)
	maxTS, ok := p.index.ownMaxTS(requestID)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reads.Late++
	if ok && windowEnd > maxTS-p.bound {
		p.reads.AheadLate++
	}
}

// status is what the job has read, as far as labtui's index has read the topic too: the
// records its source has handed on since it started, well-formed or not, and the Reads
// (nil before the REST API reported the source), its partitions as they stand now. The
// REST API can report a position before the index has read up to it (the index's
// consumer starts with the job and can trail it by a fetch or two, more on a loaded
// machine), and what lies beyond is not known yet: counted at the source alone, a
// replay completed with partitions that said the job had read less than the count, or
// nothing at all. Both come from one look at the index, so they agree.
func (p *positions) status() (int64, *jobspec.Reads) {
	if p == nil {
		return 0, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lead()
	parts, read := p.index.partitions(p.next)
	if !p.reported {
		return read, nil
	}
	r := p.reads.Copy()
	r.Partitions = parts
	return read, &r
}

// topicIndex is what is at each offset of a topic from a job's starting offsets: per
// partition, offset by offset, the well-formed events and the largest event timestamp up
// to it, and per request the partition and offset of its later half.
type topicIndex struct {
	mu     sync.Mutex
	start  map[int32]int64
	events map[int32][]int64 // well-formed events up to and including each offset
	maxTS  map[int32][]int64 // the largest event timestamp up to and including each offset
	halves map[string]half
}

// half is where a request's later half is.
type half struct {
	partition int32
	offset    int64
}

func newTopicIndex(start map[int32]int64) *topicIndex {
	return &topicIndex{start: start, events: map[int32][]int64{}, maxTS: map[int32][]int64{}, halves: map[string]half{}}
}

// follow reads topic from the starting offsets until ctx ends.
func (x *topicIndex) follow(ctx context.Context, brokers []string, topic string) {
	offsets := map[string]map[int32]kgo.Offset{topic: {}}
	for part, off := range x.start {
		offsets[topic][part] = kgo.NewOffset().At(off)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumePartitions(offsets),
		kgo.FetchMaxWait(100*time.Millisecond), kgo.ClientID("labtui-positions"))
	if err != nil {
		return
	}
	defer cl.Close()
	var parser gateway.Parser
	for ctx.Err() == nil {
		fs := cl.PollFetches(ctx)
		fs.EachRecord(func(r *kgo.Record) { x.add(&parser, r) })
	}
}

// add takes in the record at its offset; a gap (a compacted or transactional topic)
// repeats the offset before it.
func (x *topicIndex) add(parser *gateway.Parser, r *kgo.Record) {
	ev, err := parser.Parse(r.Value)
	x.mu.Lock()
	defer x.mu.Unlock()
	events, maxTS := x.events[r.Partition], x.maxTS[r.Partition]
	i := r.Offset - x.start[r.Partition]
	if i < int64(len(events)) || i < 0 {
		return
	}
	var n, top int64 = 0, 0
	if len(events) > 0 {
		n, top = events[len(events)-1], maxTS[len(maxTS)-1]
	}
	for int64(len(events)) < i { // offsets with no record
		events, maxTS = append(events, n), append(maxTS, top)
	}
	if err == nil {
		if n == 0 || ev.TS > top {
			top = ev.TS
		}
		n++
		x.halves[ev.RequestID] = half{partition: r.Partition, offset: r.Offset}
	}
	x.events[r.Partition], x.maxTS[r.Partition] = append(events, n), append(maxTS, top)
}

// partitions is how far a job whose source's next offsets are next has read each
// partition: the well-formed events and their largest timestamp, and the records read
// in all (well-formed or not), as far as the index has read (it usually runs ahead of
// the job).
func (x *topicIndex) partitions(next map[int32]int64) ([]jobspec.PartitionRead, int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []jobspec.PartitionRead
	var read int64
	for part, n := range next {
		for int(part) >= len(out) {
			out = append(out, jobspec.PartitionRead{Partition: int32(len(out))})
		}
		events, maxTS := x.events[part], x.maxTS[part]
		k := max(min(n-x.start[part], int64(len(events))), 0)
		read += k
		if k > 0 {
			out[part].Records, out[part].MaxTS = events[k-1], maxTS[k-1]
		}
	}
	return out, read
}

// ownMaxTS is the largest event timestamp of the partition of the request's later half,
// up to and including it; false when the index has not read the request.
func (x *topicIndex) ownMaxTS(requestID string) (int64, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	h, ok := x.halves[requestID]
	if !ok {
		return 0, false
	}
	i := h.offset - x.start[h.partition]
	return x.maxTS[h.partition][i], true
}
