package enginejob

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
)

// TestAnEventStampedAtTheEndOfTheLongRangeIsRefusedAndNothingElseIsLost: its event-time
// window would overflow a long, so the job refuses it as malformed, saying what is
// accepted; its request's first half stays pending, and the events around it go on.
func TestAnEventStampedAtTheEndOfTheLongRangeIsRefusedAndNothingElseIsLost(t *testing.T) {
	h := newJob(t, jobspec.Options{})
	value := func(ev gateway.Event) []byte { return ev.AppendJSON(nil) }
	for _, ev := range []gateway.Event{started("r-end", "acme", at(0, 1)), started("r-ok", "acme", at(0, 2))} {
		if err := h.job.ProcessValue(0, value(ev), ev.TS); err != nil {
			t.Fatal(err)
		}
	}
	for _, ts := range []int64{math.MaxInt64, math.MinInt64 + 1} {
		err := h.job.ProcessValue(0, value(completed("r-end", "acme", ts)), at(0, 3))
		if !errors.Is(err, gateway.ErrMalformed) || !strings.Contains(err.Error(), "ts is accepted from -9223372036854720000 to 9223372036854719999") {
			t.Fatalf("ts %d: err %v, want a malformed event saying what is accepted", ts, err)
		}
	}
	if err := h.job.ProcessValue(0, value(completed("r-ok", "acme", at(0, 4))), at(0, 4)); err != nil {
		t.Fatal(err)
	}
	if n := h.job.PendingRequests(); n != 1 {
		t.Errorf("%d requests pending, want r-end's first half", n)
	}
	h.job.Drain()
	st := h.job.Stats()
	if st.Malformed != 2 || st.Events != 3 || st.Records != 1 || st.Forgotten != 1 || st.EventUSD != st.RecordsUSD {
		t.Errorf("stats %+v: want 2 refused, r-ok assembled and fired, r-end's first half forgotten at the drain", st)
	}
}
