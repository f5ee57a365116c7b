package engine

import (
	"fmt"
	"testing"
)

// TestRuntimeFiresTimersStrictlyBeforeTheRecordInTimeThenRegistrationOrder is
// ProcessingTimeService's contract as the engine keeps it: a timer for t runs before a
// record at p exactly when t < p, with the clock reading t+1; ties run in the order they
// were registered; a timer registered by a timer (even one due earlier) runs in the same
// advance.
func TestRuntimeFiresTimersStrictlyBeforeTheRecordInTimeThenRegistrationOrder(t *testing.T) {
	rt := NewRuntime(0)
	var got []string
	note := func(name string) func(int64) {
		return func(at int64) { got = append(got, fmt.Sprintf("%s@%d now=%d", name, at, rt.Now())) }
	}
	rt.RegisterTimer(200, note("c"))
	rt.RegisterTimer(100, note("a"))
	rt.RegisterTimer(100, note("b"))
	rt.RegisterTimer(150, func(at int64) {
		note("d")(at)
		rt.RegisterTimer(120, note("e (registered late, due earlier)"))
	})
	rt.AdvanceTo(100)
	expect(t, "nothing is due strictly before 100", got)
	rt.AdvanceTo(200)
	expect(t, "due before 200, in order", got,
		"a@100 now=101", "b@100 now=101", "d@150 now=151", "e (registered late, due earlier)@120 now=151")
	got = nil
	if at, ok := rt.NextTimer(); !ok || at != 200 || rt.PendingTimers() != 1 {
		t.Fatalf("next timer %d %v, %d pending", at, ok, rt.PendingTimers())
	}
	rt.AdvanceTo(50) // the clock never goes back
	if rt.Now() != 200 {
		t.Fatalf("clock %d after moving back", rt.Now())
	}
	rt.AdvanceTo(201)
	expect(t, "the last one", got, "c@200 now=201")
}

func TestRunUntilIdleFiresEveryTimerAndStopsPastTheLast(t *testing.T) {
	rt := NewRuntime(1_000)
	var got []string
	note := func(name string) func(int64) {
		return func(at int64) { got = append(got, fmt.Sprintf("%s@%d now=%d", name, at, rt.Now())) }
	}
	rt.RegisterTimer(900, note("overdue"))
	rt.RegisterTimer(5_000, func(at int64) {
		note("b")(at)
		rt.RegisterTimer(9_000, note("c (registered by b)"))
	})
	rt.RegisterTimer(2_000, note("a"))
	rt.RunUntilIdle()
	expect(t, "every timer, in order", got,
		"overdue@900 now=1000", "a@2000 now=2001", "b@5000 now=5001", "c (registered by b)@9000 now=9001")
	if rt.Now() != 9_001 {
		t.Fatalf("clock %d, want 9001", rt.Now())
	}
	rt.RunUntilIdle()
	if rt.Now() != 9_001 {
		t.Fatalf("an idle runtime moved its clock to %d", rt.Now())
	}
}
