package tui

import (
	"fmt"
	"runtime"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/tui/internal/fakebackend"
)

var tenants = []string{"acme", "globex", "initech", "umbrella", "hooli"}

// busyModel is a model at w x h holding rows rows of history (a fifth of them
// differing), full late and trace buffers, a mark every ten minutes and open windows.
func busyModel(tb testing.TB, w, h, rows int, lists bool) Model {
	tb.Helper()
	m := New(fakebackend.New(), Config{})
	mm, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m = mm.(Model)
	minutes := int64(rows / len(tenants))
	for min := int64(0); min < minutes; min++ {
		var rs []jobspec.Result
		for i, tn := range tenants {
			pt := 0.1 * float64(i+1)
			et := pt
			if (min+int64(i))%5 == 0 {
				et += 0.1
			}
			rs = append(rs, fired(jobspec.ProcessingTimeResult, tn, min, pt, int64(i+1)), fired(jobspec.EventTimeResult, tn, min, et, int64(i+1)))
		}
		for i := range 10 {
			rs = append(rs, jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
				RequestID: fmt.Sprintf("r-%d-%d", min, i), TenantID: tenants[i%5], Gateway: "gw-1",
				Timestamp: t0 + min*60000 + int64(i)*1000, EventWindowEnd: t0 + (min+1)*60000, ProcessingWindowEnd: t0 + (min+1)*60000}})
		}
		rs = append(rs, late(fmt.Sprintf("r-late-%d", min), "acme", "gw-1", t0+min*60000, t0+min*60000+61000, 0.1))
		m, _ = m.apply(backend.Update{Results: rs})
		if min%10 == 0 {
			m.sess.Mark(t0+min*60000+40000, "hiccup gw-1 mark")
		}
	}
	end := t0 + minutes*60000
	var open []jobspec.Result
	for _, tn := range tenants {
		open = append(open, fired(jobspec.ProcessingTimeResult, tn, minutes, 0.1, 1), fired(jobspec.EventTimeResult, tn, minutes, 0.1, 1))
		open[len(open)-1].Kind, open[len(open)-1].Window = jobspec.PendingResult, jobspec.EventTimeResult
		open[len(open)-2].Kind, open[len(open)-2].Window = jobspec.PendingResult, jobspec.ProcessingTimeResult
	}
	m, _ = m.apply(backend.Update{Status: status(end+2000, end+1500, open...)})
	if lists {
		m.showLate, m.showInspector = true, true
		m = m.relayout()
	}
	return m
}

func BenchmarkView200x60With10000Rows(b *testing.B) {
	for _, lists := range []bool{false, true} {
		name := "panes-and-lab"
		if lists {
			name = "with-late-and-inspector"
		}
		b.Run(name, func(b *testing.B) {
			m := busyModel(b, 200, 60, 10000, lists)
			if n := m.sess.Current().Table.Len(); n < 10000 {
				b.Fatalf("history holds %d rows", n)
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// TestViewAt200x60With10000RowsFillsTheScreen draws the panes over 10,000 rows; their
// speed is the benchmark's above (a timed test fails on a loaded machine).
func TestViewAt200x60With10000RowsFillsTheScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 rows")
	}
	m := busyModel(t, 200, 60, 10000, true)
	if lines := len(splitLines(m.View())); lines != 60 {
		t.Errorf("View() has %d lines, want 60", lines)
	}
}

// TestAnHourAt100RequestsASecondKeepsMemoryBounded feeds what an hour at 100 requests/s
// produces (a trace per request, the fired minutes, a late record per 100 requests) and
// checks the heap stays bounded.
func TestAnHourAt100RequestsASecondKeepsMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test")
	}
	m := New(fakebackend.New(), Config{})
	mm, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = mm.(Model)
	heap := func() uint64 {
		runtime.GC()
		var s runtime.MemStats
		runtime.ReadMemStats(&s)
		return s.HeapAlloc
	}
	before := heap()
	const perSecond = 100
	for sec := int64(0); sec < 3600; sec++ {
		now := t0 + sec*1000
		rs := make([]jobspec.Result, 0, perSecond+10)
		for i := range perSecond {
			rs = append(rs, jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{
				RequestID: fmt.Sprintf("r-%d-%d", sec, i), TenantID: tenants[i%5], Gateway: fmt.Sprintf("gw-%d", i%3),
				Timestamp: now, EventWindowEnd: now - now%60000 + 60000, ProcessingWindowEnd: now - now%60000 + 60000, USD: 0.01}})
		}
		rs = append(rs, late(fmt.Sprintf("l-%d", sec), "acme", "gw-1", now-30000, now, 0.1))
		if sec%60 == 59 {
			for _, tn := range tenants {
				rs = append(rs, both(tn, sec/60, 1.2, 1200)...)
			}
		}
		m, _ = m.apply(backend.Update{Results: rs, Status: status(now, now-200)})
		if sec%10 == 0 {
			_ = m.View()
		}
	}
	after := heap()
	grew := float64(after-min(after, before)) / (1 << 20)
	t.Logf("heap after an hour at %d requests/s: %.1f MiB more than at start", perSecond, grew)
	if grew > 150 {
		t.Errorf("the heap grew by %.1f MiB", grew)
	}
	if m.sess.Traces.Len() > m.sess.Traces.Cap() {
		t.Error("the trace buffer outgrew its cap")
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
