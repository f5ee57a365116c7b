package session_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/inject"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/backend/embedded"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/memlimit"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/watermark"
)

const recordedHour = "../../labs/04-event-time-and-processing-time/data/recorded-hour.jsonl.gz"

// BenchmarkWalk is what the TUI's memory bound is measured by: the session and its
// embedded lab through a learner's walk, as the TUI drives them (one loop applying every
// update and finishing every task), under the TUI's own memory policy (memlimit.Apply).
// The walk: an hour of the live generator (the TUI's default, 20 requests/s over three
// instances) on a virtual clock, read by the lab's job, with a hiccup that holds gw-1's
// produce requests at its 40th minute; x (the job killed and started again, re-reading
// the topic); two strategy switches (bounded 40 s on completed_ts, then started_ts); then
// ten replays of the recorded hour (r, each waited for and its comparison worked out;
// every third with started_ts). On the virtual clock the hiccup lasts until gw-1's
// producer retries after its 35 virtual seconds, a few virtual minutes: more late
// records than the course's, not fewer.
//
// Its sub-benchmarks measure the same walk three ways, in one process one after the
// other, each from a reset peak (/proc/self/clear_refs, after the last one's memory is
// given back): lab-only is the baseline, the embedded lab alone under the same policy
// with every update read and dropped (what the walk costs without a session); tui is
// the TUI's figure; tui-unlimited is the session without the policy (Go's default
// collector), what the policy buys. Each reports the process's peak RSS (VmHWM), the
// peak live heap any collection found (peak-gc-live-MB), the heap's objects live or not
// yet swept (peak-heap-objects-MB), the memory the runtime held from the system
// (peak-mapped-MB), and gc-limited-cycles, the collections the sampler saw the runtime's
// GC CPU limiter on in (the limiter lets the heap pass the soft limit). Run it alone:
// go test ./internal/session -run '^$' -bench Walk -benchtime 1x. LABTUI_REPLAYS changes the
// number of replays.
func BenchmarkWalk(b *testing.B) {
	replays := 10
	if n, err := strconv.Atoi(os.Getenv("LABTUI_REPLAYS")); err == nil {
		replays = n
	}
	for _, c := range []struct {
		name           string
		session, limit bool
	}{{"lab-only", false, true}, {"tui", true, true}, {"tui-unlimited", true, false}} {
		b.Run(c.name, func(b *testing.B) {
			if c.limit {
				defer memlimit.Apply()()
			} else {
				defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
			}
			resetPeak(b)
			peaks := sampleMemory()
			defer peaks.stop()
			for i := 0; i < b.N; i++ {
				walk(b, c.session, replays)
			}
			b.ReportMetric(procStatusMB("VmHWM:"), "peak-RSS-MB")
			p := peaks.stop()
			b.ReportMetric(p.live, "peak-gc-live-MB")
			b.ReportMetric(p.objects, "peak-heap-objects-MB")
			b.ReportMetric(p.mapped, "peak-mapped-MB")
			b.ReportMetric(float64(p.limited), "gc-limited-cycles")
		})
	}
}

// walk is one learner's walk (see BenchmarkWalk); without a session, the lab's updates
// are read and dropped.
func walk(b *testing.B, withSession bool, replays int) {
	d := newDriver(b, withSession)
	produced := d.liveHour(b)
	hour := liveHeapMB()
	heapProfile(b, "hour")
	ctx := context.Background()
	if err := d.lab.RestartJob(ctx); err != nil {
		b.Fatal(err)
	}
	d.reread(b, produced)
	for _, f := range []jobspec.TimestampField{jobspec.CompletedTS, jobspec.StartedTS} {
		if err := d.lab.Reconfigure(ctx, f, watermark.Strategy{OutOfOrderness: 40 * time.Second}); err != nil {
			b.Fatal(err)
		}
		d.reread(b, produced)
	}
	peak := max(hour, liveHeapMB())
	for r := 0; r < replays; r++ {
		f := jobspec.CompletedTS
		if r%3 == 2 {
			f = jobspec.StartedTS
		}
		d.replay(b, f)
		peak = max(peak, liveHeapMB())
	}
	heapProfile(b, "end")
	if withSession {
		kept := make(chan [2]int)
		d.do <- func(s *session.Session) {
			var runs, results int
			for _, r := range s.Runs() {
				if r.Results.Len() > 0 {
					runs, results = runs+1, results+r.Results.Len()
				}
			}
			kept <- [2]int{runs, results}
		}
		k := <-kept
		b.ReportMetric(float64(k[0]), "runs-with-results")
		b.ReportMetric(float64(k[1]), "results-kept")
	}
	b.ReportMetric(hour, "hour-heap-MB")
	b.ReportMetric(liveHeapMB(), "end-heap-MB")
	b.ReportMetric(peak, "peak-heap-MB")
	d.close(b)
}

// resetPeak gives the memory the runtime holds back to the system and resets the
// process's peak RSS (VmHWM) to what it holds now.
func resetPeak(b *testing.B) {
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("the peak RSS is the process's since it began: %v", err)
	}
}

// memoryPeaks are the highest of the runtime's memory figures a sampler saw, in MB, and
// how many collections ran with the GC CPU limiter on.
type memoryPeaks struct {
	live, objects, mapped float64
	limited               int
}

// sampler reads the runtime's memory figures every 10 ms until stopped.
type sampler struct {
	quit chan struct{}
	done chan memoryPeaks
	last *memoryPeaks
}

func sampleMemory() *sampler {
	s := &sampler{quit: make(chan struct{}), done: make(chan memoryPeaks, 1)}
	go func() {
		names := []string{"/gc/heap/live:bytes", "/memory/classes/heap/objects:bytes", "/memory/classes/total:bytes",
			"/memory/classes/heap/released:bytes", "/gc/limiter/last-enabled:gc-cycle", "/gc/cycles/total:gc-cycles"}
		ms := make([]metrics.Sample, len(names))
		for i := range ms {
			ms[i].Name = names[i]
		}
		var p memoryPeaks
		limitedAt, cycle, profiles := uint64(0), uint64(0), 0
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(ms)
			mb := func(i int) float64 { return float64(ms[i].Value.Uint64()) / (1 << 20) }
			if c := ms[5].Value.Uint64(); c != cycle {
				// A heap profile is as of a collection or two ago: the two after a new
				// peak show what it held.
				cycle = c
				if mb(0) > p.live+1 {
					profiles = 3
				}
				if profiles > 0 {
					profiles--
					peakProfile(2 - profiles)
				}
			}
			p.live, p.objects = max(p.live, mb(0)), max(p.objects, mb(1))
			p.mapped = max(p.mapped, mb(2)-mb(3))
			if c := ms[4].Value.Uint64(); c != 0 && c != limitedAt {
				limitedAt = c
				p.limited++
			}
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

// stop ends the sampling (once) and returns its peaks.
func (s *sampler) stop() memoryPeaks {
	if s.last == nil {
		close(s.quit)
		p := <-s.done
		s.last = &p
	}
	return *s.last
}

// driver is the TUI's loop without a terminal: it applies every update of the lab to the
// session and runs the tasks the session returns, one at a time, handing each outcome
// back on the loop.
type driver struct {
	lab    *embedded.Lab
	sess   *session.Session
	cancel context.CancelFunc
	// idle takes a channel the loop closes once no task is running or waiting.
	idle chan chan struct{}
	do   chan func(*session.Session)
	done chan struct{}

	mu      sync.Mutex
	applied applied
}

// applied is how far the lab's updates have come through the loop: applied to the
// session, or, without one, read and dropped. Updates come in the order things happened
// (backend.Update), so a status applied means every result the job wrote before it was
// applied too.
type applied struct {
	// run is the newest run an update named; events is what the newest status of that
	// run counted the job had read (jobspec.Stats.Events).
	run    int
	events int64
	// replayDone is the run of the last replay completion (ReplayProgress.Done), which
	// the backend sends after every result of the replay.
	replayDone int
}

// note records that the loop has applied (or dropped) u.
func (d *driver) note(u backend.Update) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a := &d.applied
	if u.Run > a.run {
		a.run, a.events = u.Run, 0
	}
	if u.Status != nil && u.Run == a.run {
		a.events = u.Status.Job.Events
	}
	if u.Replay != nil && u.Replay.Done {
		a.replayDone = u.Run
	}
}

// await waits until ok holds of what the loop has applied, looking every 10 ms, and
// fails the benchmark with what after limit.
func (d *driver) await(b *testing.B, limit time.Duration, ok func(applied) bool, what func(applied) string) {
	b.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(10 * time.Millisecond) {
		d.mu.Lock()
		a := d.applied
		d.mu.Unlock()
		if ok(a) {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("after %s: %s", limit, what(a))
		}
	}
}

func newDriver(b *testing.B, withSession bool) *driver {
	// As the TUI configures it (cli.newBackend): a trace per record, every result delivered.
	lab, err := embedded.New(embedded.Config{BrokerAddr: "127.0.0.1:0", Job: jobspec.Options{Trace: true}, Lossless: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &driver{lab: lab, cancel: cancel, idle: make(chan chan struct{}), do: make(chan func(*session.Session)), done: make(chan struct{})}
	if withSession {
		d.sess = session.New(session.Config{Recording: recordedHour, Reenact: func(ctx context.Context, path string, job jobspec.Options) ([]jobspec.Result, error) {
			return reenact.Results(ctx, path, reenact.Config{Pace: reenact.Recorded, Job: job})
		}})
	}
	go d.loop(ctx)
	return d
}

// loop is the TUI's update loop: updates and task outcomes, one at a time; without a
// session, updates are read and dropped.
func (d *driver) loop(ctx context.Context) {
	defer close(d.done)
	if d.sess == nil {
		d.drop(ctx)
		return
	}
	outcomes := make(chan session.Outcome)
	var queue []session.Task
	running := false
	var settling []chan struct{} // closed once no task runs or waits
	answer := func() {
		if running || len(queue) > 0 {
			return
		}
		for _, c := range settling {
			close(c)
		}
		settling = nil
	}
	start := func(ts []session.Task) {
		queue = append(queue, ts...)
		if running || len(queue) == 0 {
			return
		}
		t := queue[0]
		queue = queue[1:]
		running = true
		go func() { outcomes <- t.Run(ctx) }()
	}
	updates := d.lab.Updates()
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				return
			}
			start(d.sess.Apply(u))
			d.note(u)
		case o := <-outcomes:
			running = false
			start(d.sess.Finish(o))
			answer()
		case f := <-d.do:
			f(d.sess)
		case c := <-d.idle:
			settling = append(settling, c)
			answer()
		case <-ctx.Done():
			return
		}
	}
}

// drop reads the lab's updates and drops them, answering as loop does.
func (d *driver) drop(ctx context.Context) {
	updates := d.lab.Updates()
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				return
			}
			d.note(u)
		case <-d.do:
		case c := <-d.idle:
			close(c)
		case <-ctx.Done():
			return
		}
	}
}

// settle waits until no task of the session is running or waiting: the tasks the updates
// applied so far started, and those their outcomes started in turn.
func (d *driver) settle(b *testing.B) {
	idle := make(chan struct{})
	d.idle <- idle
	select {
	case <-idle:
	case <-time.After(5 * time.Minute):
		b.Fatal("the session's tasks did not finish in 5 minutes")
	}
}

// liveHour runs the generator for an hour on a virtual clock into the lab's live topic,
// with a hiccup that holds gw-1 from the 40th minute for 35 virtual seconds, waits until
// the lab's job has read all of it, and returns how many events the hour has.
func (d *driver) liveHour(b *testing.B) int64 {
	end := time.Now().Truncate(time.Minute)
	start := end.Add(-time.Hour)
	clock := &gatedClock{VirtualClock: generator.NewVirtualClock(start), gate: start.Add(40 * time.Minute), open: make(chan struct{})}
	cfg := generator.Defaults()
	cfg.Brokers, cfg.Topic = []string{d.lab.Addr()}, broker.DefaultTopic
	in := inject.New(cfg.Instances, inject.WithClock(clock))
	gen, err := generator.New(cfg, generator.WithClock(clock), generator.WithUntil(end.UnixMilli()), generator.WithDialer(in.Dialer))
	if err != nil {
		b.Fatal(err)
	}
	if err := gen.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	// The clock stops short of the 40th minute until the hold is on, however fast the
	// generator runs.
	for deadline := time.Now().Add(time.Minute); !clock.waiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("the generator did not reach the hiccup's minute in a minute")
		}
	}
	if _, err := in.Start(1, 35*time.Second); err != nil {
		b.Fatal(err)
	}
	close(clock.open)
	<-gen.Done()
	if err := gen.Stop(context.Background()); err != nil {
		b.Fatal(err)
	}
	produced := generator.Total(gen.Stats()).Acked
	d.reread(b, produced)
	b.ReportMetric(float64(produced), "live-events")
	return produced
}

// gatedClock is a virtual clock that holds every sleep until gate or later until open is
// closed: the generator stops just short of gate while the benchmark starts a hiccup.
type gatedClock struct {
	*generator.VirtualClock
	gate    time.Time
	open    chan struct{}
	blocked atomic.Int32
}

func (c *gatedClock) SleepUntil(ctx context.Context, t time.Time) error {
	if !t.Before(c.gate) {
		select {
		case <-c.open:
		default:
			c.blocked.Add(1)
			select {
			case <-c.open:
			case <-ctx.Done():
				c.blocked.Add(-1)
				return ctx.Err()
			}
			c.blocked.Add(-1)
		}
	}
	return c.VirtualClock.SleepUntil(ctx, t)
}

// waiting reports whether a sleep is held at the gate.
func (c *gatedClock) waiting() bool { return c.blocked.Load() > 0 }

// reread waits until the lab's job has read the live hour's events and what it wrote
// meanwhile has reached the session: a status of the job's run counting them all is
// applied, after every result before it.
func (d *driver) reread(b *testing.B, produced int64) {
	run := d.lab.Run()
	d.await(b, 3*time.Minute, func(a applied) bool { return a.run == run && a.events >= produced }, func(a applied) string {
		return fmt.Sprintf("run %d of the lab's job read %d of the hour's %d events; the session has run %d's status of %d",
			run, d.lab.Status().Job.Events, produced, a.run, a.events)
	})
	d.settle(b)
}

// replay is `r`: the recorded hour replayed with field, waited for, and its comparison
// worked out.
func (d *driver) replay(b *testing.B, field jobspec.TimestampField) {
	d.do <- func(s *session.Session) { s.ReplayAsked(recordedHour, field) } // as the TUI does, before the replay starts
	if err := d.lab.Replay(context.Background(), recordedHour, field); err != nil {
		b.Fatal(err)
	}
	// Replay returns once its completion is queued, after the replay's every result.
	run := d.lab.Run()
	d.await(b, time.Minute, func(a applied) bool { return a.replayDone == run }, func(a applied) string {
		return fmt.Sprintf("the completion of the replay (run %d) has not reached the session, which has run %d's", run, a.replayDone)
	})
	d.settle(b)
}

func (d *driver) close(b *testing.B) {
	if err := d.lab.Close(); err != nil {
		b.Log(err)
	}
	<-d.done
	d.cancel()
}

// heapProfile writes a heap profile to $LABTUI_HEAPPROFILE-name.pb.gz when that is set,
// to see what holds the memory: go tool pprof -sample_index=inuse_space.
func heapProfile(b *testing.B, name string) {
	prefix := os.Getenv("LABTUI_HEAPPROFILE")
	if prefix == "" {
		return
	}
	f, err := os.Create(prefix + "-" + name + ".pb.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// peakProfile writes a heap profile to $LABTUI_HEAPPROFILE-peak-N.pb.gz when that is
// set: the sampler calls it at the collections that follow a new peak of the live heap.
func peakProfile(n int) {
	prefix := os.Getenv("LABTUI_HEAPPROFILE")
	if prefix == "" {
		return
	}
	f, err := os.Create(prefix + "-peak-" + strconv.Itoa(n) + ".pb.gz")
	if err != nil {
		return
	}
	defer f.Close()
	pprof.WriteHeapProfile(f)
}

// liveHeapMB is the heap in use after a collection, in MB.
func liveHeapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// procStatusMB reads one of the process's memory figures (VmHWM:, VmRSS:) from /proc,
// in MB; 0 where there is no /proc.
func procStatusMB(field string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
