package compose

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// Each problem's fix, as one plain sentence.
const (
	fixNoDocker          = "Docker is not installed: install Docker Desktop or Docker Engine, or run labtui without --backend compose to use the embedded lab."
	fixNoCompose         = "Docker Compose v2 is not installed: install the Compose plugin (Docker Desktop includes it; on Linux the docker-compose-plugin package of Docker's apt repository, Debian 13's docker-compose or Ubuntu's docker-compose-v2 (Debian 12's docker-compose is v1), or a docker-compose binary of Compose v2 in ~/.docker/cli-plugins/) so that `docker compose version` works."
	fixComposeV1         = "Only Docker Compose v1 (docker-compose) is installed: install the Compose v2 plugin (Docker Desktop includes it; on Linux install the docker-compose-plugin package) so that `docker compose version` works."
	fixComposeStandalone = "Docker Compose v2 is installed only as the standalone docker-compose: install it as the Docker CLI plugin (on Linux the docker-compose-plugin package) so that `docker compose version` works."
	fixComposeUnknown    = "labtui could not read a version from `docker compose version`: update Docker Desktop or the docker-compose-plugin package to Compose v2 or later."
	fixDaemonDown        = "The Docker daemon is not running: start Docker Desktop, or on Linux run `sudo systemctl start docker` (`sudo service docker start` where systemd does not run)."
	fixNoEngine          = "No Docker daemon runs and none is installed: install Docker Engine (on Debian and Ubuntu `sudo apt-get install docker.io`) and start it with `sudo systemctl start docker` (`sudo service docker start` where systemd does not run), or start Docker Desktop."
	fixDaemonPermission  = "Your user may not use the Docker daemon: add it to the docker group with `sudo usermod -aG docker $USER` and log in again, or start Docker Desktop."
	fixDaemonOther       = "Docker could not reach its daemon: check that Docker Desktop or the Docker service is running (`docker info` shows the cause), then run labtui doctor again."
)

// fixTimeout names the fix for a docker command that never answered.
func fixTimeout(command string) string {
	return fmt.Sprintf("`%s` did not answer in time: restart Docker Desktop or the Docker service (`sudo systemctl restart docker`), then run labtui doctor again.", command)
}

// fixDaemonHost names the fix for a daemon that does not answer where DOCKER_HOST points.
func fixDaemonHost(host string) string {
	return fmt.Sprintf("No Docker daemon answers at DOCKER_HOST (%s): start the daemon that serves it, or unset DOCKER_HOST to use the default one.", host)
}

// fixComposeOld names the fix for a Compose older than v2.
func fixComposeOld(version string) string {
	return fmt.Sprintf("Docker Compose %s is too old for labtui: install Compose v2 or later (update Docker Desktop, or on Linux install the docker-compose-plugin package).", version)
}

// portFix names the fix for a port that cannot be listened on.
func portFix(port int, err error) string {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Sprintf("Port %d on %s is in use: stop the program listening there (`lsof -i :%d` names it), or stop an earlier lab with `docker compose -p %s down`.", port, HostIP, port, ProjectName)
	}
	return fmt.Sprintf("labtui cannot listen on %s:%d (%v): free that port or allow local connections to it, then run labtui doctor again.", HostIP, port, err)
}

// composeVersion finds the version in `docker compose version` or
// `docker-compose version` output: "Docker Compose version v2.29.7",
// "Docker Compose version 2.40.0-desktop.1", "docker-compose version 1.29.2, build 5becea4c".
var composeVersion = regexp.MustCompile(`(?i)compose version v?((\d+)\.\d+(?:\.\d+)?[^\s,]*)`)

// parseComposeVersion returns the version text and its major number, or ok false.
func parseComposeVersion(out []byte) (version string, major int, ok bool) {
	m := composeVersion.FindSubmatch(out)
	if m == nil {
		return "", 0, false
	}
	major, err := strconv.Atoi(string(m[2]))
	if err != nil {
		return "", 0, false
	}
	return "v" + string(m[1]), major, true
}

// firstLine returns the first non-empty line of docker's output, trimmed.
func firstLine(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n")) {
		if s := strings.TrimSpace(string(line)); s != "" {
			return s
		}
	}
	return ""
}

// checkCLI finds docker and returns its path, or "" with a Problem.
func (c *Checker) checkCLI() (string, Result) {
	path, err := c.lookPath("docker")
	if err != nil {
		return "", Result{Name: CheckCLI, Status: Problem, Fix: fixNoDocker,
			Err: fmt.Errorf("find docker on PATH: %w", err)}
	}
	return path, Result{Name: CheckCLI, Status: OK, Detail: path}
}

// checkCompose runs `docker compose version` and requires Compose v2 or later
// (Compose went from v2 to v5; every version from 2 on has the `docker compose`
// commands labtui runs).
func (c *Checker) checkCompose(ctx context.Context, docker string) Result {
	stdout, stderr, err := c.runDocker(ctx, docker, "compose", "version")
	if err != nil {
		res := Result{Name: CheckCompose, Status: Problem, Err: err, Detail: firstLine(stderr)}
		switch {
		case errTimeout(err):
			res.Fix = fixTimeout("docker compose version")
		default:
			res.Fix = c.composeV1Fix(ctx)
		}
		return res
	}
	version, major, ok := parseComposeVersion(stdout)
	switch {
	case !ok:
		return Result{Name: CheckCompose, Status: Problem, Detail: firstLine(stdout), Fix: fixComposeUnknown,
			Err: fmt.Errorf("parse docker compose version output %q", firstLine(stdout))}
	case major < 2:
		return Result{Name: CheckCompose, Status: Problem, Detail: version, Fix: fixComposeOld(version)}
	}
	return Result{Name: CheckCompose, Status: OK, Detail: version}
}

// composeV1Fix tells apart no Compose at all, Compose v1, and Compose v2
// installed only as the standalone docker-compose binary.
func (c *Checker) composeV1Fix(ctx context.Context) string {
	standalone, err := c.lookPath("docker-compose")
	if err != nil {
		return fixNoCompose
	}
	stdout, _, err := c.runDocker(ctx, standalone, "version")
	if err != nil {
		return fixComposeV1
	}
	if _, major, ok := parseComposeVersion(stdout); ok && major >= 2 {
		return fixComposeStandalone
	}
	return fixComposeV1
}

// checkDaemon runs `docker info --format {{.ServerVersion}}`, which needs the daemon.
func (c *Checker) checkDaemon(ctx context.Context, docker string) Result {
	stdout, stderr, err := c.runDocker(ctx, docker, "info", "--format", "{{.ServerVersion}}")
	server := strings.TrimSpace(string(stdout))
	if err == nil && server != "" {
		return Result{Name: CheckDaemon, Status: OK, Detail: "server " + server}
	}
	said := firstLine(stderr)
	if err == nil {
		err = errors.New("docker info printed no server version")
	}
	res := Result{Name: CheckDaemon, Status: Problem, Detail: said, Err: err}
	lower := strings.ToLower(said)
	switch {
	case errTimeout(err):
		res.Fix = fixTimeout("docker info")
	case strings.Contains(lower, "permission denied"):
		res.Fix = fixDaemonPermission
	case strings.Contains(lower, "cannot connect to the docker daemon"),
		strings.Contains(lower, "is the docker daemon running"),
		strings.Contains(lower, "error during connect"):
		res.Fix = fixDaemonDown
		if host := os.Getenv("DOCKER_HOST"); host != "" {
			res.Fix = fixDaemonHost(host)
		} else if _, err := c.lookPath("dockerd"); err != nil && c.goos == "linux" {
			// Docker Desktop keeps its engine in a VM: no dockerd on PATH is a missing
			// engine only on Linux, where Docker Engine is what users install.
			res.Fix = fixNoEngine
		}
	default:
		res.Fix = fixDaemonOther
	}
	return res
}
