package jobspec

import "github.com/labtui/labtui/internal/gateway"

// Kind says which sink a Result was written to.
type Kind uint8

const (
	// ProcessingTimeResult is a TenantCostMinute from the processing-time window.
	ProcessingTimeResult Kind = iota + 1
	// EventTimeResult is a TenantCostMinute from the event-time window.
	EventTimeResult
	// LateResult is a record the event-time window dropped as late (its side output).
	LateResult
	// TraceResult describes one assembled record as it reached the windows.
	TraceResult
	// PendingResult is a window still open when a run ended: it never fired.
	PendingResult
)

// String returns the sink's identifier, as the print sinks write it.
func (k Kind) String() string {
	switch k {
	case ProcessingTimeResult:
		return "processing-time"
	case EventTimeResult:
		return "event-time"
	case LateResult:
		return "late"
	case TraceResult:
		return "trace"
	case PendingResult:
		return "pending"
	}
	return "unknown"
}

// ParseKind reads a sink identifier.
func ParseKind(s string) (Kind, bool) {
	for k := ProcessingTimeResult; k <= PendingResult; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// Result is one thing the job wrote: a fired window (ProcessingTimeResult,
// EventTimeResult, PendingResult) in Minute, or a record (LateResult, TraceResult) in
// Record. At is the processing time at which it was written.
type Result struct {
	Kind Kind
	// Window says, for a PendingResult, which window it was: ProcessingTimeResult or
	// EventTimeResult. (It sits beside Kind so the two share one word: a Result is 176
	// bytes, and the TUI keeps one a record for every run it shows.)
	Window Kind
	At     int64
	Minute gateway.TenantCostMinute
	Record RecordTrace
}

// RecordTrace is what the job knows of one record when it reached the windows.
type RecordTrace struct {
	RequestID string
	TenantID  string
	Gateway   string
	// Timestamp is the record's event timestamp: completed_ts, or started_ts when the
	// job is switched to it.
	Timestamp      int64
	KafkaTimestamp int64
	// Arrival is the processing time at which the record reached the windows.
	Arrival int64
	// Watermark is the event-time window's watermark when the record arrived.
	Watermark           int64
	EventWindowEnd      int64
	ProcessingWindowEnd int64
	Late                bool
	USD                 float64
}
