package localcluster

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestTheClustersMetricsRecoverSoonAfterATaskManagerDies(t *testing.T) {
	// Given the wheel's own configuration (its JVM options),
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "conf", "config.yaml"), []byte("env:\n  java:\n    opts:\n      all: --add-opens=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, remote := range []bool{false, true} {
		raw, err := flinkConfig(home, "/venv/bin/python", t.TempDir(), 6123, 8081, remote)
		if err != nil {
			t.Fatal(err)
		}
		var conf map[string]any
		if err := yaml.Unmarshal(raw, &conf); err != nil {
			t.Fatal(err)
		}
		// then the metric fetcher waits for a TaskManager's answer at most 20 s
		// (Flink's 10 min left the REST API without the new TaskManager's metrics for
		// that long after a kill), and fetches every half second.
		if conf["web.timeout"] != webTimeoutMS || webTimeoutMS > 30000 {
			t.Errorf("remote %v: web.timeout %v", remote, conf["web.timeout"])
		}
		if conf["metrics.fetcher.update-interval"] != 500 {
			t.Errorf("remote %v: metrics.fetcher.update-interval %v", remote, conf["metrics.fetcher.update-interval"])
		}
	}
}
