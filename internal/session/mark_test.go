package session

import (
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
)

// marks are the current run's mark lines, in order.
func (l *lab) marks() []string {
	var out []string
	t := l.h.Current().Table
	for i := range t.Len() {
		if r := t.Row(i); r.IsMark() {
			out = append(out, r.Mark)
		}
	}
	return out
}

// TestAMarkNamesTheLatestHiccupAtTheHoldsOwnStart: with no hiccup a mark names the lab's
// time; a hiccup injected at 10:00:39.900 and first shown held at 10:00:40.100 is marked
// at the run's start of the hold; two minutes after its hold ended the mark names the
// time again.
func TestAMarkNamesTheLatestHiccupAtTheHoldsOwnStart(t *testing.T) {
	l := newLab()
	l.started()
	l.apply(backend.Update{Status: status(t0+13000, t0+12000)})
	if got := l.h.MarkNow(); got != "mark 10:00:13" {
		t.Errorf("with no hiccup: %q, want mark 10:00:13", got)
	}
	l.apply(backend.Update{Status: status(t0+39900, t0+39800)})
	l.h.Injected("gw-1", 35*time.Second, 0)
	l.apply(backend.Update{Status: held(t0+40100, t0+40000, true)})
	if got := l.h.MarkNow(); got != "hiccup gw-1 10:00:40" {
		t.Errorf("during the hold: %q, want hiccup gw-1 10:00:40", got)
	}
	l.apply(backend.Update{Status: held(t0+75000, t0+74000, false)})
	l.apply(backend.Update{Status: status(t0+40000+35000+120000+1000, t0+190000)})
	if got := l.h.MarkNow(); got != "mark 10:03:16" {
		t.Errorf("two minutes after the hold: %q, want mark 10:03:16", got)
	}
	if got := l.marks(); len(got) != 3 || got[1] != "hiccup gw-1 10:00:40" {
		t.Errorf("the run's marks = %q", got)
	}
}
