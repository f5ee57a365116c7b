package tui

import (
	"context"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

const recordedHour = "../" + DefaultRecording

// hourModel is a model at w x h after a replay of the recorded hour (read fast, on a
// clock that moves a millisecond every 100 records), compared with its re-enactment,
// with view v open.
func hourModel(tb testing.TB, w, h int, v string) Model {
	tb.Helper()
	if testing.Short() {
		tb.Skip("replays the recorded hour")
	}
	src, err := recording.Open(context.Background(), recordedHour)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	now, n := replayStart, 0
	var results, open []jobspec.Result
	_, err = reenact.Run(context.Background(), src, reenact.Config{Pace: reenact.Fast, Job: jobspec.Options{Trace: true},
		Now: func() int64 { n++; return now + int64(n/100) }}, func(r jobspec.Result) {
		if r.Kind == jobspec.PendingResult {
			open = append(open, r)
		} else {
			results = append(results, r)
		}
	}, func(int, error) {})
	if err != nil {
		tb.Fatal(err)
	}
	m := New(fakebackend.New(), Config{Recording: recordedHour, Reenact: testReenact})
	m = update(tb, m, resize(w, h))
	m.sess.ReplayAsked(m.cfg.Recording, jobspec.CompletedTS)
	m, _ = m.apply(backend.Update{Restarted: &backend.Restart{Cause: backend.CauseReplay, Reason: "replay", Timestamp: jobspec.CompletedTS, At: replayStart}})
	m, _ = m.apply(backend.Update{Results: results, Status: status(now+2000, jobspec.MinWatermark, open...)})
	m, cmd := m.apply(backend.Update{Replay: &backend.ReplayProgress{Path: recordedHour, Records: 143400, Total: 143400, Done: true}})
	m.sess.ReplayReturned() // the backend's Replay call returns after its Done
	for _, msg := range run(tb, cmd) {
		m = update(tb, m, msg)
	}
	return update(tb, m, keyPress(v))
}

func BenchmarkViewOfTheRecordedHour200x60(b *testing.B) {
	for _, v := range []string{"d", "s"} {
		name := map[string]string{"d": "diff", "s": "skew"}[v]
		b.Run(name, func(b *testing.B) {
			m := hourModel(b, 200, 60, v)
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// TestDiffAndSkewViewsShowTheRecordedHour opens both views on the recorded hour's
// replay: each has its content and fills the screen. Their speed is
// BenchmarkViewOfTheRecordedHour200x60's (a timed test failed on a loaded machine).
func TestDiffAndSkewViewsShowTheRecordedHour(t *testing.T) {
	for _, v := range []string{"d", "s"} {
		m := hourModel(t, 200, 60, v)
		if v == "d" && m.diffView.Content() == nil {
			t.Fatal("the diff view has no comparison")
		}
		if v == "s" && m.skewView.Built(m.sess.Current().ID, m.sess.Current().Results.Len()) == nil {
			t.Fatal("the skew view has no picture")
		}
		if n := len(splitLines(m.View())); n != 60 {
			t.Errorf("View() has %d lines, want 60", n)
		}
	}
}
