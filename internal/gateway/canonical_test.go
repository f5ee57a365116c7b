package gateway

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// agree parses in with a Parser (fast path first) and with the general path alone,
// first each from a fresh Parser, then again after both canonical lines, so that
// every name is shared from a Parser that has seen others, and fails unless every
// parse returns the same Event and the same error text.
func agree(t testing.TB, in []byte) {
	t.Helper()
	var fast, general Parser
	for step, data := range [][]byte{in, []byte(startedJSON), []byte(completedJSON), in, in} {
		got, gotErr := fast.Parse(data)
		want, wantErr := general.parseGeneral(data)
		if got != want || errText(gotErr) != errText(wantErr) {
			t.Fatalf("step %d, %q (after %q):\nParse        %+v, %v\nparseGeneral %+v, %v",
				step, data, in, got, gotErr, want, wantErr)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// event builds a canonical line with fields replaced: each pair is an old and a new
// substring of startedJSON.
func event(pairs ...string) string {
	return strings.NewReplacer(pairs...).Replace(startedJSON)
}

func TestFastPathAgreesWithGeneralOnTrickyInput(t *testing.T) {
	cases := map[string]string{
		"started":             startedJSON,
		"completed":           completedJSON,
		"trailing newline":    startedJSON + "\n",
		"trailing spaces":     completedJSON + " \t\r\n ",
		"trailing garbage":    startedJSON + "x",
		"trailing brace":      startedJSON + "}",
		"second object":       startedJSON + ` {}`,
		"trailing NUL":        startedJSON + "\x00",
		"leading space":       " " + startedJSON,
		"space after brace":   event(`{"type"`, `{ "type"`),
		"space after colon":   event(`"type":"`, `"type": "`),
		"space before colon":  event(`"ts":`, `"ts" :`),
		"space after comma":   event(`,"model"`, `, "model"`),
		"space before brace":  event(`1000}`, `1000 }`),
		"newline in object":   event(`,"gateway"`, ",\n\"gateway\""),
		"escaped request id":  event(`"r-103"`, `"r\u002d103"`),
		"escaped quote":       event(`"acme"`, `"ac\"me"`),
		"escaped type":        event(`"RequestStarted"`, `"Request\u0053tarted"`),
		"escaped key":         event(`"model"`, `"mod\u0065l"`),
		"lone backslash":      event(`"gw-1"`, `"gw-1\"`),
		"escaped backslash":   event(`"gw-1"`, `"gw\\1"`),
		"bad escape":          event(`"gw-1"`, `"gw\x1"`),
		"other tenant":        event(`"acme"`, `"beta"`),
		"other model":         event(`"flat-10c"`, `"flat-10d"`),
		"other gateway":       event(`"gw-1"`, `"gw-2"`),
		"control character":   event(`"acme"`, "\"ac\tme\""),
		"utf-8 name":          event(`"acme"`, `"acmé"`),
		"invalid utf-8":       event(`"acme"`, "\"ac\xffme\""),
		"empty request id":    event(`"r-103"`, `""`),
		"empty tenant":        event(`"acme"`, `""`),
		"empty model":         event(`"flat-10c"`, `""`),
		"empty gateway":       event(`"gw-1"`, `""`),
		"empty type":          event(`"RequestStarted"`, `""`),
		"unknown type":        event(`"RequestStarted"`, `"RequestPaused"`),
		"lower-case type":     event(`"RequestStarted"`, `"requeststarted"`),
		"started, completion": event(`"prompt_tokens"`, `"completion_tokens"`),
		"completed, prompt":   strings.Replace(completedJSON, `"completion_tokens"`, `"prompt_tokens"`, 1),
		"ts fraction":         event(`1795946430000`, `1.5`),
		"ts exponent":         event(`1795946430000`, `1e3`),
		"ts upper exponent":   event(`1795946430000`, `1E3`),
		"ts signed exponent":  event(`1795946430000`, `17e+3`),
		"ts plus":             event(`1795946430000`, `+1`),
		"ts minus alone":      event(`1795946430000`, `-`),
		"ts double minus":     event(`1795946430000`, `--1`),
		"ts inner minus":      event(`1795946430000`, `1-1`),
		"ts leading zeros":    event(`1795946430000`, `007`),
		"ts minus zero":       event(`1795946430000`, `-0`),
		"ts zero":             event(`1795946430000`, `0`),
		"ts negative":         event(`1795946430000`, `-60000`),
		"ts string":           event(`1795946430000`, `"1795946430000"`),
		"ts null":             event(`1795946430000`, `null`),
		"ts true":             event(`1795946430000`, `true`),
		"ts object":           event(`1795946430000`, `{"a":1}`),
		"ts 8 digits":         event(`1795946430000`, `12345678`),
		"ts 16 digits":        event(`1795946430000`, `1234567890123456`),
		"ts 17 digits":        event(`1795946430000`, `12345678901234567`),
		"ts 18 digits":        event(`1795946430000`, `999999999999999999`),
		"ts -18 digits":       event(`1795946430000`, `-999999999999999999`),
		"ts 19 digits":        event(`1795946430000`, `1000000000000000000`),
		"ts max int64":        event(`1795946430000`, `9223372036854775807`),
		"ts 19 nines":         event(`1795946430000`, `9999999999999999999`),
		"ts -19 digits":       event(`1795946430000`, `-9999999999999999999`),
		"ts min int64":        event(`1795946430000`, `-9223372036854775808`),
		"ts below min int64":  event(`1795946430000`, `-9223372036854775809`),
		"ts 20 digits":        event(`1795946430000`, `12345678901234567890`),
		"ts 30 digits":        event(`1795946430000`, `123456789012345678901234567890`),
		"negative prompt":     event(`:1000}`, `:-1}`),
		"negative completion": strings.Replace(completedJSON, `:1000}`, `:-5}`, 1),
		"zero tokens":         event(`:1000}`, `:0}`),
		"tokens fraction":     event(`:1000}`, `:1000.0}`),
		"tokens 19 digits":    event(`:1000}`, `:1234567890123456789}`),
		"duplicate ts":        event(`,"prompt`, `,"ts":5,"prompt`),
		"duplicate type":      event(`,"prompt`, `,"type":"RequestCompleted","prompt`),
		"duplicate tenant":    event(`,"model"`, `,"tenant_id":"b","model"`),
		"duplicate tokens":    event(`1000}`, `1000,"prompt_tokens":7}`),
		"both token fields":   event(`1000}`, `1000,"completion_tokens":7}`),
		"extra field":         event(`1000}`, `1000,"extra":{"a":[1]}}`),
		"extra field first":   event(`{"type"`, `{"x":1,"type"`),
		"fields reordered":    event(`"tenant_id":"acme","model":"flat-10c"`, `"model":"flat-10c","tenant_id":"acme"`),
		"missing type":        event(`"type":"RequestStarted",`, ``),
		"missing request id":  event(`"request_id":"r-103",`, ``),
		"missing tenant":      event(`"tenant_id":"acme",`, ``),
		"missing model":       event(`"model":"flat-10c",`, ``),
		"missing gateway":     event(`"gateway":"gw-1",`, ``),
		"missing ts":          event(`"ts":1795946430000,`, ``),
		"missing tokens":      event(`,"prompt_tokens":1000`, ``),
		"request id number":   event(`"r-103"`, `103`),
		"tenant number":       event(`"acme"`, `7`),
		"type number":         event(`"RequestStarted"`, `1`),
		"key case":            event(`"model"`, `"Model"`),
		"key prefix":          event(`"model"`, `"models"`),
		"comma before brace":  event(`1000}`, `1000,}`),
		"missing brace":       event(`1000}`, `1000`),
		"array":               "[" + startedJSON + "]",
		"empty":               "",
		"empty object":        "{}",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) { agree(t, []byte(in)) })
	}
}

func TestFastPathAgreesWithGeneralOnEveryTruncation(t *testing.T) {
	for _, line := range []string{startedJSON, completedJSON, startedJSON + "\n"} {
		for n := 0; n <= len(line); n++ {
			agree(t, []byte(line[:n]))
		}
	}
}

// TestCanonicalLinesTakeTheFastPath guards the speed-up itself: the agreement tests
// above would pass if the fast path gave up on everything.
func TestCanonicalLinesTakeTheFastPath(t *testing.T) {
	lines := []string{startedJSON, completedJSON, completedJSON + "\r\n"}
	for _, ev := range []Event{
		{Type: RequestStarted, RequestID: "x", TenantID: "t", Model: "m", Gateway: "g", TS: -999999999999999999, PromptTokens: 999999999999999999},
		{Type: RequestCompleted, RequestID: "a b", TenantID: "ümlaut", Model: "nova-large", Gateway: "gw-12", TS: 0, CompletionTokens: 12345678},
	} {
		lines = append(lines, string(ev.AppendJSON(nil)))
	}
	var p Parser
	for _, line := range lines {
		var ev Event
		if _, ok := p.parseCanonical([]byte(line), &ev); !ok {
			t.Errorf("the fast path gave up on %s", line)
		}
	}
	for _, line := range []string{startedJSON + "x", event(`"acme"`, `"ac\"me"`), event(`1795946430000`, `1000000000000000000`), " " + startedJSON} {
		var ev Event
		if _, ok := p.parseCanonical([]byte(line), &ev); ok {
			t.Errorf("the fast path took %s", line)
		}
	}
}

func TestInternSharesNamesAndStaysBounded(t *testing.T) {
	p := Parser{names: newNameTable(maxNames)} // a table of its own: this test fills it
	// More tenants than recentNames holds, all of one length, in turn, so that every
	// one leaves and re-enters it.
	tenants := make([]string, 3*recentSize)
	first := make(map[string]string)
	for round := range 3 {
		for i := range tenants {
			tenants[i] = fmt.Sprintf("tenant-%02d", i)
			ev, err := p.Parse([]byte(event(`"acme"`, `"`+tenants[i]+`"`)))
			if err != nil || ev.TenantID != tenants[i] {
				t.Fatalf("tenant %q: %+v %v", tenants[i], ev, err)
			}
			if round == 0 {
				first[ev.TenantID] = ev.TenantID
			} else if unsafe.StringData(first[ev.TenantID]) != unsafe.StringData(ev.TenantID) {
				t.Fatalf("tenant %q was not shared in round %d", ev.TenantID, round)
			}
		}
	}
	for i := range maxNames + 10 {
		name := strings.Repeat("m", i%7) + string(rune('a'+i%26)) + strings.Repeat("0", i/26)
		ev, err := p.Parse([]byte(event(`"flat-10c"`, `"`+name+`"`)))
		if err != nil || ev.Model != name {
			t.Fatalf("model %q: %+v %v", name, ev, err)
		}
	}
	if n := p.names.len(); n > maxNames {
		t.Errorf("the name table holds %d names, more than maxNames %d", n, maxNames)
	}
}

func FuzzParserAgreesWithGeneral(f *testing.F) {
	for _, s := range []string{
		startedJSON, completedJSON, startedJSON + "\n",
		event(`1795946430000`, `-999999999999999999`),
		event(`"acme"`, `"ac\"me"`),
		event(`"type"`, `"type" `),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { agree(t, in) })
}
