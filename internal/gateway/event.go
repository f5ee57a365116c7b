package gateway

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/labtui/labtui/internal/flatjson"
	"github.com/labtui/labtui/internal/keyhash"
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
//
// IDHash, TenantNo and ModelNo are not in the JSON: a Parser fills them so that keyed
// operators find an event's state without hashing its strings again. They are zero in an
// Event built by hand, which means "not computed"; whoever changes RequestID, TenantID or
// Model after the parse must set them again (FillKeys) or zero them.
type Event struct {
	Type             EventType
	RequestID        string
	TenantID         string
	Model            string
	Gateway          string
	TS               int64
	PromptTokens     int64
	CompletionTokens int64
	// IDHash is keyhash.String(RequestID), or zero.
	IDHash uint64
	// TenantNo and ModelNo are the process's numbers for TenantID and Model (NameNo), or
	// zero.
	TenantNo, ModelNo NameNo
}

// FillKeys sets IDHash, TenantNo and ModelNo from RequestID, TenantID and Model, as a
// Parser does: for an Event built by hand that should take the engine's fast paths.
func (e *Event) FillKeys() {
	e.IDHash = keyhash.String(e.RequestID)
	var r recentNames
	var p Parser
	e.TenantID, e.TenantNo = p.intern(&r, []byte(e.TenantID))
	e.Model, e.ModelNo = p.intern(&r, []byte(e.Model))
}

const missing = math.MinInt64

// ErrMalformed is wrapped by every error ParseEvent returns, so callers can count bad
// input apart from other failures.
var ErrMalformed = errors.New("malformed event")

// ParseEvent decodes and validates one event value. It rejects input that is not a JSON
// object, an unknown type, a missing or empty field, a field of the wrong type, and
// negative token counts; the error names the problem and wraps ErrMalformed. Whether the
// model is priced is the price table's question (PriceTable.Cost), not the parser's.
func ParseEvent(data []byte) (Event, error) {
	var p Parser
	return p.Parse(data)
}

// Parser is ParseEvent with memory: it shares one string for each tenant, model and
// gateway name (the process's, numbered: NameNo), so parsing a stream allocates only the
// request id (and, with IDBlocks, not even that), and it fills each Event's IDHash,
// TenantNo and ModelNo. A Parser is not safe for concurrent use; its zero value is ready.
type Parser struct {
	// IDBlocks, when set, makes the request ids of canonical values substrings of
	// shared blocks (idBlockSize bytes each) instead of a string each: one allocation
	// for a few hundred events. An id kept keeps its whole block alive, so it suits a
	// replay, whose ids are dropped soon after their request is assembled, and not a
	// caller that keeps a few ids of many blocks for long.
	IDBlocks                  bool
	ids                       idBlock
	names                     *nameTable // nil: processNames
	tenants, models, gateways recentNames
}

// Parse decodes and validates one event value, as ParseEvent does. Lines in the exact
// shape the gateways write (Event.AppendJSON) take a single-pass fast path; anything
// else, or anything that path is unsure of, is decoded by the general path, which
// defines what is accepted and what every error says.
func (p *Parser) Parse(data []byte) (Event, error) {
	if ev, ok, err := p.ParseCanonical(data); ok {
		return ev, err
	}
	return p.parseGeneral(data)
}

// ParseCanonical is Parse for a value in the canonical shape only (Event.AppendJSON's,
// with the limits parseCanonical lists). When ok, ev and err are what Parse returns for
// data; otherwise data is not in that shape, and whether it is an event at all is Parse's
// to say. A reader that has only assumed where a value ends uses ok to know that it did
// end there, as a full parse of the line would have found.
func (p *Parser) ParseCanonical(data []byte) (ev Event, ok bool, err error) {
	typ, ok := p.parseCanonical(data, &ev)
	if !ok {
		return Event{}, false, nil
	}
	ev, err = validate(ev, typ)
	return ev, true, err
}

// parseGeneral decodes one event value of any field order and spacing through flatjson.
func (p *Parser) parseGeneral(data []byte) (Event, error) {
	ev := Event{TS: missing, PromptTokens: missing, CompletionTokens: missing}
	var typ []byte
	err := flatjson.Fields(data, func(f flatjson.Field) error {
		if (f.Kind == flatjson.Object || f.Kind == flatjson.Array) && !json.Valid(f.Raw) {
			return fmt.Errorf("%w: %s holds a broken nested value", flatjson.ErrSyntax, f.Key)
		}
		if f.Kind == flatjson.Literal && string(f.Raw) == "null" {
			clearField(&ev, &typ, f.Key) // the last occurrence wins, and null is no value
			return nil
		}
		var err error
		switch string(f.Key) {
		case "type":
			if f.Kind == flatjson.String && !f.Escaped && utf8.Valid(f.Raw) {
				typ = f.Raw // compared, never kept: no copy
				break
			}
			var s string
			s, err = text(f)
			typ = []byte(s)
		case "request_id":
			ev.RequestID, err = text(f)
		case "tenant_id":
			ev.TenantID, ev.TenantNo, err = p.name(&p.tenants, f)
		case "model":
			ev.Model, ev.ModelNo, err = p.name(&p.models, f)
		case "gateway":
			ev.Gateway, _, err = p.name(&p.gateways, f)
		case "ts":
			ev.TS, err = intField(f)
		case "prompt_tokens":
			ev.PromptTokens, err = intField(f)
		case "completion_tokens":
			ev.CompletionTokens, err = intField(f)
		}
		return err
	})
	if err != nil {
		if errors.Is(err, flatjson.ErrSyntax) {
			return Event{}, fmt.Errorf("%w: not a JSON event object: %v", ErrMalformed, err)
		}
		return Event{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return validate(ev, typ)
}

// clearField makes the known field key absent again, as a null value says.
func clearField(ev *Event, typ *[]byte, key []byte) {
	switch string(key) {
	case "type":
		*typ = nil
	case "request_id":
		ev.RequestID = ""
	case "tenant_id":
		ev.TenantID, ev.TenantNo = "", 0
	case "model":
		ev.Model, ev.ModelNo = "", 0
	case "gateway":
		ev.Gateway = ""
	case "ts":
		ev.TS = missing
	case "prompt_tokens":
		ev.PromptTokens = missing
	case "completion_tokens":
		ev.CompletionTokens = missing
	}
}

// name reads a string field as a shared, numbered name, through r: the recent names of
// its field. A name written with escapes, or not in UTF-8, is decoded first, so it gets
// the number of the name it stands for.
func (p *Parser) name(r *recentNames, f flatjson.Field) (string, NameNo, error) {
	if f.Kind != flatjson.String || f.Escaped || !utf8.Valid(f.Raw) {
		s, err := text(f)
		if err != nil {
			return "", 0, err
		}
		s, n := p.intern(r, []byte(s))
		return s, n, nil
	}
	s, n := p.intern(r, f.Raw)
	return s, n, nil
}

// text reads a String field as the lab's job sees it: bytes that are not UTF-8 become
// U+FFFD, one for each maximal ill-formed subsequence, as Java's UTF-8 decoder (Flink's
// SimpleStringSchema) turns the record's bytes into a String before the job parses it.
func text(f flatjson.Field) (string, error) {
	if f.Kind == flatjson.String && !utf8.Valid(f.Raw) {
		f.Raw = ReplaceInvalidUTF8(f.Raw)
	}
	return f.Str()
}

// intField reads a JSON integer without allocating; anything else is an error. The
// smallest int64 is refused: it marks a field that was not there.
func intField(f flatjson.Field) (int64, error) {
	n, err := f.Int()
	if err == nil && n == missing {
		err = fmt.Errorf("%s is out of range", f.Key)
	}
	return n, err
}

func validate(ev Event, typ []byte) (Event, error) {
	switch string(typ) {
	case "RequestStarted":
		ev.Type = RequestStarted
		if ev.PromptTokens == missing {
			return Event{}, fmt.Errorf("%w: RequestStarted without prompt_tokens", ErrMalformed)
		}
		ev.CompletionTokens = 0
	case "RequestCompleted":
		ev.Type = RequestCompleted
		if ev.CompletionTokens == missing {
			return Event{}, fmt.Errorf("%w: RequestCompleted without completion_tokens", ErrMalformed)
		}
		ev.PromptTokens = 0
	case "":
		return Event{}, fmt.Errorf("%w: missing field type", ErrMalformed)
	default:
		return Event{}, fmt.Errorf("%w: unknown event type %s", ErrMalformed, flatjson.AppendString(nil, string(typ)))
	}
	switch {
	case ev.RequestID == "":
		return Event{}, fmt.Errorf("%w: missing field request_id", ErrMalformed)
	case ev.TenantID == "":
		return Event{}, fmt.Errorf("%w: missing field tenant_id", ErrMalformed)
	case ev.Model == "":
		return Event{}, fmt.Errorf("%w: missing field model", ErrMalformed)
	case ev.Gateway == "":
		return Event{}, fmt.Errorf("%w: missing field gateway", ErrMalformed)
	case ev.TS == missing:
		return Event{}, fmt.Errorf("%w: missing field ts", ErrMalformed)
	case ev.PromptTokens < 0 || ev.CompletionTokens < 0:
		return Event{}, fmt.Errorf("%w: negative token count", ErrMalformed)
	}
	ev.IDHash = keyhash.String(ev.RequestID)
	return ev, nil
}

// AppendJSON appends the event's JSON encoding, exactly the shape the gateways write:
// type, request_id, tenant_id, model, gateway, ts, then the token field of its type.
func (e Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, e.Type.String()...)
	b = append(b, `","request_id":`...)
	b = flatjson.AppendString(b, e.RequestID)
	b = append(b, `,"tenant_id":`...)
	b = flatjson.AppendString(b, e.TenantID)
	b = append(b, `,"model":`...)
	b = flatjson.AppendString(b, e.Model)
	b = append(b, `,"gateway":`...)
	b = flatjson.AppendString(b, e.Gateway)
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

// ShiftTS returns value with every top-level "ts" that is an integer moved by shift, and
// nothing else changed: the bytes around it, the key order, escapes, duplicates and
// unknown keys stay as they were, so a shifted tricky value is read as the original is. A
// value that is not a JSON object, a ts the shift would overflow, and Long.MIN_VALUE (no
// timestamp, which the contract refuses and a shift would make valid) are left as they are.
func ShiftTS(value []byte, shift int64) []byte {
	type span struct {
		at, n int
		ts    int64
	}
	var spans []span
	err := flatjson.Fields(value, func(f flatjson.Field) error {
		if string(f.Key) != "ts" || f.Kind != flatjson.Number {
			return nil
		}
		ts, err := f.Int()
		if err != nil || ts == missing || (shift > 0 && ts > math.MaxInt64-shift) || (shift < 0 && ts <= math.MinInt64-shift) {
			return nil
		}
		spans = append(spans, span{at: cap(value) - cap(f.Raw), n: len(f.Raw), ts: ts + shift})
		return nil
	})
	if err != nil || len(spans) == 0 {
		return value
	}
	out := make([]byte, 0, len(value)+8)
	last := 0
	for _, s := range spans {
		out = append(out, value[last:s.at]...)
		out = strconv.AppendInt(out, s.ts, 10)
		last = s.at + s.n
	}
	return append(out, value[last:]...)
}
