package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// flinkConfig returns Flink's config.yaml for the session cluster: everything on
// loopback (the JobManager's RPC on rpcPort, the REST API and web UI on restPort, every
// other port picked by the kernel), one JobManager of 1 GiB and one TaskManager of 2
// GiB with two slots, the venv's python for the job's client and its Python workers,
// and the restart strategy of the course's compose lab: a job whose TaskManager died
// restarts every 5 s, up to 1000 times, once a TaskManager is back.
//
// It keeps the JVM options of the wheel's own config.yaml (the --add-opens Java 17
// needs). Every temporary file goes under tmp, a folder of the run that labtui removes
// when the run ends (see Options.tmpDir): Flink's working folders (io.tmp.dirs: the
// JobManager's and TaskManager's blob stores, the network buffers' spill files, the
// Python worker's files), the web UI's uploads (web.tmpdir), and what the JVMs and
// Python write to their own temporary folder (java.io.tmpdir, $TMPDIR: the RPC system's
// jar Flink unpacks on every start, 21 MB per JVM, and native libraries).
//
// A client's configuration for a cluster labtui did not start (remote) leaves out
// python.executable: the job would take it along, and that cluster's TaskManagers run
// the Python its own configuration names.
func flinkConfig(flinkHome, python, tmp string, rpcPort, restPort int, remote bool) ([]byte, error) {
	var wheel struct {
		Env struct {
			Java struct {
				Opts struct {
					All string `yaml:"all"`
				} `yaml:"opts"`
			} `yaml:"java"`
		} `yaml:"env"`
	}
	src := filepath.Join(flinkHome, "conf", "config.yaml")
	raw, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("read Flink's own configuration: %w", err)
	}
	if err := yaml.Unmarshal(raw, &wheel); err != nil {
		return nil, fmt.Errorf("read %s: %w", src, err)
	}
	conf := map[string]any{
		"env.java.opts.all":                      strings.TrimSpace(wheel.Env.Java.Opts.All + " -Djava.io.tmpdir=" + filepath.Join(tmp, "java")),
		"io.tmp.dirs":                            filepath.Join(tmp, "flink"),
		"web.tmpdir":                             filepath.Join(tmp, "flink-web"),
		"jobmanager.bind-host":                   Host,
		"jobmanager.rpc.address":                 Host,
		"jobmanager.rpc.port":                    rpcPort,
		"jobmanager.memory.process.size":         "1024m",
		"jobmanager.execution.failover-strategy": "region",
		"taskmanager.bind-host":                  Host,
		"taskmanager.host":                       Host,
		"taskmanager.numberOfTaskSlots":          2,
		"taskmanager.memory.process.size":        "2048m",
		"parallelism.default":                    1,
		"rest.address":                           Host,
		"rest.bind-address":                      Host,
		"rest.port":                              restPort,
		"blob.server.port":                       "0",
		"python.executable":                      python,
		"python.client.executable":               python,
		"restart-strategy.type":                  "fixed-delay",
		"restart-strategy.fixed-delay.attempts":  1000,
		"restart-strategy.fixed-delay.delay":     "5 s",
		"heartbeat.timeout":                      15000,
		// The REST API serves metrics as last fetched from the TaskManagers (10 s by
		// default): labtui reads the Kafka source's positions from it (a replay's end).
		"metrics.fetcher.update-interval": 500,
		// The metric fetcher starts a fetch only when the last one is done, and waits for
		// each TaskManager's answer up to web.timeout (10 min by default): after the x
		// key killed a TaskManager mid-fetch, the REST API served no metric of the new
		// one for 10 min, so a replay after a kill never completed and the catch-up went
		// unexplained. Every REST call the lab makes answers in well under this.
		"web.timeout": webTimeoutMS,
		// A replay completes once a savepoint of the job is (flinklab's Drain), which is
		// disposed of at once; a leftover one goes with the run's tmp.
		SavepointDirKey: "file://" + filepath.Join(tmp, "savepoints"),
	}
	if remote {
		delete(conf, SavepointDirKey)
		delete(conf, "python.executable")
		delete(conf, "io.tmp.dirs")
		delete(conf, "web.tmpdir")
	}
	out, err := yaml.Marshal(conf)
	if err != nil {
		return nil, err
	}
	return append([]byte("# Written by labtui for its Flink session cluster; rest.port "+strconv.Itoa(restPort)+".\n"), out...), nil
}

// webTimeoutMS bounds the web monitor's asynchronous operations, the metric fetcher's
// query of a TaskManager among them (see flinkConfig).
const webTimeoutMS = 20000

// writeConfDir makes the cluster's conf folder: config.yaml, the wheel's logging
// configurations, masters and workers.
func writeConfDir(dir, flinkHome, python, tmp string, rpcPort, restPort int, remote bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range []string{"java", "flink", "flink-web"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			return err
		}
	}
	conf, err := flinkConfig(flinkHome, python, tmp, rpcPort, restPort, remote)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), conf, 0o644); err != nil {
		return err
	}
	for _, pat := range []string{"log4j*.properties", "logback*.xml"} {
		m, _ := filepath.Glob(filepath.Join(flinkHome, "conf", pat))
		for _, f := range m {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
				return err
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "workers"), []byte(Host+"\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "masters"), []byte(hostPort(restPort)+"\n"), 0o644)
}
