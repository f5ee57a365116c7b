package generator

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// DialFunc opens a connection to a broker; it has the signature of
// net.Dialer.DialContext and of kgo.Dialer's argument.
type DialFunc = func(ctx context.Context, network, host string) (net.Conn, error)

// How an instance's producer retries. A broker hiccup closes connections and refuses
// new ones; franz-go then waits for a metadata refresh (at most once per metadataMinAge,
// default 5 s) and backs off between tries (default up to 5 s). Both are lowered so that
// events held during a hiccup flow again well within a second of its end.
const (
	metadataMinAge = 250 * time.Millisecond
	firstBackoff   = 25 * time.Millisecond
	maxBackoff     = 200 * time.Millisecond
	// requestTimeoutOverhead bounds how long a stalled connection is trusted beyond the
	// broker's own produce timeout before it is dropped and the request retried.
	requestTimeoutOverhead = 5 * time.Second
	dialTimeout            = 5 * time.Second
)

// retryBackoff doubles from firstBackoff to maxBackoff.
func retryBackoff(tries int) time.Duration {
	d := firstBackoff
	for i := 1; i < tries && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// newClient returns the producer of one gateway instance: idempotent (franz-go's
// default, so retries keep per-partition order and never duplicate), acks from all
// in-sync replicas, keyed records partitioned as the Java client does, and no record
// delivery timeout, because franz-go measures that from Record.Timestamp, which here is
// the event's ts: a late event would time out at once. No linger: franz-go's default
// waits 10 ms to fill a batch, and every millisecond between a request's completion and
// its record reaching the job is a chance to bill it to the next processing-time minute
// (a ≠ row in 4.1: at 20 requests/s a minute is spoiled with probability
// 1-exp(-20·latency in s); BenchmarkGatewayToWindow in backend/embedded). At 13 events/s
// an instance, batches gain nothing from waiting.
func newClient(cfg Config, instance int, dial DialFunc) (*kgo.Client, error) {
	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Brokers...),
		kgo.ClientID("labtui-" + InstanceName(instance)),
		kgo.DefaultProduceTopic(cfg.Topic),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.MetadataMinAge(metadataMinAge),
		kgo.RetryBackoffFn(retryBackoff),
		kgo.RequestTimeoutOverhead(requestTimeoutOverhead),
		kgo.DialTimeout(dialTimeout),
		kgo.ProducerLinger(0),
	}
	if dial != nil {
		opts = append(opts, kgo.Dialer(dial))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("create the producer of %s: %w", InstanceName(instance), err)
	}
	return cl, nil
}
