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
	flink string // the Flink version requirements.txt pins apache-flink to, e.g. 2.2.1
	minor string // the Flink minor version, e.g. 2.2
}

var (
	fromLine     = regexp.MustCompile(`(?m)^FROM\s+(\S+)`)
	pyflinkPin   = regexp.MustCompile(`(?m)^apache-flink==((\d+\.\d+)\.\d+)\s*$`)
	connectorURL = regexp.MustCompile(`(?m)^ADD\s+https://repo1\.maven\.org/maven2/org/apache/flink/flink-sql-connector-kafka/([^/\s]+)/flink-sql-connector-kafka-([^/\s]+)\.jar\s+/opt/flink/lib/\s*$`)
	userLine     = regexp.MustCompile(`(?m)^USER\s+(\S+)`)
	pinned       = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*==[0-9][0-9A-Za-z.+!-]*$`)
	pipInstall   = regexp.MustCompile(`pip install ([^;\n]*)`)
	kafkaJar     = regexp.MustCompile(`(?m)^org/apache/kafka/kafka_2\.13/(\d+\.\d+\.\d+)/kafka_2\.13-(\d+\.\d+\.\d+)\.jar \d+ [0-9a-f]{64}$`)
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
	if req, err := os.ReadFile(filepath.Join(b.Context, "requirements.txt")); err == nil {
		if m := pyflinkPin.FindSubmatch(req); m != nil {
			d.flink, d.minor = string(m[1]), string(m[2])
		}
	}
	return d, nil
}

// readKafkaDockerfile reads the Dockerfile the kafka service builds from, and the
// Kafka version of the broker's jar in jars.txt beside it ("" when there is none).
func readKafkaDockerfile(l lab) (text, version string, err error) {
	b := l.project.Services[kafkaService].Build
	if b == nil {
		return "", "", fmt.Errorf("service %s has no build section", kafkaService)
	}
	raw, err := os.ReadFile(filepath.Join(b.Context, b.Dockerfile))
	if err != nil {
		return "", "", fmt.Errorf("read the Kafka Dockerfile: %w", err)
	}
	jars, err := os.ReadFile(filepath.Join(b.Context, "jars.txt"))
	if err != nil {
		return "", "", fmt.Errorf("read the Kafka image's jars.txt: %w", err)
	}
	if m := kafkaJar.FindSubmatch(jars); m != nil && string(m[1]) == string(m[2]) {
		version = string(m[1])
	}
	return string(raw), version, nil
}

// checkDockerfileBase: both images build FROM BaseImage, named by a tag, with
// exactly one FROM each.
func checkDockerfileBase(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	kafka, _, err := readKafkaDockerfile(l)
	if err != nil {
		return err
	}
	for name, text := range map[string]string{"Flink": d.text, "Kafka": kafka} {
		m := fromLine.FindAllStringSubmatch(text, -1)
		if len(m) != 1 {
			return fmt.Errorf("the %s Dockerfile must have exactly one FROM", name)
		}
		if from, _, _ := strings.Cut(m[0][1], "@"); from != baseImage {
			return fmt.Errorf("the %s Dockerfile builds FROM %s, want %s (the base CI makes with debootstrap)", name, m[0][1], baseImage)
		}
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
		if m := pyflinkPin.FindStringSubmatch(line); m != nil {
			flink++
			if !strings.Contains(d.text, "assert v == '"+m[1]+"'") {
				return fmt.Errorf("requirements.txt pins apache-flink==%s, but the Dockerfile does not check that pyflink is %s", m[1], m[1])
			}
		}
	}
	if flink != 1 {
		return fmt.Errorf("requirements.txt must pin apache-flink==X.Y.Z exactly once, found %d", flink)
	}
	return nil
}

// checkDockerfileApt: both images install Debian's packages without recommends and
// leave no apt lists behind.
func checkDockerfileApt(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	kafka, _, err := readKafkaDockerfile(l)
	if err != nil {
		return err
	}
	for name, text := range map[string]string{"Flink": d.text, "Kafka": kafka} {
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "apt-get install") && !strings.Contains(line, "--no-install-recommends") {
				return fmt.Errorf("the %s Dockerfile's %q installs recommends too", name, strings.TrimSpace(line))
			}
		}
		if !strings.Contains(text, "rm -rf /var/lib/apt/lists/*") {
			return fmt.Errorf("the %s Dockerfile leaves apt's lists in the image", name)
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

// checkDockerfilePythonJar: the Flink image builds labtui's copy of flink-python's jar
// from its context's pythonjar/ folder, the classes classes.txt names, into
// PythonJarOptDir, from the wheel's jar of the image's Flink version.
func checkDockerfilePythonJar(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	ctx := l.project.Services[JobManagerService].Build.Context
	if _, err := os.Stat(filepath.Join(ctx, "pythonjar", "classes.txt")); err != nil {
		return fmt.Errorf("the Flink image's build context has no pythonjar/classes.txt: %w", err)
	}
	jar := "flink-python-" + d.flink + ".jar"
	for _, want := range []string{
		"COPY pythonjar/ /tmp/pythonjar/",
		"grep -v '^#' /tmp/pythonjar/classes.txt",
		"orig=/opt/flink/opt/" + jar + "; out=" + PythonJarOptDir + ";",
		`javac --release 11 -nowarn -cp "$orig"`,
		`zip -q -X "$out/` + jar + `"`,
	} {
		if !strings.Contains(d.text, want) {
			return fmt.Errorf("the Flink Dockerfile lacks %q: it must build labtui's flink-python jar from pythonjar/ into %s", want, PythonJarOptDir)
		}
	}
	return nil
}

// checkDockerfileUser: neither image runs its service as root.
func checkDockerfileUser(l lab) error {
	d, err := readDockerfile(l)
	if err != nil {
		return err
	}
	kafka, _, err := readKafkaDockerfile(l)
	if err != nil {
		return err
	}
	for name, text := range map[string]string{"Flink": d.text, "Kafka": kafka} {
		users := userLine.FindAllStringSubmatch(text, -1)
		if len(users) == 0 || users[len(users)-1][1] == "root" || users[len(users)-1][1] == "0" {
			return fmt.Errorf("the %s Dockerfile must end with a USER other than root", name)
		}
	}
	return nil
}

// checkKafkaBuild: the broker and the topic service run the image built from kafka/,
// tagged with the Kafka version of its jars.
func checkKafkaBuild(l lab) error {
	wantContext := filepath.Join(l.dir, "kafka")
	for _, name := range []string{kafkaService, topicService} {
		s := l.project.Services[name]
		if s.Build == nil || s.Build.Context != wantContext || s.Build.Dockerfile != "Dockerfile" {
			return fmt.Errorf("service %s must build %s/Dockerfile", name, wantContext)
		}
		if s.Image != kafkaImage {
			return fmt.Errorf("service %s runs %s, want %s", name, s.Image, kafkaImage)
		}
	}
	_, version, err := readKafkaDockerfile(l)
	if err != nil {
		return err
	}
	if version == "" {
		return fmt.Errorf("jars.txt has no kafka_2.13 jar of one version")
	}
	if tag := imageTag(kafkaImage); tag != version {
		return fmt.Errorf("image %s is tagged %q but its jars are Kafka %s: a stale image would be reused", kafkaImage, tag, version)
	}
	return nil
}
