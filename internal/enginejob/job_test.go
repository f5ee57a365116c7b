package enginejob

import (
	"errors"
	"fmt"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/watermark"
	"strconv"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/engine"
	"github.com/labtui/labtui/internal/gateway"
)

const t0 = int64(1_795_946_400_000) // 2026-11-29T10:00:00Z

// at is a time t0 + m minutes + s seconds.
func at(m, s int64) int64 { return t0 + m*60_000 + s*1_000 }

// jobHarness feeds a Job events at arrival times and collects its results as jsonl.
type jobHarness struct {
	t   *testing.T
	job *Job
	got []string
}

func newJob(t *testing.T, opts jobspec.Options) *jobHarness {
	t.Helper()
	h := &jobHarness{t: t}
	job, err := New(engine.NewRuntime(t0), opts, func(r jobspec.Result) { h.got = append(h.got, string(r.AppendJSON(nil))) })
	if err != nil {
		t.Fatal(err)
	}
	h.job = job
	return h
}

func started(id, tenant string, ts int64) gateway.Event {
	return gateway.Event{Type: gateway.RequestStarted, RequestID: id, TenantID: tenant, Model: "flat-10c", Gateway: "gw-0", TS: ts, PromptTokens: 1000}
}

func completed(id, tenant string, ts int64) gateway.Event {
	return gateway.Event{Type: gateway.RequestCompleted, RequestID: id, TenantID: tenant, Model: "flat-10c", Gateway: "gw-0", TS: ts, CompletionTokens: 1000}
}

// feed delivers ev at processing time arrival.
func (h *jobHarness) feed(arrival int64, ev gateway.Event) {
	h.job.Advance(arrival)
	h.job.ProcessEvent(0, &ev, ev.TS)
}

func (h *jobHarness) take(kinds ...string) []string {
	var out []string
	for _, l := range h.got {
		for _, k := range kinds {
			if strings.HasPrefix(l, `{"sink":"`+k+`"`) {
				out = append(out, l)
			}
		}
	}
	h.got = nil
	return out
}

func TestRecordTakesTheTimestampOfItsSecondEvent(t *testing.T) {
	h := newJob(t, jobspec.Options{Trace: true})
	// The completion arrives first (another partition overtook it); the start second.
	h.feed(at(0, 20), completed("r-1", "acme", at(0, 20)))
	h.feed(at(1, 2), started("r-1", "acme", at(0, 58)))
	traces := h.take("trace")
	if len(traces) != 1 || !strings.Contains(traces[0], `"timestamp":1795946458000`) {
		t.Fatalf("the record should carry started_ts, the second event's timestamp: %v", traces)
	}
}

func TestStartedTSMovesARequestToTheMinuteItStarted(t *testing.T) {
	for _, c := range []struct {
		field jobspec.TimestampField
		start int64
	}{{jobspec.CompletedTS, at(1, 0)}, {jobspec.StartedTS, at(0, 0)}} {
		h := newJob(t, jobspec.Options{Timestamp: c.field})
		h.feed(at(0, 58), started("r-1", "acme", at(0, 58)))
		h.feed(at(1, 20), completed("r-1", "acme", at(1, 20)))
		h.job.Advance(at(1, 21))
		h.job.Drain()
		got := h.take("event-time")
		if len(got) != 1 || !strings.Contains(got[0], `"window_start":`+itoa(c.start)) {
			t.Fatalf("%s: %v", c.field, got)
		}
	}
}

func TestStartedTSWatermarksComeFromTheSecondAssigner(t *testing.T) {
	// Under started_ts the window's watermark follows started_ts: a request that started
	// long ago is late against one that started later, even if it completed first.
	h := newJob(t, jobspec.Options{Timestamp: jobspec.StartedTS})
	h.feed(at(1, 0), started("r-1", "acme", at(1, 0)))
	h.feed(at(1, 5), completed("r-1", "acme", at(1, 5)))
	h.job.Advance(at(1, 6)) // a tick: the window's watermark is now 10:00:59.999
	h.feed(at(1, 10), started("r-2", "acme", at(0, 50)))
	h.feed(at(1, 30), completed("r-2", "acme", at(1, 30)))
	late := h.take("late")
	if len(late) != 1 || !strings.Contains(late[0], `"request_id":"r-2"`) || !strings.Contains(late[0], `"watermark":1795946459999`) {
		t.Fatalf("late under started_ts: %v", late)
	}
}

func TestAssemblerForgetsAHalfAfterForgetAfterOfEventTime(t *testing.T) {
	h := newJob(t, jobspec.Options{ForgetAfter: jobspec.Ms(60_000)})
	h.feed(at(0, 0), started("lost", "acme", at(0, 0)))
	h.feed(at(0, 1), started("r-1", "acme", at(0, 1)))
	h.feed(at(0, 2), completed("r-1", "acme", at(0, 2)))
	if n := h.job.PendingRequests(); n != 1 {
		t.Fatalf("pending requests %d, want 1", n)
	}
	// Event time passes 10:01:00 (the forget timer) once a later event is ticked through.
	h.feed(at(1, 1), started("r-2", "acme", at(1, 1)))
	h.job.Advance(at(1, 2))
	if s := h.job.Stats(); s.Forgotten != 1 || h.job.PendingRequests() != 1 {
		t.Fatalf("forgotten %d, pending %d; want 1 and 1 (r-2)", s.Forgotten, h.job.PendingRequests())
	}
	// The other half of a forgotten request is a new first half, not a join.
	h.feed(at(1, 3), completed("lost", "acme", at(1, 3)))
	if s := h.job.Stats(); s.Records != 1 {
		t.Fatalf("records %d, want 1", s.Records)
	}
}

func TestAssemblerIgnoresADuplicateHalf(t *testing.T) {
	h := newJob(t, jobspec.Options{})
	h.feed(at(0, 1), started("r-1", "acme", at(0, 1)))
	h.feed(at(0, 2), started("r-1", "acme", at(0, 2)))
	h.feed(at(0, 3), completed("r-1", "acme", at(0, 3)))
	if s := h.job.Stats(); s.Duplicates != 1 || s.Records != 1 {
		t.Fatalf("stats %+v", s)
	}
	h.job.Drain()
	got := h.take("event-time")
	if len(got) != 1 || !strings.Contains(got[0], `"usd":0.1,"requests":1`) {
		t.Fatalf("event-time %v", got)
	}
}

func TestUnknownModelIsMalformedAndTheJobGoesOn(t *testing.T) {
	h := newJob(t, jobspec.Options{})
	err := h.job.ProcessValue(0, []byte(`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"gpt-x","gateway":"g","ts":1,"prompt_tokens":1}`), 1)
	if !errors.Is(err, gateway.ErrMalformed) || !strings.Contains(err.Error(), `model "gpt-x" is not in the price table`) {
		t.Fatalf("err %v", err)
	}
	if err := h.job.ProcessValue(0, []byte(`{"type":"RequestStarted","request_id":"r","tenant_id":"a","model":"flat-10c","gateway":"g","ts":1,"prompt_tokens":1}`), 1); err != nil {
		t.Fatal(err)
	}
	if s := h.job.Stats(); s.Malformed != 1 || s.Events != 1 {
		t.Fatalf("stats %+v", s)
	}
}

func TestWindowsBalance(t *testing.T) {
	// Every assembled record's USD ends up in exactly one processing-time window, and in
	// exactly one of: an event-time window, the late output, a window still open.
	h := newJob(t, jobspec.Options{})
	for i, arr := range []int64{at(0, 10), at(0, 50), at(1, 10), at(0, 40)} {
		id := "r-" + itoa(int64(i))
		h.feed(arr-1000, started(id, "acme", arr-1000))
		h.feed(arr, completed(id, "acme", arr))
	}
	h.feed(at(1, 30), started("r-9", "acme", at(0, 20)))
	h.feed(at(1, 31), completed("r-9", "acme", at(0, 21)))
	h.job.Advance(at(3, 0))
	s := h.job.Stats()
	var openEvent float64
	for _, r := range h.job.OpenWindows() {
		openEvent += r.Minute.USD
	}
	if !near(s.ProcessingUSD, s.RecordsUSD) || !near(s.EventUSD+s.LateUSD+openEvent, s.RecordsUSD) {
		t.Fatalf("unbalanced: %+v, open %v", s, openEvent)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestForgetAfterZeroForgetsAtTheHalfsOwnTimestamp: with ForgetAfter Ms(0) the forget
// timer sits at the half's timestamp, and the first watermark at or past it fires it, as
// in the PyFlink job with --forget-after-ms 0; unset, it is 10 minutes.
func TestForgetAfterZeroForgetsAtTheHalfsOwnTimestamp(t *testing.T) {
	for _, c := range []struct {
		forget               jobspec.Millis
		forgotten, records   int64
		pendingAfterTheOther int
	}{{jobspec.Ms(0), 1, 1, 1}, {jobspec.Millis{}, 0, 2, 0}} {
		h := newJob(t, jobspec.Options{ForgetAfter: c.forget})
		h.feed(at(0, 0), started("lost", "acme", at(0, 0)))   // emit at 10:00:00.000: 09:59:59.999
		h.feed(at(0, 1), started("r-1", "acme", at(0, 1)))    // emit at 10:00:01.000: 10:00:00.999 passes lost's timer
		h.feed(at(0, 2), completed("r-1", "acme", at(0, 2)))  // r-1 joins before its own timer is due
		h.feed(at(0, 3), completed("lost", "acme", at(0, 3))) // a new first half, or the join
		s := h.job.Stats()
		if s.Forgotten != c.forgotten || s.Records != c.records || h.job.PendingRequests() != c.pendingAfterTheOther {
			t.Errorf("forget-after %s: forgotten %d, records %d, pending %d; want %d, %d, %d", c.forget,
				s.Forgotten, s.Records, h.job.PendingRequests(), c.forgotten, c.records, c.pendingAfterTheOther)
		}
	}
}

// TestPartitionsShowWhichPartitionHoldsTheSourceBack: with watermarks at the source the
// job names each partition's own watermark; partition 1 has brought nothing, so the
// source's watermark, and the windows', stays at MinWatermark.
func TestPartitionsShowWhichPartitionHoldsTheSourceBack(t *testing.T) {
	h := newJob(t, jobspec.Options{Watermarks: watermark.Strategy{At: watermark.Source, Partitions: 2}})
	h.feed(at(0, 1), started("r-1", "acme", at(0, 1)))
	h.feed(at(0, 2), completed("r-1", "acme", at(0, 2)))
	h.job.Advance(at(0, 3))
	got := fmt.Sprint(h.job.Partitions())
	want := fmt.Sprintf("[{0 %d 2 false} {1 %d 0 false}]", at(0, 2)-1, jobspec.MinWatermark)
	if got != want || h.job.Watermark() != jobspec.MinWatermark {
		t.Fatalf("partitions %s, watermark %d; want %s and none", got, h.job.Watermark(), want)
	}
	if ps := newJob(t, jobspec.Options{}).job.Partitions(); ps != nil {
		t.Fatalf("watermarks after the parse have no partitions: %v", ps)
	}
}
