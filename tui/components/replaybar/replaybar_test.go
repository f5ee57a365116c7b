package replaybar

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/theme"
)

func TestTheBarShowsRecordsEventTimeRateAndTimeLeft(t *testing.T) {
	m := New(theme.New()).SetWidth(140)
	p := &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 71700, Total: 143400, EventTime: 1795946400000 + 30*60000,
		Rate: 120000, Left: 600 * time.Millisecond}
	got := ansi.Strip(m.View(p, jobspec.CompletedTS, jobspec.MinWatermark))
	for _, want := range []string{"replay completed_ts [", "50% · read 71,700 of 143,400 records", "event time 10:30:00.000",
		"120,000 records/s", "0.6s left"} {
		if !strings.Contains(got, want) {
			t.Errorf("bar %q lacks %q", got, want)
		}
	}
	if w := ansi.StringWidth(got); w != 140 {
		t.Errorf("bar is %d cells wide, want 140", w)
	}
	if d := strings.Count(got, "█") - strings.Count(got, "░"); d < 0 || d > 1 {
		t.Errorf("half done is not half filled: %q", got)
	}
}

// Before a real job's first read there is no pace: the bar says so instead of
// "0 records/s · 0.0s left", which read as done.
func TestBeforeTheFirstReadTheBarSaysNoTimeLeft(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	got := ansi.Strip(m.View(&backend.ReplayProgress{Path: "hour.jsonl.gz", Total: 143400}, jobspec.CompletedTS, jobspec.MinWatermark))
	if !strings.Contains(got, "read 0 of 143,400 records · event time none yet · the job has not read yet") {
		t.Errorf("bar %q does not say the job has not read yet", got)
	}
	if strings.Contains(got, "left") || strings.Contains(got, "records/s") {
		t.Errorf("bar %q gives a pace or a time left before any read", got)
	}
}

func TestTheBarSaysWhenTheReplayIsOverOrFailed(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	done := ansi.Strip(m.View(&backend.ReplayProgress{Path: "labs/x/hour.jsonl.gz", Records: 143400, Total: 143400, Done: true,
		EventTime: 1795949999800, Rate: 98000}, jobspec.StartedTS, jobspec.MinWatermark))
	if !strings.Contains(done, "replay started_ts done: 143,400 records of hour.jsonl.gz · event time reached 10:59:59.800") {
		t.Errorf("done line %q", done)
	}
	failed := ansi.Strip(m.View(&backend.ReplayProgress{Records: 12, Err: errors.New("broker gone")}, jobspec.CompletedTS, jobspec.MinWatermark))
	if !strings.Contains(failed, "failed after 12 records: broker gone") {
		t.Errorf("failed line %q", failed)
	}
	if w := ansi.StringWidth(m.View(nil, jobspec.CompletedTS, jobspec.MinWatermark)); w != 160 {
		t.Errorf("waiting line is %d cells wide", w)
	}
}

func TestTheBarSaysWhenTheJobHasReadEverythingButNotProcessedIt(t *testing.T) {
	m := New(theme.New()).SetWidth(120)
	got := ansi.Strip(m.View(&backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 143400, Total: 143400, Finishing: true,
		EventTime: 1795946400000 + 5*60000}, jobspec.CompletedTS, jobspec.MinWatermark))
	for _, want := range []string{"read all 143,400 records · the job is still processing them · event time 10:05:00.000"} {
		if !strings.Contains(got, want) {
			t.Errorf("bar %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "done") {
		t.Errorf("a replay still processed says done: %q", got)
	}
}

func TestCountSeparatesThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 143400: "143,400", -1234567: "-1,234,567"} {
		if got := count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestWhileTheRecordingIsWrittenThereIsNoPercentageToGoBackwards(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	p1 := backend.ReplayProgress{Run: 2, Records: 22000, Total: 32954}
	p2 := backend.ReplayProgress{Run: 2, Records: 30000, Total: 60000}
	p3 := backend.ReplayProgress{Run: 2, Records: 100000, Total: 143400}
	p4 := backend.ReplayProgress{Run: 2, Records: 120000, Total: 143400}
	var last float64
	for i, p := range []backend.ReplayProgress{p1, p2, p3, p4} {
		m, _ = m.Update(p)
		got := ansi.Strip(m.View(&p, jobspec.CompletedTS, jobspec.MinWatermark))
		if i < 3 {
			if strings.Contains(got, "%") || !strings.Contains(got, "records written so far") {
				t.Errorf("report %d while writing: %q", i, got)
			}
			continue
		}
		if !strings.Contains(got, "84% · read 120,000 of 143,400 records") {
			t.Errorf("once written: %q", got)
		}
		last = 84
	}
	if last == 0 {
		t.Error("no percentage once the recording was written")
	}
}

func TestWhileTheRecordingIsWrittenTheBarCountsItsLinesAndNeverGoesBack(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	reports := []backend.ReplayProgress{
		{Run: 2, Records: 20000, Total: 30000, Written: 29000, Lines: 143400, Writing: true},
		{Run: 2, Records: 90000, Total: 100000, Written: 99000, Lines: 143400, Writing: true},
		{Run: 2, Records: 120000, Total: 143390, Written: 143390, Lines: 143400},
		{Run: 2, Records: 143390, Total: 143390, Written: 143390, Lines: 143400, Done: true},
	}
	wants := []string{"14% · read 20,000 of 143,400 records · written 29,000",
		"63% · read 90,000 of 143,400 records · written 99,000",
		"84% · read 120,000 of 143,390 records", "done: 143,390 records"}
	for i, p := range reports {
		m, _ = m.Update(p)
		got := ansi.Strip(m.View(&p, jobspec.CompletedTS, jobspec.MinWatermark))
		if !strings.Contains(got, wants[i]) {
			t.Errorf("report %d: %q lacks %q", i, got, wants[i])
		}
	}
}

func TestTheDoneLineSaysTheEventTimeTheHeaderShows(t *testing.T) {
	m := New(theme.New()).SetWidth(160)
	p := &backend.ReplayProgress{Path: "hour.jsonl.gz", Records: 143400, Total: 143400, Done: true, EventTime: 1795949627704}
	got := ansi.Strip(m.View(p, jobspec.CompletedTS, 1795949999975))
	if !strings.Contains(got, "event time reached 10:59:59.975") {
		t.Errorf("done line %q", got)
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestTheBarShowsEachStageOfAReplay: before the first report, reading (the count written
// no longer growing), the job still processing what it read, done, and failed, at 140
// cells.
func TestTheBarShowsEachStageOfAReplay(t *testing.T) {
	const et = 1795946400000 + 20*60000 // 10:20:00.000
	m := New(theme.New()).SetWidth(140)
	var lines []string
	for _, p := range []*backend.ReplayProgress{
		nil,
		{Run: 2, Records: 35850, Total: 143400, EventTime: et, Rate: 24000, Left: 4500 * time.Millisecond},
		{Run: 2, Records: 143400, Total: 143400, EventTime: et + 40*60000, Finishing: true},
		{Run: 2, Path: "/cache/lab-04-gateway-events.jsonl", Records: 143400, Total: 143400, EventTime: et + 40*60000, Rate: 24000, Done: true},
		{Run: 2, Records: 12, Err: errors.New("broker gone")},
	} {
		if p != nil {
			m, _ = m.Update(*p)
			m, _ = m.Update(*p)
		}
		lines = append(lines, m.View(p, jobspec.CompletedTS, jobspec.MinWatermark))
	}
	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
}
