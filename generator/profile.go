package generator

import "math"

// modelProfile is how a model's requests look: typical token counts and how slow it is.
type modelProfile struct {
	promptMedian     float64
	completionMedian float64
	// flat models always take exactly the median token counts.
	flat bool
	// slowness multiplies the request latency.
	slowness float64
}

// profileFor returns the profile of a model. flat-10c is the course's worked example:
// 1000 prompt and 1000 completion tokens, so every request costs exactly $0.10.
func profileFor(model string) modelProfile {
	switch model {
	case "nova-large":
		return modelProfile{promptMedian: 1500, completionMedian: 450, slowness: 1.4}
	case "nova-small":
		return modelProfile{promptMedian: 600, completionMedian: 180, slowness: 0.6}
	case "orca-70b":
		return modelProfile{promptMedian: 1000, completionMedian: 320, slowness: 1.2}
	case "flat-10c":
		return modelProfile{promptMedian: 1000, completionMedian: 1000, flat: true, slowness: 1}
	}
	return modelProfile{promptMedian: 800, completionMedian: 250, slowness: 1}
}

// Token counts spread log-normally around a model's medians, within these bounds.
const (
	tokenSigma    = 0.6
	maxPrompt     = 32000
	maxCompletion = 8000
)

func (p modelProfile) tokens(r random) (prompt, completion int64) {
	if p.flat {
		return int64(p.promptMedian), int64(p.completionMedian)
	}
	prompt = clampTokens(r.logNormal(p.promptMedian, tokenSigma), maxPrompt)
	completion = clampTokens(r.logNormal(p.completionMedian, tokenSigma), maxCompletion)
	return prompt, completion
}

func clampTokens(x float64, most int64) int64 {
	return max(1, min(most, int64(math.Round(x))))
}

// The latency of a request, in seconds, is a mix: most requests are log-normal around
// bodyMedian, and a tailShare of them are Pareto-distributed from tailScale, so that
// about 3% take longer than 30 s and cross a minute boundary more often than not. Every
// latency is then scaled by the model's slowness and kept within [minLatency, maxLatency],
// the gateway's timeout.
const (
	bodyMedian = 2.0
	bodySigma  = 0.6
	tailShare  = 0.09
	tailScale  = 12.0
	tailShape  = 1.3
	minLatency = 0.1
	maxLatency = 120.0
)

// latencyMs returns the latency of one request in milliseconds, at least 1.
func (p modelProfile) latencyMs(r random) int64 {
	var s float64
	if r.float() < tailShare {
		s = r.pareto(tailScale, tailShape)
	} else {
		s = r.logNormal(bodyMedian, bodySigma)
	}
	s = max(minLatency, min(maxLatency, s*p.slowness))
	return max(1, int64(s*1000))
}
