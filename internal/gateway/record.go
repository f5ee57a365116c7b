package gateway

// RequestRecord is one request with both halves joined: what the RequestAssembler emits
// and what TenantCost windows add up.
type RequestRecord struct {
	RequestID        string
	TenantID         string
	Model            string
	Gateway          string
	StartedTS        int64
	CompletedTS      int64
	PromptTokens     int64
	CompletionTokens int64
}

// Join builds the record of a request from its two halves, given in either order.
// It reports false when the two events are not one RequestStarted and one
// RequestCompleted of the same request.
func Join(a, b Event) (RequestRecord, bool) {
	if a.Type == b.Type || a.RequestID != b.RequestID {
		return RequestRecord{}, false
	}
	started, completed := a, b
	if a.Type == RequestCompleted {
		started, completed = b, a
	}
	return RequestRecord{
		RequestID:        started.RequestID,
		TenantID:         started.TenantID,
		Model:            started.Model,
		Gateway:          started.Gateway,
		StartedTS:        started.TS,
		CompletedTS:      completed.TS,
		PromptTokens:     started.PromptTokens,
		CompletionTokens: completed.CompletionTokens,
	}, true
}
