package jobspec

import (
	"bytes"
	"fmt"
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/labtui/labtui/internal/gateway"
)

// wireResult is every key a result line may carry. The keys every line of a kind must
// carry (required) are pointers, so that a missing one is told from a zero.
type wireResult struct {
	Sink                string   `json:"sink"`
	Window              string   `json:"window"`
	TenantID            *string  `json:"tenant_id"`
	WindowStart         int64    `json:"window_start"`
	WindowEnd           *int64   `json:"window_end"`
	USD                 *float64 `json:"usd"`
	Requests            *int64   `json:"requests"`
	RequestID           *string  `json:"request_id"`
	Gateway             string   `json:"gateway"`
	Arrival             int64    `json:"arrival"`
	KafkaTimestamp      int64    `json:"kafka_timestamp"`
	Timestamp           *int64   `json:"timestamp"`
	Watermark           *int64   `json:"watermark"`
	EventWindowEnd      *int64   `json:"event_window_end"`
	ProcessingWindowEnd int64    `json:"processing_window_end"`
	Late                bool     `json:"late"`
}

// missing names the first key a line of kind k must carry and w lacks, or "". Windows
// (fired or pending) carry tenant_id, window_end, usd and requests; late records
// request_id, tenant_id, timestamp, watermark and usd; traces request_id, tenant_id,
// timestamp, watermark and event_window_end: what labtui and the lab's PyFlink job write.
func (w *wireResult) missing(k Kind) string {
	type key struct {
		name string
		ok   bool
	}
	var keys []key
	switch k {
	case LateResult:
		keys = []key{{"request_id", w.RequestID != nil}, {"tenant_id", w.TenantID != nil}, {"timestamp", w.Timestamp != nil},
			{"watermark", w.Watermark != nil}, {"usd", w.USD != nil}}
	case TraceResult:
		keys = []key{{"request_id", w.RequestID != nil}, {"tenant_id", w.TenantID != nil}, {"timestamp", w.Timestamp != nil},
			{"watermark", w.Watermark != nil}, {"event_window_end", w.EventWindowEnd != nil}}
	default:
		keys = []key{{"tenant_id", w.TenantID != nil}, {"window_end", w.WindowEnd != nil}, {"usd", w.USD != nil},
			{"requests", w.Requests != nil}}
	}
	for _, k := range keys {
		if !k.ok {
			return k.name
		}
	}
	return ""
}

// result is the Result of kind k that w describes; a key that is absent reads as zero.
func (w *wireResult) result(k Kind) Result {
	r := Result{Kind: k}
	switch k {
	case LateResult, TraceResult:
		r.Record = RecordTrace{RequestID: deref(w.RequestID), TenantID: deref(w.TenantID), Gateway: w.Gateway,
			Timestamp: deref(w.Timestamp), KafkaTimestamp: w.KafkaTimestamp, Arrival: w.Arrival, Watermark: deref(w.Watermark),
			EventWindowEnd: deref(w.EventWindowEnd), ProcessingWindowEnd: w.ProcessingWindowEnd, Late: w.Late || k == LateResult,
			USD: deref(w.USD)}
	default:
		r.Minute = gateway.TenantCostMinute{TenantID: deref(w.TenantID), WindowStart: w.WindowStart, WindowEnd: deref(w.WindowEnd),
			USD: deref(w.USD), Requests: deref(w.Requests)}
	}
	return r
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// ParseResultLine reads one line of job output in any of the forms labtui and the lab's
// PyFlink job write: a jsonl line with a "sink" key, or a print-sink line `ID> {…}` or
// `ID:N> {…}` (N the sink subtask), with or without labtui's trailing `# …` comment.
// It reports false for a line that is neither (a log line, say, or another print sink's
// line). A line that starts with `{`, or with the identifier of one of the job's sinks
// and `>`, is meant as a result: if it is not one (it does not decode, names no sink or
// an unknown one, lacks a key its kind carries, or is a pending window of no known window),
// the error says why, so a
// reader can refuse it rather than lose it.
func ParseResultLine(line []byte) (Result, bool, error) {
	line = bytes.TrimSpace(line)
	var sink string
	if !bytes.HasPrefix(line, []byte("{")) {
		id, rest, ok := printSinkPrefix(line)
		if !ok {
			return Result{}, false, nil
		}
		sink, line = id, rest
		if !bytes.HasPrefix(line, []byte("{")) {
			return Result{}, true, fmt.Errorf("sink %s: no JSON object after %q", sink, sink+">")
		}
	}
	if j := bytes.LastIndex(line, []byte("}  # ")); j >= 0 {
		line = line[:j+1]
	}
	var w wireResult
	if err := json.Unmarshal(line, &w); err != nil {
		if sink == "" {
			return Result{}, true, fmt.Errorf("not a result: %v", err)
		}
		return Result{}, true, fmt.Errorf("sink %s: %v", sink, err)
	}
	if sink == "" {
		sink = w.Sink
		if sink == "" {
			return Result{}, true, fmt.Errorf(`not a result: a JSON object with no "sink"`)
		}
	}
	kind, ok := ParseKind(sink)
	if !ok {
		return Result{}, true, fmt.Errorf("not a result: unknown sink %q", sink)
	}
	if key := w.missing(kind); key != "" {
		return Result{}, true, fmt.Errorf("sink %s: no %q: a %s line carries it", sink, key, sink)
	}
	r := w.result(kind)
	if kind == PendingResult {
		r.Window, _ = ParseKind(w.Window)
		if r.Window != EventTimeResult && r.Window != ProcessingTimeResult {
			return Result{}, true, fmt.Errorf("sink pending: window %q is neither event-time nor processing-time", w.Window)
		}
	}
	return r, true, nil
}

// printSinkPrefix splits `ID> rest` or `ID:N> rest` when ID is one of the job's sinks.
func printSinkPrefix(line []byte) (string, []byte, bool) {
	i := bytes.IndexByte(line, '>')
	if i <= 0 {
		return "", nil, false
	}
	id := line[:i]
	if c := bytes.IndexByte(id, ':'); c > 0 {
		if _, err := strconv.Atoi(string(id[c+1:])); err == nil {
			id = id[:c]
		}
	}
	if _, ok := ParseKind(string(id)); !ok {
		return "", nil, false
	}
	return string(id), bytes.TrimLeft(line[i+1:], " "), true
}
