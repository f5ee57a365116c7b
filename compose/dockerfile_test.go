package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// dockerfile is what the checks read from the Flink services' Dockerfile.
type dockerfile struct {
	text  string
	from  string // the FROM image reference
	flink string // the Flink version in the FROM tag, e.g. 2.2.1 ("" when the tag has none)
	minor string // the Flink minor version, e.g. 2.2
}

var (
	fromLine     = regexp.MustCompile(`(?m)^FROM\s+(\S+)`)
	flinkTag     = regexp.MustCompile(`^(?:docker\.io/(?:library/)?)?flink:((\d+\.\d+)\.\d+)-scala_\d+\.\d+-java\d+$`)
	pyflinkPin   = regexp.MustCompile(`apache-flink==([0-9][0-9A-Za-z.+!]*)`)
	connectorURL = regexp.MustCompile(`(?m)^ADD\s+https://repo1\.maven\.org/maven2/org/apache/flink/flink-sql-connector-kafka/([^/\s]+)/flink-sql-connector-kafka-([^/\s]+)\.jar\s+/opt/flink/lib/\s*$`)
	userLine     = regexp.MustCompile(`(?m)^USER\s+(\S+)`)
)

// readDockerfile reads the Dockerfile that the jobmanager service builds from.
func readDockerfile(l lab) (dockerfile, error) {
	b := l.project.Services[JobManagerService].Build
	if b == nil {
		return dockerfile{}, fmt.Errorf("service %s has no build section", JobManagerService)
	}
	raw, err := os.ReadFile(filepath.Join(b.Context, b.Dockerfile))
	if err != nil {
		return dockerfile{}, fmt.Errorf("read the Flink Dockerfile: %w", err)
	}
	d := dockerfile{text: string(raw)}
	if m := fromLine.FindAllStringSubmatch(d.text, -1); len(m) == 1 {
		d.from = m[0][1]
	}
	if m := flinkTag.FindStringSubmatch(d.from); m != nil {
		d.flink, d.minor = m[1], m[2]
	}
	return d, nil
}

func checkDockerfileBase(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	if d.from == "" {
		return fmt.Errorf("the Dockerfile must have exactly one FROM")
	}
	if d.flink == "" {
		return fmt.Errorf("FROM %s is not an official flink image pinned to a patch version (flink:X.Y.Z-scala_2.12-javaNN)", d.from)
	}
	return nil
}

func checkDockerfilePyFlink(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	pins := pyflinkPin.FindAllStringSubmatch(d.text, -1)
	if len(pins) != 1 {
		return fmt.Errorf("the Dockerfile must pin apache-flink==X.Y.Z exactly once, found %d pins", len(pins))
	}
	if pins[0][1] != d.flink {
		return fmt.Errorf("apache-flink==%s does not match the image's Flink %q", pins[0][1], d.flink)
	}
	return nil
}

func checkDockerfileConnector(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	m := connectorURL.FindStringSubmatch(d.text)
	if m == nil {
		return fmt.Errorf("the Dockerfile does not ADD flink-sql-connector-kafka from Maven Central into /opt/flink/lib/")
	}
	dirVersion, jarVersion := m[1], m[2]
	if dirVersion != jarVersion {
		return fmt.Errorf("connector URL directory %s and jar %s disagree", dirVersion, jarVersion)
	}
	if !strings.HasSuffix(jarVersion, "-"+d.minor) || d.minor == "" {
		return fmt.Errorf("connector %s is not built for Flink %q", jarVersion, d.minor)
	}
	jar := "/opt/flink/lib/flink-sql-connector-kafka-" + jarVersion + ".jar"
	check := regexp.MustCompile(`[0-9a-f]{64}  ` + regexp.QuoteMeta(jar) + `" \| sha256sum -c -`)
	if !check.MatchString(d.text) {
		return fmt.Errorf("the Dockerfile does not verify %s with sha256sum -c", jar)
	}
	return nil
}

func checkDockerfileUser(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	users := userLine.FindAllStringSubmatch(d.text, -1)
	if len(users) == 0 || users[len(users)-1][1] != "flink" {
		return fmt.Errorf("the Dockerfile must end as USER flink, like the official image")
	}
	return nil
}
