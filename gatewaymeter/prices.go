package gatewaymeter

import (
	"unsafe"

	"github.com/labtui/labtui/gateway"
)

// priceCache looks models up in a price table through a short list of the models met so
// far. The parser shares one string per model name, so the list's comparisons mostly
// meet identical strings, where a map lookup would hash the name every time.
type priceCache struct {
	table gateway.PriceTable
	seen  []pricedModel
}

type pricedModel struct {
	model string
	price gateway.Price
}

// maxCachedModels bounds the list; a table with more models is still read, past it.
const maxCachedModels = 16

// cost prices a record as table.RecordCost does.
func (c *priceCache) cost(r *gateway.RequestRecord) (float64, bool) {
	for i := range c.seen { // the same string first: a pointer and a length
		if m := c.seen[i].model; unsafe.StringData(m) == unsafe.StringData(r.Model) && len(m) == len(r.Model) {
			return c.seen[i].price.Cost(r.PromptTokens, r.CompletionTokens), true
		}
	}
	for i := range c.seen {
		if c.seen[i].model == r.Model {
			return c.seen[i].price.Cost(r.PromptTokens, r.CompletionTokens), true
		}
	}
	p, ok := c.table[r.Model]
	if !ok {
		return 0, false
	}
	if len(c.seen) < maxCachedModels {
		c.seen = append(c.seen, pricedModel{r.Model, p})
	}
	return p.Cost(r.PromptTokens, r.CompletionTokens), true
}
