package gateway

import (
	"fmt"
	"sort"

	"github.com/labtui/labtui/internal/flatjson"
)

// Price is what a model costs, in USD per 1000 tokens, for input (prompt) and output
// (completion) tokens.
type Price struct {
	InputPer1K  float64
	OutputPer1K float64
}

// PriceTable maps a model name to its Price: the course's PRICE_PER_1K.
type PriceTable map[string]Price

// DefaultPrices returns a fresh copy of the course's PRICE_PER_1K table.
func DefaultPrices() PriceTable {
	return PriceTable{
		"nova-large": {0.0030, 0.0150},
		"nova-small": {0.00015, 0.0006},
		"orca-70b":   {0.0009, 0.0009},
		"flat-10c":   {0.05, 0.05},
	}
}

// Cost returns the USD cost of a record: prompt/1000*in + completion/1000*out, rounded
// after each operation exactly as Python evaluates the same expression, so the embedded
// engine and the PyFlink job agree to the last bit. It reports false for an unpriced model.
func (p PriceTable) Cost(model string, promptTokens, completionTokens int64) (float64, bool) {
	price, ok := p[model]
	if !ok {
		return 0, false
	}
	return price.Cost(promptTokens, completionTokens), true
}

// Cost returns the USD cost of the tokens at this price, as PriceTable.Cost does.
func (p Price) Cost(promptTokens, completionTokens int64) float64 {
	// The explicit conversions forbid fused multiply-add, which Python never uses.
	in := float64(float64(promptTokens) / 1000 * p.InputPer1K)
	out := float64(float64(completionTokens) / 1000 * p.OutputPer1K)
	return in + out
}

// Check returns an error wrapping ErrMalformed when model is not priced: an event the
// job cannot bill, which it skips as the lab's PyFlink job does, with the same words.
func (p PriceTable) Check(model string) error {
	if _, ok := p[model]; !ok {
		return fmt.Errorf("%w: model %s is not in the price table", ErrMalformed, flatjson.AppendString(nil, model))
	}
	return nil
}

// RecordCost is Cost for an assembled record.
func (p PriceTable) RecordCost(r RequestRecord) (float64, bool) {
	return p.Cost(r.Model, r.PromptTokens, r.CompletionTokens)
}

// Models returns the priced model names in sorted order.
func (p PriceTable) Models() []string {
	names := make([]string, 0, len(p))
	for m := range p {
		names = append(names, m)
	}
	sort.Strings(names)
	return names
}

// Validate reports the first price that is negative; a table with none is valid.
func (p PriceTable) Validate() error {
	for _, m := range p.Models() {
		pr := p[m]
		for _, v := range []float64{pr.InputPer1K, pr.OutputPer1K} {
			// NaN and the infinities are no number JSON can write: a cost of one would
			// make "usd":NaN in every output, and a price near the largest float
			// overflows to one within a request.
			if !(v >= 0 && v <= maxPricePer1K) {
				return fmt.Errorf("price of %s is %g, %g: each must be a number from 0 to %g USD per 1k tokens", m, pr.InputPer1K, pr.OutputPer1K, float64(maxPricePer1K))
			}
		}
	}
	return nil
}

// maxPricePer1K is the highest price a table may hold, in USD per 1k tokens: far above
// any model's, and low enough that a request of the most tokens an event can carry
// (2^63) costs a finite number.
const maxPricePer1K = 1e6
