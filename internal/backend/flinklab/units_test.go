package flinklab

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
)

func TestPrintSinkKnowsTheJobsIdentifiersOnly(t *testing.T) {
	for line, want := range map[string]string{
		`event-time> {"tenant_id":"acme"}`:   "event-time",
		`event-time:2> {"tenant_id":"acme"}`: "event-time",
		`  processing-time:12> {}`:           "processing-time",
		`late> {"request_id":"r-1"}`:         "late",
		`trace> {}`:                          "trace",
		`malformed> {"reason":"x"}`:          "malformed",
		`malformed:1> {"reason":"x"}`:        "malformed",
		`event-time:x> {}`:                   "",
		`2026-01-01 INFO Task [] - sink> {x`: "",
		`some-other-sink> {"a":1}`:           "",
		`event-time> not json`:               "",
		`Starting Task Manager`:              "",
		`> {"tenant_id":"acme"}`:             "",
	} {
		got, ok := printSink(line)
		if got != want || ok != (want != "") {
			t.Errorf("printSink(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
}

func TestCommandLinesQuoteOnlyWhatAShellWouldSplit(t *testing.T) {
	got := commandLine([]string{"compose", "-p", "labtui-lab4", "-f", "my labs/docker-compose.yml", "info", "--format", "{{.ServerVersion}}", "it's", ""})
	want := `docker compose -p labtui-lab4 -f 'my labs/docker-compose.yml' info --format '{{.ServerVersion}}' 'it'\''s' ''`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFindComposeFileWalksUpToTheCheckout(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"compose", "labs", "cli/deep"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "compose", "docker-compose.yml"), []byte("name: labtui-lab4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Two folders up, spelt without a "../" literal: relayout.sh rewrites those as paths
	// from this package's folder, which this one is not.
	up2 := strings.Repeat(".."+string(filepath.Separator), 2)
	for dir, want := range map[string]string{root: "compose/docker-compose.yml", filepath.Join(root, "cli/deep"): up2 + "compose/docker-compose.yml"} {
		got, err := findComposeFile(dir)
		if err != nil || got != filepath.FromSlash(want) {
			t.Errorf("FindComposeFile(%s) = %q, %v; want %q", dir, got, err, want)
		}
	}
	if _, err := findComposeFile(t.TempDir()); err == nil || !strings.Contains(err.Error(), "compose-file") {
		t.Errorf("outside a checkout: %v", err)
	}
	// This package's own checkout has one.
	if got, err := findComposeFile("."); err != nil || got != filepath.FromSlash("../../../compose/docker-compose.yml") {
		t.Errorf("from backend/compose: %q, %v", got, err)
	}
}

func TestConfigRefusesWhatThePyFlinkJobCannotDo(t *testing.T) {
	prices := gateway.DefaultPrices()
	prices["nova-large"] = gateway.Price{InputPer1K: 1, OutputPer1K: 1}
	for name, cfg := range map[string]Config{
		"prices":             {Job: jobspec.Options{Prices: prices}},
		"window size":        {Job: jobspec.Options{WindowSize: 30_000}},
		"watermark interval": {Job: jobspec.Options{Watermarks: watermark.Strategy{Interval: 50 * time.Millisecond}}},
		"starting offsets":   {StartAt: "committed"},
	} {
		cfg.ComposeFile = "compose/docker-compose.yml"
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(Config{ComposeFile: "x.yml", Job: jobspec.Options{Prices: gateway.DefaultPrices(), Watermarks: watermark.Strategy{Interval: 200 * time.Millisecond}}}); err != nil {
		t.Errorf("the course's own options: %v", err)
	}
}

func TestBooksForgetEventTimeWindowsLongPastDue(t *testing.T) {
	b := newBooks()
	const end = 1767261660000
	b.add(&jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{TenantID: "acme", Watermark: end - 30_000,
		EventWindowEnd: end, Arrival: end - 10_000}})
	if n := len(b.openWindows(end - 5_000)); n != 2 {
		t.Fatalf("%d open windows, want 2", n)
	}
	b.watermark = end + jobspec.Minute
	if open := b.openWindows(end + jobspec.Minute); len(open) != 1 || open[0].Window != jobspec.ProcessingTimeResult {
		t.Errorf("a minute after the watermark passed it, the event-time window is still open: %+v", open)
	}
}

// The lab's job traces a record when it assembles the request, and its processing-time
// window takes the record later, when it reaches it: under backpressure minutes later.
// Each traced record is in one place, a printed result or the one open window, so a
// replay's processing-time windows never add up to more than the recording holds.
func TestBooksProcessingTimeOpenIsWhatNoResultCounted(t *testing.T) {
	b := newBooks()
	const m18 = 1796541480000 // 07:18
	trace := func(tenant string, usd float64, at int64) {
		b.add(&jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{TenantID: tenant, USD: usd, Arrival: at}})
	}
	fired := func(tenant string, start int64, usd float64, requests int64) {
		r := &jobspec.Result{Kind: jobspec.ProcessingTimeResult}
		r.Minute.TenantID, r.Minute.WindowStart, r.Minute.WindowEnd, r.Minute.USD, r.Minute.Requests = tenant, start, start+jobspec.Minute, usd, requests
		b.add(r)
	}
	for i := range 100 {
		trace("acme", 0.5, m18+int64(i)*100)
		trace("hooli", 0.25, m18+int64(i)*100)
	}
	// At 07:19:00 the job's 07:18 window had reached one of hooli's records only.
	fired("hooli", m18, 0.25, 1)
	open := b.openWindows(m18 + jobspec.Minute + 30_000)
	var requests int64
	var usd float64
	for _, w := range open {
		if w.Window != jobspec.ProcessingTimeResult {
			continue
		}
		if w.Minute.WindowStart != m18+jobspec.Minute {
			t.Errorf("%s's unfired records are open in the window from %d, want the current minute's, %d", w.Minute.TenantID, w.Minute.WindowStart, m18+jobspec.Minute)
		}
		requests += w.Minute.Requests
		usd += w.Minute.USD
	}
	if requests != 199 || math.Abs(usd-(50+24.75)) > 1e-9 {
		t.Errorf("open processing time: %d requests, $%.4f; want 199 and $74.75 (200 traced less 1 fired)", requests, usd)
	}
	// 07:19's window fires with the rest: nothing is open, nothing counted twice.
	fired("acme", m18+jobspec.Minute, 50, 100)
	fired("hooli", m18+jobspec.Minute, 24.75, 99)
	if open := b.openWindows(m18 + 2*jobspec.Minute + 1); len(open) != 0 {
		t.Errorf("after every traced record was in a printed result, still open: %+v", open)
	}
	// A result's line read before its records' traces leaves nothing open meanwhile.
	fired("acme", m18+2*jobspec.Minute, 1, 2)
	if open := b.openWindows(m18 + 3*jobspec.Minute); len(open) != 0 {
		t.Errorf("a result read before its traces opened a window: %+v", open)
	}
	trace("acme", 0.5, m18+3*jobspec.Minute)
	trace("acme", 0.5, m18+3*jobspec.Minute)
	if open := b.openWindows(m18 + 3*jobspec.Minute); len(open) != 0 {
		t.Errorf("traces of records already counted opened a window: %+v", open)
	}
}

// At the end of a replay no trace line carries the watermark that closed the hour (a
// Python operator's trace has the watermark of its bundle's start): a fired event-time
// window and a late record's watermark raise the books' watermark too, never lower it.
func TestBooksWatermarkIsTheHighestTheJobsLinesProve(t *testing.T) {
	b := newBooks()
	const end = 1767261660000
	b.add(&jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{TenantID: "acme", Watermark: end - 30_000, EventWindowEnd: end}})
	b.add(&jobspec.Result{Kind: jobspec.LateResult, Record: jobspec.RecordTrace{TenantID: "acme", Watermark: end + 5_000, EventWindowEnd: end}})
	if b.watermark != end+5_000 {
		t.Errorf("after a late record that met %d, the watermark is %d", end+5_000, b.watermark)
	}
	ev := &jobspec.Result{Kind: jobspec.EventTimeResult}
	ev.Minute.TenantID, ev.Minute.WindowStart, ev.Minute.WindowEnd = "acme", end+jobspec.Minute, end+2*jobspec.Minute
	b.add(ev)
	if want := int64(end + 2*jobspec.Minute - 1); b.watermark != want {
		t.Errorf("after the window ending %d fired, the watermark is %d, want %d", ev.Minute.WindowEnd, b.watermark, want)
	}
	b.add(&jobspec.Result{Kind: jobspec.TraceResult, Record: jobspec.RecordTrace{TenantID: "acme", Watermark: end, EventWindowEnd: end + jobspec.Minute}})
	if want := int64(end + 2*jobspec.Minute - 1); b.watermark != want {
		t.Errorf("a trace with an older watermark lowered it to %d, want %d", b.watermark, want)
	}
}

// twoWorkers is a Platform that gives the job two task slots, as labtui's own cluster does.
type twoWorkers struct{ topicPlatform }

func (*twoWorkers) PythonWorkers() int { return 2 }

// A job runs in two Python workers only on a platform that says it has the slots for
// them: labtui's own cluster, not the compose lab or a cluster a class shares.
func TestAJobRunsInTwoPythonWorkersWhereThePlatformGivesItTwoSlots(t *testing.T) {
	if w := pythonWorkers(&topicPlatform{}); w != 1 {
		t.Errorf("a platform that does not say: %d workers, want 1", w)
	}
	if w := pythonWorkers(&twoWorkers{}); w != 2 {
		t.Errorf("a platform with two slots: %d workers, want 2", w)
	}
	run := jobRun{topic: "gateway-events", startAt: "latest", field: jobspec.CompletedTS, forget: 600000}
	for _, c := range []struct {
		workers int
		want    string
	}{
		{0, ""},
		{1, ""},
		{2, " --python-workers 2"},
	} {
		run.workers = c.workers
		got := strings.Join(run.jobArgs("k:9092"), " ")
		want := "--bootstrap k:9092 --topic gateway-events --starting-offsets latest --timestamp completed_ts --out-of-orderness-ms 0 --forget-after-ms 600000" + c.want
		if got != want {
			t.Errorf("%d workers: %s\nwant %s", c.workers, got, want)
		}
	}
}
