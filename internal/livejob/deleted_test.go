package livejob

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
)

func TestATopicDeletedFromOutsideIsReportedNotStalledOn(t *testing.T) {
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var mu sync.Mutex
	var errs []error
	job, err := Start(context.Background(), Config{Brokers: []string{b.Addr()}, Topic: b.Topic(), Job: jobspec.Options{},
		SourceError: func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }}, func(jobspec.Result) {})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Stop()
	// The job reads the topic before it is deleted: one event, read.
	ts := time.Now().UnixMilli()
	produce(t, b.Addr(), gateway.Event{Type: gateway.RequestStarted, RequestID: "r-1", TenantID: "acme", Model: "flat-10c", Gateway: "gw-0", TS: ts, PromptTokens: 1000})
	waitFor(t, func() bool { return job.Snapshot().Consumed == 1 })
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := kadm.NewClient(cl).DeleteTopics(context.Background(), b.Topic()); err != nil {
		t.Fatal(err)
	}
	reported := func() []error { mu.Lock(); defer mu.Unlock(); return errs }
	testkit.EventuallyWithin(t, testkit.Hang, "the job reports the deleted topic", func() bool { return len(reported()) > 0 })
	t.Logf("reported: %v", reported()[0])
}
