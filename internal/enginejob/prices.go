package enginejob

import (
	"unsafe"

	"github.com/labtui/labtui/internal/addrcache"
	"github.com/labtui/labtui/internal/gateway"
)

// priceCache looks models up in a price table through an array indexed by the model's
// number (gateway.NameNo) and, for a model without one, a cache keyed by the identity of
// the model's string: the parser shares one string per model name, so the cache mostly
// meets the very strings it holds, where a map lookup would hash the name every time.
type priceCache struct {
	table gateway.PriceTable
	byNo  []numberedPrice
	seen  addrcache.Cache[gateway.Price]
}

type numberedPrice struct {
	model string // the model the number stood for when its price was found; "" for none
	price gateway.Price
}

// maxModelNo bounds the numbers byNo holds.
const maxModelNo = 1 << 16

// cost prices a record as table.RecordCost does; no is the number of its model, or
// zero. The model must be priced (Job.ProcessParsed checks it before the job sees the
// event); an unpriced one costs 0.
func (c *priceCache) cost(r *gateway.RequestRecord, no gateway.NameNo) float64 {
	switch {
	case no == 0: // no number: the cache by the string's identity
		if p, ok := c.seen.Get(r.Model); ok {
			return p.Cost(r.PromptTokens, r.CompletionTokens)
		}
	case int(no) < len(c.byNo): // a number stands for one name, but check: a hint only
		if p := &c.byNo[no]; sameString(p.model, r.Model) {
			return p.price.Cost(r.PromptTokens, r.CompletionTokens)
		}
	}
	price, ok := c.lookup(r.Model)
	if ok && no != 0 && no < maxModelNo {
		if int(no) >= len(c.byNo) {
			c.byNo = append(c.byNo, make([]numberedPrice, int(no)+1-len(c.byNo))...)
		}
		c.byNo[no] = numberedPrice{r.Model, price}
	}
	return price.Cost(r.PromptTokens, r.CompletionTokens)
}

// lookup finds a model's price through the cache, then the table.
func (c *priceCache) lookup(model string) (gateway.Price, bool) {
	if p, ok := c.seen.Get(model); ok {
		return p, true
	}
	p, ok := c.table[model]
	if ok {
		c.seen.Put(model, p)
	}
	return p, ok
}

// sameString reports whether a and b are the very same string (the same bytes at the
// same address), which implies equal, without reading the bytes.
func sameString(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) && len(a) == len(b)
}
