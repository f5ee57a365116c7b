package embedded

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/livejob"
)

// BenchmarkSimulatedHourLiveRun runs an hour of the live lab at 100 requests/s on a
// simulated clock, as fast as it goes: the fleet on a virtual clock produces into the
// embedded broker and the job reads all of it, its processing time on the same clock
// (which races ahead of the job, so most windows are still open at the end: this measures
// memory, not results). It reports the process's peak RSS (run it
// alone: -run '^$' -bench SimulatedHour) and how long the hour took.
func BenchmarkSimulatedHourLiveRun(b *testing.B) {
	simulated := time.Hour
	if d, err := time.ParseDuration(os.Getenv("LABTUI_SIMULATED")); err == nil {
		simulated = d // a shorter run to look at, e.g. LABTUI_SIMULATED=5m
	}
	for i := 0; i < b.N; i++ {
		br, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
		clock := generator.NewVirtualClock(start)
		cfg := generator.Defaults()
		cfg.Rate, cfg.Brokers, cfg.Topic = 100, []string{br.Addr()}, br.Topic()
		gen, err := generator.New(cfg, generator.WithClock(clock), generator.WithUntil(start.Add(simulated).UnixMilli()))
		if err != nil {
			b.Fatal(err)
		}
		job, err := livejob.Start(context.Background(), livejob.Config{Brokers: []string{br.Addr()}, Topic: br.Topic(),
			Now: clock.Now, Job: jobspec.Options{}}, func(jobspec.Result) {})
		if err != nil {
			b.Fatal(err)
		}
		if err := gen.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		<-gen.Done()
		if err := gen.Stop(context.Background()); err != nil {
			b.Fatal(err)
		}
		produced := generator.Total(gen.Stats()).Acked
		// The generator is done, and nothing moves the virtual clock any more; in a live run
		// the wall clock goes on while the job catches up, its watermark ticks with it, and
		// expired state is dropped. Keep the clock moving (200 ms a millisecond) so the job
		// runs as it would live; a frozen clock would freeze the watermark and keep every
		// request's forget timer.
		stopClock := make(chan struct{})
		clockDone := make(chan struct{})
		go func() {
			defer close(clockDone)
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stopClock:
					return
				case <-tick.C:
					clock.SleepUntil(context.Background(), clock.Now().Add(200*time.Millisecond))
				}
			}
		}()
		deadline := time.Now().Add(2 * time.Minute)
		for job.Snapshot().Consumed < produced {
			if time.Now().After(deadline) {
				b.Fatalf("the job consumed %d of %d events and stopped", job.Snapshot().Consumed, produced)
			}
			time.Sleep(10 * time.Millisecond)
		}
		close(stopClock)
		<-clockDone
		final, _ := job.Stop()
		br.Close()
		if final.Stats.Records < int64(simulated.Seconds()*100*0.9) {
			b.Fatalf("%s at 100 requests/s assembled only %d records", simulated, final.Stats.Records)
		}
		b.ReportMetric(float64(produced), "events")
	}
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
}

// peakRSSMB reads the process's peak resident set (VmHWM) from /proc; 0 where there is
// no /proc.
func peakRSSMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
