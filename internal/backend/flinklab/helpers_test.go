package flinklab

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/compose"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/testkit"
)

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "docker" {
		os.Exit(fakeDocker(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// Job ids the fake docker hands out, submission by submission.
const (
	job1 = "0f7c5e3c6bd1c8a7d2f1e0b9a8c7d6e5"
	job2 = "a3d9e8f7c6b5a4d3e2f1a0b9c8d7e6f5"
)

// t0 is the test clock's time: 10:01:30 UTC, while the taskmanager-1.log lines print.
var t0 = time.Date(2026, 1, 1, 10, 1, 30, 0, time.UTC)

// harness is a compose lab wired to the fake docker and a fake Flink REST API, with
// every update it sends kept.
type harness struct {
	t       *testing.T
	dir     string
	flink   *fakeFlink
	srv     *httptest.Server
	clock   *clock
	lab     *Lab
	cfg     Config
	mu      sync.Mutex
	updates []backend.Update
	done    chan struct{}
}

// newHarness puts the fake docker first and alone on PATH, with the recorded compose
// output and taskmanager logs beside it, and starts the fake REST API.
func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(dir, "docker")); err != nil {
		t.Skipf("cannot link the fake docker: %v", err)
	}
	// Docker Engine is installed (dockerd on PATH): a daemon down is one not running.
	writeFile(t, dir, "dockerd", "")
	if err := os.Chmod(filepath.Join(dir, "dockerd"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("DOCKER_HOST", "")
	t.Setenv(fakeDirEnv, dir)
	// A race-enabled fake would sleep a second at every exit to let reports through.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	for _, f := range []string{"up.txt", "taskmanager-1.log", "taskmanager-2.log"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, f, string(b))
	}
	writeFile(t, dir, "jobid-1", job1)
	writeFile(t, dir, "jobid-2", job2)
	h := &harness{t: t, dir: dir, clock: &clock{t: t0}, done: make(chan struct{})}
	h.flink = &fakeFlink{dir: dir, states: map[string]string{}}
	h.srv = httptest.NewServer(h.flink)
	// No broker: the job's positions are not read. Not the lab's 9092, which a compose lab
	// or another Kafka on this machine may hold.
	h.cfg = Config{ComposeFile: "compose/docker-compose.yml", FlinkURL: h.srv.URL, Broker: closedPort(t), StatusEvery: 10 * time.Millisecond,
		PollEvery: 20 * time.Millisecond, CheckerOptions: []compose.CheckerOption{compose.WithPorts()}, Now: h.clock.Now}
	return h
}

// closedPort is a loopback address nothing listens on: a port the kernel gave out and
// took back.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// open creates the lab from h.cfg and starts keeping its updates.
func (h *harness) open() *Lab {
	h.t.Helper()
	lab, err := New(h.cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.lab = lab
	go func() {
		defer close(h.done)
		for u := range lab.Updates() {
			h.mu.Lock()
			h.updates = append(h.updates, u)
			h.mu.Unlock()
		}
	}()
	return lab
}

// close closes the lab, waits for its last update and stops the fake REST API.
func (h *harness) close() error {
	err := h.lab.Close()
	select {
	case <-h.done:
	case <-time.After(60 * time.Second): // a hang, on a loaded machine
		h.t.Fatal("Updates was not closed after Close")
	}
	h.srv.Close()
	return err
}

// snapshot returns the updates so far.
func (h *harness) snapshot() []backend.Update {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]backend.Update(nil), h.updates...)
}

// waitFor waits until ok holds for the updates so far. Its 60 s only stop a hang.
func (h *harness) waitFor(what string, ok func([]backend.Update) bool) {
	h.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok(h.snapshot()) {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; log:\n%s", what, strings.Join(logLines(h.snapshot()), "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// calls returns every invocation the fake docker recorded, as command lines.
func (h *harness) calls() []string {
	h.t.Helper()
	f, err := os.Open(filepath.Join(h.dir, "calls.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var args []string
		if err := json.Unmarshal(sc.Bytes(), &args); err != nil {
			h.t.Fatalf("calls.jsonl: %v", err)
		}
		out = append(out, commandLine(args))
	}
	return out
}

// logLines returns every Log line in the updates.
func logLines(us []backend.Update) []string {
	var out []string
	for _, u := range us {
		if u.Log != "" {
			out = append(out, u.Log)
		}
	}
	return out
}

// commands returns the docker command lines the lab announced, without the "$ ".
func commands(us []backend.Update) []string {
	var out []string
	for _, l := range logLines(us) {
		if s, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, s)
		}
	}
	return out
}

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// fakeFlink answers GET /jobs/overview with the jobs the fake docker submitted
// (RUNNING unless set otherwise) and PATCH /jobs/:id?mode=cancel by cancelling one. With
// a broker set (setBroker), a job's Kafka source has read every record of every topic
// there: its currentOffset gauges (GET /jobs/:id, GET /jobs/:id/vertices/:vid/metrics)
// stand at each partition's last offset, as a job keeping up reports them.
type fakeFlink struct {
	dir     string
	mu      sync.Mutex
	states  map[string]string
	extra   []flinkJob
	cancels []string
	broker  string
	// deploying is how many more answers to GET /jobs/:id say a task still deploys.
	deploying int
	// unsplit is how many more lists of the source's metrics have no currentOffset gauge
	// (its enumerator has not handed out the splits yet).
	unsplit int
	// dieOnCancel takes the taskmanager down when a job is cancelled (tm-dead), as
	// PyFlink 2.2.1 can when it closes the Python workers.
	dieOnCancel bool
	// savepoints lists the jobs a savepoint was taken of, in turn, with the directory
	// asked for ("" for the cluster's own); disposed the savepoints disposed of.
	savepoints []string
	disposed   []string
	// savepointFailures is how many more savepoints fail (expired, as on a busy
	// machine); noSavepointDir refuses a savepoint with no directory, as a cluster
	// without a savepoint folder does (Flink 2.2.1's answer).
	savepointFailures int
	noSavepointDir    bool
	// savepointPolls counts the answers about the savepoint under way: the first says
	// IN_PROGRESS.
	savepointPolls int
}

// setBroker makes the fake's jobs read the topics of the broker at addr.
func (f *fakeFlink) setBroker(addr string) {
	f.mu.Lock()
	f.broker = addr
	f.mu.Unlock()
}

// sourceMetrics are the currentOffset gauges of a source that read every record of the
// broker's topics: id to value.
func (f *fakeFlink) sourceMetrics() map[string]string {
	out := map[string]string{}
	if f.broker == "" {
		return out
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(f.broker))
	if err != nil {
		return out
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ends, err := kadm.NewClient(cl).ListEndOffsets(ctx)
	if err != nil {
		return out
	}
	ends.Each(func(o kadm.ListedOffset) {
		id := fmt.Sprintf("0.Source__gateway-events.KafkaSourceReader.topic.%s.partition.%d.currentOffset", o.Topic, o.Partition)
		out[id] = strconv.FormatInt(o.Offset-1, 10)
	})
	return out
}

func (f *fakeFlink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/jobs/overview":
		jobs := append([]flinkJob(nil), f.extra...)
		entries, _ := os.ReadDir(filepath.Join(f.dir, "submitted"))
		for _, e := range entries {
			state := f.states[e.Name()]
			if state == "" {
				state = "RUNNING"
			}
			jobs = append(jobs, flinkJob{ID: e.Name(), Name: JobName, State: state})
		}
		for i := range jobs {
			if s := f.states[jobs[i].ID]; s != "" {
				jobs[i].State = s
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"jobs": jobs})
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/vertices/source/metrics"):
		metrics := f.sourceMetrics()
		if f.unsplit > 0 && r.URL.Query().Get("get") == "" {
			f.unsplit--
			metrics = nil
		}
		var out []map[string]string
		if get := r.URL.Query().Get("get"); get != "" {
			for _, id := range strings.Split(get, ",") {
				out = append(out, map[string]string{"id": id, "value": metrics[id]})
			}
		} else {
			for id := range metrics {
				out = append(out, map[string]string{"id": id})
			}
		}
		json.NewEncoder(w).Encode(out)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/jobs/") && !strings.Contains(strings.TrimPrefix(r.URL.Path, "/jobs/"), "/"):
		task := "RUNNING"
		if f.deploying > 0 {
			f.deploying--
			task = "DEPLOYING"
		}
		if _, err := os.Stat(filepath.Join(f.dir, "tm-dead")); err == nil && f.dieOnCancel {
			task = "SCHEDULED" // the taskmanager it took down is not back: nowhere to deploy
		}
		json.NewEncoder(w).Encode(map[string]any{"vertices": []map[string]string{
			{"id": "source", "name": "Source: gateway-events -> parse_event", "status": task},
			{"id": "windows", "name": "tenant-cost-event-time", "status": "RUNNING"}}})
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/jobs/") && strings.HasSuffix(r.URL.Path, "/savepoints"):
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/jobs/"), "/savepoints")
		var body struct {
			Cancel bool   `json:"cancel-job"`
			Dir    string `json:"target-directory"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		if body.Cancel {
			http.Error(w, `{"errors":["the lab never cancels a job with a savepoint"]}`, http.StatusBadRequest)
			return
		}
		if body.Dir == "" && f.noSavepointDir {
			http.Error(w, `{"errors":["Config key [execution.checkpointing.savepoint-dir] is not set. Property [target-directory] must be provided."]}`, http.StatusBadRequest)
			return
		}
		f.savepoints = append(f.savepoints, id+" "+body.Dir)
		f.savepointPolls = 0
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprintf(w, `{"request-id":"sp-%d"}`, len(f.savepoints))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/jobs/") && strings.Contains(r.URL.Path, "/savepoints/sp-"):
		if f.savepointPolls++; f.savepointPolls == 1 {
			w.Write([]byte(`{"status":{"id":"IN_PROGRESS"}}`))
			return
		}
		if f.savepointFailures > 0 {
			f.savepointFailures--
			w.Write([]byte(`{"status":{"id":"COMPLETED"},"operation":{"failure-cause":{"class":"java.util.concurrent.CompletionException","stack-trace":"org.apache.flink.runtime.checkpoint.CheckpointException: Checkpoint expired before completing.\n\tat ..."}}}`))
			return
		}
		id := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/jobs/"), "/", 2)[0]
		fmt.Fprintf(w, `{"status":{"id":"COMPLETED"},"operation":{"location":"file:/tmp/fake-savepoints/savepoint-%s-%d"}}`, id[:6], len(f.savepoints))
	case r.Method == http.MethodPost && r.URL.Path == "/savepoint-disposal":
		var body struct {
			Path string `json:"savepoint-path"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		f.disposed = append(f.disposed, body.Path)
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"request-id":"dispose-1"}`))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/savepoint-disposal/"):
		w.Write([]byte(`{"status":{"id":"COMPLETED"},"operation":{}}`))
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/jobs/") && r.URL.Query().Get("mode") == "cancel":
		id := strings.TrimPrefix(r.URL.Path, "/jobs/")
		f.cancels = append(f.cancels, id)
		f.states[id] = "CANCELED"
		if f.dieOnCancel {
			os.WriteFile(filepath.Join(f.dir, "tm-dead"), nil, 0o644)
		}
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte("{}"))
	default:
		http.Error(w, `{"errors":["Not found: `+r.URL.Path+`"]}`, http.StatusNotFound)
	}
}

func (f *fakeFlink) set(id, state string) {
	f.mu.Lock()
	f.states[id] = state
	f.mu.Unlock()
}

func (f *fakeFlink) cancelled() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cancels...)
}

// noLeak fails the test unless the goroutine count falls back to before within 60 s
// (a leak never does; a loaded machine may take seconds to end the goroutines).
func noLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for testkit.Goroutines() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left behind (before %d):\n%s", testkit.Goroutines()-before, before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// portsTaken makes the doctor find ports 9092 and 8081 in use.
func portsTaken() compose.CheckerOption {
	return func(c *compose.Checker) {
		compose.WithPorts(9092, 8081)(c)
		compose.WithListen(func(network, addr string) (net.Listener, error) {
			return nil, &net.OpError{Op: "listen", Net: network, Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}
		})(c)
	}
}
