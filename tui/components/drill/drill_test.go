package drill

import (
	"strings"
	"testing"

	"github.com/labtui/labtui/minutes"
	"github.com/labtui/labtui/tui/theme"
)

func TestTheDrillSaysHowManyResultsTheRunLetGoAndFromWhen(t *testing.T) {
	const at = 1795946400000 + 30*60000 // 10:30:00.000
	m := New(theme.New()).SetSize(160, 20).SetRows([]minutes.Row{{WindowStart: at, WindowEnd: at + 60000, Tenant: "acme"}})
	if v := m.View(nil, LetGo{}); strings.Contains(v, "let go") {
		t.Errorf("a run that holds every trace says it let some go:\n%s", v)
	}
	v := m.View(nil, LetGo{Traces: 36_212, Since: at})
	if !strings.Contains(v, "let go of its 36212 oldest results") || !strings.Contains(v, "before 10:30:00.000") {
		t.Errorf("the drill does not say what the run let go:\n%s", v)
	}
	if v := m.View(nil, LetGo{Traces: 5}); !strings.Contains(v, "5 oldest results") || !strings.Contains(v, "none of its records") {
		t.Errorf("with no trace kept:\n%s", v)
	}
}
