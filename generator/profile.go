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

// shapes are the distributions a stream draws its requests from, tabulated once so that
// a draw is a table lookup rather than a few transcendental functions.
type shapes struct {
	profiles []modelProfile
	// prompt and completion are each model's token-count quantiles, nil for flat models.
	prompt, completion []quantiles
	// body is the quantiles of the common latencies, in seconds.
	body quantiles
}

func newShapes(models []string) *shapes {
	s := &shapes{
		profiles:   make([]modelProfile, len(models)),
		prompt:     make([]quantiles, len(models)),
		completion: make([]quantiles, len(models)),
		body:       logNormalQuantiles(bodyMedian, bodySigma),
	}
	for i, m := range models {
		p := profileFor(m)
		s.profiles[i] = p
		if !p.flat {
			s.prompt[i] = logNormalQuantiles(p.promptMedian, tokenSigma)
			s.completion[i] = logNormalQuantiles(p.completionMedian, tokenSigma)
		}
	}
	return s
}

// tokens draws the prompt and completion token counts of a request to model.
func (s *shapes) tokens(r *random, model int) (prompt, completion int64) {
	p := s.profiles[model]
	if p.flat {
		return int64(p.promptMedian), int64(p.completionMedian)
	}
	prompt = clampTokens(s.prompt[model].draw(r), maxPrompt)
	completion = clampTokens(s.completion[model].draw(r), maxCompletion)
	return prompt, completion
}

func clampTokens(x float64, most int64) int64 {
	return max(1, min(most, int64(math.Round(x))))
}

// latencyMs draws the latency of a request to model in milliseconds, at least 1.
func (s *shapes) latencyMs(r *random, model int) int64 {
	var sec float64
	if r.float() < tailShare {
		sec = r.pareto(tailScale, tailShape)
	} else {
		sec = s.body.draw(r)
	}
	sec = max(minLatency, min(maxLatency, sec*s.profiles[model].slowness))
	return max(1, int64(sec*1000))
}

// quantiles tabulates a distribution's inverse CDF at the midpoints of n equal slices of
// probability; a draw interpolates between neighbouring entries. It cuts the outermost
// 1/(2n) of each tail, which clamping would mostly cut anyway.
type quantiles []float64

const quantilePoints = 1024

// logNormalQuantiles tabulates the log-normal distribution with the given median and
// sigma.
func logNormalQuantiles(median, sigma float64) quantiles {
	q := make(quantiles, quantilePoints)
	for i := range q {
		p := (float64(i) + 0.5) / quantilePoints
		z := math.Sqrt2 * math.Erfinv(2*p-1)
		q[i] = median * math.Exp(sigma*z)
	}
	return q
}

func (q quantiles) draw(r *random) float64 {
	x := r.float() * float64(len(q)-1)
	i := int(x)
	return q[i] + (x-float64(i))*(q[i+1]-q[i])
}
