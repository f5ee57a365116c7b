package gateway

import (
	"strconv"
	"strings"
	"testing"
)

// TestIDBlocksKeepEveryIDAsItWas: ids handed out from blocks stay what they were while
// later ids fill the block and the next ones, a long id included, and a copy of the
// Parser goes on parsing.
func TestIDBlocksKeepEveryIDAsItWas(t *testing.T) {
	p := Parser{IDBlocks: true}
	var got, want []string
	for i := range 5000 {
		id := "r-" + strconv.Itoa(i)
		if i%1000 == 999 {
			id = strings.Repeat("x", idBlockSize) + id
		}
		ev, err := p.Parse(Event{Type: RequestStarted, RequestID: id, TenantID: "acme", Model: "flat-10c", Gateway: "gw-1", TS: 1, PromptTokens: 1}.AppendJSON(nil))
		if err != nil {
			t.Fatal(err)
		}
		got, want = append(got, ev.RequestID), append(want, id)
		if i == 2500 {
			q := p
			if ev, err := q.Parse([]byte(startedJSON)); err != nil || ev.RequestID != "r-103" {
				t.Fatalf("a copied Parser: %+v %v", ev, err)
			}
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("id %d is %q, was parsed as %q", i, got[i], want[i])
		}
	}
}
