package localcluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/labs"
)

// TestRealCluster starts the real broker and Flink from the install in
// $LABTUI_REAL_CLUSTER (a cache folder, such as the conformance run's), submits the lab's
// job with `flink run -py` and a topic of its own (which proves the job's options pass
// through the CLI), produces a malformed value, reads the job's `malformed>` line from
// the TaskManager's stdout, kills and restarts the TaskManager, reads the same line again
// from the new TaskManager (the job re-read the topic from the earliest offset), stops
// everything and checks that no process of it is left, its ports are free and its
// temporary files are gone; while the job runs, that it listens on loopback only. It takes
// one to three minutes of two busy cores, so it runs only when asked.
func TestRealCluster(t *testing.T) {
	cache := os.Getenv("LABTUI_REAL_CLUSTER")
	if cache == "" {
		t.Skip("set LABTUI_REAL_CLUSTER to an install's cache folder to run the real cluster")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	opts := Options{Layout: Layout{Cache: cache}, RunDir: t.TempDir(), Logf: func(f string, a ...any) { t.Logf(f, a...) }}
	began := time.Now()
	c, err := Start(ctx, opts, Ports{}, "lab-topic", 3)
	if err != nil {
		t.Fatal(err)
	}
	var procs []*Process
	stopped := false
	defer func() {
		if !stopped {
			c.Stop()
		}
	}()
	t.Logf("cluster up in %s (broker %s, flink %s)", time.Since(began), c.Timings.Broker, c.Timings.Flink)
	tm1, _ := c.Flink.TaskManager()
	procs = append(procs, c.Broker.process(), c.Flink.jobManager(), tm1)

	var mu sync.Mutex
	var lines []string
	fctx, fcancel := context.WithCancel(ctx)
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		c.Flink.followTaskManager(fctx, 100*time.Millisecond, func(s string) {
			mu.Lock()
			lines = append(lines, s)
			mu.Unlock()
		})
	}()
	malformed := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "malformed") && strings.Contains(l, "not-json-42") {
				n++
			}
		}
		return n
	}
	waitFor := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(3 * time.Minute)
		for malformed() < n {
			if time.Now().After(deadline) {
				mu.Lock()
				t.Fatalf("%s: %d malformed lines after 3 minutes; stdout: %q", what, malformed(), lines)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}

	script, err := labs.JobScript(filepath.Join(t.TempDir(), "job"))
	if err != nil {
		t.Fatal(err)
	}
	sub := time.Now()
	id, err := c.Flink.Submit(ctx, script, "--bootstrap", c.Broker.Addr(), "--topic", "lab-topic", "--starting-offsets", "earliest")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("submitted %s in %s", id, time.Since(sub))
	if _, err := c.Flink.REST.waitState(ctx, id, 250*time.Millisecond, func(s string) bool { return s == "RUNNING" }); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Broker.Addr()), kgo.DefaultProduceTopic("lab-topic"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.ProduceSync(ctx, kgo.StringRecord("not-json-42")).FirstErr(); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	waitFor("first run", 1)
	t.Logf("first result %s after submission", time.Since(sub))
	// The job runs, its Python worker connected: every listener of the run is on loopback,
	// the worker's gRPC services too (pythonjar.go).
	var groups []int
	for _, p := range procs {
		groups = append(groups, p.Pid())
	}
	ls, err := listeners(groups)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		if !loopbackOnly(l) {
			t.Errorf("the cluster listens beyond loopback: %s", l)
		}
	}
	t.Logf("listeners while the job runs: %s", strings.Join(ls, ", "))

	kill := time.Now()
	if err := c.Flink.restartTaskManager(ctx); err != nil {
		t.Fatal(err)
	}
	tm2, gen := c.Flink.TaskManager()
	if gen != 2 {
		t.Fatalf("TaskManager generation %d after one restart, want 2", gen)
	}
	procs = append(procs, tm2)
	waitFor("after the TaskManager restart", 2)
	t.Logf("the restarted job re-read the topic %s after the kill", time.Since(kill))
	state, _ := c.Flink.REST.JobState(ctx, id)
	if state != "RUNNING" {
		t.Errorf("job %s is %s after the restart, want RUNNING", id, state)
	}
	if err := c.Flink.cancel(ctx, id); err != nil {
		t.Error(err)
	}
	fcancel()
	<-followed

	ports := []int{c.Broker.Port, c.Broker.ControllerPort, c.Flink.RESTPort, c.Flink.rpcPort}
	c.Stop()
	stopped = true
	for _, p := range procs {
		if groupAlive(p.Pid()) {
			t.Errorf("the %s's process group %d is still alive after Stop", p.Name, p.Pid())
		}
	}
	for _, p := range ports {
		if !portFree(p) {
			t.Errorf("port %d is still taken after Stop", p)
		}
	}
	if _, err := os.Stat(opts.tmpDir()); !os.IsNotExist(err) {
		t.Errorf("the run's temporary files are still in %s after Stop (%v)", opts.tmpDir(), err)
	}
}
