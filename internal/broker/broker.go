package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"
)

// Defaults used by Start for the fields of a Config left at their zero value.
const (
	DefaultAddr       = "127.0.0.1:9092"
	DefaultTopic      = "gateway-events"
	DefaultPartitions = 3
)

// Retention bounds what the broker keeps of Topic, the live topic, so that its memory
// stays bounded however long a lab runs: Kafka's retention.bytes, the newest
// RetentionBytes of record batches of each partition (older batches are deleted, every
// RetentionCheck), about 10 minutes of events at the generator's default 20 requests/s:
// the minutes Lab 4's exercises need, and what a job restarted from earliest reads again. Other
// topics (a replay's, say) keep every record, and no record is deleted for its age:
// records carry event times, which may be old.
//
// The broker keeps each partition's log in segments of SegmentBytes (Kafka's
// log.segment.bytes), in memory, and frees a segment only once retention has deleted
// all of it: with Kafka's default of 1 GiB (kfake's 100 MiB), a partition's memory
// would grow to a whole segment before the first byte was freed. (A segment's memory
// grows by doubling, so it holds up to twice its bytes: the live topic takes about
// 10 MB at most.)
const (
	RetentionBytes = 2 << 20
	retentionCheck = 10 * time.Second
	segmentBytes   = 512 << 10
)

// Config says where the broker listens and which topic it starts with.
type Config struct {
	// Addr is the host:port to listen on, default DefaultAddr. The host must be a
	// loopback one: 127.0.0.1, localhost, [::1] or empty (127.0.0.1). Port 0 picks a free
	// port; Broker.Addr reports the one chosen.
	Addr string
	// Partitions is the partition count of Topic, default DefaultPartitions.
	Partitions int
	// Topic is created when the broker starts, default DefaultTopic.
	Topic string
}

func (c Config) withDefaults() Config {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.Partitions == 0 {
		c.Partitions = DefaultPartitions
	}
	if c.Topic == "" {
		c.Topic = DefaultTopic
	}
	return c
}

// listen validates the address and returns the IP to listen on and the port.
func (c Config) listen() (string, int, error) {
	host, portText, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return "", 0, fmt.Errorf("broker address %q is not host:port, for example 127.0.0.1:9092", c.Addr)
	}
	ip := "127.0.0.1"
	switch host {
	case "", "127.0.0.1", "localhost":
	case "::1":
		ip = "::1"
	default:
		return "", 0, fmt.Errorf("broker address %q is not on loopback: the embedded broker listens on 127.0.0.1 or [::1] only", c.Addr)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("broker address %q has no valid port: use a number from 0 to 65535", c.Addr)
	}
	return ip, port, nil
}

// Broker is a running embedded Kafka broker. Close it when done.
type Broker struct {
	cluster *kfake.Cluster
	addr    string
	topic   string
	close   sync.Once
	// refused counts the connections closed for a request over MaxRequestBytes.
	refused *atomic.Int64
}

// oversized returns how many connections the broker closed because they announced a
// request larger than MaxRequestBytes.
func (b *Broker) oversized() int64 { return b.refused.Load() }

// Start listens on cfg.Addr and serves the Kafka protocol there with cfg.Topic created.
// A taken port fails with a *PortInUseError (errors.Is(err, ErrPortInUse)). The broker is
// ready when Start returns: the port is bound and clients may connect. The context only
// cancels a start that has not begun.
func Start(ctx context.Context, cfg Config) (*Broker, error) {
	cfg = cfg.withDefaults()
	ip, port, err := cfg.listen()
	if err != nil {
		return nil, err
	}
	if cfg.Partitions < 1 {
		return nil, fmt.Errorf("topic %s needs at least one partition, got %d", cfg.Topic, cfg.Partitions)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start broker on %s: %w", cfg.Addr, err)
	}
	// kfake asks ListenFn for 127.0.0.1:port; the listener is on ip instead, and kfake
	// advertises the address it is bound to. Ports with one port makes a cluster of
	// exactly one broker, so it is its own controller and the leader of every partition.
	// No topic is deleted for age (log.retention.ms -1); the live topic's size is bounded
	// below.
	var refused atomic.Int64
	cluster, err := kfake.NewCluster(
		kfake.Ports(port),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) {
			ln, err := net.Listen(network, net.JoinHostPort(ip, strconv.Itoa(port)))
			if err != nil {
				return nil, err
			}
			return frameCapListener{Listener: ln, max: maxRequestBytes, refused: &refused}, nil
		}),
		kfake.SeedTopics(int32(cfg.Partitions), cfg.Topic),
		kfake.MaxVersions(javaClientVersions()),
		kfake.BrokerConfigs(map[string]string{
			"log.retention.ms":       "-1",
			"log.cleaner.backoff.ms": strconv.FormatInt(retentionCheck.Milliseconds(), 10),
			"log.segment.bytes":      strconv.Itoa(segmentBytes),
		}),
	)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, &PortInUseError{Port: port, Err: err}
		}
		return nil, fmt.Errorf("start broker on %s: %w", cfg.Addr, err)
	}
	addrs := cluster.ListenAddrs()
	if len(addrs) != 1 {
		cluster.Close()
		return nil, fmt.Errorf("start broker on %s: kfake listens on %d addresses, want 1", cfg.Addr, len(addrs))
	}
	guard := &partitionGuard{cluster: cluster, max: maxPartitions}
	guard.install(cfg.Partitions)
	b := &Broker{cluster: cluster, addr: addrs[0], topic: cfg.Topic, refused: &refused}
	if err := b.bound(ctx); err != nil {
		cluster.Close()
		return nil, fmt.Errorf("start broker on %s: %w", cfg.Addr, err)
	}
	return b, nil
}

// bound sets the live topic's retention.bytes to RetentionBytes.
func (b *Broker) bound(ctx context.Context) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.addr))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v := strconv.Itoa(RetentionBytes)
	resp, err := kadm.NewClient(cl).AlterTopicConfigs(ctx, []kadm.AlterConfig{{Name: "retention.bytes", Value: &v}}, b.topic)
	if err == nil {
		_, err = resp.On(b.topic, func(r *kadm.AlterConfigsResponse) error { return r.Err })
	}
	if err != nil {
		return fmt.Errorf("bound topic %s to %d bytes a partition: %w", b.topic, RetentionBytes, err)
	}
	return nil
}

// Addr returns the host:port clients should use as their seed broker, with the port
// actually bound (useful when Config.Addr asked for port 0).
func (b *Broker) Addr() string { return b.addr }

// Topic returns the name of the topic created at start.
func (b *Broker) Topic() string { return b.topic }

// Close stops listening, drops every client connection and discards the data. The port
// is free for another listener when Close returns. Close is safe to call more than once.
func (b *Broker) Close() {
	b.close.Do(b.cluster.Close)
}

// javaClientVersions is kfake's stable API versions without DescribeTopicPartitions
// (key 75): kfake answers it with a null eligibleLeaderReplicas, which Java's Kafka client
// (and so Flink's KafkaSource) dereferences and dies on. Without it the client falls back
// to Metadata, and a real Flink job runs against the embedded broker (checked by the lab's
// conformance run).
func javaClientVersions() *kversion.Versions {
	v := kversion.Stable()
	v.SetMaxKeyVersion(75, -1)
	return v
}
