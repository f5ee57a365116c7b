package records

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/ring"
	"github.com/labtui/labtui/tui/theme"
)

func lateRing(n int) *ring.Ring[jobspec.RecordTrace] {
	r := ring.New[jobspec.RecordTrace](100)
	for i := range n {
		r.Push(jobspec.RecordTrace{RequestID: fmt.Sprintf("r-%03d", i), TenantID: "acme", Gateway: "gw-1", Late: true})
	}
	return r
}

// rows are the request ids the list shows, top to bottom.
func rows(view string) []string {
	var out []string
	for _, l := range strings.Split(view, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "r-") {
			out = append(out, f[0])
		}
	}
	return out
}

func TestHomeAndPageUpFillTheListFromTheOldest(t *testing.T) {
	r := lateRing(20)
	m := New(theme.New(), Late, KeyMap{}).SetSize(100, 8).SetContent(r)
	if got := rows(m.View(r, "late")); len(got) != 6 || got[0] != "r-014" || got[5] != "r-019" {
		t.Fatalf("following: %v", got)
	}
	home := m.scroll(-1 << 30)
	if got := rows(home.View(r, "late")); strings.Join(got, " ") != "r-000 r-001 r-002 r-003 r-004 r-005" {
		t.Errorf("home shows %v, want the six oldest", got)
	}
	up := m.scroll(-6).scroll(-6).scroll(-6)
	if got := rows(up.View(r, "late")); strings.Join(got, " ") != "r-000 r-001 r-002 r-003 r-004 r-005" {
		t.Errorf("three pages up shows %v, want the six oldest", got)
	}
	one := m.scroll(-6)
	if got := rows(one.View(r, "late")); strings.Join(got, " ") != "r-008 r-009 r-010 r-011 r-012 r-013" {
		t.Errorf("one page up shows %v", got)
	}
}

func TestTheInspectorShowsRequestIDsWholeAt80Columns(t *testing.T) {
	r := ring.New[jobspec.RecordTrace](10)
	r.Push(jobspec.RecordTrace{RequestID: "r-tpd0hw-1078", TenantID: "umbrella", Gateway: "gw-1"})
	view := New(theme.New(), Inspector, KeyMap{}).SetSize(80, 5).View(r, "record inspector")
	if !strings.Contains(view, "r-tpd0hw-1078 ") || strings.Contains(view, "written") {
		t.Errorf("at 80 columns:\n%s", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "…") {
			t.Errorf("a line is cut: %q", l)
		}
	}
	if wide := New(theme.New(), Inspector, KeyMap{}).SetSize(160, 5).View(r, "record inspector"); !strings.Contains(wide, "written") {
		t.Errorf("at 160 columns the Kafka timestamp is missing:\n%s", wide)
	}
}

// TestTheLatePaneSaysWhenEachRecordArrived: 4.2b asks the operator's event time when
// r-103 arrived; the late pane lists the arrival beside the timestamp and the watermark
// met, whole at 80 columns (mm:ss.mmm) and at 160 (hh:mm:ss.mmm).
func TestTheLatePaneSaysWhenEachRecordArrived(t *testing.T) {
	r := ring.New[jobspec.RecordTrace](10)
	r.Push(jobspec.RecordTrace{RequestID: "r-103", TenantID: "acme", Gateway: "gw-1", Timestamp: 1795946444000, Arrival: 1795946477000,
		Watermark: 1795946468999, USD: 0.1, Late: true})
	for w, want := range map[int]string{80: "00:44.000 01:17.000 01:08.999", 160: "10:00:44.000 10:01:17.000 10:01:08.999"} {
		view := New(theme.New(), Late, KeyMap{}).SetSize(w, 4).View(r, "late records")
		if !strings.Contains(view, "arrived") || !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
			t.Errorf("at %d columns the late pane lacks the arrival (%s):\n%s", w, want, view)
		}
		for _, l := range strings.Split(view, "\n") {
			if strings.Contains(l, "…") {
				t.Errorf("at %d columns a line is cut: %q", w, l)
			}
		}
	}
}

// A record read before the run's first watermark met the engine's MinWatermark: the
// inspector says "none yet" in the watermark column, at 160 and at 80 columns, where it
// said "MIN".
func TestTheInspectorSaysNoWatermarkYetForARecordReadBeforeTheFirst(t *testing.T) {
	r := ring.New[jobspec.RecordTrace](10)
	r.Push(jobspec.RecordTrace{RequestID: "r-tp9d40-14", TenantID: "acme", Gateway: "gw-0",
		Timestamp: 1795946401148, Arrival: 1795946401153, Watermark: jobspec.MinWatermark})
	for _, w := range []int{160, 80} {
		view := New(theme.New(), Inspector, KeyMap{}).SetSize(w, 5).View(r, "record inspector")
		if !strings.Contains(view, " none yet ") || strings.Contains(view, "MIN") {
			t.Errorf("at %d columns:\n%s", w, view)
		}
	}
}

// TestKeysScrollTheListAndEndFollowsAgain: home shows the oldest, pgdn moves a page
// (SetPage), end follows the newest again; nothing moves before SetContent.
func TestKeysScrollTheListAndEndFollowsAgain(t *testing.T) {
	r := lateRing(20)
	keys := KeyMap{PageDown: key.NewBinding(key.WithKeys("pgdown")), Home: key.NewBinding(key.WithKeys("home")),
		End: key.NewBinding(key.WithKeys("end"))}
	m := New(theme.New(), Late, keys).SetSize(100, 8).SetPage(6)
	if same, _ := m.Update(tea.KeyMsg{Type: tea.KeyHome}); !same.follow {
		t.Error("home moved a list that has no content")
	}
	m = m.SetContent(r)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyHome})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	if got := rows(m.View(r, "late")); strings.Join(got, " ") != "r-001 r-002 r-003 r-004 r-005 r-006" {
		t.Errorf("home, then a page down, shows %v", got)
	}
	if m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnd}); !m.follow {
		t.Error("end does not follow the newest again")
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestTheListsShowTheirRecordsUnderATitle: the late records, following the newest, and
// the inspector filtered to gw-1, at 100 cells.
func TestTheListsShowTheirRecordsUnderATitle(t *testing.T) {
	const at = 1795946400000 + 60000 // 10:01:00.000
	r := ring.New[jobspec.RecordTrace](100)
	for i := range 8 {
		ts := int64(at + i*7000)
		r.Push(jobspec.RecordTrace{RequestID: fmt.Sprintf("r-%03d", i), TenantID: []string{"acme", "globex"}[i%2],
			Gateway: fmt.Sprintf("gw-%d", i%3), Timestamp: ts, KafkaTimestamp: ts + 3, Arrival: ts + 40000, Watermark: ts + 39800,
			EventWindowEnd: ts - ts%60000 + 60000, ProcessingWindowEnd: ts + 40000 - (ts+40000)%60000 + 60000, USD: 0.1, Late: i%2 == 0})
	}
	late := New(theme.New(), Late, KeyMap{}).SetSize(100, 6).View(r, "late records · run 1")
	inspector := New(theme.New(), Inspector, KeyMap{}).SetSize(100, 6).SetFocused(true).SetFilter("gw-1").View(r, "record inspector")
	golden.RequireEqual(t, []byte(late+"\n---- inspector ----\n"+inspector))
}
