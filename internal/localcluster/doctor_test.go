package localcluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/labtui/labtui/compose"
)

// fakeJava makes JAVA_HOME a JDK whose java -version prints version.
func fakeJava(t *testing.T, version string) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "bin"), 0o755)
	script := "#!/bin/sh\necho 'openjdk version \"" + version + "\" 2025-04-15' >&2\n"
	if err := os.WriteFile(filepath.Join(home, "bin", "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JAVA_HOME", home)
}

func TestDoctorJava(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    compose.Status
	}{{"17.0.15", compose.OK}, {"21.0.2", compose.OK}, {"11.0.22", compose.Problem}, {"1.8.0_392", compose.Problem}} {
		fakeJava(t, tc.version)
		r := checkJava(context.Background())
		if r.Status != tc.want {
			t.Errorf("java %s: %s (%s), want %s", tc.version, r.Status, r, tc.want)
		}
		if r.Status == compose.Problem && !strings.Contains(r.Fix, "JDK 17 or later") {
			t.Errorf("java %s: the fix does not say what to install: %s", tc.version, r.Fix)
		}
	}
}

func TestDoctorRemoteFlink(t *testing.T) {
	for _, tc := range []struct {
		body string
		want compose.Status
		fix  string
	}{
		{`{"taskmanagers":1,"slots-total":2,"slots-available":2,"flink-version":"2.2.1"}`, compose.OK, ""},
		{`{"taskmanagers":0,"slots-total":0,"slots-available":0,"flink-version":"2.2.1"}`, compose.Problem, "no TaskManager"},
		{`{"taskmanagers":1,"slots-total":2,"slots-available":0,"flink-version":"2.2.1"}`, compose.Problem, "slots are all taken"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/overview" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(tc.body))
		}))
		r := checkFlink(context.Background(), srv.URL)
		srv.Close()
		if r.Status != tc.want || !strings.Contains(r.Fix, tc.fix) {
			t.Errorf("%s: %s, want %s with a fix about %q", tc.body, r, tc.want, tc.fix)
		}
	}
	if r := checkFlink(context.Background(), "http://127.0.0.1:1"); r.Status != compose.Problem || !strings.Contains(r.Fix, "--flink") {
		t.Errorf("nothing at the URL: %s", r)
	}
}

// Given a cluster's configuration, the doctor reads what labtui relies on in it:
// labtui's own settings are fine, Flink's defaults (a 10 min web.timeout, metrics every
// 10 s) are a note that says what they cost and what to set, never a problem that
// keeps the lab from starting; a value it cannot read is said as it is.
func TestDoctorRemoteReadsFlinksConfiguration(t *testing.T) {
	for _, tc := range []struct {
		body string
		want compose.Status
		says []string
	}{
		{`[{"key":"web.timeout","value":"20000"},{"key":"metrics.fetcher.update-interval","value":"500"},{"key":"state.savepoints.dir","value":"s3://class/sp"}]`,
			compose.OK, []string{"web.timeout 20 s", "metrics every 500 ms", "savepoints in s3://class/sp"}},
		{`[{"key":"execution.checkpointing.savepoint-dir","value":"hdfs:///sp"}]`,
			compose.Note, []string{"savepoints in hdfs:///sp"}},
		{`[{"key":"web.timeout","value":"30 s"},{"key":"metrics.fetcher.update-interval","value":"1 s"}]`,
			compose.OK, []string{"web.timeout 30 s", "metrics every 1 s", "/tmp/labtui-savepoints on the JobManager"}},
		{`[]`, compose.Note, []string{"web.timeout is 10 min", "set web.timeout: 20000", "metrics.fetcher.update-interval is 10 s", "set 500"}},
		{`[{"key":"web.timeout","value":"soon"}]`, compose.Note, []string{`web.timeout is "soon", which labtui cannot read`}},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/jobmanager/config" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(tc.body))
		}))
		r := checkFlinkConfig(context.Background(), srv.URL)
		srv.Close()
		if r.Status != tc.want {
			t.Errorf("%s: %s, want %s", tc.body, r, tc.want)
		}
		for _, want := range tc.says {
			if !strings.Contains(r.Detail, want) {
				t.Errorf("%s: %q lacks %q", tc.body, r.Detail, want)
			}
		}
	}
	if r := checkFlinkConfig(context.Background(), "http://127.0.0.1:1"); r.Status != compose.Skipped {
		t.Errorf("nothing at the URL: %s, want skipped (the Flink check says why)", r)
	}
}

// Given a cache whose venv was installed before the lock (its stamp of the PyFlink
// version only), the plan is to pin it in place, not to make it again.
func TestPlanOfAVenvWithoutTheLockIsToPinIt(t *testing.T) {
	l := Layout{Cache: t.TempDir()}
	home := filepath.Join(l.venv(), "lib", "python3.11", "site-packages", "pyflink", "bin")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "flink"), nil, 0o755)
	os.WriteFile(l.venvStamp(), []byte("2.2.1\n"), 0o644)
	p := l.Plan()
	if p.Venv || !p.Pin {
		t.Fatalf("plan of an unpinned venv: venv %v, pin %v, want a pin in place", p.Venv, p.Pin)
	}
	if ok, missing := l.installed(); ok || !strings.Contains(missing, "pinned") {
		t.Fatalf("Installed() = %v, %q: an unpinned venv is not the install", ok, missing)
	}
	os.WriteFile(l.lockStamp(), []byte(pyLockSum()), 0o644)
	if p := l.Plan(); p.Venv || p.Pin {
		t.Fatalf("plan of a pinned venv: venv %v, pin %v, want nothing", p.Venv, p.Pin)
	}
}

// The lock names apache-flink at the version labtui runs, and every package with hashes.
func TestTheLockPinsEveryPackageWithHashes(t *testing.T) {
	for name, b := range map[string][]byte{"requirements.txt": pyRequirements, "build.txt": pyBuildRequirements} {
		pkgs := 0
		for _, line := range strings.Split(string(b), "\n") {
			if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, " ") {
				continue
			}
			pkgs++
			if !strings.Contains(line, "==") || !strings.HasSuffix(line, "\\") {
				t.Errorf("%s: %q is not pinned with hashes after it", name, line)
			}
		}
		if pkgs == 0 {
			t.Errorf("%s pins nothing", name)
		}
	}
	if !strings.Contains(string(pyRequirements), "\napache-flink=="+FlinkVersion+" \\") {
		t.Errorf("requirements.txt does not pin apache-flink==%s", FlinkVersion)
	}
}

func TestPlanOfAnEmptyCacheNamesSizesAndTime(t *testing.T) {
	p := Layout{Cache: t.TempDir()}.Plan()
	if !p.Venv || p.Pin || !p.PythonJar || len(p.Jars) != 1+len(brokerJars) {
		t.Fatalf("plan of an empty cache: venv %v, pin %v, flink-python jar %v, %d jars", p.Venv, p.Pin, p.PythonJar, len(p.Jars))
	}
	s := p.String()
	for _, want := range []string{"apache-flink==2.2.1", "54 jars from Maven Central (53 MiB)", "labtui's copy of flink-python's jar", "MiB of disk", "about 1m40s"} {
		if !strings.Contains(s, want) {
			t.Errorf("plan %q lacks %q", s, want)
		}
	}
}

// A loopback broker address is refused for a Flink on another machine, and taken for a
// Flink on this one or when both are the teacher's host.
func TestDoctorRemoteChecksTheBrokerAsTheTaskManagersReachIt(t *testing.T) {
	for _, tc := range []struct {
		brokers, flink string
		want           compose.Status
	}{
		{"127.0.0.1:9092", "http://127.0.0.1:8081", compose.OK},
		{"localhost:9092", "http://teacher.lan:8081", compose.Problem},
		{"teacher.lan:9092", "http://teacher.lan:8081", compose.OK},
	} {
		if r := checkBrokerAsFlinkSeesIt(tc.brokers, tc.flink); r.Status != tc.want {
			t.Errorf("--brokers %s --flink %s: %s, want %s", tc.brokers, tc.flink, r, tc.want)
		}
	}
}

// The results topic: a missing one the broker would create is OK (and is not created),
// one of one partition is OK, one of three is a problem whose fix says what to do; a
// broker that advertises its loopback is refused for a Flink on another machine.
func TestDoctorRemoteChecksTheResultsTopicAndTheAdvertisedAddress(t *testing.T) {
	k, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "res-one"), kfake.SeedTopics(3, "res-three"))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	brokers := k.ListenAddrs()[0]
	for topic, want := range map[string]compose.Status{"res-missing": compose.OK, "res-one": compose.OK, "res-three": compose.Problem} {
		r := checkResultsTopic(context.Background(), brokers, topic)
		if r.Status != want || (want == compose.Problem && !strings.Contains(r.Fix, "3 partitions")) {
			t.Errorf("%s: %s, want %s", topic, r, want)
		}
	}
	if n, err := TopicRecords(context.Background(), brokers, "res-missing"); err == nil {
		t.Errorf("the doctor created res-missing (%d records)", n)
	}
	if r := checkAdvertised(context.Background(), brokers, "http://127.0.0.1:8081"); r.Status != compose.OK {
		t.Errorf("a loopback broker for a loopback Flink: %s", r)
	}
	if r := checkAdvertised(context.Background(), brokers, "http://teacher.lan:8081"); r.Status != compose.Problem || !strings.Contains(r.Fix, "advertised.listeners") {
		t.Errorf("a loopback broker for a Flink elsewhere: %s", r)
	}
}
