package diff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
)

// TestReadJSONLAndPrintTextAlike writes one run as jsonl and as print-sink text (with a
// log line and a PyFlink subtask index in it) and reads both back: the same results.
func TestReadJSONLAndPrintTextAlike(t *testing.T) {
	rs := replayFile(t, seedBurst, reenact.Config{})
	var jsonl, text bytes.Buffer
	text.WriteString("2026-11-29 10:00:00,000 INFO  org.apache.flink.runtime.taskexecutor.TaskExecutor - started\n")
	for _, r := range rs {
		jsonl.Write(append(r.AppendJSON(nil), '\n'))
		line := string(r.AppendText(nil))
		if r.Kind == jobspec.EventTimeResult {
			line = strings.Replace(line, "event-time>", "event-time:1>", 1)
		}
		text.WriteString(line + "\n")
	}
	a, err := read(&jsonl)
	if err != nil {
		t.Fatal(err)
	}
	b, err := read(&text)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(rs) || len(b) != len(rs) {
		t.Fatalf("read %d and %d results of %d", len(a), len(b), len(rs))
	}
	for _, sink := range []jobspec.Kind{jobspec.EventTimeResult, jobspec.ProcessingTimeResult} {
		if r := Compare(a, b, Options{Sink: sink}); !r.Same() || r.Counts.Rows != 2 {
			t.Fatalf("%s: %+v", sink, r.Counts)
		}
	}
	if m, err := Moved(a, b); err != nil || len(m.Moves) != 0 || m.Both != 6 {
		t.Fatalf("moved %+v %v", m, err)
	}
}

func TestReadFileNamesTheBadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(path, []byte("hello\nevent-time> {\"tenant_id\":\"acme\",\"window_start\":0,\"window_end\":60000,\"usd\":0.1,\"requests\":1}\nlate> {\"request_id\": oops}\n"), 0o644)
	_, err := ReadFile(path)
	if err == nil || !strings.Contains(err.Error(), path+":3: sink late:") {
		t.Fatalf("error %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "none.jsonl")); err == nil || !strings.Contains(err.Error(), "cannot read output") {
		t.Fatalf("error %v", err)
	}
}

func TestMovedNeedsTraces(t *testing.T) {
	_, err := Moved([]jobspec.Result{minute(jobspec.EventTimeResult, "acme", 0, 1, 1)}, replayFile(t, seedBurst, reenact.Config{}))
	if err == nil || !strings.HasPrefix(err.Error(), "run A: no trace lines") {
		t.Fatalf("error %v", err)
	}
}
