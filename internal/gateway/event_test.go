package gateway

import (
	"errors"
	"strings"
	"testing"
	"unsafe"
)

const startedJSON = `{"type":"RequestStarted","request_id":"r-103","tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":1795946430000,"prompt_tokens":1000}`
const completedJSON = `{"type":"RequestCompleted","request_id":"r-103","tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":1795946444000,"completion_tokens":1000}`

func TestParseEventRoundTripsTheCourseShape(t *testing.T) {
	for _, line := range []string{startedJSON, completedJSON} {
		ev, err := ParseEvent([]byte(line))
		if err != nil {
			t.Fatalf("ParseEvent(%s): %v", line, err)
		}
		if got := string(ev.AppendJSON(nil)); got != line {
			t.Errorf("AppendJSON = %s, want %s", got, line)
		}
	}
}

func TestParseEventRejectsBadInput(t *testing.T) {
	cases := map[string]string{
		`not json`: "not a JSON event object",
		`{"type":"RequestPaused","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":1}`:                                       "unknown event type",
		`{"request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":1,"prompt_tokens":1}`:                                            "missing field type",
		`{"type":"RequestStarted","tenant_id":"a","model":"m","gateway":"g","ts":1,"prompt_tokens":1}`:                                     "missing field request_id",
		`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","prompt_tokens":1}`:                           "missing field ts",
		`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":1}`:                                      "without prompt_tokens",
		`{"type":"RequestCompleted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":1,"completion_tokens":-5}`:             "negative token count",
		`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":"soon","prompt_tokens":1}`:               "ts is not an integer",
		`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":9999999999999999999,"prompt_tokens":1}`:  "ts is out of range",
		`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":-9223372036854775808,"prompt_tokens":1}`: "ts is out of range",
		`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":1,"prompt_tokens":99999999999999999999}`: "prompt_tokens is out of range",
	}
	for in, want := range cases {
		_, err := ParseEvent([]byte(in))
		if err == nil || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseEvent(%s) = %v, want an ErrMalformed saying %q", in, err, want)
		}
	}
}

func TestParseEventAcceptsZeroAndNegativeTimestamps(t *testing.T) {
	for _, ts := range []string{"0", "-1", "-60000", "1000000000000000000", "-9223372036854775807", "9223372036854775807"} {
		in := `{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":` + ts + `,"prompt_tokens":0}`
		if _, err := ParseEvent([]byte(in)); err != nil {
			t.Errorf("ts %s: %v", ts, err)
		}
	}
}

func TestParserSharesNamesAndAgreesWithParseEvent(t *testing.T) {
	var p Parser
	a, err := p.Parse([]byte(startedJSON))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.Parse([]byte(completedJSON))
	want, _ := ParseEvent([]byte(startedJSON))
	if a != want {
		t.Fatalf("Parser %+v, ParseEvent %+v", a, want)
	}
	if unsafe.StringData(a.TenantID) != unsafe.StringData(b.TenantID) {
		t.Error("the tenant name was not shared")
	}
	esc, err := p.Parse([]byte(`{"type":"RequestStarted","request_id":"r\u002d1","tenant_id":"ac\"me","model":"m","gateway":"g","ts":-5,"prompt_tokens":0}`))
	if err != nil || esc.RequestID != "r-1" || esc.TenantID != `ac"me` || esc.TS != -5 {
		t.Fatalf("escapes: %+v %v", esc, err)
	}
	if _, err := p.Parse([]byte(`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"m","gateway":"g","ts":1.5,"prompt_tokens":0}`)); err == nil {
		t.Error("a fractional ts was accepted")
	}
}

func BenchmarkParser(b *testing.B) {
	var p Parser
	data := []byte(completedJSON)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkParserGeneral is BenchmarkParser through the general path alone, the one a
// line that is not canonical takes, so one run compares the two paths.
func BenchmarkParserGeneral(b *testing.B) {
	var p Parser
	data := []byte(completedJSON)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.parseGeneral(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

func TestJoinInEitherOrder(t *testing.T) {
	s, _ := ParseEvent([]byte(startedJSON))
	c, _ := ParseEvent([]byte(completedJSON))
	want := RequestRecord{"r-103", "acme", "flat-10c", "gw-1", 1795946430000, 1795946444000, 1000, 1000}
	for _, pair := range [][2]Event{{s, c}, {c, s}} {
		got, ok := Join(pair[0], pair[1])
		if !ok || got != want {
			t.Errorf("Join = %+v, %v; want %+v", got, ok, want)
		}
	}
	if _, ok := Join(s, s); ok {
		t.Error("Join of two RequestStarted succeeded")
	}
}

func TestCostIsTheCourseFormula(t *testing.T) {
	p := DefaultPrices()
	cases := []struct {
		model   string
		in, out int64
		want    float64
	}{
		{"flat-10c", 1000, 1000, 0.1},
		{"nova-large", 2000, 500, 2000.0/1000*0.0030 + 500.0/1000*0.0150},
		{"nova-small", 0, 0, 0},
	}
	for _, c := range cases {
		got, ok := p.Cost(c.model, c.in, c.out)
		if !ok || got != c.want {
			t.Errorf("Cost(%s,%d,%d) = %v,%v want %v", c.model, c.in, c.out, got, ok, c.want)
		}
	}
	if _, ok := p.Cost("gpt-unknown", 1, 1); ok {
		t.Error("an unpriced model was priced")
	}
}

func TestShiftTSMovesOnlyTheTimestamps(t *testing.T) {
	for in, want := range map[string]string{
		startedJSON: `{"type":"RequestStarted","request_id":"r-103","tenant_id":"acme","model":"flat-10c","gateway":"gw-1","ts":1795946490000,"prompt_tokens":1000}`,
		`{ "Tenant_Id":"x", "ts" : 5 ,"TS":7,"ts":-0, "t\u0073":9}`: `{ "Tenant_Id":"x", "ts" : 60005 ,"TS":7,"ts":60000, "t\u0073":60009}`,
		`{"ts":1e3,"ts":"5"}`:                 `{"ts":1e3,"ts":"5"}`,
		`{"ts":9223372036854775807}`:          `{"ts":9223372036854775807}`,
		`{"ts":-9223372036854775808}`:         `{"ts":-9223372036854775808}`,
		`[{"ts":5}]`:                          `[{"ts":5}]`,
		`{"ts":5} trailing`:                   `{"ts":5} trailing`,
		"{\"tenant_id\":\"a\xffb\",\"ts\":1}": "{\"tenant_id\":\"a\xffb\",\"ts\":60001}",
	} {
		if got := string(ShiftTS([]byte(in), 60_000)); got != want {
			t.Errorf("ShiftTS(%s) = %s, want %s", in, got, want)
		}
	}
}
