package gateway

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// contractTable is the event contract as data: every tricky input with the event it is,
// or the reason it is refused. The lab's PyFlink job's tests read the same file
// (job/test_gateway_meter.py), and the conformance run feeds it to the real job.
const contractTable = "../../labs/04-event-time-and-processing-time/job/event-contract.jsonl"

// contractCase is one line of the table.
type contractCase struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	ValueHex string `json:"value_hex"`
	Event    *struct {
		Type             string `json:"type"`
		RequestID        string `json:"request_id"`
		TenantID         string `json:"tenant_id"`
		Model            string `json:"model"`
		Gateway          string `json:"gateway"`
		TS               int64  `json:"ts"`
		PromptTokens     int64  `json:"prompt_tokens"`
		CompletionTokens int64  `json:"completion_tokens"`
	} `json:"event"`
	Error string `json:"error"`
}

func readContract(t *testing.T) []contractCase {
	t.Helper()
	f, err := os.Open(contractTable)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []contractCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c contractCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", contractTable, err)
		}
		cases = append(cases, c)
	}
	if len(cases) < 50 {
		t.Fatalf("%s holds %d cases", contractTable, len(cases))
	}
	return cases
}

// TestTheEventContractTable: the fast path, the general path and ParseEvent with the
// price check and the window check (the job's, Job.ProcessParsed) each read every value of the table as the table says, and agree with each
// other: the same event, or an error naming the same reason.
func TestTheEventContractTable(t *testing.T) {
	prices := DefaultPrices()
	for _, c := range readContract(t) {
		value := []byte(c.Value)
		if c.ValueHex != "" {
			var err error
			if value, err = hex.DecodeString(c.ValueHex); err != nil {
				t.Fatal(err)
			}
		}
		var p Parser
		parsed, err := p.Parse(value)
		general, gerr := p.parseGeneral(value)
		if (err == nil) != (gerr == nil) || parsed != general {
			t.Errorf("%s: the fast path (%+v, %v) and the general one (%+v, %v) disagree", c.Name, parsed, err, general, gerr)
		}
		if err == nil {
			err = prices.Check(parsed.Model)
		}
		if err == nil {
			err = CheckWindow(parsed.TS, 60_000) // the lab's job's window, a minute
		}
		if c.Event == nil {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("%s: %q gave %+v, %v; want an error saying %q", c.Name, value, parsed, err, c.Error)
			}
			continue
		}
		w := c.Event
		want := Event{RequestID: w.RequestID, TenantID: w.TenantID, Model: w.Model, Gateway: w.Gateway, TS: w.TS,
			PromptTokens: w.PromptTokens, CompletionTokens: w.CompletionTokens}
		want.Type = RequestStarted
		if w.Type == "RequestCompleted" {
			want.Type = RequestCompleted
		}
		want.FillKeys()
		if err != nil || parsed != want {
			t.Errorf("%s: %q gave %+v, %v; want %+v", c.Name, value, parsed, err, want)
		}
	}
}
