package generator

import (
	"math"
	"math/rand/v2"
)

// random draws the schedule's numbers from a PCG source using only its Uint64 stream and
// formulas written here, so a seed yields the same schedule on every Go release (the
// higher-level helpers of math/rand/v2 do not promise that).
type random struct {
	src *rand.PCG
}

// newRandom returns the numbers of one instance: seed picks the run, and each instance
// gets its own PCG stream.
func newRandom(seed int64, instance int) *random {
	return &random{src: rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15*uint64(instance+1))}
}

// float returns a uniform number in [0, 1).
func (r *random) float() float64 {
	return float64(r.src.Uint64()>>11) * 0x1p-53
}

// intn returns a number in [0, n); the bias for small n is below 2^-50.
func (r *random) intn(n int) int {
	return int(r.float() * float64(n))
}

// exp returns an exponentially distributed number with mean 1.
func (r *random) exp() float64 {
	return -math.Log1p(-r.float())
}

// pareto returns a Pareto-distributed number of scale xm and shape alpha: P(X > x) is
// (xm/x)^alpha for x ≥ xm.
func (r *random) pareto(xm, alpha float64) float64 {
	return xm / math.Pow(1-r.float(), 1/alpha)
}
