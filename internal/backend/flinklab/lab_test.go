package flinklab

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/testkit"
)

const (
	dc        = "docker compose -p labtui-lab4 -f compose/docker-compose.yml "
	submitCmd = dc + "exec -T -e FLINK_OPT_DIR=/opt/flink-python-patched jobmanager flink run -d -py /opt/labs/04-event-time-and-processing-time/job/gateway_meter.py " +
		"--bootstrap kafka:29092 --topic gateway-events --starting-offsets earliest --timestamp completed_ts " +
		"--out-of-orderness-ms 0 --forget-after-ms 600000"
	doctorVersion = "docker compose version"
	doctorInfo    = "docker info --format '{{.ServerVersion}}'"
	doctorKafka   = "docker image inspect --format '{{.Id}}' labtui-lab4/kafka:4.1.1"
	doctorFlink   = "docker image inspect --format '{{.Id}}' labtui-lab4/pyflink:2.2.1"
	// doctorCommands is how many commands the doctor's checks announce before `up`.
	doctorCommands = 4
)

// results returns every result in the updates, in order.
func results(us []backend.Update) []jobspec.Result {
	var out []jobspec.Result
	for _, u := range us {
		out = append(out, u.Results...)
	}
	return out
}

// kinds counts results by kind.
func kinds(rs []jobspec.Result) map[jobspec.Kind]int {
	n := map[jobspec.Kind]int{}
	for _, r := range rs {
		n[r.Kind]++
	}
	return n
}

func restarts(us []backend.Update) []string {
	var out []string
	for _, u := range us {
		if u.Restarted != nil {
			out = append(out, u.Restarted.Reason)
		}
	}
	return out
}

func hasResults(n int) func([]backend.Update) bool {
	return func(us []backend.Update) bool { return len(results(us)) >= n }
}

// Given a machine with Docker, when the lab starts, runs and closes, then it runs
// exactly the doctor's checks, up, the log follower, the submission and down, in that
// order and never through a shell, and every print-sink line of the taskmanager's log
// arrives as the jobspec.Result the embedded lab would send.
func TestUpSubmitFollowResultsCloseDown(t *testing.T) {
	before := testkit.Goroutines()
	h := newHarness(t)
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the 8 results of taskmanager-1.log", hasResults(8))
	h.waitFor("a status after the results", func(us []backend.Update) bool {
		st := us[len(us)-1].Status
		return st != nil && st.Job.Records == 4
	})
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	us := h.snapshot()

	want := []string{
		doctorVersion,
		doctorInfo,
		doctorKafka,
		doctorFlink,
		dc + "up -d --build --wait",
		dc + "logs -f --no-log-prefix --since 2026-01-01T10:01:30Z taskmanager",
		submitCmd,
		dc + "down --timeout 1",
	}
	if got := commands(us); !slices.Equal(got, want) {
		t.Errorf("announced commands:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// The fake recorded the same invocations; the follower and the submission run at
	// once, so only their order may differ.
	got := h.calls()
	const follower, submission = 5, 6
	if len(got) != len(want) || !slices.Equal(got[:follower], want[:follower]) || got[submission+1] != want[submission+1] ||
		!(slices.Equal(got[follower:submission+1], want[follower:submission+1]) ||
			slices.Equal(got[follower:submission+1], []string{want[submission], want[follower]})) {
		t.Errorf("docker was run as:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	rs := results(us)
	if k := kinds(rs); k[jobspec.TraceResult] != 4 || k[jobspec.ProcessingTimeResult] != 1 || k[jobspec.EventTimeResult] != 2 || k[jobspec.LateResult] != 1 || len(rs) != 8 {
		t.Fatalf("results by kind %v (%d), want 4 traces, 1 processing-time, 2 event-time, 1 late", k, len(rs))
	}
	now := t0.UnixMilli()
	for _, r := range rs {
		if r.At != now {
			t.Errorf("%s result At %d, want the time it was read, %d", r.Kind, r.At, now)
		}
	}
	last := rs[7]
	if last.Kind != jobspec.EventTimeResult || last.Minute.TenantID != "globex" || last.Minute.USD != 0.3 || last.Minute.WindowEnd != 1767261660000 {
		t.Errorf("the event-time:2> line read as %+v", last)
	}
	late := rs[6]
	if late.Kind != jobspec.LateResult || late.Record.RequestID != "r-4" || late.Record.Gateway != "gw-1" || !late.Record.Late || late.Record.USD != 0.05 || late.Record.Arrival != now {
		t.Errorf("the late> line read as %+v", late.Record)
	}
	if r := restarts(us); !slices.Equal(r, []string{"started"}) {
		t.Errorf("restarts %q, want one, started", r)
	}
	firstResult := slices.IndexFunc(us, func(u backend.Update) bool { return len(u.Results) > 0 })
	if firstRestart := slices.IndexFunc(us, func(u backend.Update) bool { return u.Restarted != nil }); firstRestart > firstResult {
		t.Errorf("the start's restart came after the first results")
	}

	var st *backend.Status
	for _, u := range us {
		if u.Status != nil {
			st = u.Status
		}
	}
	j := st.Job
	if st.Backend != "compose" || st.Watermark != 1767261664999 || j.Records != 4 || j.Late != 1 || j.LateUSD != 0.05 ||
		j.ProcessingFired != 1 || j.ProcessingUSD != 0.2 || j.EventFired != 2 || j.EventUSD != 0.1+0.3 || j.Malformed != 1 {
		t.Errorf("last status %+v, job %+v", st, j)
	}
	// Open: acme's 10:01 event-time minute (r-3), and in the processing-time minute the
	// lines were read in, 10:01, the traced records no processing-time result counted:
	// one of acme's three (its 10:00 result counted two) and globex's r-2.
	var open []string
	for _, o := range st.Open {
		open = append(open, o.Window.String()+" "+o.Minute.TenantID+" "+strings.Repeat("|", int(o.Minute.Requests)))
		if o.Minute.WindowEnd != 1767261720000 {
			t.Errorf("open window %+v should end at 10:02", o)
		}
	}
	if want := []string{"processing-time acme |", "processing-time globex |", "event-time acme |"}; !slices.Equal(open, want) {
		t.Errorf("open windows %q, want %q", open, want)
	}

	logs := strings.Join(logLines(us), "\n")
	for _, want := range []string{
		"compose: pulling images",
		"compose: building the lab's images",
		"  build #5 [jobmanager 3/5] RUN set -eux;",
		"  container labtui-lab4-kafka-1 healthy",
		"  container labtui-lab4-kafka-init-1 exited",
		"every service is healthy",
		"job " + job1 + " submitted",
		"job " + job1 + " is RUNNING",
		`skipped a record of gateway-events holding {`,
		`: missing field ts`,
		"  network labtui-lab4_default removed",
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	for _, noise := range []string{"1f3e46996e29", "Downloading", "Collecting apache-flink", "quotes a sink"} {
		if strings.Contains(logs, noise) {
			t.Errorf("log shows %q, which should be left out", noise)
		}
	}
	noLeak(t, before)
}

// Given a running lab, when the taskmanager's log ends and compose says it is not
// running, then a restart is reported between the old run's results and the new run's,
// the taskmanager is brought back, and its log is followed again from the moment it
// died.
func TestTaskManagerThatDiesIsReportedAndBroughtBack(t *testing.T) {
	before := testkit.Goroutines()
	h := newHarness(t)
	writeFile(t, h.dir, "taskmanager-1.ends", "")
	writeFile(t, h.dir, "tm-dead", "")
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the second run's results", hasResults(10))
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	us := h.snapshot()
	got := commands(us)
	want := []string{
		dc + "ps --status running --quiet taskmanager",
		dc + "up -d --no-deps --wait taskmanager",
		dc + "logs -f --no-log-prefix --since 2026-01-01T10:01:30Z taskmanager",
		dc + "down --timeout 1",
	}
	if len(got) < doctorCommands+3+len(want) || !slices.Equal(got[doctorCommands+3:], want) {
		t.Errorf("commands after the submission:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if r := restarts(us); !slices.Equal(r, []string{"started", "TaskManager died"}) {
		t.Errorf("restarts %q", r)
	}
	// Every result of the first log comes before the restart, the second log's after.
	seen := 0
	for _, u := range us {
		if u.Restarted != nil && u.Restarted.Reason == "TaskManager died" && seen != 8 {
			t.Errorf("the death was reported after %d results, want 8", seen)
		}
		seen += len(u.Results)
	}
	rs := results(us)
	if p := rs[9]; p.Kind != jobspec.ProcessingTimeResult || p.Minute.WindowEnd != 1767261780000 {
		t.Errorf("the second run's processing-time:1> line read as %+v", p)
	}
	logs := strings.Join(logLines(us), "\n")
	for _, want := range []string{"the TaskManager stopped (its output ended)", "the TaskManager is back"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	noLeak(t, before)
}

// Given a running lab, when the learner kills the taskmanager, then compose kills it and
// brings it back, a "TaskManager killed" restart is reported, and RestartTaskManager
// returns once it is back.
func TestRestartTaskManagerKillsItAndBringsItBack(t *testing.T) {
	before := testkit.Goroutines()
	h := newHarness(t)
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the first run's results", hasResults(8))
	h.clock.Set(t0.Add(40e9))
	if err := lab.restartTaskManager(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the second run's results", hasResults(10))
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	us := h.snapshot()
	want := []string{
		dc + "kill taskmanager",
		dc + "up -d --no-deps --wait taskmanager",
		dc + "logs -f --no-log-prefix --since 2026-01-01T10:02:10Z taskmanager",
		dc + "down --timeout 1",
	}
	if got := commands(us); len(got) < doctorCommands+3+len(want) || !slices.Equal(got[doctorCommands+3:], want) {
		t.Errorf("commands after the submission:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if r := restarts(us); !slices.Equal(r, []string{"started", "TaskManager killed"}) {
		t.Errorf("restarts %q", r)
	}
	for _, u := range us {
		if u.Restarted != nil && u.Restarted.Reason == "TaskManager killed" && u.Restarted.At != t0.Add(40e9).UnixMilli() {
			t.Errorf("restart at %d, want the kill's time", u.Restarted.At)
		}
	}
	noLeak(t, before)
}

// Given a Docker daemon that is not running, when the lab starts, then Start returns the
// plain error that names the fix, `labtui doctor` and the embedded lab, and no docker
// command runs after the doctor's two, not even at Close.
func TestDaemonNotRunningStopsBeforeAnythingStarts(t *testing.T) {
	before := testkit.Goroutines()
	h := newHarness(t)
	writeFile(t, h.dir, "daemon-down", "")
	lab := h.open()
	err := lab.Start(context.Background())
	var pe *PreflightError
	if !errors.As(err, &pe) {
		t.Fatalf("Start: %v, want a *PreflightError", err)
	}
	for _, want := range []string{"The Docker daemon is not running", "labtui doctor", "without --backend compose", "embedded lab"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	if got, want := h.calls(), []string{doctorVersion, doctorInfo}; !slices.Equal(got, want) {
		t.Errorf("docker was run as %q, want only the doctor's %q", got, want)
	}
	if err := lab.SetGenerator(true); !errors.Is(err, errClosed) {
		t.Errorf("SetGenerator after Close: %v", err)
	}
	noLeak(t, before)
}

// Given a running job, when Flink reports it RESTARTING (a failure the taskmanager's log
// does not show), then a restart is reported.
func TestFlinkRestartingTheJobIsARestart(t *testing.T) {
	h := newHarness(t)
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.clock.Set(t0.Add(restartQuiet + 1e9))
	h.flink.set(job1, "RESTARTING")
	h.waitFor("the restart", func(us []backend.Update) bool { return len(restarts(us)) == 2 })
	h.flink.set(job1, "RUNNING")
	h.waitFor("the job running again", func(us []backend.Update) bool {
		return slices.Contains(logLines(us), "job "+job1+": RESTARTING → RUNNING")
	})
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	if r := restarts(h.snapshot()); r[1] != "the job failed and Flink restarted it" {
		t.Errorf("restarts %q", r)
	}
}

// Given a cluster left running with keep-cluster, whose ports the doctor finds taken,
// when the lab starts, then it reuses the cluster, cancels the job it left behind
// through the REST API, and on Close leaves the cluster up.
func TestKeptClusterIsReusedAndKept(t *testing.T) {
	h := newHarness(t)
	writeFile(t, h.dir, "cluster-running", "")
	h.cfg.KeepCluster = true
	h.cfg.CheckerOptions = append(h.cfg.CheckerOptions, portsTaken())
	h.flink.extra = []flinkJob{{ID: "c0ffee00c0ffee00c0ffee00c0ffee00", Name: JobName, State: "RUNNING"},
		{ID: "d00dd00dd00dd00dd00dd00dd00dd00d", Name: "someone-elses-job", State: "RUNNING"}}
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
	if c := h.flink.cancelled(); !slices.Equal(c, []string{"c0ffee00c0ffee00c0ffee00c0ffee00"}) {
		t.Errorf("cancelled %q, want only the lab's old job", c)
	}
	got := commands(h.snapshot())
	if !slices.Contains(got, dc+"ps --status running --quiet") || slices.Contains(got, dc+"down --timeout 1") {
		t.Errorf("commands %q: want the running check and no down", got)
	}
	if !slices.ContainsFunc(logLines(h.snapshot()), func(s string) bool { return strings.Contains(s, "keeps running (keep-cluster)") }) {
		t.Errorf("no line says the cluster is kept")
	}
}

var _ backend.Restarter = (*Lab)(nil)

// Given a job Flink reports RUNNING while one of its tasks still deploys (a PyFlink
// task starts its Python worker as it opens), when the lab starts, then Start returns
// only once every task runs: records the fleet sends after it are read promptly.
func TestStartWaitsForEveryTaskOfTheJob(t *testing.T) {
	h := newHarness(t)
	h.flink.deploying = 3
	lab := h.open()
	if err := lab.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.flink.mu.Lock()
	left := h.flink.deploying
	h.flink.mu.Unlock()
	if left != 0 {
		t.Errorf("Start returned while a task deployed (%d answers left)", left)
	}
	if err := h.close(); err != nil {
		t.Fatal(err)
	}
}
