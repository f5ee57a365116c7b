package header

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/tui/theme"
)

// An instance's producer can hold an event for a moment at any time (produced, not yet
// acked); the header says "held" only while a hiccup holds the instance, so a quiet lab
// never reads "gw-2 6.7 req/s, 1 held" (issue 12, item 11).
func TestHeldIsShownOnlyWhileAHiccupHoldsTheInstance(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	quiet := ansi.Strip(m.instances([]backend.Instance{{Name: "gw-2", Rate: 6.7, Held: 1}}, Info{}))
	if quiet != "gw-2 6.7 req/s" {
		t.Errorf("no hiccup: %q, want %q", quiet, "gw-2 6.7 req/s")
	}
	held := ansi.Strip(m.instances([]backend.Instance{
		{Name: "gw-0", Rate: 6.7, Held: 2},
		{Name: "gw-1", Rate: 6.7, Hiccup: true, HiccupLeft: 23400 * time.Millisecond, Held: 1234},
	}, Info{}))
	if want := "gw-0 6.7 req/s │ gw-1 6.7 req/s HICCUP 24s left, 1,234 held"; held != want {
		t.Errorf("hiccup: %q, want %q", held, want)
	}
	planned := ansi.Strip(m.instances([]backend.Instance{{Name: "gw-1", Rate: 6.7, Held: 1}},
		Info{Planned: "gw-1", PlannedAt: "10:31:40, in 23 s"}))
	if strings.Contains(planned, "held") || !strings.Contains(planned, "hiccup at 10:31:40, in 23 s") {
		t.Errorf("planned: %q", planned)
	}
}

// The header says how far the job's results trail their records when the backend
// measured it (the real job's latency is what decides whether 4.1 can tick), and says
// nothing of it before, or during a replay, whose records are an hour old.
func TestTheJobsLatencyIsShownWhenMeasured(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	now := int64(1795946500000)
	st := &backend.Status{Now: now, Watermark: now - 1200, Latency: 380 * time.Millisecond}
	if got := ansi.Strip(m.clocks(st, false)); !strings.Contains(got, "results 0.4 s after their events") {
		t.Errorf("measured: %q", got)
	}
	if got := ansi.Strip(m.clocks(st, true)); strings.Contains(got, "after their events") {
		t.Errorf("replay: %q", got)
	}
	st.Latency = 0
	if got := ansi.Strip(m.clocks(st, false)); strings.Contains(got, "after their events") || strings.Contains(got, "latency") {
		t.Errorf("not measured: %q", got)
	}
	narrow := New(theme.New()).SetWidth(80)
	st.Latency, st.Job.Late, st.Job.LateUSD = 7*time.Second, 126, 4.3
	if got := ansi.Strip(narrow.clocks(st, false)); !strings.Contains(got, "latency 7.0 s") {
		t.Errorf("80 columns: %q", got)
	}
}

// A job whose topic was deleted from outside reads nothing more: the header says so
// where the watermark, which stands still, would be.
func TestADeletedTopicIsSaidWhereTheWatermarkWouldBe(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	now := int64(1795946500000)
	st := &backend.Status{Now: now, Watermark: now - 1200, TopicGone: "gateway-events"}
	got := ansi.Strip(m.clocks(st, false))
	if !strings.HasPrefix(got, "topic gateway-events is gone from Kafka: the job reads nothing more") || strings.Contains(got, "behind") {
		t.Errorf("clocks %q", got)
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestTheHeaderShowsTheLabAtAGlance: the lab's summary, each instance with a hiccup
// counting down and one planned, and the clocks, at 160 and at 80 cells.
func TestTheHeaderShowsTheLabAtAGlance(t *testing.T) {
	const now = 1795946400000 + 2*60000 + 13500 // 10:02:13.500
	s := session.New(session.Config{})
	s.Apply(backend.Update{Status: &backend.Status{Now: now, Backend: "embedded", Broker: "127.0.0.1:9092", Generator: true,
		Watermark: now - 2500, Instances: []backend.Instance{{Name: "gw-0", Rate: 6.7},
			{Name: "gw-1", Rate: 6.7, Hiccup: true, HiccupLeft: 23400 * time.Millisecond, Held: 152}, {Name: "gw-2", Rate: 6.6}}}})
	info := Info{Backend: "embedded", Strategy: "for_monotonous_timestamps()", Planned: "gw-2", PlannedAt: "10:02:40, in 27 s"}
	wide := New(theme.New()).SetWidth(160).View(s, info)
	narrow := New(theme.New()).SetWidth(80).View(s, info)
	golden.RequireEqual(t, []byte(wide+"\n---- 80 cells ----\n"+narrow))
}
