package jobspec

import (
	"math/rand/v2"
	"testing"
)

// TestReadsFindsTheLargestLeadAsARecomputationDoes feeds Reads uneven reads of three
// partitions and checks its largest lead and its late split against a recomputation
// from every prefix of the reads.
func TestReadsFindsTheLargestLeadAsARecomputationDoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type read struct {
		p    int32
		ts   int64
		late int64 // a late record's window end judged after this read, 0 for none
	}
	for round := range 50 {
		var reads []read
		clock := [3]int64{36e5, 36e5, 36e5}
		for range 400 {
			p := int32(rng.IntN(3))
			if round%2 == 0 && p == 2 && rng.IntN(3) > 0 {
				p = 1 // partition 2 starved for a while: 1 runs ahead
			}
			clock[p] += int64(rng.IntN(900))
			ts := clock[p] - int64(rng.IntN(3000)) // a little out of order within its partition
			r := read{p: p, ts: ts}
			if rng.IntN(10) == 0 {
				r.late = ts - ts%60000 + 60000
			}
			reads = append(reads, r)
		}
		bound := int64(round%3) * 1000
		got := Reads{Bound: bound}
		var want Lead
		var ahead int64
		maxTS := map[int32]int64{}
		for i, r := range reads {
			got.Read(r.p, r.ts)
			if old, ok := maxTS[r.p]; !ok || r.ts > old {
				maxTS[r.p] = r.ts
			}
			var top int64
			var topP int32 = -1
			for q := int32(0); q < 3; q++ {
				if m, ok := maxTS[q]; ok && (topP < 0 || m > top) {
					top, topP = m, q
				}
			}
			if by := top - maxTS[r.p]; by > want.By {
				want = Lead{Ahead: topP, Behind: r.p, By: by, Read: int64(i + 1)}
			}
			if r.late != 0 {
				got.LateRecord(r.p, r.late)
				if r.late-1 > maxTS[r.p]-bound-1 {
					ahead++
				}
			}
		}
		if got.Max != want {
			t.Errorf("round %d: largest lead %+v, recomputed %+v", round, got.Max, want)
		}
		if got.AheadLate != ahead {
			t.Errorf("round %d: %d late only because of a lead, recomputed %d", round, got.AheadLate, ahead)
		}
		c := got.Copy()
		for q, pr := range c.Partitions {
			if pr.MaxTS != maxTS[int32(q)] || pr.Partition != int32(q) {
				t.Errorf("round %d: partition %d read %+v, recomputed max %d", round, q, pr, maxTS[int32(q)])
			}
		}
	}
}

func TestReadsOfEvenPartitionsShowNoLead(t *testing.T) {
	var r Reads
	for i := range int64(30) {
		r.Read(int32(i%3), 1000*i)
	}
	// Read in timestamp order, each event read is the newest of all: no partition leads.
	if r.Max != (Lead{}) || r.Events() != 30 {
		t.Errorf("even reads: %+v, %d events", r.Max, r.Events())
	}
}

// BenchmarkReadsRead is what the job's loop adds for each event it reads.
func BenchmarkReadsRead(b *testing.B) {
	var r Reads
	ts := int64(36e5)
	i := 0
	for b.Loop() {
		i++
		ts += int64(i % 7)
		r.Read(int32(i%3), ts-int64(i%5)*100)
	}
}
