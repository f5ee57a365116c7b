package generator

import "sync/atomic"

// InstanceStats counts what one gateway instance has done so far.
type InstanceStats struct {
	// Name is the instance's name, gw-<index>.
	Name string
	// Requests is how many requests the instance has started.
	Requests int64
	// Produced is how many events it has handed to its producer.
	Produced int64
	// Acked is how many of those the broker has acknowledged.
	Acked int64
	// Failed is how many of those the producer gave up on.
	Failed int64
	// InFlight is Produced - Acked - Failed: events produced but not yet acknowledged.
	// During a broker hiccup these are the events the instance's retry buffer holds.
	InFlight int64
	// Stalled is how many requests the instance did not make because their partition was
	// stalled (StallPartition): they are not in Requests.
	Stalled int64
	// LastError is the most recent produce error, nil if there was none.
	LastError error
}

// counters are one instance's live counts, updated by the release loop and by the
// producer's promise goroutine.
type counters struct {
	requests atomic.Int64
	produced atomic.Int64
	acked    atomic.Int64
	failed   atomic.Int64
	stalled  atomic.Int64
	lastErr  atomic.Pointer[error]
}

// settle counts the outcome of one produced event.
func (c *counters) settle(err error) {
	if err != nil {
		c.lastErr.Store(&err)
		c.failed.Add(1)
		return
	}
	c.acked.Add(1)
}

// inFlight reads the settled counts before the produced one, so it is never negative.
func (c *counters) inFlight() int64 {
	settled := c.acked.Load() + c.failed.Load()
	return c.produced.Load() - settled
}

func (c *counters) snapshot(name string) InstanceStats {
	s := InstanceStats{Name: name}
	s.Acked = c.acked.Load()
	s.Failed = c.failed.Load()
	s.Produced = c.produced.Load()
	s.Requests = c.requests.Load()
	s.Stalled = c.stalled.Load()
	s.InFlight = s.Produced - s.Acked - s.Failed
	if err := c.lastErr.Load(); err != nil {
		s.LastError = *err
	}
	return s
}

// Total adds up the counts of several instances; its Name is "all" and its LastError
// the first instance's that is set.
func Total(stats []InstanceStats) InstanceStats {
	t := InstanceStats{Name: "all"}
	for _, s := range stats {
		t.Requests += s.Requests
		t.Produced += s.Produced
		t.Acked += s.Acked
		t.Failed += s.Failed
		t.InFlight += s.InFlight
		t.Stalled += s.Stalled
		if t.LastError == nil {
			t.LastError = s.LastError
		}
	}
	return t
}
