package jobspec

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/labtui/labtui/internal/gateway"
)

// hostileStrings are ids and tenants no JSON writer may get wrong: every control
// character, the two characters JSON escapes, DEL, non-ASCII text, and bytes that are
// not UTF-8 (a lone continuation byte, a truncated sequence, 0xff).
func hostileStrings() []string {
	var ctl strings.Builder
	for c := 0; c < 0x20; c++ {
		ctl.WriteByte(byte(c))
	}
	return []string{
		ctl.String(), `"quoted" \back\slash/`, "del\x7f", "acmé 日本 🙂 \u2028\u2029",
		"bad\xffutf8", "cut\xe2\x82", "\x80lone", "",
	}
}

// decodedAs is what a JSON reader must read back: s itself, or with each byte that is
// not UTF-8 read as U+FFFD.
func decodedAs(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

func everyKind(id, tenant string) []Result {
	m := gateway.TenantCostMinute{TenantID: tenant, WindowStart: 0, WindowEnd: 60_000, USD: 0.1, Requests: 1}
	rec := RecordTrace{RequestID: id, TenantID: tenant, Gateway: tenant, Timestamp: 1, Watermark: 2, USD: 0.1}
	return []Result{
		{Kind: ProcessingTimeResult, Minute: m}, {Kind: EventTimeResult, Minute: m},
		{Kind: PendingResult, Window: EventTimeResult, Minute: m},
		{Kind: LateResult, Record: rec}, {Kind: TraceResult, Record: rec},
	}
}

// TestEveryOutputKindRoundTripsThroughAJSONDecoder writes each kind with hostile ids and
// tenants in jsonl and in the print-sink text form, and reads it back with
// encoding/json: valid JSON every time, the strings as they were (invalid UTF-8 as
// U+FFFD), and ParseResultLine reading the same.
func TestEveryOutputKindRoundTripsThroughAJSONDecoder(t *testing.T) {
	for _, s := range hostileStrings() {
		for _, r := range everyKind(s, s) {
			line := r.AppendJSON(nil)
			text := r.AppendText(nil)
			value := text[bytes.IndexByte(text, '{'):bytes.LastIndex(text, []byte("  # "))]
			for _, b := range [][]byte{line, value} {
				if !json.Valid(b) || !utf8.Valid(b) {
					t.Fatalf("%s with %q: not valid JSON: %s", r.Kind, s, b)
				}
				var got map[string]any
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				want := decodedAs(s)
				if got["tenant_id"] != want || (r.Kind == LateResult || r.Kind == TraceResult) && got["request_id"] != want {
					t.Fatalf("%s with %q read back as %q", r.Kind, s, got)
				}
			}
			back, ok, err := ParseResultLine(text)
			if !ok || err != nil || back.Kind != r.Kind || back.Minute.TenantID+back.Record.TenantID != decodedAs(s) {
				t.Fatalf("ParseResultLine(%s) = %+v %v %v", text, back, ok, err)
			}
		}
	}
}

func TestJSONEscapesAreJSONs(t *testing.T) {
	r := Result{Kind: LateResult, Record: RecordTrace{RequestID: "a\x07b\x01c\x0bd\n\"\\", TenantID: "é\xff"}}
	want := `{"sink":"late","request_id":"a\u0007b\u0001c\u000bd\n\"\\","tenant_id":"é\ufffd","gateway":"","timestamp":0,"watermark":0,"usd":0}`
	if got := string(r.AppendJSON(nil)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
