package gateway

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// windowOverflows is Flink's arithmetic: r = ts % size (Java's truncating remainder);
// the start is ts - r, or ts - (r + size) for a negative r; the end is start + size.
func windowOverflows(ts, size int64) bool {
	r := ts % size
	if r < 0 {
		return ts < math.MinInt64+(r+size)
	}
	return ts-r > math.MaxInt64-size
}

// TestCheckWindowRefusesExactlyTheTimestampsWhoseWindowFlinkOverflows: near both ends of
// the long range, for a minute and for other sizes.
func TestCheckWindowRefusesExactlyTheTimestampsWhoseWindowFlinkOverflows(t *testing.T) {
	for _, size := range []int64{60_000, 30_000, 1, 7, 3_600_000} {
		for _, base := range []int64{math.MaxInt64, math.MinInt64 + 1} {
			for d := int64(0); d < 2*size+10 && d < 200_000; d++ {
				ts := base - d
				if base < 0 {
					ts = base + d
				}
				if refused, over := CheckWindow(ts, size) != nil, windowOverflows(ts, size); refused != over {
					t.Fatalf("size %d, ts %d: refused %v, Flink's window overflows %v", size, ts, refused, over)
				}
			}
		}
	}
}

func TestAWindowOverflowsWithinAWindowOfTheEndsOfTheLongRange(t *testing.T) {
	const size = 60_000
	for ts, want := range map[int64]bool{
		math.MaxInt64:          true,
		math.MaxInt64 - 55_807: true, // the last window's start: its end is past the range
		math.MaxInt64 - 55_808: false,
		math.MinInt64 + 1:      true,
		math.MinInt64 + 55_807: true, // below the lowest start the range holds
		math.MinInt64 + 55_808: false,
		1795946400000:          false,
		-1:                     false,
	} {
		if got := windowOverflows(ts, size); got != want {
			t.Errorf("windowOverflows(%d) = %v, want %v", ts, got, want)
		}
	}
}

// TestATimestampWhoseWindowOverflowsIsRefusedSayingWhatIsAccepted: the range said is the
// range refused outside of, exactly.
func TestATimestampWhoseWindowOverflowsIsRefusedSayingWhatIsAccepted(t *testing.T) {
	const size = 60_000
	lo, hi := windowRange(size)
	if lo != -9223372036854720000 || hi != 9223372036854719999 {
		t.Fatalf("WindowRange = %d, %d", lo, hi)
	}
	for _, ts := range []int64{lo, hi, 0, -1} {
		if err := CheckWindow(ts, size); err != nil {
			t.Errorf("CheckWindow(%d): %v", ts, err)
		}
	}
	for _, ts := range []int64{lo - 1, hi + 1, math.MaxInt64, math.MinInt64 + 1} {
		err := CheckWindow(ts, size)
		if !errors.Is(err, ErrMalformed) {
			t.Fatalf("CheckWindow(%d) = %v, want a malformed event", ts, err)
		}
		if want := "ts is accepted from -9223372036854720000 to 9223372036854719999"; !strings.Contains(err.Error(), want) {
			t.Errorf("CheckWindow(%d) = %q, want it to say %q", ts, err, want)
		}
	}
}
