package flinklab

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/generator"
	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/broker"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/localcluster"
	"github.com/labtui/labtui/internal/testkit"
	"github.com/labtui/labtui/internal/watermark"
)

const seedBurst = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

// kafka starts labtui's embedded broker as the cluster's Kafka stand-in.
func kafka(t *testing.T) *broker.Broker {
	t.Helper()
	b, err := broker.Start(context.Background(), broker.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lastStatus(us []backend.Update) *backend.Status {
	for i := len(us) - 1; i >= 0; i-- {
		if us[i].Status != nil {
			return us[i].Status
		}
	}
	return nil
}

// Given a running lab, when the generator starts and one instance hiccups, then the
// fleet produces to the cluster's broker address, the status shows every instance's
// counts and the hiccup, and stopping the generator leaves nothing behind.
func TestGeneratorAndHiccupUseTheClusterBroker(t *testing.T) {
	before := testkit.Goroutines()
	k := kafka(t)
	h := newHarness(t)
	h.cfg.Broker = k.Addr()
	h.flink.setBroker(k.Addr())
	h.cfg.Generator = generator.Defaults()
	h.cfg.Generator.Rate = 200
	lab := h.open()
	if err := lab.SetGenerator(true); err == nil {
		t.Fatal("SetGenerator before Start: no error")
	}
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	h.waitFor("acknowledged events on every instance", func(us []backend.Update) bool {
		st := lastStatus(us)
		if st == nil || !st.Generator || len(st.Instances) != 3 {
			return false
		}
		for _, in := range st.Instances {
			if in.Acked == 0 {
				return false
			}
		}
		return true
	})
	if err := lab.Inject("gw-1", time.Second); err != nil {
		t.Fatal(err)
	}
	h.waitFor("gw-1's hiccup in the status", func(us []backend.Update) bool {
		st := lastStatus(us)
		return st != nil && st.Instances[1].Hiccup && !st.Instances[0].Hiccup
	})
	if err := lab.Inject("gw-9", time.Second); err == nil {
		t.Error("a hiccup on gw-9 of 3 instances: no error")
	}
	if err := lab.SetGenerator(false); err != nil {
		t.Fatal(err)
	}
	st := lastStatus(h.snapshot())
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	k.Close()
	if st.Broker != k.Addr() {
		t.Errorf("status broker %q, want %q", st.Broker, k.Addr())
	}
	noLeak(t, before)
}

// Given a cluster with no savepoint folder whose first savepoint expires, when a
// replay has been read, then the savepoint goes to labtui's fallback folder and is
// taken again, and the replay completes once one is complete.
func TestAReplaysSavepointFindsAFolderAndIsTakenAgainWhenItExpires(t *testing.T) {
	h, lab := startedOnKafka(t, func(h *harness) { h.flink.noSavepointDir, h.flink.savepointFailures = true, 1 })
	if err := lab.Replay(context.Background(), seedBurst, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	want := []string{job2 + " " + localcluster.FallbackSavepointDir, job2 + " " + localcluster.FallbackSavepointDir, job2 + " " + localcluster.FallbackSavepointDir}
	h.flink.mu.Lock()
	got := h.flink.savepoints
	h.flink.mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("savepoints %q, want %q", got, want)
	}
	var said []string
	for _, u := range h.snapshot() {
		if strings.Contains(u.Log, "no execution.checkpointing.savepoint-dir") || strings.Contains(u.Log, "failed (") {
			said = append(said, u.Log)
		}
	}
	if len(said) != 2 || !strings.Contains(said[1], "Checkpoint expired before completing.") {
		t.Errorf("the log said %q, want the fallback folder and the expired savepoint", said)
	}
}

// Given a running lab, when a recording is replayed with started_ts, then it is written
// into a fresh topic with its partitions, keys and timestamps, the running job is
// cancelled through the REST API, a new job reads the new topic from the earliest offset
// with started_ts and PyFlink's own bundles, a replay restart and a final progress report arrive, and starting the
// generator afterwards puts a job back on the live topic from the latest offset.
func TestReplayWritesAFreshTopicAndResubmitsTheJob(t *testing.T) {
	k := kafka(t)
	defer k.Close()
	h := newHarness(t)
	writeFile(t, h.dir, "jobid-3", "b4e0f9a8d7c6b5a4e3f2a1b0c9d8e7f6")
	h.cfg.Broker = k.Addr()
	h.flink.setBroker(k.Addr())
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := lab.Replay(context.Background(), seedBurst, jobspec.StartedTS); err != nil {
		t.Fatal(err)
	}
	if err := lab.SetGenerator(true); err != nil {
		t.Fatal(err)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	us := h.snapshot()

	if c := h.flink.cancelled(); !slices.Equal(c, []string{job1, job2}) {
		t.Errorf("cancelled %q, want the first job for the replay, then the replay's job", c)
	}
	submits := submitOptions(us, "--bootstrap kafka:29092 ")
	want := []string{
		"--topic gateway-events --starting-offsets earliest --timestamp completed_ts --out-of-orderness-ms 0 --forget-after-ms 600000",
		"--topic gateway-events-replay-1 --starting-offsets earliest --timestamp started_ts --out-of-orderness-ms 0 --forget-after-ms 600000 --bundle-time-ms 1000 --bundle-size 100000",
		"--topic gateway-events --starting-offsets latest --timestamp started_ts --out-of-orderness-ms 0 --forget-after-ms 600000",
	}
	if !slices.Equal(submits, want) {
		t.Errorf("job options:\n  %s\nwant\n  %s", strings.Join(submits, "\n  "), strings.Join(want, "\n  "))
	}
	if r := restarts(us); !slices.Equal(r, []string{"started", "replay of " + seedBurst, "back to the live topic"}) {
		t.Errorf("restarts %q", r)
	}
	for _, u := range us {
		if u.Restarted != nil && strings.HasPrefix(u.Restarted.Reason, "replay") && u.Restarted.Timestamp != jobspec.StartedTS {
			t.Errorf("the replay's restart reads %s", u.Restarted.Timestamp)
		}
	}
	var final *backend.ReplayProgress
	finishing, done, processed := -1, -1, -1
	for i, u := range us {
		if u.Replay != nil {
			final = u.Replay
			if u.Replay.Finishing && finishing < 0 {
				finishing = i
			}
			if u.Replay.Done {
				done = i
			}
		}
		if strings.Contains(u.Log, "has processed every record it read: its savepoint") {
			processed = i
		}
	}
	// The replay's job is drained by a savepoint of it, taken into the cluster's own
	// savepoint folder and disposed of; the completion comes after.
	h.flink.mu.Lock()
	savepoints, disposed := h.flink.savepoints, h.flink.disposed
	h.flink.mu.Unlock()
	if !slices.Equal(savepoints, []string{job2 + " ", job2 + " "}) ||
		!slices.Equal(disposed, []string{"file:/tmp/fake-savepoints/savepoint-a3d9e8-1", "file:/tmp/fake-savepoints/savepoint-a3d9e8-2"}) {
		t.Errorf("savepoints %q, disposed %q: want two of the replay's job, in the cluster's folder, each disposed of", savepoints, disposed)
	}
	if !(finishing >= 0 && finishing < processed && processed < done) {
		t.Errorf("finishing at update %d, the savepoint complete at %d, the completion at %d: want them in that order", finishing, processed, done)
	}
	// The fake Flink's source stands at the end of every partition: the job read all 12.
	if final == nil || !final.Done || final.Err != nil || final.Records != 12 || final.Total != 12 {
		t.Errorf("last replay progress %+v, want done with 12 of 12 records read", final)
	} else if r := final.Reads; r == nil || r.Events() != 0 || len(r.Partitions) != 3 ||
		r.Partitions[0].Records+r.Partitions[1].Records+r.Partitions[2].Records != 12 || r.Partitions[2].MaxTS != 1795946490000 {
		t.Errorf("the replay's completion says the job read the partitions %+v, want 12 events over 3, partition 2's last at 1795946490000", r)
	}

	cl, err := kgo.NewClient(kgo.SeedBrokers(k.Addr()), kgo.ConsumeTopics("gateway-events-replay-1"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var got []string
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for len(got) < 12 && ctx.Err() == nil {
		cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) {
			got = append(got, string(r.Key)+"@"+string(rune('0'+r.Partition))+"@"+r.Timestamp.UTC().Format("15:04:05"))
		})
	}
	slices.Sort(got)
	if len(got) != 12 || got[0] != "r-101@0@10:00:05" || !slices.Contains(got, "r-102@1@10:00:20") {
		t.Errorf("the replay topic holds %q", got)
	}
}

// Given a job whose every task runs while its Kafka source has no split yet (the
// enumerator still lists the topic), when the lab starts, then Start returns only once
// the source reports where it stands in every partition, and the log says so: records
// the fleet sends after Start are read at once, not after the splits come.
func TestStartWaitsUntilTheSourceHoldsEveryPartition(t *testing.T) {
	k := kafka(t)
	h := newHarness(t)
	h.cfg.Broker = k.Addr()
	h.flink.setBroker(k.Addr())
	h.flink.unsplit = 3
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.flink.mu.Lock()
	left := h.flink.unsplit
	h.flink.mu.Unlock()
	if left != 0 {
		t.Errorf("Start returned before the source held its splits (%d answers left)", left)
	}
	h.waitFor("the log line saying the source holds every partition", func(us []backend.Update) bool {
		return slices.ContainsFunc(logLines(us), func(s string) bool {
			return strings.Contains(s, "reads gateway-events: its Kafka source holds all 3 partitions")
		})
	})
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	k.Close()
}

// Given a running lab whose TaskManager dies when a job is cancelled (PyFlink 2.2.1 can
// fail one closing its Python workers), when a recording is replayed, then the replay's
// run is the only restart: the TaskManager is brought back, the replay's job runs on it
// and reads the recording, and no "TaskManager died" run takes the replay's place.
func TestATaskManagerThatDiesAsTheJobIsReplacedStartsNoRunOfItsOwn(t *testing.T) {
	k := kafka(t)
	defer k.Close()
	h := newHarness(t)
	h.cfg.Broker = k.Addr()
	h.flink.setBroker(k.Addr())
	h.flink.dieOnCancel = true
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := lab.Replay(context.Background(), seedBurst, jobspec.CompletedTS); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the TaskManager back", func(us []backend.Update) bool {
		return strings.Contains(strings.Join(logLines(us), "\n"), "the TaskManager is back")
	})
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	us := h.snapshot()
	if r := restarts(us); len(r) != 2 || r[0] != "started" || strings.Contains(r[1], "TaskManager") {
		t.Errorf("restarts %q, want the start and the replay's only", r)
	}
	logs := strings.Join(logLines(us), "\n")
	for _, want := range []string{"the TaskManager stopped while labtui was replacing the job", "the TaskManager is back"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

// Given a running lab, when the learner puts the watermarks on the source with an
// idleness, then the job is submitted again with exactly that strategy (module 5's
// shape), not the course's stream watermarks under the new strategy's name; going back
// to the stream leaves both options out.
func TestAStrategyOnTheSourceIsTheJobsOwn(t *testing.T) {
	h, lab := startedOnKafka(t, func(h *harness) { writeFile(t, h.dir, "jobid-3", "b4e0f9a8d7c6b5a4e3f2a1b0c9d8e7f6") })
	if err := lab.Reconfigure(context.Background(), jobspec.CompletedTS, watermark.Strategy{OutOfOrderness: 40 * time.Second, At: watermark.Source, Idleness: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := lab.Reconfigure(context.Background(), jobspec.CompletedTS, watermark.Strategy{}); err != nil {
		t.Fatal(err)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	submits := submitOptions(h.snapshot(), "--forget-after-ms 600000 ")
	if want := []string{"", "--watermarks source --idleness-ms 5000", ""}; !slices.Equal(submits, want) {
		t.Errorf("the strategy options of the submissions are %q, want %q", submits, want)
	}
}

// startedOnKafka is a started compose lab on a Kafka of its own, set up by setup before
// it opens; the Kafka closes when the test ends.
func startedOnKafka(t *testing.T, setup func(h *harness)) (*harness, *Lab) {
	t.Helper()
	k := kafka(t)
	t.Cleanup(func() { k.Close() })
	h := newHarness(t)
	h.cfg.Broker = k.Addr()
	h.flink.setBroker(k.Addr())
	setup(h)
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h, lab
}

// submitOptions are the options of each `flink run` the lab typed, after the text after.
func submitOptions(us []backend.Update, after string) []string {
	var out []string
	for _, c := range commands(us) {
		if strings.Contains(c, "flink run") {
			_, opts, _ := strings.Cut(c, after)
			out = append(out, opts)
		}
	}
	return out
}
