package panes

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/theme"
)

// keys are labtui's scrolling keys.
var keys = KeyMap{
	Up:       key.NewBinding(key.WithKeys("up", "k")),
	Down:     key.NewBinding(key.WithKeys("down", "j")),
	PageUp:   key.NewBinding(key.WithKeys("pgup", "b")),
	PageDown: key.NewBinding(key.WithKeys("pgdown", " ")),
	Home:     key.NewBinding(key.WithKeys("home")),
	End:      key.NewBinding(key.WithKeys("end")),
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// tenMinutes is a session whose first run holds ten minutes of three tenants' windows,
// both sinks, the event-time window of 10:08 acme a request more than the
// processing-time one, and the minute 10:10 still open.
func tenMinutes(t *testing.T) *session.Session {
	t.Helper()
	const minute = 60_000
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC).UnixMilli()
	var rs []jobspec.Result
	for i := int64(0); i < 10; i++ {
		for j, tenant := range []string{"acme", "globex", "initech"} {
			w := gateway.TenantCostMinute{TenantID: tenant, WindowStart: start + i*minute, WindowEnd: start + (i+1)*minute,
				USD: 0.1 * float64(j+1), Requests: int64(j + 1)}
			rs = append(rs, jobspec.Result{Kind: jobspec.ProcessingTimeResult, At: w.WindowEnd, Minute: w})
			if i == 8 && tenant == "acme" {
				w.USD, w.Requests = 0.2, 2
			}
			rs = append(rs, jobspec.Result{Kind: jobspec.EventTimeResult, At: w.WindowEnd + 200, Minute: w})
		}
	}
	open := gateway.TenantCostMinute{TenantID: "acme", WindowStart: start + 10*minute, WindowEnd: start + 11*minute, USD: 0.1, Requests: 1}
	rs = append(rs, jobspec.Result{Kind: jobspec.PendingResult, Window: jobspec.EventTimeResult, At: start + 10*minute + 500, Minute: open})
	s := session.New(session.Config{})
	s.Apply(backend.Update{Run: 1, Results: rs})
	if n := s.Current().Table.Len(); n != 31 { // the open window is a row too
		t.Fatalf("the run has %d rows, want 31", n)
	}
	return s
}

// Given ten minutes of windows, both panes show the same (minute, tenant) on one line,
// the differing one marked in both, every line the panes' width.
func TestBothPanesShowARunRowByRow(t *testing.T) {
	s := tenMinutes(t)
	run := s.Current()
	m := New(theme.New(), keys).SetSize(110, 18).SetFocused(true)
	view := m.View(run, s.Clocks(), run.StillOpen())
	golden.RequireEqual(t, []byte(view))
	lines := strings.Split(view, "\n")
	if len(lines) != 18 {
		t.Errorf("%d lines, want 18", len(lines))
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w != 110 {
			t.Errorf("%q is %d cells wide, want 110", l, w)
		}
	}
	if !strings.Contains(lines[0], processingTitle) || !strings.Contains(lines[0], eventTitle) {
		t.Errorf("title line %q", lines[0])
	}
	marked := 0
	for _, l := range lines {
		if strings.Count(l, differsMark) == 2 {
			marked++
			if strings.Count(l, "10:08") != 2 || strings.Count(l, "acme") != 2 {
				t.Errorf("a line that agrees is marked: %q", l)
			}
		}
	}
	if marked != 1 {
		t.Errorf("%d lines marked in both panes, want 1 (10:08 acme)", marked)
	}
}

// Scrolling up leaves the newest rows and stops following them; scrolling past either
// end stops at it; Bottom follows the newest rows again.
func TestScrollingMovesOverTheRowsAndBottomFollowsAgain(t *testing.T) {
	s := tenMinutes(t)
	run := s.Current()
	open := run.StillOpen()
	m := New(theme.New(), keys).SetSize(110, 9).SetContent(run, open)
	newest := m.View(run, s.Clocks(), open)
	up := m.scroll(-1)
	if up.following() {
		t.Error("still following after scrolling up")
	}
	if v := up.View(run, s.Clocks(), open); v == newest {
		t.Error("scrolling up did not move the rows")
	}
	top := m.scroll(-1000)
	golden.RequireEqual(t, []byte(top.View(run, s.Clocks(), open)))
	if top.View(run, s.Clocks(), open) != m.toTop().View(run, s.Clocks(), open) {
		t.Error("scrolling past the top is not the top")
	}
	if down := top.scroll(1000); !down.following() || down.View(run, s.Clocks(), open) != newest {
		t.Error("scrolling past the bottom does not follow the newest rows")
	}
	if b := top.Bottom(); !b.following() || b.View(run, s.Clocks(), open) != newest {
		t.Error("Bottom does not follow the newest rows")
	}
}

// TestKeysAndTheWheelScrollThePanes: k moves a row up, the wheel three, home to the
// oldest row, end follows the newest again.
func TestKeysAndTheWheelScrollThePanes(t *testing.T) {
	s := tenMinutes(t)
	run := s.Current()
	open := run.StillOpen()
	m := New(theme.New(), keys).SetSize(110, 9).SetContent(run, open)
	k, _ := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")})
	if k.View(run, s.Clocks(), open) != m.scroll(-1).View(run, s.Clocks(), open) {
		t.Error("k is not a row up")
	}
	w, _ := m.Update(tea.MouseMsg{Button: tea.MouseButtonWheelUp})
	if w.View(run, s.Clocks(), open) != m.scroll(-3).View(run, s.Clocks(), open) {
		t.Error("the wheel is not three rows up")
	}
	home, _ := m.Update(tea.KeyMsg{Type: tea.KeyHome})
	if home.View(run, s.Clocks(), open) != m.toTop().View(run, s.Clocks(), open) || home.following() {
		t.Error("home is not the oldest row")
	}
	if end, _ := home.Update(tea.KeyMsg{Type: tea.KeyEnd}); !end.following() {
		t.Error("end does not follow the newest rows")
	}
}
