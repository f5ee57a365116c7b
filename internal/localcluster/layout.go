package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// Versions of what the cluster runs. They match the conformance scripts' lib.sh and the
// compose lab's images.
const (
	FlinkVersion     = "2.2.1"
	KafkaVersion     = "4.1.1"
	connectorVersion = "5.0.0-2.2"
)

// Layout is where an install lives inside its cache folder. It is the layout of the
// conformance scripts (lib.sh), stamp files included, so a cache either made is used by
// the other as it is.
type Layout struct {
	// Cache is the folder; see DefaultCache.
	Cache string
}

// DefaultCache is labtui's cluster cache: $LABTUI_CLUSTER_CACHE, else
// ${XDG_CACHE_HOME:-~/.cache}/labtui/cluster.
func DefaultCache() (string, error) {
	if d := os.Getenv("LABTUI_CLUSTER_CACHE"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache folder: %w (set LABTUI_CLUSTER_CACHE)", err)
	}
	return filepath.Join(base, "labtui", "cluster"), nil
}

// venv is the virtual environment apache-flink is installed in.
func (l Layout) venv() string { return filepath.Join(l.Cache, "venv-flink-"+FlinkVersion) }

// python is the venv's python.
func (l Layout) python() string { return filepath.Join(l.venv(), "bin", "python") }

// venvStamp holds the installed PyFlink version once pip has finished.
func (l Layout) venvStamp() string { return filepath.Join(l.venv(), ".installed") }

// flinkHome is the Flink distribution inside the wheel (its bin/, conf/, lib/), or ""
// when the venv has no pyflink.
func (l Layout) flinkHome() string {
	m, _ := filepath.Glob(filepath.Join(l.venv(), "lib", "python3*", "site-packages", "pyflink"))
	for _, d := range m {
		if st, err := os.Stat(filepath.Join(d, "bin", "flink")); err == nil && !st.IsDir() {
			return d
		}
	}
	return ""
}

// connectorJar is the Kafka connector the job ships with --jars.
func (l Layout) connectorJar() string {
	return filepath.Join(l.Cache, "jars", "flink-sql-connector-kafka-"+connectorVersion+".jar")
}

// kafkaLibs is the folder of the broker's jars and their runtime dependencies.
func (l Layout) kafkaLibs() string {
	return filepath.Join(l.Cache, "kafka-"+KafkaVersion, "libs")
}

// jarsStamp is the file that says the jars are complete.
func (l Layout) jarsStamp() string {
	return filepath.Join(l.Cache, ".jars-"+connectorVersion+"-kafka-"+KafkaVersion)
}

// installed reports whether every part of the install is in place, and names the first
// that is missing.
func (l Layout) installed() (bool, string) {
	if _, err := os.Stat(l.venvStamp()); err != nil {
		return false, "the venv with apache-flink==" + FlinkVersion
	}
	if l.flinkHome() == "" {
		return false, "the Flink distribution inside the apache-flink wheel"
	}
	if !l.venvPinned() {
		return false, "the pinned versions of the venv's Python packages (internal/localcluster/pylock)"
	}
	if _, err := os.Stat(l.jarsStamp()); err != nil {
		return false, "the Kafka connector and broker jars"
	}
	if _, err := os.Stat(l.connectorJar()); err != nil {
		return false, "the Kafka connector jar"
	}
	if _, err := os.Stat(l.kafkaLibs()); err != nil {
		return false, "the Kafka broker's jars"
	}
	if !l.pythonJarBuilt() {
		return false, "labtui's copy of flink-python's jar (Python-worker services on loopback only, a cancellation that cannot take the TaskManager down)"
	}
	return true, ""
}
