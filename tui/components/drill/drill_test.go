package drill

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/minutes"
	"github.com/labtui/labtui/tui/theme"
)

func TestTheDrillSaysHowManyResultsTheRunLetGoAndFromWhen(t *testing.T) {
	const at = 1795946400000 + 30*60000 // 10:30:00.000
	m := New(theme.New(), KeyMap{}).SetSize(160, 20).SetRows([]minutes.Row{{WindowStart: at, WindowEnd: at + 60000, Tenant: "acme"}})
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

func TestTheDrillCountsOneRecordInTheSingular(t *testing.T) {
	const at = 1795946400000 + 33*60000 // 10:33:00.000
	m := New(theme.New(), KeyMap{}).SetSize(160, 20).SetRows([]minutes.Row{{WindowStart: at, WindowEnd: at + 60000, Tenant: "initech"}})
	one := []Moved{{Record: jobspec.RecordTrace{RequestID: "r-1", USD: 0.1}, Where: "event time only"}}
	if v := m.View(one, LetGo{}); !strings.Contains(v, "10:33 initech: 1 record differs") {
		t.Errorf("one record is not counted as one:\n%s", v)
	}
	two := append(one, Moved{Record: jobspec.RecordTrace{RequestID: "r-2", USD: 0.1}, Where: "event time only"})
	if v := m.View(two, LetGo{}); !strings.Contains(v, "10:33 initech: 2 records differ") {
		t.Errorf("two records:\n%s", v)
	}
}

// A replay's record read before its run's first watermark met the engine's MinWatermark:
// the drill's "watermark met" column says "none yet", aligned with the clocks, where it
// said "MIN".
func TestTheDrillSaysNoWatermarkYetForARecordReadBeforeTheFirst(t *testing.T) {
	const at = 1795946400000 // 10:00:00.000
	m := New(theme.New(), KeyMap{}).SetSize(160, 20).SetRows([]minutes.Row{{WindowStart: at, WindowEnd: at + 60000, Tenant: "acme"}})
	moved := []Moved{{Record: jobspec.RecordTrace{RequestID: "r-tp9d40-14", Gateway: "gw-0", Timestamp: at + 1148, Arrival: at + 1153,
		Watermark: jobspec.MinWatermark, EventWindowEnd: at + 60000, ProcessingWindowEnd: at + 60000, USD: 0.1}, Where: "event time only"}}
	v := m.View(moved, LetGo{})
	if !strings.Contains(v, "10:00:01.153  none yet      10:00 10:00") || strings.Contains(v, "MIN") {
		t.Errorf("the drill's watermark of a record read before the first:\n%s", v)
	}
}

// TestDownSelectsTheNextRowAndTheWheelDoesNothing: ↓ moves the selection, stopping at the
// last row; the drill does not take the wheel.
func TestDownSelectsTheNextRowAndTheWheelDoesNothing(t *testing.T) {
	const at = 1795946400000 // 10:00:00.000
	keys := KeyMap{Down: key.NewBinding(key.WithKeys("down"))}
	m := New(theme.New(), keys).SetSize(160, 20).SetRows([]minutes.Row{
		{WindowStart: at + 60000, WindowEnd: at + 120000, Tenant: "acme"}, {WindowStart: at, WindowEnd: at + 60000, Tenant: "globex"}})
	for range 3 {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	m, _ = m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelUp})
	if row, _ := m.Selected(); row.Tenant != "globex" {
		t.Errorf("three ↓ and the wheel select %s, want the last row, globex", row.Tenant)
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestTheDrillShowsTheRowsAndTheSelectedRowsRecords: two ≠ rows, the second selected,
// and the records that went to one window of it and not the other.
func TestTheDrillShowsTheRowsAndTheSelectedRowsRecords(t *testing.T) {
	const at = 1795946400000 // 10:00:00.000
	rows := []minutes.Row{{WindowStart: at + 60000, WindowEnd: at + 120000, Tenant: "acme"},
		{WindowStart: at, WindowEnd: at + 60000, Tenant: "globex"}}
	m := New(theme.New(), KeyMap{Down: key.NewBinding(key.WithKeys("down"))}).SetSize(100, 12).SetRows(rows)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	moved := []Moved{
		{Record: jobspec.RecordTrace{RequestID: "r-103", TenantID: "globex", Gateway: "gw-1", Timestamp: at + 44000, Arrival: at + 76000,
			Watermark: at + 75800, EventWindowEnd: at + 60000, ProcessingWindowEnd: at + 120000, USD: 0.1}, Where: "processing time only"},
		{Record: jobspec.RecordTrace{RequestID: "r-104", TenantID: "globex", Gateway: "gw-1", Timestamp: at + 45000, Arrival: at + 76000,
			Watermark: at + 75800, EventWindowEnd: at + 60000, ProcessingWindowEnd: at + 120000, USD: 0.1, Late: true}, Where: "late"},
	}
	golden.RequireEqual(t, []byte(m.View(moved, LetGo{})))
}
