package tui

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

// TestNamesWithEscapeSequencesShowEscapedOnTheScreen: a tenant, a gateway and request
// ids from the topic that hold terminal escape sequences are drawn as text, never
// obeyed (the goldens' colour profile draws no escape of labtui's own).
func TestNamesWithEscapeSequencesShowEscapedOnTheScreen(t *testing.T) {
	const tenant, gw, id = "ac\x1b[2Jme\x1b]0;pwned\x07", "gw-\x1b[31m1", "r-\x1b[H103"
	ups := courseScript()
	for _, u := range ups {
		for i := range u.Results {
			r := &u.Results[i]
			if r.Minute.TenantID == "acme" {
				r.Minute.TenantID = tenant
			}
			if r.Record.RequestID == "r-103" {
				r.Record.RequestID, r.Record.TenantID, r.Record.Gateway = id, tenant, gw
			}
		}
	}
	ups = append(ups, backend.Update{Results: []jobspec.Result{late(id, tenant, gw, at("02:10"), at("02:11"), 0.1)}})
	tm := start(t, fakebackend.New(ups...), Config{}, 160, 48)
	waitFor(t, tm, `ac\x1b[2Jme`)
	press(tm, "l")
	waitFor(t, tm, `r-\x1b[H103`)
	_, view := finalView(t, tm)
	if i := strings.IndexAny(view, "\x1b\x07"); i >= 0 {
		t.Errorf("the screen holds a raw control character: %q", view[max(0, i-30):min(len(view), i+30)])
	}
}
