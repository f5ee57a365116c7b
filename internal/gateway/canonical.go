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
	stringLits = [...]flatjson.Lit{
		flatjson.NewLit(`{"type":"`),
		flatjson.NewLit(`","request_id":"`),
		flatjson.NewLit(`","tenant_id":"`),
		flatjson.NewLit(`","model":"`),
		flatjson.NewLit(`","gateway":"`),
	}
	promptLit     = flatjson.NewLit(`,"prompt_tokens":`)
	completionLit = flatjson.NewLit(`,"completion_tokens":`)
)

// tsLit leads to ts. It is shorter than a Lit's eight bytes, so it is compared as a
// string.
const tsLit = `","ts":`

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
	var vals [len(stringLits)][]byte
	allASCII := true
	i := 0
	for k := range stringLits {
		l := &stringLits[k]
		if !l.At(data, i) {
			return nil, false
		}
		i += l.N
		// The string ends at the next quote. A control character in it (which JSON
		// forbids raw) sends the line to the general path, which refuses it.
		j, ascii, ok := flatjson.PlainStringEnd(data, i)
		if !ok {
			return nil, false
		}
		allASCII = allASCII && ascii
		vals[k] = data[i:j]
		i = j
	}
	if len(data)-i < len(tsLit) || string(data[i:i+len(tsLit)]) != tsLit {
		return nil, false
	}
	if ev.TS, i, ok = flatjson.ScanInt(data, i+len(tsLit)); !ok {
		return nil, false
	}
	ev.PromptTokens, ev.CompletionTokens = missing, missing
	switch {
	case promptLit.At(data, i):
		ev.PromptTokens, i, ok = flatjson.ScanInt(data, i+promptLit.N)
	case completionLit.At(data, i):
		ev.CompletionTokens, i, ok = flatjson.ScanInt(data, i+completionLit.N)
	default:
		ok = false
	}
	if !ok || i >= len(data) || data[i] != '}' || !flatjson.OnlySpace(data[i+1:]) {
		return nil, false
	}
	if !allASCII { // non-ASCII text: the general path reads what is not UTF-8 as Java does
		for _, v := range vals {
			if !utf8.Valid(v) {
				return nil, false
			}
		}
	}
	ev.RequestID = p.requestID(vals[1])
	ev.TenantID, ev.TenantNo = p.intern(&p.tenants, vals[2])
	ev.Model, ev.ModelNo = p.intern(&p.models, vals[3])
	ev.Gateway, _ = p.intern(&p.gateways, vals[4])
	return vals[0], true
}
