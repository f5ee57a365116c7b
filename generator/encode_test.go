package generator

import (
	"bytes"
	"testing"

	"github.com/labtui/labtui/internal/gateway"
)

func TestEncoderWritesExactlyWhatAppendJSONWrites(t *testing.T) {
	cfg := Defaults()
	cfg.Tenants = append(cfg.Tenants, `quote"d`, "ünïcode", "tab\there", "7340021977317")
	for i := range cfg.Instances {
		s := newStream(cfg, start, i)
		e := newEncoder(s.kinds())
		for n := range 20000 {
			ev, kind := s.next()
			want := append([]byte("prefix"), ev.AppendJSON(nil)...)
			if got := e.appendEvent([]byte("prefix"), ev, kind); !bytes.Equal(got, want) {
				t.Fatalf("gw-%d event %d encoded as\n%s\nwant\n%s", i, n, got, want)
			}
		}
	}
	e := newEncoder(1)
	odd := gateway.Event{Type: gateway.RequestStarted, RequestID: `r"1`, TenantID: "acme", Model: "m", Gateway: "gw-0", TS: -5}
	if got, want := e.appendEvent(nil, odd, 0), odd.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Errorf("encoded %s, want %s", got, want)
	}
}
