package jobspec

import (
	"strconv"
	"time"

	"github.com/labtui/labtui/internal/flatjson"
)

// AppendJSON appends the result as one JSON object with its sink named, the jsonl
// output format:
//
//	{"sink":"event-time","tenant_id":"acme","window_start":…,"window_end":…,"usd":0.2,"requests":2}
//	{"sink":"late","request_id":"r-103","tenant_id":"acme","gateway":"gw-1","timestamp":…,"watermark":…,"usd":0.1}
func (r Result) AppendJSON(b []byte) []byte {
	b = append(b, `{"sink":"`...)
	b = append(b, r.Kind.String()...)
	b = append(b, '"')
	if r.Kind == PendingResult {
		b = append(b, `,"window":"`...)
		b = append(b, r.Window.String()...)
		b = append(b, '"')
	}
	b = append(b, ',')
	return r.appendFields(b)
}

// appendValue appends the JSON value a Flink print sink with this result's identifier
// prints: the same object without the sink key.
func (r Result) appendValue(b []byte) []byte {
	b = append(b, '{')
	if r.Kind == PendingResult {
		b = append(b, `"window":"`...)
		b = append(b, r.Window.String()...)
		b = append(b, `",`...)
	}
	return r.appendFields(b)
}

func (r Result) appendFields(b []byte) []byte {
	switch r.Kind {
	case LateResult:
		b = appendStr(b, "request_id", r.Record.RequestID, false)
		b = appendStr(b, "tenant_id", r.Record.TenantID, true)
		b = appendStr(b, "gateway", r.Record.Gateway, true)
		b = appendInt(b, "timestamp", r.Record.Timestamp)
		b = appendInt(b, "watermark", r.Record.Watermark)
		b = appendFloat(b, "usd", r.Record.USD)
	case TraceResult:
		t := r.Record
		b = appendStr(b, "request_id", t.RequestID, false)
		b = appendStr(b, "tenant_id", t.TenantID, true)
		b = appendStr(b, "gateway", t.Gateway, true)
		b = appendInt(b, "arrival", t.Arrival)
		b = appendInt(b, "kafka_timestamp", t.KafkaTimestamp)
		b = appendInt(b, "timestamp", t.Timestamp)
		b = appendInt(b, "watermark", t.Watermark)
		b = appendInt(b, "event_window_end", t.EventWindowEnd)
		b = appendInt(b, "processing_window_end", t.ProcessingWindowEnd)
		b = append(b, `,"late":`...)
		b = strconv.AppendBool(b, t.Late)
		b = appendFloat(b, "usd", t.USD)
	default:
		m := r.Minute
		b = appendStr(b, "tenant_id", m.TenantID, false)
		b = appendInt(b, "window_start", m.WindowStart)
		b = appendInt(b, "window_end", m.WindowEnd)
		b = appendFloat(b, "usd", m.USD)
		b = appendInt(b, "requests", m.Requests)
	}
	return append(b, '}')
}

// AppendText appends the result as a Flink print sink prints it, `event-time> {…}`,
// followed by its times in UTC so a person can read them.
func (r Result) AppendText(b []byte) []byte {
	b = append(b, r.Kind.String()...)
	b = append(b, "> "...)
	b = r.appendValue(b)
	b = append(b, "  # "...)
	switch r.Kind {
	case LateResult, TraceResult:
		b = append(b, "ts "...)
		b = appendClock(b, r.Record.Timestamp)
		b = append(b, " met watermark "...)
		b = appendClock(b, r.Record.Watermark)
		if r.Kind == TraceResult {
			b = append(b, " arrived "...)
			b = appendClock(b, r.Record.Arrival)
			if r.Record.Late {
				b = append(b, " LATE"...)
			}
		}
	default:
		b = append(b, '[')
		b = appendClock(b, r.Minute.WindowStart)
		b = append(b, ", "...)
		b = appendClock(b, r.Minute.WindowEnd)
		b = append(b, ") $"...)
		b = strconv.AppendFloat(b, r.Minute.USD, 'f', 2, 64)
	}
	return b
}

// appendClock appends a millisecond timestamp as UTC hh:mm:ss.mmm; the two watermarks
// that are not times read "MIN" and "MAX".
func appendClock(b []byte, ms int64) []byte {
	switch ms {
	case minInt64:
		return append(b, "MIN"...)
	case maxInt64:
		return append(b, "MAX"...)
	}
	return time.UnixMilli(ms).UTC().AppendFormat(b, "15:04:05.000")
}

// Clock returns AppendClock as a string.
func Clock(ms int64) string { return string(appendClock(nil, ms)) }

// NoWatermarkYet is how a learner reads MinWatermark, the watermark a record met when it
// was read before its run's first watermark.
const NoWatermarkYet = "none yet"

// WatermarkClock is Clock for a watermark a record met, NoWatermarkYet for MinWatermark:
// what the screens and the diff say, where the print format's "MIN" means nothing.
func WatermarkClock(ms int64) string {
	if ms == MinWatermark {
		return NoWatermarkYet
	}
	return Clock(ms)
}

const (
	minInt64 = -1 << 63
	maxInt64 = 1<<63 - 1
)

func appendStr(b []byte, key, v string, comma bool) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	b = append(b, `":`...)
	return flatjson.AppendString(b, v)
}

func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, v, 10)
}

func appendFloat(b []byte, key string, v float64) []byte {
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}
