package generator

import (
	"fmt"
	"sync/atomic"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Stall is a partition the fleet has stopped writing to, as when the gateway whose keys
// all hash there goes quiet: no request whose request_id the producers' partitioner (the
// Java client's murmur2, as every instance uses) sends to Partition is made while it
// lasts. Requests already started finish, so no half is ever left alone. It is module 5's
// stalled source: with watermarks at the source the partition holds the minimum back.
type Stall struct {
	// Partition is the partition no request goes to.
	Partition int32
	// Of is how many partitions the topic has.
	Of int32
}

// Validate reports a stall that names no partition of the topic.
func (s Stall) Validate() error {
	if s.Of < 1 || s.Partition < 0 || s.Partition >= s.Of {
		return fmt.Errorf("a stalled partition must be one of the topic's %d partitions (0 to %d), not %d", s.Of, s.Of-1, s.Partition)
	}
	return nil
}

// stallState is the fleet's current stall, read by every release loop.
type stallState struct {
	cur atomic.Pointer[Stall]
}

// skips reports whether a request with this id is not to be made now.
func (st *stallState) skips(requestID string, key []byte) bool {
	s := st.cur.Load()
	if s == nil {
		return false
	}
	return partitionOf(key, s.Of) == s.Partition
}

// partitionOf is the partition a record keyed key goes to among n: the producers' own
// partitioner, so the stall and the topic agree.
func partitionOf(key []byte, n int32) int32 {
	p := kgo.StickyKeyPartitioner(nil).ForTopic("")
	return int32(p.Partition(&kgo.Record{Key: key}, int(n)))
}

// StallPartition stops the fleet writing to s.Partition until ResumePartition: from now
// on no request that would go there is made (the ones under way finish). A stall
// replaces the one before it.
func (g *Generator) StallPartition(s Stall) error {
	if err := s.Validate(); err != nil {
		return err
	}
	g.stall.cur.Store(&s)
	return nil
}

// ResumePartition ends the stall, if there is one, and reports the partition it was.
func (g *Generator) ResumePartition() (int32, bool) {
	s := g.stall.cur.Swap(nil)
	if s == nil {
		return 0, false
	}
	return s.Partition, true
}

// Stalled returns the current stall, and false when there is none.
func (g *Generator) Stalled() (Stall, bool) {
	if s := g.stall.cur.Load(); s != nil {
		return *s, true
	}
	return Stall{}, false
}
