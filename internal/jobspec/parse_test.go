package jobspec

import (
	"bytes"
	stdjson "encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

// TestAResultLineThatDoesNotReadIsAnError feeds lines meant as results that are not
// ones: each is an error that says why, never "not a result" (a reader would skip it
// and a comparison would lose the row). Lines of other kinds are not results, no error.
func TestAResultLineThatDoesNotReadIsAnError(t *testing.T) {
	for line, want := range map[string]string{
		`{"sink":"event-time","tenant_id":"acme","window_start":0,"window_end":60000,"usd":0.`:               "not a result: ",
		`{"sink":"event-tim","tenant_id":"acme","window_start":0,"window_end":60000,"usd":0.1,"requests":1}`: `not a result: unknown sink "event-tim"`,
		`{"tenant_id":"acme","window_start":0,"window_end":60000,"usd":0.1,"requests":1}`:                    `not a result: a JSON object with no "sink"`,
		`{"sink":"event-time","tenant_id":"acme","usd":"0.1"}`:                                               "not a result: ",
		`{"sink":"pending","tenant_id":"acme","window_start":0,"window_end":60000,"usd":0.1,"requests":1}`:   `sink pending: window "" is neither`,
		`event-time> garbage`: `sink event-time: no JSON object after "event-time>"`,
		`late:2>`:             `sink late: no JSON object after "late>"`,
		`event-time> {"tenant_id":"acme"} trailer`: "sink event-time: ",
		`{not json`:                        "not a result: ",
		`event-time> {"tenant_id":"acme"}`: `sink event-time: no "window_end"`,
		`{"sink":"processing-time","window_end":60000,"usd":0.1,"requests":1}`:                   `sink processing-time: no "tenant_id"`,
		`late> {"request_id":"r-103","tenant_id":"acme","timestamp":1,"usd":0.1}`:                `sink late: no "watermark"`,
		`trace> {"request_id":"r-103","tenant_id":"acme","timestamp":1,"watermark":0}`:           `sink trace: no "event_window_end"`,
		`{"sink":"pending","window":"event-time","tenant_id":"acme","window_end":60000,"usd":1}`: `sink pending: no "requests"`,
	} {
		_, ok, err := ParseResultLine([]byte(line))
		if !ok || err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: ok %v, err %v; want an error starting %q", line, ok, err, want)
		}
	}
	for _, line := range []string{
		"", "2026-11-29 10:00:00,000 INFO org.apache.flink.runtime.taskexecutor.TaskExecutor - started",
		`malformed> {"raw":"x"}`, `debug> {"a":1}`, "# a comment", "plain > text",
	} {
		if r, ok, err := ParseResultLine([]byte(line)); ok || err != nil {
			t.Errorf("%q read as a result: %+v %v", line, r, err)
		}
	}
}

// FuzzResultLineRoundTrip writes a result of every kind from fuzzed fields in jsonl and
// in the print-sink text form and reads it back: the same result, every field the
// form carries, strings as a JSON reader reads them.
func FuzzResultLineRoundTrip(f *testing.F) {
	f.Add(uint8(0), "r-103", "acme", "gw-1", int64(1795946444000), int64(1795946468999), int64(1795946460000), int64(7), 0.1, true)
	f.Add(uint8(3), "\x00\xff", "é\u2028", "", int64(math.MinInt64), int64(math.MaxInt64), int64(-1), int64(0), math.Copysign(0, -1), false)
	f.Fuzz(func(t *testing.T, k uint8, id, tenant, gw string, a, b, c, n int64, usd float64, late bool) {
		if math.IsNaN(usd) || math.IsInf(usd, 0) {
			return // no window or record sums to these
		}
		kind := Kind(k%5) + ProcessingTimeResult
		r := Result{Kind: kind}
		switch kind {
		case LateResult:
			r.Record = RecordTrace{RequestID: id, TenantID: tenant, Timestamp: a, Watermark: b, USD: usd, Late: true}
		case TraceResult:
			r.Record = RecordTrace{RequestID: id, TenantID: tenant, Gateway: gw, Arrival: a, KafkaTimestamp: b, Timestamp: c,
				Watermark: n, EventWindowEnd: a ^ b, ProcessingWindowEnd: b ^ c, Late: late, USD: usd}
		default:
			r.Minute = gateway.TenantCostMinute{TenantID: tenant, WindowStart: a, WindowEnd: b, USD: usd, Requests: n}
			if kind == PendingResult {
				r.Window = EventTimeResult
				if late {
					r.Window = ProcessingTimeResult
				}
			}
		}
		want := r
		want.Record.RequestID, want.Record.TenantID, want.Record.Gateway = decodedAs(id), decodedAs(r.Record.TenantID), decodedAs(gw)
		want.Minute.TenantID = decodedAs(r.Minute.TenantID)
		if kind != TraceResult {
			want.Record.Gateway = ""
		}
		if kind == LateResult || kind == TraceResult {
			want.Record.RequestID = decodedAs(id)
		} else {
			want.Record = RecordTrace{}
		}
		for _, line := range [][]byte{r.AppendJSON(nil), r.AppendText(nil)} {
			got, ok, err := ParseResultLine(line)
			if !ok || err != nil {
				t.Fatalf("%s: ok %v, err %v", line, ok, err)
			}
			if got != want {
				t.Fatalf("%s\nread back %+v\nwant      %+v", line, got, want)
			}
		}
	})
}

// FuzzResultLineAgainstEncodingJSON is the reader against encoding/json on any line
// that starts with "{", bare (jsonl) and after a sink's "late> " prefix: where
// encoding/json cannot decode the object into the result's fields, the line is an
// error; where it can, the line reads as exactly the result those fields make, or is an
// error when they name no sink (no known window, for pending) the job has.
func FuzzResultLineAgainstEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"sink":"event-time","tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.2,"requests":2}`,
		`{"sink":"late","request_id":"r-103","tenant_id":"acme","timestamp":1795946444000,"watermark":1795946468999,"usd":0.1}`,
		`{"sink":"trace","request_id":"r","tenant_id":"t","gateway":"g","arrival":1,"kafka_timestamp":2,"timestamp":3,"watermark":4,"event_window_end":5,"processing_window_end":6,"late":true,"usd":1e-3}`,
		`{"sink":"pending","window":"processing-time","tenant_id":"a\u00e9\ud83d\ude42","usd":-0,"requests":1}`,
		`{"Sink":"late","USD":1,"usd":2,"tenant_id":"x","tenant_id":"y"}`,
		`{"sink":"late","usd":1}  # ts 10:00:44.000`,
		`{"sink":"late","request_id":"\xff\u0000"}`, `{"sink":"late"} {}`, `{"usd":1e400}`, `{"requests":1.5}`, `{}`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		obj = bytes.TrimSpace(obj)
		if !bytes.HasPrefix(obj, []byte("{")) {
			return
		}
		oracle := obj
		if j := bytes.LastIndex(oracle, []byte("}  # ")); j >= 0 {
			oracle = oracle[:j+1]
		}
		for _, sink := range []string{"", "late"} {
			line := obj
			if sink != "" {
				line = append([]byte(sink+"> "), obj...)
			}
			got, ok, err := ParseResultLine(line)
			if !ok {
				t.Fatalf("%s: not taken as a result line", line)
			}
			var w wireResult
			if stdErr := stdjson.Unmarshal(oracle, &w); stdErr != nil {
				if err == nil {
					t.Fatalf("%s: encoding/json refuses it (%v), ParseResultLine read %+v", line, stdErr, got)
				}
				continue
			}
			if sink == "" {
				sink = w.Sink
			}
			kind, known := ParseKind(sink)
			window, _ := ParseKind(w.Window)
			if !known || kind == PendingResult && window != EventTimeResult && window != ProcessingTimeResult {
				if err == nil {
					t.Fatalf("%s: sink %q window %q, yet read as %+v", line, sink, w.Window, got)
				}
				continue
			}
			if key := w.missing(kind); key != "" {
				if err == nil {
					t.Fatalf("%s: no %q, yet read as %+v", line, key, got)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: encoding/json reads %+v, ParseResultLine fails: %v", line, w, err)
			}
			want := w.result(kind)
			if kind == PendingResult {
				want.Window = window
			}
			if !reflect.DeepEqual(got, want) && !(got.Kind == want.Kind && sameFloats(got, want)) {
				t.Fatalf("%s\nParseResultLine %+v\nencoding/json   %+v", line, got, want)
			}
		}
	})
}

// sameFloats reports whether a and b differ at most in the sign of a zero USD.
func sameFloats(a, b Result) bool {
	if a.Minute.USD == 0 && b.Minute.USD == 0 {
		a.Minute.USD, b.Minute.USD = 0, 0
	}
	if a.Record.USD == 0 && b.Record.USD == 0 {
		a.Record.USD, b.Record.USD = 0, 0
	}
	return a == b
}
