package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mutation breaks one property in a copy of the lab's files.
type mutation struct {
	property string // the property that must now fail
	file     string // File, or a file of an image's build context
	old, new string // old must occur in file; every occurrence becomes new
}

const (
	flinkDockerfile   = "flink/Dockerfile"
	flinkRequirements = "flink/requirements.txt"
	kafkaDockerfile   = "kafka/Dockerfile"
	kafkaJars         = "kafka/jars.txt"
)

var mutations = []mutation{
	{"project name", File, "name: labtui-lab4\n", "name: another-lab\n"},
	{"project name", File, "name: labtui-lab4\n", ""},
	{"services", File, "  kafka-init:\n", "  topic-init:\n"},
	{"images pinned", File, "image: labtui-lab4/kafka:4.1.1\n", "image: labtui-lab4/kafka\n"},
	{"images pinned", File, "image: labtui-lab4/kafka:4.1.1\n", "image: labtui-lab4/kafka:latest\n"},
	{"kafka build", File, "image: labtui-lab4/kafka:4.1.1\n", "image: labtui-lab4/kafka:4.1.0\n"},
	{"kafka build", File, "    context: ./kafka\n", "    context: ./flink\n"},
	{"kafka build", kafkaJars, "kafka_2.13/4.1.1/kafka_2.13-4.1.1.jar", "kafka_2.13/4.2.0/kafka_2.13-4.2.0.jar"},
	{"images pinned", File, "labtui-lab4/pyflink:2.2.1", "labtui-lab4/pyflink"},
	{"flink build", File, "labtui-lab4/pyflink:2.2.1", "labtui-lab4/pyflink:dev"},
	{"flink build", File, "  platform: linux/amd64\n", ""},
	{"flink build", File, "    context: ./flink\n", "    context: .\n"},
	{"dockerfile base pinned", flinkDockerfile, "FROM debian:bookworm-slim", "FROM debian:latest"},
	{"dockerfile base pinned", kafkaDockerfile, "FROM debian:bookworm-slim", "FROM debian:bookworm-slim\nFROM debian:bookworm-slim"},
	{"dockerfile base pinned", kafkaDockerfile, "FROM debian:bookworm-slim", "FROM ubuntu:24.04"},
	{"dockerfile pyflink pin", flinkRequirements, "apache-flink==2.2.1", "apache-flink==2.2.0"},
	{"dockerfile pyflink pin", flinkRequirements, "apache-flink==2.2.1", "apache-flink"},
	{"dockerfile pyflink pin", flinkRequirements, "numpy==2.1.3", "numpy>=2"},
	{"dockerfile pyflink pin", flinkDockerfile, "--no-deps ", ""},
	{"dockerfile pyflink pin", flinkDockerfile, "setuptools==80.9.0", "setuptools"},
	{"dockerfile pyflink pin", flinkDockerfile, "    /opt/venv/bin/pip check; \\\n", ""},
	{"dockerfile apt pinned", flinkDockerfile, "--no-install-recommends ", ""},
	{"dockerfile apt pinned", kafkaDockerfile, "rm -rf /var/lib/apt/lists/*", "true"},
	{"flink web submit off", File, "web.submit.enable: false", "web.submit.enable: true"},
	{"flink web submit off", File, "      web.submit.enable: false\n", ""},
	{"dockerfile connector", flinkDockerfile, "5.0.0-2.2", "5.0.0-2.1"},
	{"dockerfile connector", flinkDockerfile, "5.0.0-2.2.jar /opt/flink/lib/", "5.0.0-2.2.jar /opt/flink/usrlib/"},
	{"dockerfile connector", flinkDockerfile, "sha256sum -c -", "true"},
	{"dockerfile python jar", flinkDockerfile, "COPY pythonjar/ /tmp/pythonjar/\n", ""},
	{"dockerfile python jar", flinkDockerfile, "out=/opt/flink-python-patched;", "out=/opt/flink/opt;"},
	{"dockerfile python jar", flinkDockerfile, "orig=/opt/flink/opt/flink-python-2.2.1.jar", "orig=/opt/flink/opt/flink-python-2.2.0.jar"},
	{"dockerfile python jar", flinkDockerfile, `zip -q -X "$out/flink-python-2.2.1.jar"`, `jar uf "$out/flink-python-2.2.1.jar"`},
	{"dockerfile user", flinkDockerfile, "\nUSER flink\n", "\n"},
	{"dockerfile user", kafkaDockerfile, "\nUSER appuser\n", "\nUSER root\n"},
	{"healthchecks", File, "    healthcheck:\n      test: [\"CMD\", \"pgrep\"", "    x-healthcheck:\n      test: [\"CMD\", \"pgrep\""},
	{"healthchecks", File, "      test: [\"CMD\", \"curl\"", "      disable: true\n      x-test: [\"CMD\", \"curl\""},
	{"healthchecks", File, "      kafka-init:\n        condition: service_completed_successfully", "      kafka-init:\n        condition: service_started"},
	{"loopback ports", File, `"127.0.0.1:9092:9092"`, `"9092:9092"`},
	{"loopback ports", File, `"127.0.0.1:8081:8081"`, `"0.0.0.0:8081:8081"`},
	{"loopback ports", File, `"127.0.0.1:8081:8081"`, `"127.0.0.1::8081"`},
	{"loopback ports", File, "    command: taskmanager\n", "    command: taskmanager\n    network_mode: host\n"},
	{"labs mount read-only", File, "read_only: true", "read_only: false"},
	{"labs mount read-only", File, "target: /opt/labs", "target: /opt/lab"},
	{"topic service", File, "        condition: service_healthy\n    restart: \"no\"", "        condition: service_started\n    restart: \"no\""},
	{"topic service", File, "      - --partitions\n      - \"3\"", "      - --partitions\n      - \"1\""},
	{"kafka single node", File, "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1", "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 3"},
	{"kafka single node", File, "EXTERNAL://127.0.0.1:9092", "EXTERNAL://0.0.0.0:9092"},
	{"taskmanager slots", File, "taskmanager.numberOfTaskSlots: 2", "taskmanager.numberOfTaskSlots: 1"},
}

// TestComposeFileMutations breaks each property in a copy of the files and
// expects exactly that property's check to notice.
func TestComposeFileMutations(t *testing.T) {
	checks := map[string]func(lab) error{}
	for _, p := range properties {
		checks[p.name] = p.check
	}
	for i, m := range mutations {
		t.Run(fmt.Sprintf("%s/%d", m.property, i), func(t *testing.T) {
			check, ok := checks[m.property]
			if !ok {
				t.Fatalf("no property named %q", m.property)
			}
			dir := copyLab(t)
			path := filepath.Join(dir, m.file)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), m.old) {
				t.Fatalf("%s no longer contains %q: update this mutation", m.file, m.old)
			}
			mutated := strings.ReplaceAll(string(raw), m.old, m.new)
			if err := os.WriteFile(path, []byte(mutated), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := check(loadLab(t, dir)); err == nil {
				t.Errorf("replacing %q with %q in %s did not break %q", m.old, m.new, m.file, m.property)
			} else {
				t.Logf("caught: %v", err)
			}
		})
	}
}

// copyLab copies the compose file and the Flink Dockerfile into a fresh
// directory laid out like this one.
func copyLab(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "compose")
	for _, rel := range []string{File, flinkDockerfile, flinkRequirements, kafkaDockerfile, kafkaJars} {
		raw, err := os.ReadFile(rel)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
