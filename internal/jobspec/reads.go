package jobspec

// PartitionRead is how far a job has read one partition of its topic.
type PartitionRead struct {
	Partition int32
	// Records counts the well-formed events read from it.
	Records int64
	// MaxTS is the largest event timestamp read from it, ms since the epoch.
	MaxTS int64
}

// Lead is how far one partition's events ran ahead of another's at one moment of a job's
// reading: Ahead's largest event timestamp minus Behind's, as the job read an event of
// Behind.
type Lead struct {
	Ahead, Behind int32
	// By is the lead in ms.
	By int64
	// Read is how many events the job had read then, in all.
	Read int64
}

// Reads follows how evenly a job reads the partitions of its topic, and which of its
// late records were late only because another partition ran ahead. Watermarks generated
// after the source follow the largest timestamp of any partition, so a job that reads one
// partition ahead of the others (a replay read as fast as the broker serves it) drops
// records of the slower partitions that their own partition's events would not have made
// late; watermarks per partition at the source take the minimum and drop none of them.
// Its zero value is ready; it is not safe for concurrent use.
type Reads struct {
	// Partitions are the partitions read so far, by partition number.
	Partitions []PartitionRead
	// Max is the largest lead seen, with the partitions it was between.
	Max Lead
	// Late counts the late records judged; AheadLate those of them whose window was
	// still open by their own partition's events (under the same strategy, on that
	// partition's timestamps alone): late only because another partition ran ahead.
	Late, AheadLate int64
	// Bound is the strategy's out-of-orderness, ms: a partition's own watermark is its
	// largest timestamp minus Bound, minus 1.
	Bound int64

	read    int64
	top     int64 // the largest timestamp of any partition
	topPart int32
}

// Read takes in one well-formed event of partition p with event timestamp ts, as the
// job reads it, before the job processes it.
func (r *Reads) Read(p int32, ts int64) {
	if p < 0 {
		return
	}
	for int(p) >= len(r.Partitions) {
		r.Partitions = append(r.Partitions, PartitionRead{Partition: int32(len(r.Partitions))})
	}
	r.read++
	pr := &r.Partitions[p]
	pr.Records++
	if pr.Records == 1 || ts > pr.MaxTS {
		pr.MaxTS = ts
	}
	if r.read == 1 || pr.MaxTS > r.top {
		r.top, r.topPart = pr.MaxTS, p
	}
	if by := r.top - pr.MaxTS; by > r.Max.By {
		r.Max = Lead{Ahead: r.topPart, Behind: p, By: by, Read: r.read}
	}
}

// LateRecord takes in a record of partition p the event-time window dropped as late,
// whose window ends at windowEnd, judged after the event Read last took in.
func (r *Reads) LateRecord(p int32, windowEnd int64) {
	r.Late++
	if p < 0 || int(p) >= len(r.Partitions) || r.Partitions[p].Records == 0 {
		return
	}
	// By its own partition's watermark, maxTS-Bound-1, the window [.., windowEnd) was
	// still open while windowEnd-1 > that watermark.
	if windowEnd > r.Partitions[p].MaxTS-r.Bound {
		r.AheadLate++
	}
}

// Copy returns r with a copy of its partitions, to hand to another goroutine.
func (r *Reads) Copy() Reads {
	c := *r
	c.Partitions = append([]PartitionRead(nil), r.Partitions...)
	return c
}

// Events counts the events taken in so far.
func (r Reads) Events() int64 { return r.read }
