package inject

import (
	"testing"
	"time"
)

func TestParseStall(t *testing.T) {
	for spec, want := range map[string]Stall{
		"2@40s+2m":  {Partition: 2, At: 40 * time.Second, For: 2 * time.Minute},
		" 0@:30+1m": {Partition: 0, OnSecond: true, Second: 30, For: time.Minute},
	} {
		got, err := parseStall(spec)
		if err != nil || got != want {
			t.Errorf("ParseStall(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
		if again, _ := parseStall(got.String()); again != got {
			t.Errorf("%q does not round-trip through String: %q", spec, got.String())
		}
	}
	for spec, want := range map[string]string{
		"2":          `stall "2" does not say when it starts; write it as 2@40s+2m (partition 2, 40 s after the start, for 2 minutes) or 2@:30+2m (at second 30 of a minute)`,
		"gw-1@1s+1m": `stall "gw-1@1s+1m" names no partition "gw-1" (a number from 0); write it as 2@40s+2m (partition 2, 40 s after the start, for 2 minutes) or 2@:30+2m (at second 30 of a minute)`,
		"2@40s":      `stall "2@40s" does not say for how long; write it as 2@40s+2m (partition 2, 40 s after the start, for 2 minutes) or 2@:30+2m (at second 30 of a minute)`,
		"2@:61+1m":   `stall "2@:61+1m" has no valid second ":61", such as :30 (0 to 59); write it as 2@40s+2m (partition 2, 40 s after the start, for 2 minutes) or 2@:30+2m (at second 30 of a minute)`,
	} {
		if _, err := parseStall(spec); err == nil || err.Error() != want {
			t.Errorf("ParseStall(%q) = %v\nwant %s", spec, err, want)
		}
	}
	start := time.Date(2026, 11, 29, 10, 0, 55, 0, time.UTC)
	if got := (Stall{OnSecond: true, Second: 30}).StartsAt(start); !got.Equal(time.Date(2026, 11, 29, 10, 1, 30, 0, time.UTC)) {
		t.Errorf("StartsAt = %v", got)
	}
}
