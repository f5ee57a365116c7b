package embedded

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/broker"
	"github.com/labtui/labtui/generator"
)

// startedLab is a started lab whose log lines the test can read.
func startedLab(t *testing.T) (*Lab, func() []string) {
	t.Helper()
	lab, err := New(Config{BrokerAddr: "127.0.0.1:0", Generator: generator.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for u := range lab.Updates() {
			if u.Log != "" {
				mu.Lock()
				logs = append(logs, u.Log)
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { lab.Close(); <-done })
	return lab, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), logs...) }
}

func TestAFloodOfMalformedRecordsLogsAFewLinesAndCountsThemAll(t *testing.T) {
	lab, logs := startedLab(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(lab.Addr()), kgo.DefaultProduceTopic(broker.DefaultTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	const n = 5_000
	var rs []*kgo.Record
	for i := range n {
		rs = append(rs, &kgo.Record{Value: []byte(fmt.Sprintf("not an event %d", i))})
	}
	if err := cl.ProduceSync(context.Background(), rs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second) // a hang, on a loaded machine
	for lab.job.current().Snapshot().Stats.Malformed < n {
		if time.Now().After(deadline) {
			t.Fatalf("the job counted %d of %d malformed records", lab.job.current().Snapshot().Stats.Malformed, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The log lines come after the count: wait for the last one (a fixed 200 ms was a
	// guess), then count them all.
	for !strings.Contains(strings.Join(logs(), "\n"), "the 1000th record skipped as malformed") {
		if time.Now().After(deadline) {
			t.Fatalf("no line for the 1000th malformed record: %q", logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
	skipped := 0
	var last string
	for _, l := range logs() {
		if strings.HasPrefix(l, "skipped topic "+broker.DefaultTopic+" partition") {
			skipped++
			last = l
		}
	}
	if skipped != 20+2 { // the first 20, the 100th and the 1,000th
		t.Errorf("%d log lines for %d malformed records", skipped, n)
	}
	if !strings.Contains(last, "the 1000th record skipped as malformed") {
		t.Errorf("the last line does not say how many: %q", last)
	}
}

func TestTheLiveTopicDeletedFromOutsideIsSaid(t *testing.T) {
	lab, logs := startedLab(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(lab.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	time.Sleep(300 * time.Millisecond)
	if _, err := kadm.NewClient(cl).DeleteTopics(context.Background(), broker.DefaultTopic); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		for _, l := range logs() {
			if strings.Contains(l, "the job cannot read topic "+broker.DefaultTopic) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the live topic was deleted and nothing said so in 20 s; the log: %q", logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
