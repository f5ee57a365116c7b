package gateway

import (
	"bytes"
	"unicode/utf8"

	"github.com/labtui/labtui/internal/flatjson"
)

// The canonical shape is the one Event.AppendJSON writes. Each literal below runs from
// the quote that closes one value (or the opening brace) to the first byte of the
// next value.
var (
	// stringLits lead to the string fields, in order: type, request_id, tenant_id,
	// model and gateway.
	stringLits = [...]lit{
		newLit(`{"type":"`),
		newLit(`","request_id":"`),
		newLit(`","tenant_id":"`),
		newLit(`","model":"`),
		newLit(`","gateway":"`),
	}
	promptLit     = newLit(`,"prompt_tokens":`)
	completionLit = newLit(`,"completion_tokens":`)
)

// tsLit leads to ts. It is shorter than a lit's eight bytes, so it is compared as a
// string.
const tsLit = `","ts":`

// scanBytes reports whether b holds a control character (below 0x20, which JSON forbids
// raw in a string and a canonical line has nowhere before its closing brace) and whether
// it holds a byte of non-ASCII text (from 0x80). Eight bytes at a time: a byte below 0x20
// borrows into its top bit when 0x20 is subtracted, where an ASCII byte's top bit is clear;
// a borrow only spreads upwards from a byte that is itself below 0x20.
func scanBytes(b []byte) (control, high bool) {
	const ones, tops = 0x2020202020202020, 0x8080808080808080
	var c, h uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := load(b, i)
		c |= (w - ones) &^ w
		h |= w
	}
	for ; i < len(b); i++ {
		c |= uint64(b[i]-0x20) &^ uint64(b[i]) & 0x80
		h |= uint64(b[i])
	}
	return c&tops != 0, h&tops != 0
}

// parseCanonical decodes data in one pass when it is exactly in the canonical shape:
// the keys in AppendJSON's order with nothing between the tokens, strings without a
// backslash, integers flatjson.ScanInt reads (at most 18 digits, so no overflow), and
// only white space after the closing brace. It fills ev and returns the type just as the
// general path would hand them to validate. At the first byte it does not expect it
// returns ok false, with ev in no particular state and the Parser's names unchanged;
// the caller then parses data with parseGeneral instead.
func (p *Parser) parseCanonical(data []byte, ev *Event) (typ []byte, ok bool) {
	// Outside its strings a canonical line has no backslash, so one anywhere means an
	// escape, which only the general path decodes; without one, each string ends at
	// the next quote.
	if bytes.IndexByte(data, '\\') >= 0 {
		return nil, false
	}
	end := bytes.LastIndexByte(data, '}') // white space may follow it; checked below
	control, high := scanBytes(data[:max(end, 0)])
	if control {
		return nil, false
	}
	var vals [len(stringLits)][]byte
	i := 0
	for k := range stringLits {
		l := &stringLits[k]
		if !l.at(data, i) {
			return nil, false
		}
		i += l.n
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return nil, false
		}
		vals[k] = data[i : i+j]
		i += j
	}
	if len(data)-i < len(tsLit) || string(data[i:i+len(tsLit)]) != tsLit {
		return nil, false
	}
	if ev.TS, i, ok = flatjson.ScanInt(data, i+len(tsLit)); !ok {
		return nil, false
	}
	ev.PromptTokens, ev.CompletionTokens = missing, missing
	switch {
	case promptLit.at(data, i):
		ev.PromptTokens, i, ok = flatjson.ScanInt(data, i+promptLit.n)
	case completionLit.at(data, i):
		ev.CompletionTokens, i, ok = flatjson.ScanInt(data, i+completionLit.n)
	default:
		ok = false
	}
	if !ok || i >= len(data) || data[i] != '}' || !flatjson.OnlySpace(data[i+1:]) {
		return nil, false
	}
	if high {
		for _, v := range vals {
			if !utf8.Valid(v) {
				return nil, false // the general path reads it as Java's decoder does
			}
		}
	}
	ev.RequestID = string(vals[1])
	ev.TenantID = p.intern(&p.tenants, vals[2])
	ev.Model = p.intern(&p.models, vals[3])
	ev.Gateway = p.intern(&p.gateways, vals[4])
	return vals[0], true
}
