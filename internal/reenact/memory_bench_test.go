package reenact

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
)

// BenchmarkRecordedPaceMemory is `labtui replay --pace recorded --drain` of simulated
// recordings 1 and 10 hours long (`labtui record --simulate --seed 10 --start
// 2026-11-29T00:00:00Z --duration Nh`, .jsonl.gz), with and without traces, the results
// thrown away as they come: what a replay holds while it runs must not grow with the
// recording. It reports the peak live heap any collection found (peak-live-MB) and the
// peak memory the runtime held from the system (peak-mapped-MB), sampled every 5 ms.
// LABTUI_BENCH_HOURS lists other lengths (e.g. "1,10,100"; 100 hours is 340 MB of
// .jsonl.gz and takes minutes to make). The recordings are kept in
// $TMPDIR/labtui-bench-recordings for the next run. Run it alone, -benchtime 1x.
func BenchmarkRecordedPaceMemory(b *testing.B) {
	hours := []int{1, 10}
	if s := os.Getenv("LABTUI_BENCH_HOURS"); s != "" {
		hours = nil
		for _, h := range filepath.SplitList(strings.ReplaceAll(s, ",", string(filepath.ListSeparator))) {
			n, err := strconv.Atoi(h)
			if err != nil || n <= 0 {
				b.Fatalf("LABTUI_BENCH_HOURS=%q: %q is no number of hours", s, h)
			}
			hours = append(hours, n)
		}
	}
	for _, h := range hours {
		for _, trace := range []bool{false, true} {
			b.Run("hours="+strconv.Itoa(h)+"/trace="+strconv.FormatBool(trace), func(b *testing.B) {
				path := simulatedHours(b, h)
				var results int64
				var peaks memoryPeaks
				for b.Loop() {
					runtime.GC()
					s := sampleMemory()
					r, err := recording.Open(context.Background(), path)
					if err != nil {
						b.Fatal(err)
					}
					_, err = Run(context.Background(), r, Config{Pace: Recorded, Drain: true, Job: jobspec.Options{Trace: trace}},
						func(jobspec.Result) { results++ }, func(int, error) { b.Fatal("bad line") })
					r.Close()
					if err != nil {
						b.Fatal(err)
					}
					p := s.stop()
					peaks.live, peaks.mapped = max(peaks.live, p.live), max(peaks.mapped, p.mapped)
				}
				b.ReportMetric(peaks.live, "peak-live-MB")
				b.ReportMetric(peaks.mapped, "peak-mapped-MB")
				b.ReportMetric(float64(results)/float64(b.N), "results/op")
			})
		}
	}
}

// simulatedHours returns the path of a simulated recording h hours long, making it the
// first time.
func simulatedHours(b *testing.B, h int) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "labtui-bench-recordings")
	path := filepath.Join(dir, "seed10-"+strconv.Itoa(h)+"h.jsonl.gz")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	fleet := generator.Defaults()
	fleet.Seed = 10
	tmp := filepath.Join(dir, "partial-"+filepath.Base(path)) // compressed as its name says
	w, err := recording.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := recording.Simulate(context.Background(), recording.SimConfig{Generator: fleet,
		Start: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Duration: time.Duration(h) * time.Hour}, w.Write); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// memoryPeaks are the peaks a sampler saw, in MiB.
type memoryPeaks struct{ live, mapped float64 }

// sampler reads the runtime's memory figures every 5 ms until stopped.
type sampler struct {
	quit chan struct{}
	done chan memoryPeaks
}

func sampleMemory() *sampler {
	s := &sampler{quit: make(chan struct{}), done: make(chan memoryPeaks, 1)}
	go func() {
		ms := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		var p memoryPeaks
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(ms)
			mb := func(i int) float64 { return float64(ms[i].Value.Uint64()) / (1 << 20) }
			p.live, p.mapped = max(p.live, mb(0)), max(p.mapped, mb(1)-mb(2))
			select {
			case <-s.quit:
				s.done <- p
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// stop ends the sampling and returns its peaks.
func (s *sampler) stop() memoryPeaks {
	close(s.quit)
	return <-s.done
}
