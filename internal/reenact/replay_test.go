package reenact

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/recording"
	"github.com/labtui/labtui/internal/watermark"
)

const seedBurst = "../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

// run replays a recording file and returns every result as a jsonl line, except traces
// unless asked for.
func run(t *testing.T, path string, cfg Config, traces bool) ([]string, Summary) {
	t.Helper()
	r, err := recording.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var lines []string
	sum, err := Run(context.Background(), r, cfg, func(res jobspec.Result) {
		if res.Kind != jobspec.TraceResult || traces {
			lines = append(lines, string(res.AppendJSON(nil)))
		}
	}, func(line int, err error) { t.Errorf("line %d: %v", line, err) })
	if err != nil {
		t.Fatal(err)
	}
	return lines, sum
}

func expectLines(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("results:\n got\n  %s\n want\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestSeedBurstMonotonousReproducesTheCoursesTable(t *testing.T) {
	got, sum := run(t, seedBurst, Config{Pace: Recorded}, false)
	expectLines(t, got,
		// The processing-time window of 10:00 fires when the clock passes 10:00:59.999.
		`{"sink":"processing-time","tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.2,"requests":2}`,
		// r-105 passed the assigner at 10:01:09; the tick at 10:01:09.200 emits 10:01:08.999.
		`{"sink":"event-time","tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.2,"requests":2}`,
		`{"sink":"late","request_id":"r-103","tenant_id":"acme","gateway":"gw-1","timestamp":1795946444000,"watermark":1795946468999,"usd":0.1}`,
		`{"sink":"late","request_id":"r-104","tenant_id":"acme","gateway":"gw-1","timestamp":1795946452000,"watermark":1795946468999,"usd":0.1}`,
		`{"sink":"processing-time","tenant_id":"acme","window_start":1795946460000,"window_end":1795946520000,"usd":0.4,"requests":4}`,
		// 10:01 never closes: the watermark stops at 10:01:29.999 with the last event.
		`{"sink":"pending","window":"event-time","tenant_id":"acme","window_start":1795946460000,"window_end":1795946520000,"usd":0.2,"requests":2}`,
	)
	if s := sum.Stats; s.Records != 6 || s.Late != 2 || sum.Pending != 1 {
		t.Fatalf("summary %+v", sum)
	}
}

func TestSeedBurstTraceShowsTheWatermarkR103Met(t *testing.T) {
	got, _ := run(t, seedBurst, Config{Pace: Recorded, Job: jobspec.Options{Trace: true}}, true)
	want := `{"sink":"trace","request_id":"r-103","tenant_id":"acme","gateway":"gw-1","arrival":1795946477000,"kafka_timestamp":1795946444000,"timestamp":1795946444000,"watermark":1795946468999,"event_window_end":1795946460000,"processing_window_end":1795946520000,"late":true,"usd":0.1}`
	for _, l := range got {
		if strings.Contains(l, `"trace","request_id":"r-103"`) {
			if l != want {
				t.Fatalf("r-103's trace\n got  %s\n want %s", l, want)
			}
			return
		}
	}
	t.Fatal("no trace line for r-103")
}

func TestSeedBurstWithOutOfOrdernessAndDrainBillsEventTime(t *testing.T) {
	cfg := Config{Pace: Recorded, Drain: true, Job: jobspec.Options{Watermarks: watermark.Strategy{OutOfOrderness: 40 * time.Second}}}
	got, sum := run(t, seedBurst, cfg, false)
	expectLines(t, got,
		`{"sink":"processing-time","tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.2,"requests":2}`,
		`{"sink":"processing-time","tenant_id":"acme","window_start":1795946460000,"window_end":1795946520000,"usd":0.4,"requests":4}`,
		`{"sink":"event-time","tenant_id":"acme","window_start":1795946400000,"window_end":1795946460000,"usd":0.4,"requests":4}`,
		`{"sink":"event-time","tenant_id":"acme","window_start":1795946460000,"window_end":1795946520000,"usd":0.2,"requests":2}`,
	)
	if sum.Stats.Late != 0 || sum.Pending != 0 {
		t.Fatalf("summary %+v", sum)
	}
}
