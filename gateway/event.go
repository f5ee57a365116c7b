package gateway

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	json "github.com/goccy/go-json"
)

// EventType says which half of a request an Event is.
type EventType uint8

const (
	// RequestStarted is written when the gateway accepts a request; it carries prompt_tokens.
	RequestStarted EventType = iota + 1
	// RequestCompleted is written when the response is delivered; it carries completion_tokens.
	RequestCompleted
)

// String returns the event type as it appears in the JSON "type" field.
func (t EventType) String() string {
	switch t {
	case RequestStarted:
		return "RequestStarted"
	case RequestCompleted:
		return "RequestCompleted"
	}
	return "EventType(" + strconv.Itoa(int(t)) + ")"
}

// Event is one record value on the gateway-events topic. TS is milliseconds since the
// epoch, stamped by the gateway when the thing happened (never the Kafka append time).
// PromptTokens is set on RequestStarted, CompletionTokens on RequestCompleted.
type Event struct {
	Type             EventType
	RequestID        string
	TenantID         string
	Model            string
	Gateway          string
	TS               int64
	PromptTokens     int64
	CompletionTokens int64
}

// wireEvent is the JSON shape of an Event. Numbers start at a sentinel so that a missing
// field can be told from a zero one without allocating pointers.
type wireEvent struct {
	Type             string `json:"type"`
	RequestID        string `json:"request_id"`
	TenantID         string `json:"tenant_id"`
	Model            string `json:"model"`
	Gateway          string `json:"gateway"`
	TS               int64  `json:"ts"`
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
}

const missing = math.MinInt64

// ErrMalformed is wrapped by every error ParseEvent returns, so callers can count bad
// input apart from other failures.
var ErrMalformed = errors.New("malformed event")

// ParseEvent decodes and validates one event value. It rejects input that is not a JSON
// object, an unknown type, a missing or empty field, and negative token counts; the error
// names the problem and wraps ErrMalformed. Whether the model is priced is the price
// table's question (PriceTable.Cost), not the parser's.
func ParseEvent(data []byte) (Event, error) {
	w := wireEvent{TS: missing, PromptTokens: missing, CompletionTokens: missing}
	if err := json.Unmarshal(data, &w); err != nil {
		return Event{}, fmt.Errorf("%w: not a JSON event object: %v", ErrMalformed, shortErr(err))
	}
	return w.event()
}

func (w *wireEvent) event() (Event, error) {
	ev := Event{RequestID: w.RequestID, TenantID: w.TenantID, Model: w.Model, Gateway: w.Gateway, TS: w.TS}
	switch w.Type {
	case "RequestStarted":
		ev.Type = RequestStarted
		if w.PromptTokens == missing {
			return Event{}, fmt.Errorf("%w: RequestStarted without prompt_tokens", ErrMalformed)
		}
		ev.PromptTokens = w.PromptTokens
	case "RequestCompleted":
		ev.Type = RequestCompleted
		if w.CompletionTokens == missing {
			return Event{}, fmt.Errorf("%w: RequestCompleted without completion_tokens", ErrMalformed)
		}
		ev.CompletionTokens = w.CompletionTokens
	case "":
		return Event{}, fmt.Errorf("%w: missing field type", ErrMalformed)
	default:
		return Event{}, fmt.Errorf("%w: unknown event type %q", ErrMalformed, w.Type)
	}
	switch {
	case w.RequestID == "":
		return Event{}, fmt.Errorf("%w: missing field request_id", ErrMalformed)
	case w.TenantID == "":
		return Event{}, fmt.Errorf("%w: missing field tenant_id", ErrMalformed)
	case w.Model == "":
		return Event{}, fmt.Errorf("%w: missing field model", ErrMalformed)
	case w.Gateway == "":
		return Event{}, fmt.Errorf("%w: missing field gateway", ErrMalformed)
	case w.TS == missing:
		return Event{}, fmt.Errorf("%w: missing field ts", ErrMalformed)
	case ev.PromptTokens < 0 || ev.CompletionTokens < 0:
		return Event{}, fmt.Errorf("%w: negative token count", ErrMalformed)
	}
	return ev, nil
}

// AppendJSON appends the event's JSON encoding, exactly the shape the gateways write:
// type, request_id, tenant_id, model, gateway, ts, then the token field of its type.
func (e Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, e.Type.String()...)
	b = append(b, `","request_id":`...)
	b = strconv.AppendQuote(b, e.RequestID)
	b = append(b, `,"tenant_id":`...)
	b = strconv.AppendQuote(b, e.TenantID)
	b = append(b, `,"model":`...)
	b = strconv.AppendQuote(b, e.Model)
	b = append(b, `,"gateway":`...)
	b = strconv.AppendQuote(b, e.Gateway)
	b = append(b, `,"ts":`...)
	b = strconv.AppendInt(b, e.TS, 10)
	if e.Type == RequestStarted {
		b = append(b, `,"prompt_tokens":`...)
		b = strconv.AppendInt(b, e.PromptTokens, 10)
	} else {
		b = append(b, `,"completion_tokens":`...)
		b = strconv.AppendInt(b, e.CompletionTokens, 10)
	}
	return append(b, '}')
}

// shortErr keeps decoder messages to one readable line.
func shortErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
