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
	pinned       = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*==[0-9][0-9A-Za-z.+!-]*$`)
	pipInstall   = regexp.MustCompile(`pip install ([^;\n]*)`)
	aptSnapshot  = regexp.MustCompile(`(?m)^ARG UBUNTU_SNAPSHOT=(\d{8}T\d{6}Z)$`)
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

// checkDockerfilePyFlink: the Python packages are requirements.txt, every one pinned
// to a version, apache-flink to the image's Flink; the Dockerfile installs exactly
// those (--no-deps, after the pinned build tools) and runs pip check.
func checkDockerfilePyFlink(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	for _, want := range []string{"COPY requirements.txt /tmp/requirements.txt", "--no-deps -r /tmp/requirements.txt", "/opt/venv/bin/pip check"} {
		if !strings.Contains(d.text, want) {
			return fmt.Errorf("the Dockerfile lacks %q: it must install exactly the pinned requirements.txt", want)
		}
	}
	for _, m := range pipInstall.FindAllStringSubmatch(d.text, -1) {
		for _, arg := range strings.Fields(m[1]) {
			if !strings.HasPrefix(arg, "-") && arg != "/tmp/requirements.txt" && !pinned.MatchString(arg) {
				return fmt.Errorf("the Dockerfile installs %q with no pinned version", arg)
			}
		}
	}
	raw, err := os.ReadFile(filepath.Join(l.project.Services[JobManagerService].Build.Context, "requirements.txt"))
	if err != nil {
		return fmt.Errorf("read the image's requirements.txt: %w", err)
	}
	flink := 0
	for i, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !pinned.MatchString(line) {
			return fmt.Errorf("requirements.txt line %d, %q, is not pinned as NAME==VERSION", i+1, line)
		}
		if m := pyflinkPin.FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "apache-flink==") {
			flink++
			if m[1] != d.flink {
				return fmt.Errorf("requirements.txt pins apache-flink==%s, but the image's Flink is %q", m[1], d.flink)
			}
		}
	}
	if flink != 1 {
		return fmt.Errorf("requirements.txt must pin apache-flink==X.Y.Z exactly once, found %d", flink)
	}
	return nil
}

// checkDockerfileApt: every apt package comes from one Ubuntu archive snapshot.
func checkDockerfileApt(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	m := aptSnapshot.FindStringSubmatch(d.text)
	if m == nil {
		return fmt.Errorf("the Dockerfile must set ARG UBUNTU_SNAPSHOT=YYYYMMDDTHHMMSSZ, the Ubuntu archive snapshot apt installs from")
	}
	for _, line := range strings.Split(d.text, "\n") {
		if strings.Contains(line, "apt-get update") || strings.Contains(line, "apt-get install") {
			if !strings.Contains(line, `--snapshot "$UBUNTU_SNAPSHOT"`) {
				return fmt.Errorf("%q does not use the snapshot: add --snapshot \"$UBUNTU_SNAPSHOT\"", strings.TrimSpace(line))
			}
		}
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
