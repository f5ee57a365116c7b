package embedded

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/testkit"
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
	testkit.EventuallyWithin(t, testkit.Hang, fmt.Sprintf("the job counts all %d malformed records", n), func() bool {
		return lab.job.current().Snapshot().Stats.Malformed >= n
	})
	// The log lines come after the count: wait for the last one, then count them all.
	testkit.EventuallyWithin(t, testkit.Hang, "a line says the 1000th malformed record", func() bool {
		return strings.Contains(strings.Join(logs(), "\n"), "the 1000th record skipped as malformed")
	})
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
	// The job reads the topic before it is deleted: it has fetched a record of it.
	if err := cl.ProduceSync(context.Background(), &kgo.Record{Topic: broker.DefaultTopic, Value: []byte("not an event")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	testkit.EventuallyWithin(t, testkit.Hang, "the job reads the live topic", func() bool { return lab.job.current().Snapshot().Consumed > 0 })
	if _, err := kadm.NewClient(cl).DeleteTopics(context.Background(), broker.DefaultTopic); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "a line says the job cannot read the deleted topic", func() bool {
		for _, l := range logs() {
			if strings.Contains(l, "the job cannot read topic "+broker.DefaultTopic) {
				return true
			}
		}
		return false
	})
}
