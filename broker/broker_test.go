package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/testkit"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

func startBroker(t *testing.T, cfg Config) *Broker {
	t.Helper()
	b, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(b.Close)
	return b
}

func TestStartOnABusyPortNamesThePortAndTheFix(t *testing.T) {
	testkit.CheckGoroutines(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	port := ln.Addr().(*net.TCPAddr).Port

	_, err = Start(t.Context(), Config{Addr: ln.Addr().String()})

	var busy *PortInUseError
	if !errors.As(err, &busy) || !errors.Is(err, ErrPortInUse) {
		t.Fatalf("Start on a busy port = %v, want a *PortInUseError", err)
	}
	if busy.Port != port {
		t.Errorf("PortInUseError.Port = %d, want %d", busy.Port, port)
	}
	for _, want := range []string{"port " + strconv.Itoa(port) + " is already in use", "--broker-addr"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestStartRejectsAnAddressOffLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:9092", "10.0.0.1:9092", "9092", "127.0.0.1:http"} {
		if b, err := Start(t.Context(), Config{Addr: addr}); err == nil {
			b.Close()
			t.Errorf("Start(%q) succeeded, want an error", addr)
		}
	}
}

func TestProducedRecordsCanBeConsumed(t *testing.T) {
	testkit.CheckGoroutines(t)
	b := startBroker(t, Config{Addr: "127.0.0.1:0"})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	admin, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	topics, err := kadm.NewClient(admin).ListTopics(ctx, DefaultTopic)
	if err != nil {
		t.Fatalf("list topics: %v", err)
	}
	if got := len(topics[DefaultTopic].Partitions); got != DefaultPartitions {
		t.Fatalf("topic %s has %d partitions, want %d", DefaultTopic, got, DefaultPartitions)
	}

	producer, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.DefaultProduceTopic(b.Topic()))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	const n = 100
	for i := range n {
		r := &kgo.Record{Key: []byte(fmt.Sprint("k", i)), Value: []byte(strconv.Itoa(i))}
		if err := producer.ProduceSync(ctx, r).FirstErr(); err != nil {
			t.Fatalf("produce %d: %v", i, err)
		}
	}

	consumer, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.ConsumeTopics(b.Topic()))
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	seen := map[string]bool{}
	for len(seen) < n {
		fetches := consumer.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("consumed %d of %d records before %v", len(seen), n, err)
		}
		fetches.EachRecord(func(r *kgo.Record) {
			if seen[string(r.Value)] {
				t.Errorf("record %s consumed twice", r.Value)
			}
			seen[string(r.Value)] = true
		})
	}
}

func TestCloseReleasesThePort(t *testing.T) {
	testkit.CheckGoroutines(t)
	b, err := Start(t.Context(), Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	addr := b.Addr()
	// A connected client must not keep the port or the broker's goroutines alive.
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Ping(t.Context()); err != nil {
		t.Fatalf("ping: %v", err)
	}

	b.Close()
	b.Close() // twice is harmless

	again, err := Start(t.Context(), Config{Addr: addr})
	if err != nil {
		t.Fatalf("restart on %s after Close: %v", addr, err)
	}
	again.Close()
}
