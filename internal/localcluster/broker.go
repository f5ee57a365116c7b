package localcluster

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Broker is a single-node Kafka broker (KRaft: broker and controller in one JVM) run
// from the jars in Layout.kafkaLibs, with its storage in the run folder.
type Broker struct {
	opts Options
	// Port is where clients reach it on Host; the controller listens on ControllerPort.
	Port, ControllerPort int
	dir                  string
	proc                 *Process
	// clusterID is the KRaft cluster id its storage was formatted with.
	clusterID string
}

// defaultBrokerPort is the port the broker takes when it is free, as the course's
// compose lab publishes Kafka on 9092; else the kernel picks one.
const defaultBrokerPort = 9092

// StartBroker formats fresh storage (kafka.tools.StorageTool), starts kafka.Kafka, and
// returns once it answers a metadata request. want is the port to take when free (0:
// any free port). When another process took the port as the broker started, it starts
// again on a port the kernel picks, up to twice. Stop it with Stop.
func StartBroker(ctx context.Context, opts Options, want int) (*Broker, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		b, err := startBroker(ctx, opts, want)
		var taken *portTakenError
		if !errors.As(err, &taken) || attempt == 2 {
			return b, err
		}
		opts.logf("%v: the broker starts again on another port", err)
		want = 0
	}
}

// portTakenError is another Kafka answering on the port the broker was given.
type portTakenError struct {
	addr, got, want string
}

func (e *portTakenError) Error() string {
	return fmt.Sprintf("another Kafka answers on %s (cluster id %q, not this run's %q): it took the port as the broker started", e.addr, e.got, e.want)
}

// startBroker is one attempt of StartBroker, on fresh storage.
func startBroker(ctx context.Context, opts Options, want int) (*Broker, error) {
	var err error
	b := &Broker{opts: opts, dir: filepath.Join(opts.RunDir, "kafka")}
	if err := os.RemoveAll(b.dir); err != nil {
		return nil, fmt.Errorf("clear the broker's folder: %w", err)
	}
	if b.Port, err = pickPort(want); err != nil {
		return nil, err
	}
	if b.Port != want && want > 0 {
		opts.logf("port %d is taken: the broker listens on %d instead", want, b.Port)
	}
	if b.ControllerPort, err = pickPort(0); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the broker's folder: %w", err)
	}
	props := filepath.Join(b.dir, "server.properties")
	if err := os.WriteFile(props, []byte(b.properties()), 0o644); err != nil {
		return nil, fmt.Errorf("write the broker's configuration: %w", err)
	}
	b.clusterID = clusterID()
	if _, err := opts.run(ctx, b.java(true, "kafka.tools.StorageTool", "format", "--cluster-id", b.clusterID, "--config", props)); err != nil {
		return nil, fmt.Errorf("format the broker's storage: %w", err)
	}
	logFile := filepath.Join(b.dir, "broker.log")
	b.proc, err = opts.startProcess("Kafka broker", b.java(false, "kafka.Kafka", props), logFile)
	if err != nil {
		return nil, err
	}
	if err := b.waitReady(ctx, logFile); err != nil {
		b.stop()
		return nil, err
	}
	return b, nil
}

// java is the command running a Kafka main class; tool says a short-lived tool, which
// starts in half the CPU time with C1 only and the serial collector.
func (b *Broker) java(tool bool, class string, args ...string) command {
	jvm := []string{"-Xms256m", "-Xmx512m"}
	if tool {
		jvm = []string{"-Xms64m", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"}
	}
	jvm = append(jvm, "-Djava.io.tmpdir="+b.opts.tmpDir(), "-cp", filepath.Join(b.opts.Layout.kafkaLibs(), "*"), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", class)
	return command{Path: b.opts.java(), Args: append(jvm, args...)}
}

// properties is the broker's server.properties: one KRaft node on loopback, every
// internal topic with one replica, no topic created by a client's request.
func (b *Broker) properties() string {
	return fmt.Sprintf(`# Written by labtui: one KRaft node, broker and controller, loopback only.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@%[2]s
listeners=PLAINTEXT://%[1]s,CONTROLLER://%[2]s
advertised.listeners=PLAINTEXT://%[1]s
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=%[3]s
num.partitions=3
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
`, hostPort(b.Port), hostPort(b.ControllerPort), filepath.Join(b.dir, "data"))
}

// clusterID is a new random KRaft cluster id (16 bytes, URL-safe base64, no padding). As
// Kafka's own Uuid.randomUuid does, it draws again when the text would begin with '-': one id
// in 64 does, and kafka-storage's argument parser reads "--cluster-id -x…" as an option with
// no value, so the broker's storage is never formatted.
func clusterID() string {
	var id [16]byte
	for {
		rand.Read(id[:])
		if s := base64.RawURLEncoding.EncodeToString(id[:]); s[0] != '-' {
			return s
		}
	}
}

// Addr is the bootstrap address, Host:Port.
func (b *Broker) Addr() string { return hostPort(b.Port) }

// process is the broker's JVM.
func (b *Broker) process() *Process { return b.proc }

// waitReady returns once the broker answers a metadata request with itself in it, under
// the cluster id its storage was formatted with. A port is free when pickPort returns
// it, but another process can take it before the JVM binds it (a second labtui starting
// at once, an embedded lab): that broker answers too, and the lab would run on it while
// this one exits with "Address already in use".
func (b *Broker) waitReady(ctx context.Context, logFile string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.Addr()), kgo.ClientID("labtui-cluster"))
	if err != nil {
		return err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	for {
		if exited, werr := b.proc.Exited(); exited {
			return fmt.Errorf("the Kafka broker exited during start (%v): %s shows why", werr, logFile)
		}
		m, err := adm.BrokerMetadata(ctx)
		if err == nil && len(m.Brokers) > 0 {
			if m.Cluster != b.clusterID {
				return &portTakenError{addr: b.Addr(), got: m.Cluster, want: b.clusterID}
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the Kafka broker did not answer on %s within 2 minutes: %s shows why", b.Addr(), logFile)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// createTopic creates topic with partitions partitions and one replica, through the
// admin API (what `kafka-topics.sh --create` does). A topic that exists is no error.
func (b *Broker) createTopic(ctx context.Context, topic string, partitions int32) error {
	return CreateTopic(ctx, b.Addr(), topic, partitions, nil, b.opts.Logf)
}

// CreateTopic creates topic on the Kafka at brokers with the topic configs given (nil for
// the broker's defaults), announcing it on logf (which may be nil) as the kafka-topics.sh
// line that would do the same. A topic that exists is no error, and keeps its configs.
func CreateTopic(ctx context.Context, brokers, topic string, partitions int32, configs map[string]string, logf func(string, ...any)) error {
	kconfigs := make(map[string]*string, len(configs))
	var flags strings.Builder
	for _, k := range slices.Sorted(maps.Keys(configs)) {
		v := configs[k]
		kconfigs[k] = &v
		fmt.Fprintf(&flags, " --config %s=%s", k, v)
	}
	if logf != nil {
		logf("create topic %s (%d partitions), as `kafka-topics.sh --bootstrap-server %s --create --if-not-exists --topic %s --partitions %d --replication-factor 1%s` does", topic, partitions, brokers, topic, partitions, flags.String())
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ClientID("labtui-cluster"))
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	defer cl.Close()
	resp, err := kadm.NewClient(cl).CreateTopic(ctx, partitions, 1, kconfigs, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
		return fmt.Errorf("create topic %s on %s: %w", topic, brokers, err)
	}
	return nil
}

// stop stops the broker: SIGTERM, and SIGKILL to its group after 20 s.
func (b *Broker) stop() {
	if b.proc != nil {
		b.opts.logf("stop the Kafka broker (pid %d)", b.proc.Pid())
		b.proc.stop(20 * time.Second)
	}
}

// TopicRecords returns how many records topic holds on the Kafka at brokers: the sum over
// its partitions of the end offset less the start offset.
func TopicRecords(ctx context.Context, brokers, topic string) (int64, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ClientID("labtui-cluster"))
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return 0, err
	}
	starts, err := adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return 0, err
	}
	var n int64
	var ferr error
	ends.Each(func(o kadm.ListedOffset) {
		if o.Err != nil {
			ferr = o.Err
			return
		}
		s, _ := starts.Lookup(topic, o.Partition)
		n += o.Offset - s.Offset
	})
	return n, ferr
}
