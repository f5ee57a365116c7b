package gateway

import (
	"testing"

	json "github.com/goccy/go-json"
)

// BenchmarkGoccyBaseline decodes the same event into a struct with goccy/go-json, the
// fastest general decoder measured here (libraries.md): the baseline for BenchmarkParser.
func BenchmarkGoccyBaseline(b *testing.B) {
	var w struct {
		Type             string `json:"type"`
		RequestID        string `json:"request_id"`
		TenantID         string `json:"tenant_id"`
		Model            string `json:"model"`
		Gateway          string `json:"gateway"`
		TS               int64  `json:"ts"`
		CompletionTokens int64  `json:"completion_tokens"`
	}
	data := []byte(completedJSON)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := json.Unmarshal(data, &w); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
