package skew

import (
	"time"
)

// tickSteps are the spacings axis ticks may have.
var tickSteps = []int64{1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000}

// ticks returns the times of r at multiples of the smallest step that gives at most
// most ticks.
func ticks(r Range, most int) (at []int64, step int64) {
	step = tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		if r.len()/s+1 <= int64(most) {
			step = s
			break
		}
	}
	first := r.From + ((step-r.From%step)%step+step)%step
	for t := first; t <= r.To; t += step {
		at = append(at, t)
	}
	return at, step
}

// clock writes t as UTC hh:mm:ss, or hh:mm when step is whole minutes.
func clock(t, step int64) string {
	if step%60_000 == 0 {
		return time.UnixMilli(t).UTC().Format("15:04")
	}
	return time.UnixMilli(t).UTC().Format("15:04:05")
}
