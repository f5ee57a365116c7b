package labcluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

func TestPlanOfAnEmptyCacheNamesSizesAndTime(t *testing.T) {
	p := Layout{Cache: t.TempDir()}.Plan()
	if !p.Venv || len(p.Jars) != 1+len(brokerJars) {
		t.Fatalf("plan of an empty cache: venv %v, %d jars", p.Venv, len(p.Jars))
	}
	s := p.String()
	for _, want := range []string{"apache-flink==2.2.1", "54 jars from Maven Central (53 MiB)", "MiB of disk", "about 1m30s"} {
		if !strings.Contains(s, want) {
			t.Errorf("plan %q lacks %q", s, want)
		}
	}
}
