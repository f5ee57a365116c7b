package localcluster

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/labtui/labtui/compose"
)

// memoryNeed is what the cluster's processes take together: the JobManager (1 GiB), the
// TaskManager (2 GiB), the broker (512 MiB heap) and the Python workers.
const memoryNeed = 4 << 30

// runDisk is what a run's files (the broker's data, Flink's logs) may take.
const runDisk = 300 << 20

// Doctor checks what --backend cluster needs on this machine: a JDK 17 or later, Python
// 3.9 or later with venv (3.11 is what the course uses), the install or the disk to make
// it, the memory for the JVMs, and the course's ports (a taken one is no problem: the
// cluster picks a free one, and says so). Each problem's Fix is one sentence.
func Doctor(ctx context.Context, l Layout) compose.Report {
	var r compose.Report
	r.Results = append(r.Results, checkJava(ctx), checkPython(ctx, l), checkInstall(l), checkDisk(l), checkMemory())
	for _, p := range []struct {
		port int
		what string
	}{{defaultBrokerPort, "Kafka"}, {defaultRESTPort, "Flink's REST API and web UI"}} {
		res := compose.Result{Name: "Port " + hostPort(p.port), Status: compose.OK, Detail: "free: " + p.what + " listens on it"}
		if !portFree(p.port) {
			res.Detail = "taken by another program: " + p.what + " listens on a free port instead, shown at start"
		}
		r.Results = append(r.Results, res)
	}
	return r
}

// javaVersion finds the major version in `java -version`'s `openjdk version "17.0.15"`
// (or "1.8.0_392" for Java 8).
var javaVersion = regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`)

func checkJava(ctx context.Context) compose.Result {
	res := compose.Result{Name: "Java 17+"}
	fix := "Install a JDK 17 or later (Debian and Ubuntu: sudo apt-get install openjdk-17-jdk-headless; macOS: brew install openjdk@17) or set JAVA_HOME to one."
	home, err := findJavaHome()
	if err != nil {
		res.Status, res.Fix, res.Err = compose.Problem, fix, err
		return res
	}
	java := filepath.Join(home, "bin", "java")
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	m := javaVersion.FindSubmatch(out)
	if err != nil || m == nil {
		res.Status, res.Fix, res.Err = compose.Problem, fix, fmt.Errorf("%s -version: %v: %s", java, err, firstLine(out))
		return res
	}
	major, _ := strconv.Atoi(string(m[1]))
	if major == 1 && len(m[2]) > 0 {
		major, _ = strconv.Atoi(string(m[2]))
	}
	if major < 17 {
		res.Status, res.Fix = compose.Problem, fmt.Sprintf("%s is Java %d; Flink 2.2 needs 17 or later: %s", java, major, fix)
		return res
	}
	res.Status, res.Detail = compose.OK, fmt.Sprintf("%s (%s)", java, firstLine(out))
	return res
}

// pythonVersion finds "3.11" in `Python 3.11.7`.
var pythonVersion = regexp.MustCompile(`Python (\d+)\.(\d+)`)

func checkPython(ctx context.Context, l Layout) compose.Result {
	res := compose.Result{Name: "Python 3.11"}
	if _, err := os.Stat(l.venvStamp()); err == nil {
		res.Status, res.Detail = compose.OK, "the install's venv has its own: "+l.python()
		return res
	}
	fix := "Install Python 3.11 with its venv module (Debian and Ubuntu: sudo apt-get install python3 python3-venv; macOS: brew install python@3.11) so that python3 is on PATH."
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "python3", "--version").CombinedOutput()
	m := pythonVersion.FindSubmatch(out)
	if err != nil || m == nil {
		res.Status, res.Fix, res.Err = compose.Problem, fix, fmt.Errorf("python3 --version: %v: %s", err, firstLine(out))
		return res
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	if major != 3 || minor < 9 {
		res.Status, res.Fix = compose.Problem, fmt.Sprintf("python3 is %s; apache-flink %s needs 3.9 or later: %s", firstLine(out), FlinkVersion, fix)
		return res
	}
	if err := exec.CommandContext(ctx, "python3", "-c", "import venv, ensurepip").Run(); err != nil {
		res.Status, res.Fix = compose.Problem, "python3 has no venv module with pip (ensurepip): install it (Debian and Ubuntu: sudo apt-get install python3-venv)."
		return res
	}
	res.Status, res.Detail = compose.OK, firstLine(out)
	if minor != 11 {
		res.Detail += " (the course uses 3.11; apache-flink " + FlinkVersion + " runs on 3.9 or later)"
	}
	return res
}

func checkInstall(l Layout) compose.Result {
	res := compose.Result{Name: "Install", Status: compose.OK}
	plan := l.Plan()
	if plan.Done() {
		res.Detail = "complete in " + l.Cache + ": a start downloads nothing"
		return res
	}
	res.Detail = "not complete in " + l.Cache + ": the first start, or labtui cluster install, does it; " + plan.String()
	return res
}

func checkDisk(l Layout) compose.Result {
	res := compose.Result{Name: "Disk"}
	need := l.Plan().Disk + runDisk
	dir := l.Cache
	for {
		if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
			break
		}
		dir = filepath.Dir(dir)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		res.Status, res.Fix, res.Err = compose.Problem, "Cannot read the free space of "+dir+": set LABTUI_CLUSTER_CACHE (or --cluster-cache) to a folder on a disk you can write to.", err
		return res
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	if free < need {
		res.Status, res.Fix = compose.Problem, fmt.Sprintf("%s has %s free and the cluster needs %s: free some space, or set LABTUI_CLUSTER_CACHE (or --cluster-cache) to a folder on a larger disk.", dir, mib(free), mib(need))
		return res
	}
	res.Status, res.Detail = compose.OK, fmt.Sprintf("%s free in %s, %s needed", mib(free), dir, mib(need))
	return res
}

func checkMemory() compose.Result {
	res := compose.Result{Name: "Memory"}
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		res.Status, res.Detail = compose.Skipped, "no /proc/meminfo on this system: the cluster takes about 4 GiB"
		return res
	}
	var avail int64
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			avail = kb << 10
		}
	}
	if avail < memoryNeed {
		res.Status, res.Fix = compose.Problem, fmt.Sprintf("%s of memory is available and the cluster's JVMs take about 4 GiB: close other programs (or run the embedded lab, plain labtui).", mib(avail))
		return res
	}
	res.Status, res.Detail = compose.OK, mib(avail)+" available, about 4096 MiB needed"
	return res
}

// DoctorRemote checks what --backend remote needs: a Kafka that answers at brokers, a
// Flink whose REST API answers at flinkURL with a TaskManager and a free slot, the
// results path (the session's results topic, which the job writes and labtui reads:
// there, or creatable, with one partition), a broker address the TaskManagers can reach
// as well as this machine (the one given, and those the broker advertises), and, for
// `flink run`, the local install and a JDK 17 or later. It changes nothing: a missing
// results topic is only validated for creation. Whether the TaskManagers have PyFlink
// shows only when the job runs: the job then fails at once, and its exception is in
// Flink's web UI.
func DoctorRemote(ctx context.Context, l Layout, brokers, flinkURL, resultsTopic string) compose.Report {
	var r compose.Report
	r.Results = append(r.Results, checkKafka(ctx, brokers), checkFlink(ctx, flinkURL), checkFlinkConfig(ctx, flinkURL), checkResultsTopic(ctx, brokers, resultsTopic),
		checkBrokerAsFlinkSeesIt(brokers, flinkURL), checkAdvertised(ctx, brokers, flinkURL), checkJava(ctx))
	inst := checkInstall(l)
	inst.Detail = strings.Replace(inst.Detail, "a start downloads nothing", "`flink run` comes from it", 1)
	r.Results = append(r.Results, inst)
	return r
}

func checkKafka(ctx context.Context, brokers string) compose.Result {
	res := compose.Result{Name: "Kafka at " + brokers}
	if _, _, err := net.SplitHostPort(brokers); err != nil {
		res.Status, res.Fix, res.Err = compose.Problem, fmt.Sprintf("--brokers %q is not HOST:PORT: give the address the broker advertises, such as 127.0.0.1:9092.", brokers), err
		return res
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ClientID("labtui-doctor"))
	if err == nil {
		var m kadm.BrokerDetails
		m, err = kadm.NewClient(cl).ListBrokers(ctx)
		cl.Close()
		if err == nil {
			res.Status, res.Detail = compose.OK, fmt.Sprintf("%d broker(s) answer", len(m))
			return res
		}
	}
	res.Status, res.Err = compose.Problem, err
	res.Fix = fmt.Sprintf("Nothing answers Kafka's protocol at %s within 10 s: start the broker, or give --brokers the address it advertises to this machine.", brokers)
	return res
}

func checkFlink(ctx context.Context, flinkURL string) compose.Result {
	res := compose.Result{Name: "Flink at " + flinkURL}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	o, err := NewREST(flinkURL).overview(ctx)
	switch {
	case err != nil:
		res.Status, res.Err = compose.Problem, err
		res.Fix = fmt.Sprintf("Flink's REST API does not answer at %s: start the cluster, or give --flink the URL of its web UI (such as http://127.0.0.1:8081).", flinkURL)
	case o.TaskManagers == 0:
		res.Status, res.Fix = compose.Problem, "Flink answers but has no TaskManager: start one (taskmanager.sh start), or the job never runs."
	case o.SlotsFree == 0:
		res.Status, res.Fix = compose.Problem, fmt.Sprintf("Flink's %d slots are all taken: cancel a job in its web UI (%s) or add a TaskManager.", o.Slots, flinkURL)
	default:
		res.Status, res.Detail = compose.OK, fmt.Sprintf("Flink %s, %d TaskManager(s), %d of %d slots free", o.Version, o.TaskManagers, o.SlotsFree, o.Slots)
	}
	return res
}

// FallbackSavepointDir is where labtui has a savepoint written when the cluster has no
// savepoint folder configured: the JobManager's own temporary folder. Each is disposed
// of as soon as it is complete.
const FallbackSavepointDir = "file:///tmp/labtui-savepoints"

// SavepointDirKey is Flink 2's key of the cluster's savepoint folder
// (CheckpointingOptions.SAVEPOINT_DIRECTORY); savepointDirKeys are it and the deprecated
// keys Flink 2.2.1 still reads in its place, newest first.
const SavepointDirKey = "execution.checkpointing.savepoint-dir"

var savepointDirKeys = []string{SavepointDirKey, "state.savepoints.dir", "savepoints.state.backend.fs.dir"}

// savepointDir is the savepoint folder a JobManager's configuration (as
// /jobmanager/config lists it) gives, under whichever of its keys; "" when none.
func savepointDir(conf map[string]string) string {
	for _, k := range savepointDirKeys {
		if dir := conf[k]; dir != "" {
			return dir
		}
	}
	return ""
}

// NoSavepointDir says whether err is Flink refusing a savepoint with no target folder
// because the cluster has none configured: "Config key [KEY] is not set. Property
// [target-directory] must be provided.", where KEY is state.savepoints.dir before Flink
// 2 and execution.checkpointing.savepoint-dir since.
func NoSavepointDir(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Property [target-directory] must be provided")
}

// flinkSettings are the duration settings of a cluster labtui relies on: Flink's
// default when a cluster leaves one out, the most the doctor takes as it is, how the
// detail names a fine value, and what a slower one costs.
var flinkSettings = []struct {
	key          string
	defMS, maxMS int64
	fine, costs  string
}{
	// The metric fetcher waits up to web.timeout for a TaskManager's answer and starts
	// no fetch meanwhile.
	{"web.timeout", 600_000, 60_000, "web.timeout ",
		"after a TaskManager dies during a metrics fetch, Flink serves no new metric for that long, and a replay cannot complete meanwhile (set web.timeout: 20000)"},
	{"metrics.fetcher.update-interval", 10_000, 2_000, "metrics every ",
		"a replay completes up to that long after its job has read it (set 500)"},
}

// checkFlinkConfig reads the JobManager's configuration for what labtui relies on: the
// REST API's metrics (how far a job's Kafka source has read, a replay's end), which it
// serves as last fetched (metrics.fetcher.update-interval) and not at all while a fetch
// waits for a TaskManager that died (up to web.timeout), and where savepoints go (a
// replay's completion takes two, disposed of at once). What is slower than labtui's
// own cluster is a note, never a problem: the lab works, later.
func checkFlinkConfig(ctx context.Context, flinkURL string) compose.Result {
	res := compose.Result{Name: "Flink's configuration at " + flinkURL}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conf, err := NewREST(flinkURL).jobManagerConfig(ctx)
	if err != nil {
		res.Status, res.Detail, res.Err = compose.Skipped, "the JobManager's configuration could not be read: "+err.Error(), err
		return res
	}
	var notes, fine []string
	for _, set := range flinkSettings {
		ms, ok := flinkMillis(conf, set.key, set.defMS)
		switch {
		case !ok:
			notes = append(notes, fmt.Sprintf("%s is %q, which labtui cannot read as a duration", set.key, conf[set.key]))
		case ms > set.maxMS:
			notes = append(notes, fmt.Sprintf("%s is %s: %s", set.key, millis(ms), set.costs))
		default:
			fine = append(fine, set.fine+millis(ms))
		}
	}
	if dir := savepointDir(conf); dir != "" {
		fine = append(fine, "savepoints in "+dir)
	} else {
		fine = append(fine, "no "+SavepointDirKey+": a replay's savepoints go to "+strings.TrimPrefix(FallbackSavepointDir, "file://")+" on the JobManager, each disposed of at once")
	}
	res.Status, res.Detail = compose.OK, strings.Join(fine, "; ")
	if len(notes) > 0 {
		res.Status, res.Detail = compose.Note, strings.Join(append(notes, fine...), "; ")
	}
	return res
}

// flinkMillis reads a duration setting of Flink's in milliseconds: a number (ms) or a
// number and a unit (ms, s, min, h, as Flink writes them), def when the key is absent.
func flinkMillis(conf map[string]string, key string, def int64) (int64, bool) {
	v, ok := conf[key]
	if !ok {
		return def, true
	}
	v = strings.TrimSpace(v)
	i := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if i == 0 {
		return 0, false
	}
	num, unit := v, ""
	if i > 0 {
		num, unit = v[:i], strings.ToLower(strings.TrimSpace(v[i:]))
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, false
	}
	scale := map[string]int64{"": 1, "ms": 1, "milli": 1, "millis": 1, "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
		"min": 60_000, "mins": 60_000, "minute": 60_000, "minutes": 60_000, "h": 3_600_000, "hour": 3_600_000, "hours": 3_600_000}
	m, ok := scale[unit]
	if !ok {
		return 0, false
	}
	return n * m, true
}

// millis is a duration in ms as a person reads it: "20 s", "10 min", "500 ms".
func millis(ms int64) string {
	switch {
	case ms >= 60_000 && ms%60_000 == 0:
		return strconv.FormatInt(ms/60_000, 10) + " min"
	case ms >= 1000 && ms%1000 == 0:
		return strconv.FormatInt(ms/1000, 10) + " s"
	}
	return strconv.FormatInt(ms, 10) + " ms"
}

// kafkaAdmin is an admin client of brokers for one of the doctor's Kafka checks, with
// ctx bounded to 10 s; done closes both. ok is false when no client can be made (the
// check of Kafka says why).
func kafkaAdmin(ctx context.Context, brokers string) (adm *kadm.Client, bounded context.Context, done func(), ok bool) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ClientID("labtui-doctor"))
	if err != nil {
		return nil, ctx, func() {}, false
	}
	bounded, cancel := context.WithTimeout(ctx, 10*time.Second)
	return kadm.NewClient(cl), bounded, func() { cancel(); cl.Close() }, true
}

// checkResultsTopic checks the session's results topic: one that exists must have one
// partition (labtui reads partition 0, in the order the job wrote) and be readable; one
// that does not is validated for creation (CreateTopics with validate_only), so a broker
// that refuses to create it (no auto-creation rights, a naming policy) says so now.
func checkResultsTopic(ctx context.Context, brokers, topic string) compose.Result {
	res := compose.Result{Name: "Results topic " + topic}
	adm, ctx, done, ok := kafkaAdmin(ctx, brokers)
	if !ok {
		res.Status, res.Detail = compose.Skipped, "see the check of Kafka"
		return res
	}
	defer done()
	topics, err := adm.ListTopics(ctx, topic)
	if err != nil {
		res.Status, res.Detail = compose.Skipped, "see the check of Kafka"
		return res
	}
	if d, ok := topics[topic]; ok && d.Err == nil {
		if n := len(d.Partitions); n != 1 {
			res.Status = compose.Problem
			res.Fix = fmt.Sprintf("Topic %s has %d partitions, and labtui reads the job's results from one, in the order the job wrote them: delete it (kafka-topics.sh --delete --topic %s) and labtui creates it with one, or give another --session.", topic, n, topic)
			return res
		}
		ends, err := adm.ListEndOffsets(ctx, topic)
		if err == nil {
			err = ends.Error()
		}
		if err != nil {
			res.Status, res.Err = compose.Problem, err
			res.Fix = fmt.Sprintf("Topic %s cannot be read from this machine: grant this user Describe and Read on it, or give another --session.", topic)
			return res
		}
		o, _ := ends.Lookup(topic, 0)
		res.Status, res.Detail = compose.OK, fmt.Sprintf("one partition, readable (%d lines of earlier runs, which labtui skips)", o.Offset)
		return res
	}
	resp, err := adm.ValidateCreateTopics(ctx, 1, 1, nil, topic)
	if err == nil {
		var one kadm.CreateTopicResponse
		if one, err = resp.On(topic, nil); err == nil {
			err = one.Err
		}
	}
	if err != nil {
		res.Status, res.Err = compose.Problem, err
		res.Fix = fmt.Sprintf("The broker would not create topic %s (one partition): create it yourself (kafka-topics.sh --create --topic %s --partitions 1), or grant this user Create.", topic, topic)
		return res
	}
	res.Status, res.Detail = compose.OK, "labtui creates it (one partition) at the start; the broker accepts it"
	return res
}

// checkAdvertised refuses a broker that advertises a loopback address to a Flink on
// another machine: the TaskManagers bootstrap at --brokers, then connect where the broker
// says it is, their own loopback.
func checkAdvertised(ctx context.Context, brokers, flinkURL string) compose.Result {
	res := compose.Result{Name: "Kafka's advertised address as the TaskManagers reach it"}
	u, err := url.Parse(flinkURL)
	if err != nil {
		res.Status, res.Detail = compose.Skipped, "see the check of --flink"
		return res
	}
	adm, ctx, done, ok := kafkaAdmin(ctx, brokers)
	if !ok {
		res.Status, res.Detail = compose.Skipped, "see the check of Kafka"
		return res
	}
	defer done()
	bs, err := adm.ListBrokers(ctx)
	if err != nil || len(bs) == 0 {
		res.Status, res.Detail = compose.Skipped, "see the check of Kafka"
		return res
	}
	var addrs []string
	for _, b := range bs {
		addr := net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port)))
		addrs = append(addrs, addr)
		if isLoopbackHost(b.Host) && !isLoopbackHost(u.Hostname()) {
			res.Status = compose.Problem
			res.Fix = fmt.Sprintf("The broker advertises %s, its own loopback, but Flink runs on %s: the TaskManagers would look for Kafka on their loopback after the first contact. Set the broker's advertised.listeners to a name the class reaches, such as the teacher's host name.", addr, u.Hostname())
			return res
		}
	}
	res.Status, res.Detail = compose.OK, "the broker advertises "+strings.Join(addrs, ", ")
	return res
}

// checkBrokerAsFlinkSeesIt refuses a loopback broker address for a Flink on another
// machine: the TaskManagers would look for Kafka on their own loopback.
func checkBrokerAsFlinkSeesIt(brokers, flinkURL string) compose.Result {
	res := compose.Result{Name: "Kafka as the TaskManagers reach it", Status: compose.OK}
	bhost, _, err := net.SplitHostPort(brokers)
	u, uerr := url.Parse(flinkURL)
	if err != nil || uerr != nil {
		res.Status, res.Detail = compose.Skipped, "see the checks of --brokers and --flink"
		return res
	}
	if isLoopbackHost(bhost) && !isLoopbackHost(u.Hostname()) {
		res.Status = compose.Problem
		res.Fix = fmt.Sprintf("--brokers %s is this machine's loopback, but Flink runs on %s: the job runs there and would look for Kafka on that machine's loopback. Give --brokers the address the broker advertises to the class, such as the teacher's host name and port.", brokers, u.Hostname())
		return res
	}
	res.Detail = fmt.Sprintf("the job reaches Kafka at %s, as labtui does", brokers)
	return res
}

// isLoopbackHost reports whether host is localhost or a loopback IP.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// firstLine is the first non-empty line of b.
func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
