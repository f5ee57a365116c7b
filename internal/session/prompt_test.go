package session

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/state"
	"github.com/labtui/labtui/labs/lab4"
)

// timed is one request as a job meets it: it completed at ts, reached the windows at
// proc and labtui read its trace at read.
type timed struct {
	tenant         string
	ts, proc, read int64
	usd            float64
}

// recordedMinutes are the updates of a live run with records: each record's trace, as a
// real job writes it (no processing-time window, Arrival when labtui read it) or, exact,
// as the embedded job does, then both windows of each minute as the job fired them, and
// a status past the last with the run's measured latency.
func recordedMinutes(rs []timed, minutesN int64, exact bool, latency time.Duration) []backend.Update {
	var traces []jobspec.Result
	for i, r := range slices.Clone(rs) {
		t := jobspec.RecordTrace{RequestID: "r-" + string(rune('a'+i%26)), TenantID: r.tenant, Gateway: "gw-0", Timestamp: r.ts,
			Arrival: r.read, EventWindowEnd: r.ts - r.ts%60000 + 60000, USD: r.usd}
		if exact {
			t.Arrival, t.ProcessingWindowEnd = r.proc, r.proc-r.proc%60000+60000
		}
		traces = append(traces, jobspec.Result{Kind: jobspec.TraceResult, Record: t})
	}
	slices.SortStableFunc(traces, func(a, b jobspec.Result) int { return int(a.Record.Arrival - b.Record.Arrival) })
	var ups []backend.Update
	ups = append(ups, backend.Update{Results: traces})
	type key struct {
		tenant string
		m      int64
	}
	sum := func(at func(timed) int64) map[key][2]float64 {
		out := map[key][2]float64{}
		for _, r := range rs {
			k := key{r.tenant, (at(r) - t0) / 60000}
			v := out[k]
			v[0] += r.usd
			v[1]++
			out[k] = v
		}
		return out
	}
	pt, et := sum(func(r timed) int64 { return r.proc }), sum(func(r timed) int64 { return r.ts })
	var windows []jobspec.Result
	for m := range minutesN {
		for _, tenant := range []string{"acme", "globex"} {
			if v, ok := pt[key{tenant, m}]; ok {
				windows = append(windows, fired(jobspec.ProcessingTimeResult, tenant, m, v[0], int64(v[1])))
			}
			if v, ok := et[key{tenant, m}]; ok {
				windows = append(windows, fired(jobspec.EventTimeResult, tenant, m, v[0], int64(v[1])))
			}
		}
	}
	st := status(t0+minutesN*60000+2000, t0+minutesN*60000+1500)
	st.Latency = latency
	return append(ups, backend.Update{Results: windows, Status: st})
}

// promptRequests are minutes 10:00 to 10:05 of requests that trail their completed_ts by
// lag (to the windows) and lag+50 ms (to labtui): acme's at :05, :20, :40 and :59.8,
// globex's at :30, so each minute's last acme request is processed in the next (and
// costs a little more each minute: the windows differ by that).
func promptRequests(lag int64, minutesN int64) []timed {
	var rs []timed
	for m := range minutesN {
		for i, sec := range []int64{5000, 20000, 40000, 59800} {
			ts := t0 + m*60000 + sec
			rs = append(rs, timed{"acme", ts, ts + lag, ts + lag + 50, 0.01*float64(i+1) + 0.001*float64(m)})
		}
		ts := t0 + m*60000 + 30000
		rs = append(rs, timed{"globex", ts, ts + lag, ts + lag + 50, 0.05})
	}
	return rs
}

func TestMinutesThatDifferOnlyByRecordsCrossingWithinTheLatencyTick41OnARealJob(t *testing.T) {
	// Given a real job's run whose records reach the windows 0.35 s after completed_ts
	// (0.4 s to labtui), so every minute's last acme request is billed by processing time
	// in the next minute, when its windows and traces arrive,
	l := newLab()
	l.started()
	for _, u := range recordedMinutes(promptRequests(350, 6), 6, false, 400*time.Millisecond) {
		l.apply(u)
	}
	// then every minute after the first differs, and each counts, explained.
	f := l.h.Finding("4.1")
	if f == nil || !f.Met || !l.t.done("4.1") {
		t.Fatalf("4.1 not met: %+v", f)
	}
	a := f.Agreement
	if !slices.Equal(a.Minutes, []int64{t0 + 60000, t0 + 120000, t0 + 180000, t0 + 240000, t0 + 300000}) || len(a.Crossed) != 5 {
		t.Fatalf("minutes %v, crossed %+v", a.Minutes, a.Crossed)
	}
	x := a.Crossed[0]
	if x.In.Records != 1 || x.Out.Records != 1 || x.LagMS != 400 || a.LatencyMS != 400 || a.PromptMS != 1700 {
		t.Errorf("crossed = %+v, latency %d, prompt %d", x, a.LatencyMS, a.PromptMS)
	}
	sent := lab4.Sentence(f)
	for _, want := range []string{"the 5 minutes 10:01, 10:02, 10:03, 10:04 and 10:05 agree tenant by tenant in both windows (10 rows, " +
		"$0.8100 and 25 requests by event time), with no hiccup, restart or late record in them; 10:01, 10:02, 10:03, 10:04 and 10:05 " +
		"differ between the windows only by requests that completed just before a minute's end and reached the job after it, which " +
		"processing time bills in the next minute (6 requests, $0.2550, each at the job at most 0.40 s after it completed); " +
		"the run's results trail their records by 0.40 s (the median), so a record that reaches the job within 1.70 s is prompt."} {
		if !strings.Contains(sent, want) {
			t.Errorf("sentence %q\nlacks %q", sent, want)
		}
	}
}

func TestTheEmbeddedJobsExactWindowsExplainACrossingToo(t *testing.T) {
	l := newLab()
	l.started()
	for _, u := range recordedMinutes(promptRequests(250, 6), 6, true, 5*time.Millisecond) {
		l.apply(u)
	}
	if f := l.h.Finding("4.1"); f == nil || !f.Met || len(f.Agreement.Crossed) != 5 || f.Agreement.PromptMS != 515 {
		t.Fatalf("finding %+v", f.Agreement)
	}
}

func TestARecordThatCrossedLaterThanTheLatencyAllowsSpoilsItsMinutesAsAStall(t *testing.T) {
	// Given the prompt run, but 10:02's last acme request (completed 10:02:59.800)
	// reached the windows 4 s later, at 10:03:03.800,
	rs := promptRequests(350, 6)
	for i := range rs {
		if rs[i].ts == t0+2*60000+59800 {
			rs[i].proc, rs[i].read = rs[i].ts+4000, rs[i].ts+4050
		}
	}
	l := newLab()
	l.started()
	for _, u := range recordedMinutes(rs, 6, false, 400*time.Millisecond) {
		l.apply(u)
	}
	// then 10:02 and 10:03 are left out, named as a stall with the lag and the latency.
	f := l.h.Finding("4.1")
	if f == nil || f.Met {
		t.Fatalf("4.1 met from a stalled minute: %+v", f)
	}
	var stalled []int64
	for _, m := range f.Agreement.Spoiled {
		if m.Cause == state.SpoilStall {
			stalled = append(stalled, m.Start)
		}
	}
	if !slices.Equal(stalled, []int64{t0 + 120000, t0 + 180000}) {
		t.Errorf("stalled minutes %v of %+v", stalled, f.Agreement.Spoiled)
	}
	want := "10:02 and 10:03, a request that completed at 10:02:59.800, just before a minute's end, reached the job 4.05 s after it, " +
		"beyond the 1.70 s the run's latency (0.40 s) allows, and processing time billed it in the next minute: the job or the machine stalled"
	if sent := lab4.Sentence(f); !strings.Contains(sent, want) {
		t.Errorf("sentence %q\nlacks %q", sent, want)
	}
}

func TestDifferingMinutesWithoutTracesOrLatencyNeverTick41(t *testing.T) {
	// Given the prompt run's windows but none of its traces (a run whose results were
	// not delivered), or its traces with no latency measured,
	ups := recordedMinutes(promptRequests(350, 6), 6, false, 400*time.Millisecond)
	for name, u := range map[string][]backend.Update{"no traces": ups[1:], "no latency": ups} {
		l := newLab()
		l.started()
		for _, x := range u {
			if name == "no latency" && x.Status != nil {
				st := *x.Status
				st.Latency = 0
				x.Status = &st
			}
			l.apply(x)
		}
		// then no minute counts (each differs, and nothing tells what crossed), and
		// the run cannot be pinned to 4.1.
		if f := l.h.Finding("4.1"); f != nil || l.t.done("4.1") {
			t.Fatalf("%s: finding %+v", name, f)
		}
		if err := l.h.pin("4.1", 1); err == nil {
			t.Errorf("%s: run 1 pinned to 4.1", name)
		}
	}
}

func TestARunWhoseEveryMinuteIsSpoiledSaysWhyWhenItCannotBack41(t *testing.T) {
	// Given a real job's run in which every minute's last acme request reached the
	// windows 4 s after it completed, ten times the run's latency,
	rs := promptRequests(350, 6)
	for i := range rs {
		if rs[i].ts%60000 == 59800 {
			rs[i].proc, rs[i].read = rs[i].ts+4000, rs[i].ts+4050
		}
	}
	l := newLab()
	l.started()
	for _, u := range recordedMinutes(rs, 6, false, 400*time.Millisecond) {
		l.apply(u)
	}
	// then no minute counts, and the run's choice for 4.1 names what left its minutes
	// out, not only that none counts.
	if f := l.h.Finding("4.1"); f != nil {
		t.Fatalf("4.1 found from stalled minutes: %+v", f)
	}
	choices := l.h.PinChoices("4.1")
	if len(choices) != 1 {
		t.Fatalf("choices %+v", choices)
	}
	why := choices[0].Why
	for _, want := range []string{"no whole minute yet where both windows agree with prompt events (left out: ",
		"reached the job 4.05 s after it, beyond the 1.70 s the run's latency (0.40 s) allows", "the job or the machine stalled, and 5 minutes before it)"} {
		if !strings.Contains(why, want) {
			t.Errorf("why %q\nlacks %q", why, want)
		}
	}
}
