package compose

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// lab is a loaded compose file together with the directory it was loaded from.
type lab struct {
	dir     string
	project *types.Project
}

// loadLab loads dir/docker-compose.yml the way `docker compose` does, with an
// empty environment so the host's variables cannot change the result.
func loadLab(t *testing.T, dir string) lab {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatalf("resolve %s: %v", dir, err)
	}
	opts, err := cli.NewProjectOptions(
		[]string{filepath.Join(abs, File)},
		cli.WithWorkingDirectory(abs),
		cli.WithEnv([]string{}),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		t.Fatalf("compose options: %v", err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("load %s: %v", File, err)
	}
	return lab{dir: abs, project: p}
}

// property is one rule the compose lab must keep.
type property struct {
	name  string
	check func(lab) error
}

// properties lists every rule; TestComposeFile runs them all on the real file and
// TestComposeFileMutations proves that each one notices a break.
var properties = []property{
	{"project name", checkProjectName},
	{"services", checkServices},
	{"images pinned", checkImagesPinned},
	{"flink build", checkFlinkBuild},
	{"kafka build", checkKafkaBuild},
	{"dockerfile base pinned", checkDockerfileBase},
	{"dockerfile pyflink pin", checkDockerfilePyFlink},
	{"dockerfile connector", checkDockerfileConnector},
	{"dockerfile user", checkDockerfileUser},
	{"healthchecks", checkHealthchecks},
	{"loopback ports", checkLoopbackPorts},
	{"labs mount read-only", checkLabsMount},
	{"topic service", checkTopicService},
	{"kafka single node", checkKafkaSingleNode},
	{"taskmanager slots", checkTaskSlots},
	{"flink web submit off", checkWebSubmitOff},
	{"dockerfile apt pinned", checkDockerfileApt},
	{"dockerfile python jar", checkDockerfilePythonJar},
}

// TestComposeFile checks the real compose file against every property.
func TestComposeFile(t *testing.T) {
	l := loadLab(t, ".")
	for _, p := range properties {
		t.Run(p.name, func(t *testing.T) {
			if err := p.check(l); err != nil {
				t.Error(err)
			}
		})
	}
}

func checkProjectName(l lab) error {
	if l.project.Name != ProjectName {
		return fmt.Errorf("project name is %q, want %q (top-level name:)", l.project.Name, ProjectName)
	}
	return nil
}

func checkServices(l lab) error {
	got := l.project.ServiceNames()
	slices.Sort(got)
	want := []string{JobManagerService, kafkaService, topicService, TaskManagerService}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return fmt.Errorf("services are %v, want %v", got, want)
	}
	return nil
}

// imageTag returns the tag of an image reference, or "" when it has none.
// A registry port ("host:5000/name") is not a tag.
func imageTag(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	last := ref[strings.LastIndex(ref, "/")+1:]
	_, tag, _ := strings.Cut(last, ":")
	return tag
}

func checkImagesPinned(l lab) error {
	for _, name := range l.project.ServiceNames() {
		s := l.project.Services[name]
		if s.Image == "" {
			return fmt.Errorf("service %s has no image name", name)
		}
		switch tag := imageTag(s.Image); tag {
		case "":
			return fmt.Errorf("service %s: image %q has no tag", name, s.Image)
		case "latest":
			return fmt.Errorf("service %s: image %q is not pinned", name, s.Image)
		}
	}
	if k, i := l.project.Services[kafkaService].Image, l.project.Services[topicService].Image; k != i {
		return fmt.Errorf("kafka runs %s but the topic service runs %s", k, i)
	}
	return nil
}

func checkFlinkBuild(l lab) error {
	wantContext := filepath.Join(l.dir, "flink")
	var images []string
	for _, name := range []string{JobManagerService, TaskManagerService} {
		s := l.project.Services[name]
		if s.Build == nil {
			return fmt.Errorf("service %s has no build section", name)
		}
		if s.Build.Context != wantContext || s.Build.Dockerfile != "Dockerfile" {
			return fmt.Errorf("service %s builds %s/%s, want %s/Dockerfile", name, s.Build.Context, s.Build.Dockerfile, wantContext)
		}
		if s.Platform != "linux/amd64" {
			return fmt.Errorf("service %s has platform %q, want linux/amd64 (PyFlink wheels are x86_64 only)", name, s.Platform)
		}
		images = append(images, s.Image)
	}
	if images[0] != flinkImage {
		return fmt.Errorf("the Flink services run %s, want %s", images[0], flinkImage)
	}
	if images[0] != images[1] {
		return fmt.Errorf("the Flink services name different images: %v", images)
	}
	pins, err := readDockerfile(l)
	if err != nil {
		return err
	}
	if tag := imageTag(images[0]); tag != pins.flink {
		return fmt.Errorf("built image %s is tagged %q but the Dockerfile is Flink %s: a stale image would be reused", images[0], tag, pins.flink)
	}
	return nil
}

// oneShots returns the services that some service waits on with
// service_completed_successfully: they are meant to run and exit.
func oneShots(p *types.Project) map[string]bool {
	out := map[string]bool{}
	for _, s := range p.Services {
		for dep, d := range s.DependsOn {
			if d.Condition == types.ServiceConditionCompletedSuccessfully {
				out[dep] = true
			}
		}
	}
	return out
}

func checkHealthchecks(l lab) error {
	shots := oneShots(l.project)
	for _, name := range l.project.ServiceNames() {
		s := l.project.Services[name]
		if shots[name] {
			if s.Restart != "" && s.Restart != types.RestartPolicyNo {
				return fmt.Errorf("one-shot service %s has restart %q", name, s.Restart)
			}
			continue
		}
		h := s.HealthCheck
		switch {
		case h == nil || h.Disable || len(h.Test) == 0:
			return fmt.Errorf("long-running service %s has no healthcheck", name)
		case h.Test[0] == "NONE":
			return fmt.Errorf("service %s disables its healthcheck", name)
		case h.Interval == nil || h.Timeout == nil || h.Retries == nil:
			return fmt.Errorf("service %s: healthcheck needs interval, timeout and retries", name)
		}
	}
	return nil
}

func checkLoopbackPorts(l lab) error {
	want := map[string]uint32{kafkaService: KafkaHostPort, JobManagerService: FlinkWebPort}
	for _, name := range l.project.ServiceNames() {
		s := l.project.Services[name]
		if s.NetworkMode == "host" {
			return fmt.Errorf("service %s uses the host network, which bypasses loopback-only ports", name)
		}
		for _, p := range s.Ports {
			if p.HostIP != HostIP {
				return fmt.Errorf("service %s publishes %s on host address %q, want %s", name, p.Published, p.HostIP, HostIP)
			}
			if p.Published == "" {
				return fmt.Errorf("service %s publishes container port %d on a random host port", name, p.Target)
			}
		}
	}
	for name, port := range want {
		ps := l.project.Services[name].Ports
		ok := slices.ContainsFunc(ps, func(p types.ServicePortConfig) bool {
			return p.Target == port && p.Published == strconv.Itoa(int(port))
		})
		if !ok {
			return fmt.Errorf("service %s does not publish %s:%d:%d", name, HostIP, port, port)
		}
	}
	return nil
}

func checkLabsMount(l lab) error {
	wantSource := filepath.Join(filepath.Dir(l.dir), "labs")
	for _, name := range []string{JobManagerService, TaskManagerService} {
		i := slices.IndexFunc(l.project.Services[name].Volumes, func(v types.ServiceVolumeConfig) bool {
			return v.Target == LabsMount
		})
		if i < 0 {
			return fmt.Errorf("service %s does not mount %s", name, LabsMount)
		}
		v := l.project.Services[name].Volumes[i]
		if v.Type != types.VolumeTypeBind || v.Source != wantSource {
			return fmt.Errorf("service %s mounts %s %s at %s, want a bind of %s", name, v.Type, v.Source, LabsMount, wantSource)
		}
		if !v.ReadOnly {
			return fmt.Errorf("service %s mounts %s read-write", name, LabsMount)
		}
	}
	return nil
}

func checkTopicService(l lab) error {
	s := l.project.Services[topicService]
	if d, ok := s.DependsOn[kafkaService]; !ok || d.Condition != types.ServiceConditionHealthy {
		return fmt.Errorf("%s must wait for %s with service_healthy, has %+v", topicService, kafkaService, d)
	}
	cmd := strings.Join(s.Command, " ")
	for _, want := range []string{
		"/opt/kafka/bin/kafka-topics.sh ",
		"--bootstrap-server " + KafkaInternalAddr,
		"--create",
		"--topic " + Topic,
		"--partitions " + strconv.Itoa(TopicPartitions),
	} {
		if !strings.Contains(cmd, want) {
			return fmt.Errorf("%s command %q lacks %q", topicService, cmd, want)
		}
	}
	return nil
}

func checkKafkaSingleNode(l lab) error {
	env := l.project.Services[kafkaService].Environment
	get := func(k string) string {
		if v := env[k]; v != nil {
			return *v
		}
		return ""
	}
	if r := get("KAFKA_PROCESS_ROLES"); r != "broker,controller" {
		return fmt.Errorf("KAFKA_PROCESS_ROLES is %q, want broker,controller", r)
	}
	adv := get("KAFKA_ADVERTISED_LISTENERS")
	for _, want := range []string{"://" + KafkaInternalAddr, "://" + HostIP + ":" + strconv.Itoa(KafkaHostPort)} {
		if !strings.Contains(adv, want) {
			return fmt.Errorf("KAFKA_ADVERTISED_LISTENERS %q lacks %q", adv, want)
		}
	}
	for _, k := range []string{
		"KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
		"KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
		"KAFKA_TRANSACTION_STATE_LOG_MIN_ISR",
	} {
		if v := get(k); v != "1" {
			return fmt.Errorf("%s is %q, want 1 on a single broker", k, v)
		}
	}
	return nil
}

// flinkProperties parses the FLINK_PROPERTIES block of a Flink service.
func flinkProperties(s types.ServiceConfig) map[string]string {
	out := map[string]string{}
	v := s.Environment["FLINK_PROPERTIES"]
	if v == nil {
		return out
	}
	for _, line := range strings.Split(*v, "\n") {
		k, val, ok := strings.Cut(line, ":")
		if ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(val)
		}
	}
	return out
}

func checkTaskSlots(l lab) error {
	props := flinkProperties(l.project.Services[TaskManagerService])
	n, err := strconv.Atoi(props["taskmanager.numberOfTaskSlots"])
	if err != nil || n < 2 {
		return fmt.Errorf("taskmanager.numberOfTaskSlots is %q, want 2 or more", props["taskmanager.numberOfTaskSlots"])
	}
	if d, ok := l.project.Services[TaskManagerService].DependsOn[JobManagerService]; !ok || d.Condition != types.ServiceConditionHealthy {
		return fmt.Errorf("taskmanager must wait for a healthy jobmanager")
	}
	return nil
}

// checkWebSubmitOff: labtui submits with the CLI, so neither Flink service lets a
// local process upload and run a jar through the web UI.
func checkWebSubmitOff(l lab) error {
	for _, name := range []string{JobManagerService, TaskManagerService} {
		if v := flinkProperties(l.project.Services[name])["web.submit.enable"]; v != "false" {
			return fmt.Errorf("service %s: web.submit.enable is %q, want false (labtui submits with flink run)", name, v)
		}
	}
	return nil
}

// TestImageTag pins down the tag parser the image checks rely on.
func TestImageTag(t *testing.T) {
	for ref, want := range map[string]string{
		"apache/kafka:4.1.1":             "4.1.1",
		"apache/kafka":                   "",
		"localhost:5000/kafka":           "",
		"localhost:5000/kafka:1":         "1",
		"flink:2.2.1@sha256:abc":         "2.2.1",
		"labtui-lab4/pyflink:2.2.1":      "2.2.1",
		"docker.io/library/flink:latest": "latest",
	} {
		if got := imageTag(ref); got != want {
			t.Errorf("imageTag(%q) = %q, want %q", ref, got, want)
		}
	}
}
