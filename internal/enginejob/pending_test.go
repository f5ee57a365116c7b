package enginejob

import (
	"fmt"
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
)

// TestHalvesBeyondTheBoundAreDroppedAndCounted: request ids that never complete, all in
// one minute of event time, fill the assembler only up to MaxPendingHalves; each half
// beyond it is counted, and a request whose first half was kept still completes.
func TestHalvesBeyondTheBoundAreDroppedAndCounted(t *testing.T) {
	h := newJob(t, jobspec.Options{})
	const extra = 250
	for i := range jobspec.MaxPendingHalves + extra {
		h.feed(at(0, 1), started(fmt.Sprintf("never-%d", i), "acme", at(0, 1)))
	}
	st := h.job.Stats()
	if got := h.job.PendingRequests(); got != jobspec.MaxPendingHalves {
		t.Errorf("pending halves = %d, want the bound %d", got, jobspec.MaxPendingHalves)
	}
	if st.Overflowed != extra {
		t.Errorf("Overflowed = %d, want %d", st.Overflowed, extra)
	}
	// A half that was kept still meets its other half.
	h.feed(at(0, 2), completed("never-7", "acme", at(0, 2)))
	if st := h.job.Stats(); st.Records != 1 {
		t.Errorf("records = %d, want 1: a kept half no longer completes", st.Records)
	}
	// Room made by the completion is taken by the next first half.
	h.feed(at(0, 3), started("new", "acme", at(0, 3)))
	if st := h.job.Stats(); st.Overflowed != extra || h.job.PendingRequests() != jobspec.MaxPendingHalves {
		t.Errorf("after a completion: Overflowed %d, pending %d", st.Overflowed, h.job.PendingRequests())
	}
}
