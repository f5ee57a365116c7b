package localcluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The compose lab's images fetch the same jars as Install: compose/kafka/jars.txt is
// brokerJars line for line, and compose/flink/Dockerfile checks the connector against
// connectorJar's SHA-256.
func TestComposeImagesFetchTheJarsInstallPins(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "compose", "kafka", "jars.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(raw), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			got = append(got, line)
		}
	}
	var want []string
	for _, a := range brokerJars {
		want = append(want, fmt.Sprintf("%s %d %s", a.path, a.size, a.sha256))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("compose/kafka/jars.txt is not brokerJars (PATH SIZE SHA-256, one a line, in order): write it again from internal/localcluster/artifacts.go\ngot:\n%s\nwant:\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	dockerfile, err := os.ReadFile(filepath.Join("..", "..", "compose", "flink", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	url := "ADD " + mavenCentral + "/" + connectorJar.path + " /opt/flink/lib/"
	sum := connectorJar.sha256 + "  /opt/flink/lib/" + filepath.Base(connectorJar.path)
	for _, want := range []string{url, sum} {
		if !strings.Contains(string(dockerfile), want) {
			t.Errorf("compose/flink/Dockerfile lacks %q: it must fetch and check the connector Install pins", want)
		}
	}
}
