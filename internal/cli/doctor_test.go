package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labtui/labtui/compose"
)

// fakeDocker puts a docker that knows only the doctor's commands (every image built)
// first and alone on PATH, beside a dockerd; it records each invocation, and its daemon is down when down is true.
func fakeDocker(t *testing.T, down bool) (calls func() []string) {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n" +
		"printf '%s\\n' \"$*\" >> \"$FAKE_DOCKER_DIR/calls\"\n" +
		"case \"$*\" in\n" +
		"'compose version') echo 'Docker Compose version v2.29.7' ;;\n" +
		"'info --format {{.ServerVersion}}')\n" +
		"  if [ -e \"$FAKE_DOCKER_DIR/daemon-down\" ]; then\n" +
		"    echo 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?' >&2; exit 1\n" +
		"  fi\n" +
		"  echo 27.3.1 ;;\n" +
		"'image inspect --format {{.Id}} '*) echo sha256:0123 ;;\n" +
		"*) echo \"fake docker: unexpected $*\" >&2; exit 2 ;;\n" +
		"esac\n"
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// The engine is installed (Docker Engine on Linux has dockerd on PATH), only down.
	if err := os.WriteFile(filepath.Join(dir, "dockerd"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if down {
		os.WriteFile(filepath.Join(dir, "daemon-down"), nil, 0o644)
	}
	t.Setenv("PATH", dir)
	t.Setenv("FAKE_DOCKER_DIR", dir)
	t.Setenv("LABTUI_STATE_DIR", t.TempDir())
	return func() []string {
		b, _ := os.ReadFile(filepath.Join(dir, "calls"))
		return strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", "_"))
	}
}

// withoutPorts makes the doctor skip the port checks, which depend on this machine.
func withoutPorts(t *testing.T) {
	prev := newChecker
	newChecker = func() *compose.Checker { return compose.NewChecker(compose.WithPorts()) }
	t.Cleanup(func() { newChecker = prev })
}

func TestDoctorPassesOnAReadyMachine(t *testing.T) {
	fakeDocker(t, false)
	withoutPorts(t)
	code, out, errOut := runCLI(t, "doctor")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"ok       Docker CLI: ", "ok       Docker Compose v2: v2.29.7", "ok       Docker daemon: server 27.3.1", "ok       Lab images: labtui-lab4/kafka:4.1.1 and labtui-lab4/pyflink:2.2.1 are built", "ready: labtui --backend compose"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestDoctorNamesTheFixAndExits1(t *testing.T) {
	fakeDocker(t, true)
	withoutPorts(t)
	code, out, errOut := runCLI(t, "doctor")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s%s", code, out, errOut)
	}
	for _, want := range []string{
		"problem  Docker daemon: The Docker daemon is not running: start Docker Desktop, or on Linux run `sudo systemctl start docker` (`sudo service docker start` where systemd does not run).",
		"(Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(errOut, "labtui: 1 problem: fix it and run labtui doctor again") {
		t.Errorf("stderr: %s", errOut)
	}
}

func TestBackendComposeWithoutADaemonIsOneMessageAndStartsNothing(t *testing.T) {
	for name, args := range map[string][]string{"flag": {"--backend", "compose"}, "environment": nil} {
		t.Run(name, func(t *testing.T) {
			calls := fakeDocker(t, true)
			if args == nil {
				t.Setenv("LABTUI_BACKEND", "compose")
			}
			code, out, errOut := runCLI(t, args...)
			if code != 1 || out != "" {
				t.Fatalf("exit %d, stdout %q, want 1 and nothing", code, out)
			}
			for _, want := range []string{"labtui: the compose lab cannot start", "The Docker daemon is not running", "labtui doctor", "without --backend compose", "embedded lab"} {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if strings.Count(errOut, "labtui:") != 1 {
				t.Errorf("more than one message:\n%s", errOut)
			}
			if got, want := calls(), []string{"compose_version", "info_--format_{{.ServerVersion}}"}; !slices.Equal(got, want) {
				t.Errorf("docker ran %q, want only the doctor's %q", got, want)
			}
		})
	}
}

func TestBackendMustBeOneOfTheFour(t *testing.T) {
	t.Setenv("LABTUI_STATE_DIR", t.TempDir())
	code, _, errOut := runCLI(t, "--backend", "kubernetes")
	if code != 2 || !strings.Contains(errOut, `--backend kubernetes is not accepted: give embedded, compose, cluster or remote`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
