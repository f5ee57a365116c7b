package generator

import (
	"bytes"
	"strconv"

	"github.com/labtui/labtui/internal/gateway"
)

// encoder writes events exactly as gateway.Event.AppendJSON does, faster. AppendJSON
// quotes every string with flatjson.AppendString, which costs more than everything else
// the generator does per event. The events of one instance differ, within one kind
// (type, tenant and model), only in request_id, ts and one token count; so the encoder
// renders a probe event of each kind with AppendJSON once, cuts it at those three
// values, and thereafter pastes each event's values between the cut pieces. The format
// stays AppendJSON's: when a probe cannot be cut cleanly, or a request ID would need
// escaping, the encoder calls AppendJSON itself. Not safe for concurrent use.
type encoder struct {
	templates []*template
	// cut records which kinds have been tried, since a kind may have no template.
	cut []bool
}

// template holds the pieces of a probe's JSON around its request ID, ts and token count.
// completion says which token count the JSON carries.
type template struct {
	beforeID, beforeTS, beforeTokens, after []byte
	completion                              bool
}

// The probe's values: request ID text that quotes as itself, and numbers that are
// unlikely to appear anywhere else in an event.
const (
	probeID         = "PROBE-ID-7f3a"
	probeTS         = 7340021977317
	probePrompt     = 733915517
	probeCompletion = 733915519
)

// newEncoder returns an encoder for events of kinds 0 … kinds-1.
func newEncoder(kinds int) *encoder {
	return &encoder{templates: make([]*template, kinds), cut: make([]bool, kinds)}
}

// appendEvent appends ev's JSON, byte for byte what ev.AppendJSON(dst) appends. Events
// given the same kind must agree in type, tenant, model and gateway.
func (e *encoder) appendEvent(dst []byte, ev gateway.Event, kind int) []byte {
	if !e.cut[kind] {
		e.templates[kind], e.cut[kind] = cut(ev), true
	}
	t := e.templates[kind]
	if t == nil || !plainID(ev.RequestID) {
		return ev.AppendJSON(dst)
	}
	tokens := ev.PromptTokens
	if t.completion {
		tokens = ev.CompletionTokens
	}
	dst = append(dst, t.beforeID...)
	dst = append(dst, ev.RequestID...)
	dst = append(dst, t.beforeTS...)
	dst = strconv.AppendInt(dst, ev.TS, 10)
	dst = append(dst, t.beforeTokens...)
	dst = strconv.AppendInt(dst, tokens, 10)
	return append(dst, t.after...)
}

// cut renders a probe of ev's kind and cuts it at the probe values; it returns nil if
// they do not each appear exactly once, in the order request ID, ts, token count.
func cut(ev gateway.Event) *template {
	probe := ev
	probe.RequestID, probe.TS = probeID, probeTS
	probe.PromptTokens, probe.CompletionTokens = probePrompt, probeCompletion
	js := probe.AppendJSON(nil)

	id := []byte(probeID)
	ts := strconv.AppendInt(nil, probeTS, 10)
	prompt := strconv.AppendInt(nil, probePrompt, 10)
	completion := strconv.AppendInt(nil, probeCompletion, 10)
	tokens, isCompletion := prompt, false
	switch np, nc := bytes.Count(js, prompt), bytes.Count(js, completion); {
	case np == 1 && nc == 0:
	case np == 0 && nc == 1:
		tokens, isCompletion = completion, true
	default:
		return nil
	}
	if bytes.Count(js, id) != 1 || bytes.Count(js, ts) != 1 {
		return nil
	}
	i, j, k := bytes.Index(js, id), bytes.Index(js, ts), bytes.Index(js, tokens)
	if !(i+len(id) <= j && j+len(ts) <= k) {
		return nil
	}
	return &template{
		beforeID:     js[:i],
		beforeTS:     js[i+len(id) : j],
		beforeTokens: js[j+len(ts) : k],
		after:        js[k+len(tokens):],
		completion:   isCompletion,
	}
}

// plainID reports whether a request ID quotes as itself: letters, digits, '-' and '_'.
func plainID(id string) bool {
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
