//go:build unix

package compose

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Answers of a real docker CLI, as shell snippets for the fake.
const (
	composeV2     = `printf 'Docker Compose version v2.39.4\n'`
	composeV5     = `printf 'Docker Compose version v5.0.1\n'`
	composeAbsent = `printf 'docker: unknown command: docker compose\n\nRun '"'"'docker --help'"'"' for more information\n' >&2; exit 1`
	composeOldCLI = `printf "docker: 'compose' is not a docker command.\nSee 'docker --help'\n" >&2; exit 1`
	infoUp        = `printf '28.2.2\n'`
	infoDown      = `printf 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n' >&2; exit 1`
	infoDenied    = `printf 'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%%2Fvar%%2Frun%%2Fdocker.sock/v1.50/info": dial unix /var/run/docker.sock: connect: permission denied\n' >&2; exit 1`
	infoHangs     = `exec /bin/sleep 10`
)

// fakeDocker writes an executable named name into dir that logs its arguments
// to $FAKE_DOCKER_LOG and answers `compose version` and
// `info --format {{.ServerVersion}}` with the given snippets, and
// `image inspect --format {{.Id}} IMAGE` as docker does: an id for an image named in
// $FAKE_DOCKER_IMAGES, "No such image" for any other.
func fakeDocker(t *testing.T, dir, name, compose, info string) {
	t.Helper()
	script := `#!/bin/sh
printf '%s\n' "$*" >> "$FAKE_DOCKER_LOG"
case "$*" in
'compose version') ` + compose + ` ;;
'version') ` + compose + ` ;;
'info --format {{.ServerVersion}}') ` + info + ` ;;
"image inspect --format {{.Id}} "*)
  img=${*##* }
  case " $FAKE_DOCKER_IMAGES " in
  *" $img "*) printf 'sha256:0123\n' ;;
  *) printf 'Error response from daemon: No such image: %s\n' "$img" >&2; exit 1 ;;
  esac ;;
*) printf 'docker: unknown command: docker %s\n' "$1" >&2; exit 1 ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatalf("write fake %s: %v", name, err)
	}
}

// fakePath makes an empty directory the whole PATH and returns it with the
// invocation log's path.
func fakePath(t *testing.T) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(t.TempDir(), "invocations.log")
	t.Setenv("PATH", dir)
	t.Setenv("FAKE_DOCKER_LOG", log)
	t.Setenv("FAKE_DOCKER_IMAGES", kafkaImage+" "+flinkImage)
	t.Setenv("DOCKER_HOST", "")
	return dir, log
}

// freePort returns a port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// busyPort listens on a port of 127.0.0.1 for the rest of the test.
func busyPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

// result finds the named result or fails the test.
func result(t *testing.T, r Report, name string) Result {
	t.Helper()
	i := slices.IndexFunc(r.Results, func(res Result) bool { return res.Name == name })
	if i < 0 {
		t.Fatalf("no result named %q in\n%s", name, r)
	}
	return r.Results[i]
}

func invocations(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestDoctorAllGood(t *testing.T) {
	dir, log := fakePath(t)
	fakeDocker(t, dir, "docker", composeV2, infoUp)
	port := freePort(t)

	r := NewChecker(WithPorts(port)).Check(context.Background())

	if !r.OK() || r.err() != nil {
		t.Fatalf("want a clean report, got\n%s", r)
	}
	if got := result(t, r, CheckCLI).Detail; got != filepath.Join(dir, "docker") {
		t.Errorf("CLI detail = %q, want the fake's path", got)
	}
	if got := result(t, r, CheckCompose).Detail; got != "v2.39.4" {
		t.Errorf("compose detail = %q, want v2.39.4", got)
	}
	if got := result(t, r, CheckDaemon).Detail; got != "server 28.2.2" {
		t.Errorf("daemon detail = %q, want server 28.2.2", got)
	}
	if got := result(t, r, CheckImages); got.Status != OK || got.Detail != kafkaImage+" and "+flinkImage+" are built" {
		t.Errorf("images = %v, want both built", got)
	}
	if got := len(r.Results); got != 5 {
		t.Errorf("got %d results, want CLI, compose, daemon, images and one port", got)
	}
	// Arguments arrive verbatim, braces and all: docker ran as a program, not through a shell.
	want := []string{"compose version", "info --format {{.ServerVersion}}",
		"image inspect --format {{.Id}} " + kafkaImage, "image inspect --format {{.Id}} " + flinkImage}
	if got := invocations(t, log); !slices.Equal(got, want) {
		t.Errorf("docker ran with %q, want %q", got, want)
	}
}

func TestDoctorComposeV5IsFine(t *testing.T) {
	dir, _ := fakePath(t)
	fakeDocker(t, dir, "docker", composeV5, infoUp)
	r := NewChecker(WithPorts()).Check(context.Background())
	if res := result(t, r, CheckCompose); res.Status != OK || res.Detail != "v5.0.1" {
		t.Errorf("compose v5: got %v", res)
	}
}

func TestDoctorDockerMissing(t *testing.T) {
	fakePath(t) // an empty PATH: no docker anywhere
	port := freePort(t)

	r := NewChecker(WithPorts(port)).Check(context.Background())

	cli := result(t, r, CheckCLI)
	if cli.Status != Problem || cli.Fix != fixNoDocker {
		t.Errorf("CLI: got %v", cli)
	}
	for _, name := range []string{CheckCompose, CheckDaemon} {
		if res := result(t, r, name); res.Status != Skipped {
			t.Errorf("%s: got %v, want skipped", name, res)
		}
	}
	if res := r.Results[len(r.Results)-1]; res.Status != OK {
		t.Errorf("the port check still runs without docker, got %v", res)
	}
	if err := r.err(); err == nil || err.Error() != fixNoDocker {
		t.Errorf("Err() = %v, want the one fix", err)
	}
}

func TestDoctorDaemonNotRunning(t *testing.T) {
	dir, _ := fakePath(t)
	fakeDocker(t, dir, "docker", composeV2, infoDown)
	fakeDocker(t, dir, "dockerd", composeV2, infoDown)

	r := NewChecker(WithPorts()).Check(context.Background())

	d := result(t, r, CheckDaemon)
	if d.Status != Problem || d.Fix != fixDaemonDown {
		t.Fatalf("daemon: got %v", d)
	}
	if !strings.HasPrefix(d.Detail, "Cannot connect to the Docker daemon") || d.Err == nil {
		t.Errorf("daemon result should keep docker's message and the error, got %+v", d)
	}
	if res := result(t, r, CheckCompose); res.Status != OK {
		t.Errorf("compose needs no daemon, got %v", res)
	}
	if probs := r.Problems(); len(probs) != 1 {
		t.Errorf("want one problem, got %v", probs)
	}
}

func TestDoctorDaemonPermissionDenied(t *testing.T) {
	dir, _ := fakePath(t)
	fakeDocker(t, dir, "docker", composeV2, infoDenied)
	r := NewChecker(WithPorts()).Check(context.Background())
	if d := result(t, r, CheckDaemon); d.Fix != fixDaemonPermission {
		t.Errorf("daemon: got %v", d)
	}
}

func TestDoctorDaemonHangs(t *testing.T) {
	dir, _ := fakePath(t)
	fakeDocker(t, dir, "docker", composeV2, infoHangs)
	start := time.Now()

	r := NewChecker(WithPorts(), withTimeout(300*time.Millisecond)).Check(context.Background())

	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a hanging daemon held the check for %s", took)
	}
	if d := result(t, r, CheckDaemon); d.Status != Problem || !strings.Contains(d.Fix, "did not answer in time") {
		t.Errorf("daemon: got %v", d)
	}
}

func TestDoctorComposeV1Only(t *testing.T) {
	dir, log := fakePath(t)
	fakeDocker(t, dir, "docker", composeOldCLI, infoUp)
	fakeDocker(t, dir, "docker-compose", `printf 'docker-compose version 1.29.2, build 5becea4c\n'`, infoUp)

	r := NewChecker(WithPorts()).Check(context.Background())

	c := result(t, r, CheckCompose)
	if c.Status != Problem || c.Fix != fixComposeV1 {
		t.Fatalf("compose: got %v", c)
	}
	if c.Detail != "docker: 'compose' is not a docker command." {
		t.Errorf("compose detail = %q, want docker's message", c.Detail)
	}
	want := []string{"compose version", "version", "info --format {{.ServerVersion}}",
		"image inspect --format {{.Id}} " + kafkaImage, "image inspect --format {{.Id}} " + flinkImage}
	if got := invocations(t, log); !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
}

func TestDoctorComposeMissingOrStandalone(t *testing.T) {
	t.Run("no compose at all", func(t *testing.T) {
		dir, _ := fakePath(t)
		fakeDocker(t, dir, "docker", composeAbsent, infoUp)
		r := NewChecker(WithPorts()).Check(context.Background())
		if c := result(t, r, CheckCompose); c.Fix != fixNoCompose || c.Detail != "docker: unknown command: docker compose" {
			t.Errorf("compose: got %+v", c)
		}
	})
	t.Run("v2 only as docker-compose", func(t *testing.T) {
		dir, _ := fakePath(t)
		fakeDocker(t, dir, "docker", composeAbsent, infoUp)
		fakeDocker(t, dir, "docker-compose", composeV2, infoUp)
		r := NewChecker(WithPorts()).Check(context.Background())
		if c := result(t, r, CheckCompose); c.Fix != fixComposeStandalone {
			t.Errorf("compose: got %v", c)
		}
	})
}

func TestDoctorBusyPort(t *testing.T) {
	dir, _ := fakePath(t)
	fakeDocker(t, dir, "docker", composeV2, infoUp)
	busy, free := busyPort(t), freePort(t)

	r := NewChecker(WithPorts(busy, free)).Check(context.Background())

	probs := r.Problems()
	if len(probs) != 1 {
		t.Fatalf("want exactly the busy port, got\n%s", r)
	}
	p := probs[0]
	if !strings.HasPrefix(p.Fix, "Port ") || !strings.Contains(p.Fix, " is in use: ") ||
		!strings.Contains(p.Fix, "docker compose -p labtui-lab4 down") {
		t.Errorf("busy port fix = %q", p.Fix)
	}
	if !strings.HasSuffix(p.Name, ":"+strconv.Itoa(busy)) {
		t.Errorf("problem names %q, want port %d", p.Name, busy)
	}
}

func TestDoctorReportString(t *testing.T) {
	r := Report{Results: []Result{
		{Name: CheckCLI, Status: OK, Detail: "/usr/bin/docker"},
		{Name: CheckDaemon, Status: Problem, Detail: "Cannot connect", Fix: fixDaemonDown},
		{Name: CheckCompose, Status: Skipped},
	}}
	want := "ok       Docker CLI: /usr/bin/docker\n" +
		"problem  Docker daemon: " + fixDaemonDown + "\n" +
		"skipped  Docker Compose v2\n"
	if got := r.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseComposeVersion(t *testing.T) {
	for out, want := range map[string]struct {
		version string
		major   int
		ok      bool
	}{
		"Docker Compose version v2.39.4\n":              {"v2.39.4", 2, true},
		"Docker Compose version 2.40.0-desktop.1\n":     {"v2.40.0-desktop.1", 2, true},
		"Docker Compose version v5.0.1\n":               {"v5.0.1", 5, true},
		"docker-compose version 1.29.2, build 5becea4c": {"v1.29.2", 1, true},
		"something else":                                {"", 0, false},
	} {
		v, major, ok := parseComposeVersion([]byte(out))
		if v != want.version || major != want.major || ok != want.ok {
			t.Errorf("parseComposeVersion(%q) = %q %d %v, want %v", out, v, major, ok, want)
		}
	}
}

func TestDoctorUsesInjectedFunctions(t *testing.T) {
	var ran []string
	c := NewChecker(
		WithLookPath(func(file string) (string, error) {
			if file == "docker" {
				return "/opt/fake/docker", nil
			}
			return "", errors.New("not found")
		}),
		WithRunner(func(_ context.Context, path string, args ...string) ([]byte, []byte, error) {
			ran = append(ran, path+" "+strings.Join(args, " "))
			if args[0] == "compose" {
				return []byte("Docker Compose version v2.39.4\n"), nil, nil
			}
			return []byte("28.2.2\n"), nil, nil
		}),
		WithListen(func(network, address string) (net.Listener, error) {
			return nil, &net.OpError{Op: "listen", Net: network, Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}
		}),
		WithPorts(9092),
	)

	r := c.Check(context.Background())

	want := []string{"/opt/fake/docker compose version", "/opt/fake/docker info --format {{.ServerVersion}}",
		"/opt/fake/docker image inspect --format {{.Id}} " + kafkaImage, "/opt/fake/docker image inspect --format {{.Id}} " + flinkImage}
	if !slices.Equal(ran, want) {
		t.Errorf("ran %q, want %q", ran, want)
	}
	p := result(t, r, "Port 127.0.0.1:9092")
	if p.Status != Problem || !strings.HasPrefix(p.Fix, "Port 9092 on 127.0.0.1 is in use: ") {
		t.Errorf("port: got %v", p)
	}
}

func TestDoctorImagesNotBuiltAreANoteSayingWhatTheBuildNeeds(t *testing.T) {
	t.Run("the base image is here", func(t *testing.T) {
		dir, _ := fakePath(t)
		fakeDocker(t, dir, "docker", composeV2, infoUp)
		t.Setenv("FAKE_DOCKER_IMAGES", kafkaImage+" "+baseImage)

		r := NewChecker(WithPorts()).Check(context.Background())

		img := result(t, r, CheckImages)
		want := flinkImage + " not built yet: " + noteBuildTakes + ", " + noteBaseLocal + "."
		if img.Status != Note || img.Detail != want {
			t.Errorf("images = %v, want a note: %s", img, want)
		}
		if !r.OK() {
			t.Errorf("images not built yet are no problem, got\n%s", r)
		}
	})
	t.Run("no base image either", func(t *testing.T) {
		dir, _ := fakePath(t)
		fakeDocker(t, dir, "docker", composeV2, infoUp)
		t.Setenv("FAKE_DOCKER_IMAGES", "")

		r := NewChecker(WithPorts()).Check(context.Background())

		img := result(t, r, CheckImages)
		want := kafkaImage + " and " + flinkImage + " not built yet: " + noteBuildTakes + ", " + noteBasePull + "."
		if img.Status != Note || img.Detail != want {
			t.Errorf("images = %v, want a note: %s", img, want)
		}
		if !strings.Contains(img.String(), "note     Lab images: ") || !strings.Contains(img.String(), "docker import - debian:bookworm-slim") {
			t.Errorf("the line reads %q, want the note and how to make the base without Docker Hub", img)
		}
	})
	t.Run("no daemon", func(t *testing.T) {
		dir, log := fakePath(t)
		fakeDocker(t, dir, "docker", composeV2, infoDown)

		r := NewChecker(WithPorts()).Check(context.Background())

		if img := result(t, r, CheckImages); img.Status != Skipped || img.Detail != "needs the Docker daemon" {
			t.Errorf("images = %v, want skipped for the daemon", img)
		}
		for _, call := range invocations(t, log) {
			if strings.HasPrefix(call, "image ") {
				t.Errorf("docker ran %q with no daemon", call)
			}
		}
	})
}

func TestDoctorDaemonNotAnsweringAtDockerHostNamesIt(t *testing.T) {
	dir, _ := fakePath(t)
	fakeDocker(t, dir, "docker", composeV2, `printf 'Cannot connect to the Docker daemon at unix:///tmp/d/docker.sock. Is the docker daemon running?\n' >&2; exit 1`)
	t.Setenv("DOCKER_HOST", "unix:///tmp/d/docker.sock")

	r := NewChecker(WithPorts()).Check(context.Background())

	d := result(t, r, CheckDaemon)
	if d.Status != Problem || d.Fix != "No Docker daemon answers at DOCKER_HOST (unix:///tmp/d/docker.sock): start the daemon that serves it, or unset DOCKER_HOST to use the default one." {
		t.Errorf("daemon: got %v", d)
	}
}

func TestDoctorNoDaemonAndNoDockerdOnLinuxSaysInstallTheEngine(t *testing.T) {
	for goos, want := range map[string]string{"linux": fixNoEngine, "darwin": fixDaemonDown} {
		t.Run(goos, func(t *testing.T) {
			dir, _ := fakePath(t)
			fakeDocker(t, dir, "docker", composeV2, infoDown)
			c := NewChecker(WithPorts())
			c.goos = goos

			d := result(t, c.Check(context.Background()), CheckDaemon)

			if d.Status != Problem || d.Fix != want {
				t.Errorf("no dockerd on PATH on %s: got %v, want %q", goos, d, want)
			}
		})
	}
}
