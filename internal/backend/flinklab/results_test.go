package flinklab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/internal/jobspec"
)

// topicPlatform is a Platform with a session, as the cluster and remote platforms are:
// its "job" is the test, which writes the results topic with the --run-id the lab gave
// the submission; its TaskManager is a channel that a kill closes.
type topicPlatform struct {
	dir, broker, flinkURL, session string

	mu   sync.Mutex
	args [][]string
	died chan struct{}
	dead bool
}

func (p *topicPlatform) Name() string                    { return "cluster" }
func (p *topicPlatform) Preflight(context.Context) error { return nil }
func (p *topicPlatform) Down(context.Context) error      { return nil }

func (p *topicPlatform) Up(context.Context) (Endpoints, error) {
	return Endpoints{Broker: p.broker, FlinkURL: p.flinkURL, Session: p.session}, nil
}

func (p *topicPlatform) Submit(_ context.Context, args []string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.args = append(p.args, args)
	id := fmt.Sprintf("%032x", len(p.args))
	os.MkdirAll(filepath.Join(p.dir, "submitted"), 0o755)
	return id, os.WriteFile(filepath.Join(p.dir, "submitted", id), nil, 0o644)
}

func (p *topicPlatform) Follow(ctx context.Context, _ func(string)) (func() error, error) {
	p.mu.Lock()
	died := p.died
	p.mu.Unlock()
	return func() error {
		select {
		case <-ctx.Done():
		case <-died:
		}
		return nil
	}, nil
}

func (p *topicPlatform) TaskManagerRunning(context.Context) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.dead
}

func (p *topicPlatform) KillTaskManager(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	close(p.died)
	p.dead = true
	return nil
}

func (p *topicPlatform) StartTaskManager(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.died, p.dead = make(chan struct{}), false
	return nil
}

// arg is the value of option name in the last submission's arguments.
func (p *topicPlatform) arg(name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.args) == 0 {
		return ""
	}
	a := p.args[len(p.args)-1]
	if i := slices.Index(a, name); i >= 0 && i+1 < len(a) {
		return a[i+1]
	}
	return ""
}

// window is a results-topic value of session and run: an event-time window of tenant.
func window(session, run, tenant string, end int64) string {
	return fmt.Sprintf(`{"session":%q,"run":%q,"output":"event-time","result":{"tenant_id":%q,"window_start":%d,"window_end":%d,"usd":0.1,"requests":1}}`,
		session, run, tenant, end-jobspec.Minute, end)
}

// Given a session's lab whose job writes its results topic, when the topic holds the
// session's windows and lines no job of this lab wrote (another session's, another
// submission's of this session, one that is no JSON, one with a terminal escape), and
// the TaskManager is killed right after the job wrote 300 more windows, then: the job
// was submitted with the session, the topic and a run id; exactly the session's own
// windows are shown, each once, every one the job wrote before the kill before the
// restart, and the job's windows after it under run 2; each other line is said on the
// log, escaped, never shown.
func TestAResultsTopicShowsOnlyTheSessionsOwnJob(t *testing.T) {
	k := kafka(t)
	defer k.Close()
	h := newHarness(t)
	h.flink.setBroker(k.Addr())
	p := &topicPlatform{dir: h.dir, broker: k.Addr(), flinkURL: h.srv.URL, session: "ana", died: make(chan struct{})}
	h.cfg.Platform = func(Log) Platform { return p }
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	topic, run := p.arg("--results-topic"), p.arg("--run-id")
	if topic != "gateway-meter-lab4-ana-results" || p.arg("--session") != "ana" || len(run) != 12 {
		t.Fatalf("submitted with --session %q --results-topic %q --run-id %q", p.arg("--session"), topic, run)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.Addr()), kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	details, err := kadm.NewClient(cl).ListTopics(context.Background(), topic)
	if err != nil || len(details[topic].Partitions) != 1 {
		t.Fatalf("the results topic: %v, %d partitions, want 1", err, len(details[topic].Partitions))
	}
	produce := func(values ...string) {
		t.Helper()
		var rs []*kgo.Record
		for _, v := range values {
			rs = append(rs, kgo.StringRecord(v))
		}
		if err := cl.ProduceSync(context.Background(), rs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	const end = 1767261720000
	produce(window("ana", run, "acme", end),
		window("bo", run, "bo-tenant", end),
		window("ana", "0123456789ab", "other-job", end),
		"not json",
		`{"session":"ana","run":"`+run+`","output":"event-time","result":{"tenant_id":"acme"`+"\x1b[2J"+`}}`,
		`{"session":"ana","run":"`+run+`","output":"tally","result":{}}`)
	h.waitFor("the session's first window", hasResults(1))
	var burst []string
	for i := range 300 {
		burst = append(burst, window("ana", run, fmt.Sprintf("t%03d", i), end))
	}
	produce(burst...)
	if err := lab.restartTaskManager(context.Background()); err != nil {
		t.Fatal(err)
	}
	produce(window("ana", run, "after", end+jobspec.Minute))
	h.waitFor("the window after the restart", hasResults(302))
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	us := h.snapshot()
	var tenants []string
	before := 0
	for _, u := range us {
		if u.Restarted != nil && u.Restarted.Reason == "TaskManager killed" {
			before = len(tenants)
		}
		for _, r := range u.Results {
			if r.Kind != jobspec.EventTimeResult {
				t.Errorf("run %d: a %s result", u.Run, r.Kind)
			}
			tenants = append(tenants, r.Minute.TenantID)
			if want := 1 + btoi(r.Minute.TenantID == "after"); u.Run != want {
				t.Errorf("%s's window under run %d, want %d", r.Minute.TenantID, u.Run, want)
			}
		}
	}
	if len(tenants) != 302 || tenants[0] != "acme" || tenants[301] != "after" || before != 301 {
		t.Errorf("%d windows shown (first %q, last %q), %d before the restart; want 302, acme, after, 301", len(tenants), tenants[0], tenants[len(tenants)-1], before)
	}
	if r := restarts(us); !slices.Equal(r, []string{"started", "TaskManager killed"}) {
		t.Errorf("restarts %q", r)
	}
	logs := strings.Join(logLines(us), "\n")
	for _, want := range []string{
		"a line of session bo, not of this session ana (offset 1): it is not shown (1 such lines so far)",
		"a line of another job of session ana (run 0123456789ab, not this lab's " + run + "; offset 2)",
		"(offset 3: invalid character 'o' in literal null (expecting 'u')): not json; it is not shown",
		`\x1b[2J`,
		`an unreadable tally line (offset 5: the lab's job writes no output "tally")`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "\x1b") {
		t.Errorf("an escape from the topic reached the log raw")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Given a results topic whose end lies beyond what was read, drain waits until the
// reader has handled it, and says how far it got when that takes longer than allowed.
func TestDrainWaitsForTheTopicsEnd(t *testing.T) {
	k := kafka(t)
	defer k.Close()
	var logged []string
	var mu sync.Mutex
	logf := func(f string, a ...any) { mu.Lock(); logged = append(logged, fmt.Sprintf(f, a...)); mu.Unlock() }
	r, err := openResults(context.Background(), k.Addr(), "res", "ana", logf)
	if err != nil {
		t.Fatal(err)
	}
	r.begin("run1")
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.Addr()), kgo.DefaultProduceTopic("res"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for i := range 50 {
		cl.Produce(context.Background(), kgo.StringRecord(window("ana", "run1", fmt.Sprint(i), 60000)), nil)
	}
	if err := cl.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Not read at all: drain gives up after its wait and says how far it got.
	if err := r.drain(context.Background(), 100*time.Millisecond); err == nil || !strings.Contains(err.Error(), "read to offset 0 of 50") {
		t.Fatalf("drain of an unread topic: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var mu2 sync.Mutex
	taken := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.follow(ctx, func(string, []byte) error { mu2.Lock(); taken++; mu2.Unlock(); return nil })
	}()
	if err := r.drain(context.Background(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	mu2.Lock()
	n := taken
	mu2.Unlock()
	if n != 50 {
		t.Errorf("drain returned after %d of 50 lines", n)
	}
	cancel()
	<-done
	if len(logged) != 1 || !strings.Contains(logged[0], "create topic res (1 partitions)") {
		t.Errorf("logged %q", logged)
	}
}

// Given no results topic, openResults creates it with LogAppendTime: the job stamps a
// replay's results with the recording's event time, days old, and a broker's time
// retention must count from when they were written, not from then.
func TestAResultsTopicIsStampedWhenWritten(t *testing.T) {
	k := kafka(t)
	defer k.Close()
	r, err := openResults(context.Background(), k.Addr(), "res", "ana", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.cl.Close()
	r.adm.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(k.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	configs, err := kadm.NewClient(cl).DescribeTopicConfigs(context.Background(), "res")
	if err != nil {
		t.Fatal(err)
	}
	c, err := configs.On("res", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range c.Configs {
		if kv.Key == "message.timestamp.type" {
			if got := kv.MaybeValue(); got != "LogAppendTime" {
				t.Fatalf("the results topic's message.timestamp.type is %q, want LogAppendTime", got)
			}
			return
		}
	}
	t.Fatal("the results topic has no message.timestamp.type")
}
