package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Given a live record, when a value whose ts has no window a long holds reaches the
// topic, then record writes it down as the topic holds it, and its stderr says, in the
// job's capped log, that the job refused it: the topic, partition and offset and what
// is accepted; the records around it are kept.
func TestALiveRecordSaysWhichRecordTheJobRefusedAndKeepsItAndTheRest(t *testing.T) {
	home := t.TempDir()
	out := filepath.Join(home, "live.jsonl")
	p := startLabtui(t, home, "record", "--out", out, "--duration", "5m", "--broker-addr", "127.0.0.1:0", "--rate", "20")
	p.waitOutput(t, "recording "+out)
	_, stderr := p.output()
	addr := regexp.MustCompile(`from the embedded lab on (\S+) for`).FindStringSubmatch(stderr)
	if addr == nil {
		t.Fatalf("no address in %q", stderr)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr[1]), kgo.DefaultProduceTopic("gateway-events"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	bad := `{"type":"RequestCompleted","request_id":"end","tenant_id":"acme","model":"flat-10c","gateway":"gw-0","ts":9223372036854775807,"completion_tokens":1000}`
	if err := cl.ProduceSync(context.Background(), &kgo.Record{Value: []byte(bad), Partition: 0}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	// The job hands each record to the recording before it looks at it: once it has said
	// it refused the record, the record is written down.
	p.waitOutput(t, "accepted from -9223372036854720000 to 9223372036854719999")
	_, stderr = p.output()
	if !regexp.MustCompile(`# skipped topic gateway-events partition \d+ offset \d+: malformed event: ts 9223372036854775807 is out of range for a one-minute window`).MatchString(stderr) {
		t.Errorf("stderr does not name the record:\n%s", stderr)
	}
	if code := p.signal(t, syscall.SIGINT); code != 0 {
		t.Errorf("record exited %d", code)
	}
	lines := recordLines(t, out)
	kept := 0
	for _, l := range lines {
		if strings.Contains(l, `9223372036854775807`) {
			kept++
		}
	}
	if kept != 1 || len(lines) < 2 {
		t.Errorf("%d lines, %d of them the refused record: want it once among the others", len(lines), kept)
	}
}
