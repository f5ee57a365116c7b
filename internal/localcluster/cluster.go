package localcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Cluster is the whole lab cluster: the Kafka broker and the Flink session cluster.
type Cluster struct {
	Broker *Broker
	Flink  *Flink
	// Timings are how long each part took to start.
	Timings Timings
	tmp     string
}

// removeTmp removes the run's temporary files once no process of the run is left.
func (c *Cluster) removeTmp() {
	if c.tmp != "" {
		os.RemoveAll(c.tmp)
	}
}

// Timings are the measured start times of a cluster.
type Timings struct {
	Broker, Flink, Total time.Duration
}

// Ports are the ports a cluster takes when they are free; 0 means any free port.
type Ports struct {
	Broker, REST int
}

// DefaultPorts are the course's: Kafka on 9092, Flink's web UI on 8081.
var DefaultPorts = Ports{Broker: defaultBrokerPort, REST: defaultRESTPort}

// Start starts the broker and the Flink cluster side by side, creates topic with
// partitions partitions, and returns once the broker answers and the TaskManager has
// registered. On an error, whatever started is stopped.
func Start(ctx context.Context, opts Options, ports Ports, topic string, partitions int32) (*Cluster, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if ok, missing := opts.Layout.installed(); !ok {
		return nil, fmt.Errorf("%s is not installed in %s: run `labtui cluster install`", missing, opts.Layout.Cache)
	}
	opts.logf("starting Kafka %s and Flink %s as processes of labtui; their files are in %s", KafkaVersion, FlinkVersion, opts.RunDir)
	c := &Cluster{tmp: opts.tmpDir()}
	began := time.Now()
	var wg sync.WaitGroup
	var berr, ferr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.Broker, berr = StartBroker(ctx, opts, ports.Broker)
		if berr == nil {
			berr = c.Broker.createTopic(ctx, topic, partitions)
			c.Timings.Broker = time.Since(began)
		}
	}()
	go func() {
		defer wg.Done()
		c.Flink, ferr = startFlink(ctx, opts, ports.REST)
		c.Timings.Flink = time.Since(began)
	}()
	wg.Wait()
	if err := errors.Join(berr, ferr); err != nil {
		c.Stop()
		return nil, err
	}
	c.Timings.Total = time.Since(began)
	opts.logf("Kafka on %s (started in %s), Flink's REST API and web UI on %s (started in %s)",
		c.Broker.Addr(), c.Timings.Broker.Round(100*time.Millisecond), c.Flink.REST.Base, c.Timings.Flink.Round(100*time.Millisecond))
	return c, nil
}

// Stop stops Flink and the broker side by side, returns once every process has exited,
// and removes the run's temporary files (Options.tmpDir). Parts that never started are
// skipped; a second Stop does nothing more.
func (c *Cluster) Stop() {
	defer c.removeTmp()
	var wg sync.WaitGroup
	if c.Flink != nil {
		wg.Add(1)
		go func() { defer wg.Done(); c.Flink.stop() }()
	}
	if c.Broker != nil {
		wg.Add(1)
		go func() { defer wg.Done(); c.Broker.stop() }()
	}
	wg.Wait()
}
