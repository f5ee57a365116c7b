package meter

import (
	"bytes"
	"fmt"
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/labtui/labtui/gateway"
)

// wireResult is every key a result line may carry.
type wireResult struct {
	Sink                string  `json:"sink"`
	Window              string  `json:"window"`
	TenantID            string  `json:"tenant_id"`
	WindowStart         int64   `json:"window_start"`
	WindowEnd           int64   `json:"window_end"`
	USD                 float64 `json:"usd"`
	Requests            int64   `json:"requests"`
	RequestID           string  `json:"request_id"`
	Gateway             string  `json:"gateway"`
	Arrival             int64   `json:"arrival"`
	KafkaTimestamp      int64   `json:"kafka_timestamp"`
	Timestamp           int64   `json:"timestamp"`
	Watermark           int64   `json:"watermark"`
	EventWindowEnd      int64   `json:"event_window_end"`
	ProcessingWindowEnd int64   `json:"processing_window_end"`
	Late                bool    `json:"late"`
}

// ParseResultLine reads one line of job output in any of the forms labtui and the lab's
// PyFlink job write: a jsonl line with a "sink" key, or a print-sink line `ID> {…}` or
// `ID:N> {…}` (N the sink subtask), with or without labtui's trailing `# …` comment.
// It reports false for a line that is neither (a log line, say); an error means the
// line looked like a result and was not one.
func ParseResultLine(line []byte) (Result, bool, error) {
	line = bytes.TrimSpace(line)
	var sink string
	if !bytes.HasPrefix(line, []byte("{")) {
		i := bytes.Index(line, []byte("> {"))
		if i <= 0 {
			return Result{}, false, nil
		}
		sink = string(line[:i])
		if c := bytes.IndexByte(line[:i], ':'); c > 0 {
			if _, err := strconv.Atoi(sink[c+1:]); err == nil {
				sink = sink[:c]
			}
		}
		line = line[i+2:]
	}
	if j := bytes.LastIndex(line, []byte("}  # ")); j >= 0 {
		line = line[:j+1]
	}
	var w wireResult
	if err := json.Unmarshal(line, &w); err != nil {
		if sink == "" {
			return Result{}, false, nil
		}
		return Result{}, true, fmt.Errorf("sink %s: %v", sink, err)
	}
	if sink == "" {
		sink = w.Sink
	}
	kind, ok := ParseKind(sink)
	if !ok {
		return Result{}, false, nil
	}
	r := Result{Kind: kind}
	switch kind {
	case LateResult, TraceResult:
		r.Record = RecordTrace{RequestID: w.RequestID, TenantID: w.TenantID, Gateway: w.Gateway, Timestamp: w.Timestamp,
			KafkaTimestamp: w.KafkaTimestamp, Arrival: w.Arrival, Watermark: w.Watermark, EventWindowEnd: w.EventWindowEnd,
			ProcessingWindowEnd: w.ProcessingWindowEnd, Late: w.Late || kind == LateResult, USD: w.USD}
	default:
		r.Minute = gateway.TenantCostMinute{TenantID: w.TenantID, WindowStart: w.WindowStart, WindowEnd: w.WindowEnd, USD: w.USD, Requests: w.Requests}
		if kind == PendingResult {
			r.Window, _ = ParseKind(w.Window)
		}
	}
	return r, true, nil
}
