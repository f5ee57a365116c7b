package broker

import (
	"encoding/binary"
	"errors"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// closedWithin reports whether the broker closes c within d.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) bool {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	_, err := c.Read(make([]byte, 1))
	// io.EOF, or a reset when the broker closed with the rest of the request unread.
	return err != nil && !isTimeout(err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestARequestLargerThanSocketRequestMaxBytesClosesTheConnectionUnread(t *testing.T) {
	b := startBroker(t, Config{Addr: "127.0.0.1:0"})
	for name, head := range map[string][]byte{
		"a 1 GiB frame":    binary.BigEndian.AppendUint32(nil, 1<<30),
		"a negative size":  binary.BigEndian.AppendUint32(nil, 0x80000000),
		"an HTTP POST":     []byte("POST / HTTP/1.1\r\nHost: 127.0.0.1:9092\r\n\r\n"),
		"one byte too big": binary.BigEndian.AppendUint32(nil, maxRequestBytes+1),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			c, err := net.Dial("tcp", b.Addr())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Write(head)
			if !closedWithin(t, c, 2*time.Second) {
				t.Fatal("the broker did not close the connection")
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("the broker allocated %d MB for a request it should refuse", grew>>20)
			}
		})
	}
	if got := b.oversized(); got != 4 {
		t.Errorf("Oversized = %d, want 4", got)
	}
	// The broker still serves a client that keeps to the limit.
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.ProduceSync(t.Context(), &kgo.Record{Topic: b.Topic(), Value: []byte("ok")}).FirstErr(); err != nil {
		t.Errorf("a produce after the refusals: %v", err)
	}
}

func TestAMillionPartitionsAreRefusedAndAFewStillMade(t *testing.T) {
	b := startBroker(t, Config{Addr: "127.0.0.1:0"})
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := adm.CreateTopic(t.Context(), 1_000_000, 1, nil, "huge")
	runtime.ReadMemStats(&after)
	if err == nil {
		err = resp.Err
	}
	if !errors.Is(err, kerr.InvalidPartitions) || !strings.Contains(resp.ErrMessage, "at most 10000 partitions") {
		t.Fatalf("CreateTopic of 1,000,000 partitions = %v (%q), want INVALID_PARTITIONS with the bound", err, resp.ErrMessage)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("the refused creation allocated %d MB", grew>>20)
	}
	if r, err := adm.CreatePartitions(t.Context(), 1_000_000, b.Topic()); err == nil && r[b.Topic()].Err == nil {
		t.Error("CreatePartitions of 1,000,000 more was not refused")
	}
	if resp, err := adm.CreateTopic(t.Context(), 3, 1, nil, "replay-topic"); err != nil || resp.Err != nil {
		t.Errorf("a topic of 3 partitions after the refusal: %v %v", err, resp.Err)
	}
}
