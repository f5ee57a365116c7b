package gatewaymeter

import (
	"math"
	"testing"

	"github.com/labtui/labtui/meter"
)

func TestAWindowOverflowsWithinAWindowOfTheEndsOfTheLongRange(t *testing.T) {
	const size = 60_000
	for ts, want := range map[int64]bool{
		math.MaxInt64:          true,
		math.MaxInt64 - 55_807: true, // the last window's start: its end is past the range
		math.MaxInt64 - 55_808: false,
		math.MinInt64 + 1:      true,
		math.MinInt64 + 55_807: true, // below the lowest start the range holds
		math.MinInt64 + 55_808: false,
		t0:                     false,
		-1:                     false,
	} {
		if got := windowOverflows(ts, size); got != want {
			t.Errorf("windowOverflows(%d) = %v, want %v", ts, got, want)
		}
	}
}

// TestARequestStampedAtTheEndOfTheLongRangeIsCounted: its event-time window overflows,
// and it is neither fired, nor late, nor pending, as in Flink; the job counts it.
func TestARequestStampedAtTheEndOfTheLongRangeIsCounted(t *testing.T) {
	h := newJob(t, meter.Options{})
	h.feed(at(0, 1), started("r-end", "acme", at(0, 1)))
	h.feed(at(0, 2), completed("r-end", "acme", math.MaxInt64))
	st := h.job.Stats()
	if st.Records != 1 || st.OutOfRange != 1 || st.OutOfRangeUSD != st.RecordsUSD {
		t.Errorf("stats %+v: want the one record counted out of range with its cost", st)
	}
}
