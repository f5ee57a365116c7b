package gateway

import (
	"strings"
	"sync"
	"testing"

	"github.com/labtui/labtui/internal/keyhash"
)

func TestParserFillsTheKeysOnBothPaths(t *testing.T) {
	var p Parser
	canonical, err := p.Parse([]byte(startedJSON))
	if err != nil {
		t.Fatal(err)
	}
	general, err := p.parseGeneral([]byte(`{"ts":1795946430000,"prompt_tokens":1000,"gateway":"gw-1","model":"fl\u0061t-10c","tenant_id":"\u0061cme","request_id":"r-103","type":"RequestStarted"}`))
	if err != nil {
		t.Fatal(err)
	}
	if canonical != general {
		t.Fatalf("the two paths disagree:\n%+v\n%+v", canonical, general)
	}
	if canonical.IDHash != keyhash.String("r-103") || canonical.TenantNo == 0 || canonical.ModelNo == 0 || canonical.TenantNo == canonical.ModelNo {
		t.Fatalf("keys not filled: %+v", canonical)
	}
	byHand := Event{Type: RequestStarted, RequestID: "r-103", TenantID: "acme", Model: "flat-10c", Gateway: "gw-1", TS: 1795946430000, PromptTokens: 1000}
	byHand.FillKeys()
	if byHand != canonical {
		t.Fatalf("FillKeys %+v, Parse %+v", byHand, canonical)
	}
}

func TestNamesAreNumberedOncePerProcessOnEveryGoroutine(t *testing.T) {
	table := newNameTable(maxNames)
	names := []string{"acme", "globex", "initech", "umbrella", "hooli", "a-tenant-never-seen", "acmé"}
	got := make([][]NameNo, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := Parser{names: table}
			for round := range 3 {
				for i := range names {
					name := names[(i+g+round)%len(names)]
					ev, err := p.Parse([]byte(event(`"acme"`, `"`+name+`"`)))
					if err != nil || ev.TenantID != name {
						t.Errorf("%q: %+v %v", name, ev, err)
						return
					}
					got[g] = append(got[g], ev.TenantNo)
				}
			}
		}()
	}
	wg.Wait()
	want := map[string]NameNo{}
	for _, name := range names {
		_, want[name] = table.number([]byte(name))
	}
	seen := map[NameNo]string{}
	for name, n := range want {
		if n == 0 {
			t.Fatalf("%q has no number", name)
		}
		if other, ok := seen[n]; ok {
			t.Fatalf("%q and %q share number %d", name, other, n)
		}
		seen[n] = name
	}
	for g := range got {
		for k, n := range got[g] {
			i := k % len(names)
			round := k / len(names)
			if name := names[(i+g+round)%len(names)]; n != want[name] {
				t.Fatalf("goroutine %d read %q as %d, the table says %d", g, name, n, want[name])
			}
		}
	}
}

func TestNamesPastTheLimitOrTooLongHaveNoNumberButReadTheSame(t *testing.T) {
	p := Parser{names: newNameTable(4)} // one, flat-10c, gw-1, two
	long := strings.Repeat("t", maxNameLen+1)
	for _, c := range []struct {
		name string
		no   bool
	}{{"one", true}, {"two", true}, {"three", false}, {long, false}, {"one", true}} {
		ev, err := p.Parse([]byte(event(`"acme"`, `"`+c.name+`"`)))
		if err != nil || ev.TenantID != c.name || (ev.TenantNo != 0) != c.no {
			t.Fatalf("%q: %+v %v, want a number: %v", c.name, ev, err, c.no)
		}
	}
}
