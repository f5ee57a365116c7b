#!/usr/bin/env bash
# backend-compose.sh: labtui's compose lab (compose/docker-compose.yml), driven for real on a
# Docker engine this script starts and stops itself:
#
#   setup  installs Debian's docker.io and debootstrap when missing (apt-get, as root);
#          starts its own dockerd: a private socket, data-root, exec-root and pidfile,
#          --iptables=false --bridge=none, so nothing of the host's firewall, docker0 or
#          another Docker is touched (the compose project's own network is a bridge that
#          `down` removes); builds Compose v2 from its Go module (github.com/docker/compose/v2)
#          as the CLI plugin; makes the base image debian:bookworm-slim from
#          `debootstrap --variant=minbase bookworm` (there is no Docker Hub here); builds
#          the lab's images (`docker compose build`, host network for the build's
#          downloads, LABTUI_BUILD_NETWORK=host). Compose, the rootfs and the engine's
#          data-root (images and build cache) are kept in $LABTUI_COMPOSE_CACHE (default
#          ~/.cache/labtui-compose), outside the clone, so a second run reuses them.
#   checks `labtui doctor` names what is missing before the engine runs and is ready
#          after; labtui's flink-python jar in the Flink image, read out of it, against
#          the wheel's (go test ./internal/localcluster with LABTUI_IMAGE_PYTHON_JARS: only
#          classes.txt's classes differ, and the double release no longer throws; needs a
#          JDK); then `labtui run --headless --backend compose` with the course's hiccup
#          (--hiccup gw-1@:40+35s), the generator on for 150 s and the x key at 220 s
#          (--kill-after: `docker compose kill taskmanager`, then `up -d --no-deps --wait
#          taskmanager`), as backend-cluster.sh does for --backend cluster. Checked: every
#          docker command labtui typed is on its log; the two windows disagree and late
#          records appear (run 1); the job came back on the new TaskManager and traced
#          every request of run 1 again (it re-read the topic from the earliest offsets);
#          labtui's log says the job's Kafka source held every partition before the
#          generator started (so records do not wait for the job at the start);
#          run 1's print lines agree with `labtui replay --pace recorded` of the recording
#          labtui made (compare.py, 15 s latency margin); and afterwards no container,
#          network or volume of the project is left, and ports 9092 and 8081 are free;
#          after the engine stops, no engine or build process that was not there before,
#          no network link of the run, no mount.
#
#   backend-compose.sh          setup, then checks
#   backend-compose.sh walk     setup, checks, then the learner's walk on the same engine
#                               (tui/smoke/walkthrough.sh with WALK_BACKEND=compose): 16 min more
#   backend-compose.sh setup    setup and both doctor checks only, then the engine stopped and
#                               checked gone: CI starts this in the background at its start,
#                               so the full run later finds everything cached (warm)
#
# Whatever happens (an error, ctrl-c, SIGTERM, SIGHUP) the EXIT trap takes the project
# down, stops dockerd (and the containerd it started), unmounts what it left, and checks
# that no process of it is left. One line per check, then `N passed, N failed` (exit 1 on
# a failure). Files in $LABTUI_COMPOSE_CACHE/runs/<time>/. LABTUI_BIN uses a built labtui.
# Measured end to end on a 2-core machine shared with other work (compose/README.md has the
# breakdown): cold 18 min, of which setup 11.5 (Compose's go build 8, the images 2.7);
# warm 8.2 min, of which setup 3 s and the kill -9 check 84 s; the walk 15 min more. Needs root, go, python3.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"

COMPOSE_VERSION=v2.40.3
CACHE=${LABTUI_COMPOSE_CACHE:-"${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/labtui-compose"}
DEBIAN_MIRROR=${LABTUI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
COMPOSE_FILE="$REPO_DIR/compose/docker-compose.yml"
PROJECT=labtui-lab4

MODE=${1:-all}
case "$MODE" in all | setup | walk) ;; *) die "usage: backend-compose.sh [setup | walk]" ;; esac
[ "$(id -u)" = 0 ] || die "backend-compose.sh starts its own Docker engine and needs root"
mkdir -p "$CACHE/runs"
RUN_DIR="$CACHE/runs/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$RUN_DIR"
# One engine on the cached data-root at a time.
exec 9> "$CACHE/lock"
flock -n 9 || die "another backend-compose.sh uses $CACHE (its lock is held)"

PASS=0; FAIL=0
check() {  # check NAME CONDITION-EXIT-CODE DETAIL
  if [ "$2" = 0 ]; then PASS=$((PASS + 1)); log "PASS $1: $3"; else FAIL=$((FAIL + 1)); log "FAIL $1: $3"; fi
}
step() {  # step NAME: logs the step, and how long the previous one took
  local t; t=$(now_ms)
  [ -n "${STEP_NAME:-}" ] && log "   ($STEP_NAME took $(( (t - STEP_T0) / 1000 )) s)"
  STEP_NAME=$1; STEP_T0=$t
  log "== $1"
}
T0=$(now_ms)

# ---------------------------------------------------------------------------------------------
step "install docker.io and debootstrap when missing"
missing=()
command -v dockerd > /dev/null || missing+=(docker.io)
command -v debootstrap > /dev/null || missing+=(debootstrap)
command -v iptables > /dev/null || missing+=(iptables)
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get update -qq > "$RUN_DIR/apt.log" 2>&1 || die "apt-get update failed ($RUN_DIR/apt.log)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >> "$RUN_DIR/apt.log" 2>&1 \
    || die "apt-get install ${missing[*]} failed ($RUN_DIR/apt.log)"
fi

# Compose v2 as the Docker CLI's plugin, in a DOCKER_CONFIG of this script's own.
export DOCKER_CONFIG="$CACHE/docker-config"
PLUGIN="$DOCKER_CONFIG/cli-plugins/docker-compose"
# The CLI: Debian's, or one already on PATH (both talk to the engine this script starts).
DOCKER_CLI=$(command -v docker) || die "no docker CLI on PATH after installing docker.io"

# ---------------------------------------------------------------------------------------------
# `labtui doctor` before the engine runs: it must name what is missing. Its socket is this
# script's (nothing listens there yet), so a Docker of the host cannot answer for it.
if [ -n "${LABTUI_BIN:-}" ]; then
  LABTUI=$LABTUI_BIN
else
  step "build labtui"
  LABTUI="$RUN_DIR/labtui"
  (cd "$REPO_DIR" && nice go build -o "$LABTUI" .) || die "go build failed"
fi
# dockerd's socket, exec-root (containerd's state, network namespaces) and pidfile are
# this run's: a short path, as a unix socket's path must be.
RT=$(mktemp -d /tmp/labtui-dockerd.XXXXXX)
export DOCKER_HOST="unix://$RT/docker.sock"
# The lab's image builds download Debian packages, wheels and jars: with --bridge=none
# and no iptables the build containers reach them on the host's network.
export LABTUI_BUILD_NETWORK=host
export LABTUI_STATE_DIR="$RUN_DIR/state"
XDG_CONFIG_HOME="$RUN_DIR/config"; export XDG_CONFIG_HOME

step "labtui doctor before the engine runs"
set +e
(cd "$REPO_DIR" && "$LABTUI" doctor --backend compose) > "$RUN_DIR/doctor-before.txt" 2>&1
rc=$?
set -e
ok=1
if [ $rc != 0 ] && grep -qF "problem  Docker daemon: No Docker daemon answers at DOCKER_HOST ($DOCKER_HOST)" "$RUN_DIR/doctor-before.txt"; then
  if [ -x "$PLUGIN" ] || grep -q '^problem  Docker Compose v2:' "$RUN_DIR/doctor-before.txt"; then ok=0; fi
fi
check doctor-before "$ok" "labtui doctor exits 1 and names the missing engine$([ -x "$PLUGIN" ] || echo ' and Compose v2') ($RUN_DIR/doctor-before.txt)"

# ---------------------------------------------------------------------------------------------
DOCKERD_PID=""
# stop_engine: the project down (it stops the containers and removes them with their
# network), any other container removed, then dockerd stopped (it stops its containerd).
stop_engine() {
  [ -n "$DOCKERD_PID" ] || return 0
  if kill -0 "$DOCKERD_PID" 2> /dev/null; then
    timeout 120 docker compose -p "$PROJECT" -f "$COMPOSE_FILE" down --volumes --remove-orphans >> "$RUN_DIR/stop.log" 2>&1 || true
    ids=$(timeout 20 docker ps -aq 2> /dev/null || true)
    [ -z "$ids" ] || timeout 60 docker rm -f $ids >> "$RUN_DIR/stop.log" 2>&1 || true
    kill -TERM "$DOCKERD_PID" 2> /dev/null || true
    for _ in $(seq 1 150); do kill -0 "$DOCKERD_PID" 2> /dev/null || break; sleep 0.2; done
    kill -KILL "$DOCKERD_PID" 2> /dev/null || true
  fi
  wait "$DOCKERD_PID" 2> /dev/null || true
  DOCKERD_PID=""
}
# our_mounts: mounts under the exec-root or the data-root (overlays, network namespaces), and
# the /proc and /sys that debootstrap's second stage mounts in the rootfs, if it was stopped.
our_mounts() {
  awk -v a="$RT" -v b="$CACHE/docker/" -v c="$RUN_DIR/rootfs/" \
    'index($2, a) == 1 || index($2, b) == 1 || index($2, c) == 1 {print $2}' /proc/mounts
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  [ -z "${CAPTURE_PID:-}" ] || kill "$CAPTURE_PID" 2> /dev/null || true
  [ -z "${DEBOOTSTRAP_PID:-}" ] || pkill -TERM -P "$DEBOOTSTRAP_PID" 2> /dev/null || true
  stop_engine
  # Processes left that name this run's folders (containerd, shims): started by this script.
  for pid in $(left_pids); do kill -KILL "$pid" 2> /dev/null || true; done
  our_mounts | sort -r | while read -r m; do umount -l "$m" 2> /dev/null || true; done
  rm -rf "$RT"
  log "finished in $(( ($(now_ms) - T0) / 1000 )) s"
  exit $rc
}
# left_pids: processes (other than this shell's) whose command line names the run's folders.
left_pids() {
  python3 - "$RT" "$CACHE/docker" <<'PY'
import os, sys
marks = [m.encode() for m in sys.argv[1:]]
me = {os.getpid(), os.getppid()}
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) in me:
        continue
    try:
        cmd = open(f"/proc/{p}/cmdline", "rb").read()
    except OSError:
        continue
    if any(m in cmd for m in marks):
        print(p)
PY
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# finish: stops the engine, checks that nothing of it is left, prints the tally and exits.
finish() {
  step "stop the engine"
  stop_engine
  sleep 1
  pids=$(left_pids | tr '\n' ' ')
  mounts=$(our_mounts | wc -l)
  check engine-stopped "$([ -z "${pids// /}" ] && [ "$mounts" = 0 ]; echo $?)" "no dockerd, containerd or shim of the run is left, and no mount of it (${pids:+left: $pids, }$mounts mounts)"
  # Nothing else of the engine: no docker-proxy or build process (BuildKit runs inside
  # dockerd, its RUN steps in runc containers under the exec-root), no network link it made
  # (the project's bridge, veths), and the lab's ports free.
  strays=$(engine_procs | comm -13 "$RUN_DIR/engine-before.txt" - | tr '\n' ' ')
  links > "$RUN_DIR/links-after.txt"
  new_links=$(comm -13 "$RUN_DIR/links-before.txt" "$RUN_DIR/links-after.txt" | tr '\n' ' ')
  busy=""
  for p in 9092 8081; do
    [ "$MODE" != setup ] || break # setup publishes no port; CI's other steps may hold these
    python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()' "$p" 2> /dev/null || busy="$busy $p"
  done
  check nothing-left "$([ -z "${strays// /}" ] && [ -z "${new_links// /}" ] && [ -z "$busy" ]; echo $?)" "no dockerd, docker-proxy, containerd, runc or build process that was not there before runs${strays:+ (running: $strays)}, no network link of the run is left${new_links:+ (left: $new_links)}$([ "$MODE" = setup ] || echo ', ports 9092 and 8081 are free')${busy:+ (taken:$busy)}"
  STEP_NAME=""

  log "$PASS passed, $FAIL failed ($RUN_DIR)"
  exit $((FAIL > 0))
}

# The network links before the engine runs: the ones after it stops must be the same.
links() { ip -o link show 2> /dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | sort; }
links > "$RUN_DIR/links-before.txt"
# engine_procs: processes of a Docker engine, by pid (another Docker on the host has its
# own before this script starts; only new ones count as the run's).
engine_procs() { ps -eo pid=,comm= | awk '$2 ~ /^(dockerd|docker-proxy|containerd|containerd-shim|runc|buildkitd|docker-compose)/ {print $1 "(" $2 ")"}' | sort; }
engine_procs > "$RUN_DIR/engine-before.txt"
step "start dockerd (private socket, data-root $CACHE/docker, exec-root $RT/exec)"
mkdir -p "$CACHE/docker" "$RT/exec"
dockerd --host "$DOCKER_HOST" --data-root "$CACHE/docker" --exec-root "$RT/exec" --pidfile "$RT/docker.pid" \
  --iptables=false --ip6tables=false --bridge=none --storage-driver overlay2 \
  > "$RUN_DIR/dockerd.log" 2>&1 < /dev/null &
DOCKERD_PID=$!
for _ in $(seq 1 150); do
  docker info --format '{{.ServerVersion}}' > /dev/null 2>&1 && break
  kill -0 "$DOCKERD_PID" 2> /dev/null || die "dockerd exited: $(tail -3 "$RUN_DIR/dockerd.log")"
  sleep 0.2
done
docker info --format '{{.ServerVersion}}' > /dev/null 2>&1 || die "dockerd did not answer within 30 s ($RUN_DIR/dockerd.log)"
log "dockerd $(docker info --format '{{.ServerVersion}}') (pid $DOCKERD_PID); CLI $DOCKER_CLI $(docker version --format '{{.Client.Version}}')"

# debootstrap (network and disk) runs while Compose builds (CPU): a cold run saves its
# minutes. Its exit status is read before the base image is made.
ROOTFS_TAR="$CACHE/debian-bookworm-minbase.tar"
DEBOOTSTRAP_PID=""
if ! docker image inspect labtui-base/debian-minbase:bookworm > /dev/null 2>&1 && ! [ -s "$ROOTFS_TAR" ]; then
  (root="$RUN_DIR/rootfs"
   debootstrap --variant=minbase bookworm "$root" "$DEBIAN_MIRROR" > "$RUN_DIR/debootstrap.log" 2>&1 &&
     tar -C "$root" -cf "$ROOTFS_TAR.new" . && mv "$ROOTFS_TAR.new" "$ROOTFS_TAR" && rm -rf "$root") &
  DEBOOTSTRAP_PID=$!
  log "debootstrap --variant=minbase bookworm runs beside Compose's build (pid $DEBOOTSTRAP_PID)"
fi

step "Compose $COMPOSE_VERSION from its Go module"
if ! [ -x "$PLUGIN" ] || ! "$PLUGIN" version 2> /dev/null | grep -q "${COMPOSE_VERSION}\$"; then
  dir=$(cd "$RUN_DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/docker/compose/v2@$COMPOSE_VERSION" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])') || die "go mod download github.com/docker/compose/v2@$COMPOSE_VERSION failed"
  mkdir -p "$(dirname "$PLUGIN")"
  (cd "$dir" && CGO_ENABLED=0 nice go build -trimpath \
    -ldflags "-w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" -o "$PLUGIN.new" ./cmd) \
    > "$RUN_DIR/compose-build.log" 2>&1 || die "building Compose failed ($RUN_DIR/compose-build.log)"
  mv "$PLUGIN.new" "$PLUGIN"
fi
log "$(docker compose version)"

step "the base image debian:bookworm-slim, from debootstrap"
if [ -n "$DEBOOTSTRAP_PID" ]; then
  wait "$DEBOOTSTRAP_PID" || die "debootstrap failed ($RUN_DIR/debootstrap.log)"
  DEBOOTSTRAP_PID=""
fi
if ! docker image inspect labtui-base/debian-minbase:bookworm > /dev/null 2>&1; then
  docker import "$ROOTFS_TAR" labtui-base/debian-minbase:bookworm > /dev/null || die "docker import of $ROOTFS_TAR failed"
fi
# The machine's own certificate authorities (/usr/local/share/ca-certificates) go into the
# base, where the images' ca-certificates package takes them in: behind a proxy that
# inspects TLS, as here, the builds' downloads (curl, pip) must trust what the host trusts.
BASE_CTX="$RUN_DIR/base"
mkdir -p "$BASE_CTX/ca"
cp /usr/local/share/ca-certificates/*.crt "$BASE_CTX/ca/" 2> /dev/null || true
ca_sum=$(cat "$BASE_CTX"/ca/*.crt 2> /dev/null | sha256sum | cut -c1-16)
if [ "$(docker image inspect --format '{{index .Config.Labels "labtui.ca"}}' debian:bookworm-slim 2> /dev/null)" != "$ca_sum" ]; then
  printf 'FROM labtui-base/debian-minbase:bookworm\nCOPY ca/ /usr/local/share/ca-certificates/\nLABEL labtui.ca=%s\n' "$ca_sum" > "$BASE_CTX/Dockerfile"
  # The CLI's classic builder (a CLI without buildx says so on stderr): base.log.
  docker build -q -t debian:bookworm-slim "$BASE_CTX" > "$RUN_DIR/base.log" 2>&1 || die "docker build of the base image failed ($RUN_DIR/base.log)"
  log "debian:bookworm-slim: debootstrap's bookworm with $(ls "$BASE_CTX/ca" | wc -l) certificate authorities of this machine"
fi

step "build the lab's images (docker compose build)"
(cd "$REPO_DIR" && docker compose -f "$COMPOSE_FILE" build) > "$RUN_DIR/build.log" 2>&1 \
  || die "docker compose build failed: $(tail -5 "$RUN_DIR/build.log")"
# An image a rebuild replaced is kept by nothing: removed, so the cache does not grow.
docker image prune -f > /dev/null
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | sed 's/^/   /' >&2

step "labtui doctor with the engine"
set +e
(cd "$REPO_DIR" && "$LABTUI" doctor --backend compose) > "$RUN_DIR/doctor-after.txt" 2>&1
rc=$?
set -e
ready=0
for what in "Docker CLI" "Docker Compose v2" "Docker daemon" "Lab images"; do
  grep -q "^ok       $what:" "$RUN_DIR/doctor-after.txt" || ready=1
done
# Setup runs beside CI's other steps, whose Kafka and Flink may hold 9092 and 8081 then:
# only the full run, which starts the lab, needs doctor's port checks to pass.
[ "$MODE" = setup ] || [ $rc = 0 ] || ready=1
check doctor-after "$ready" "labtui doctor finds the CLI, Compose v2, the engine and the lab's images$([ "$MODE" = setup ] || echo ', and is ready') ($RUN_DIR/doctor-after.txt)"
[ "$MODE" != setup ] || finish

# ---------------------------------------------------------------------------------------------
step "labtui's flink-python jar in the Flink image"
# Both flink-python jars, read out of the image (a container with no network that only
# cats them), and the Go test that checks the copy replaces exactly classes.txt's classes
# and survives the double release the wheel's throws on (needs a JDK here).
jars="$RUN_DIR/python-jars"; mkdir -p "$jars/wheel" "$jars/patched"
jar_rc=0
for j in "wheel:/opt/flink/opt" "patched:/opt/flink-python-patched"; do
  docker run --rm --network none --entrypoint cat labtui-lab4/pyflink:2.2.1 "${j#*:}/flink-python-2.2.1.jar" \
    > "$jars/${j%%:*}/flink-python-2.2.1.jar" 2>> "$RUN_DIR/python-jar.txt" || jar_rc=1
done
if [ "$jar_rc" = 0 ]; then
  (cd "$REPO_DIR" && LABTUI_IMAGE_PYTHON_JARS="$jars" go test -count=1 \
     -run '^TestComposeImagesFlinkPythonJarSurvivesADoubleRelease$' -v ./internal/localcluster) \
    >> "$RUN_DIR/python-jar.txt" 2>&1 || jar_rc=1
  grep -q -- '--- PASS: TestComposeImagesFlinkPythonJarSurvivesADoubleRelease' "$RUN_DIR/python-jar.txt" || jar_rc=1
fi
check compose-python-jar "$jar_rc" "the image's flink-python copy replaces exactly classes.txt's classes and survives a double release where the wheel's jar throws ($RUN_DIR/python-jar.txt)"

# ---------------------------------------------------------------------------------------------
# The taskmanager's log, captured as the run goes: `docker logs -f` ends when its container
# stops (the kill), and starts again from the beginning of the container's log when the same
# container is started again, so tm-1.log is run 1 and the last one holds both runs.
capture() {
  local n=0 cid
  while ! [ -e "$RUN_DIR/capture.stop" ]; do
    cid=$(docker ps -q --filter "label=com.docker.compose.project=$PROJECT" \
      --filter "label=com.docker.compose.service=taskmanager" --filter status=running 2> /dev/null || true)
    if [ -n "$cid" ]; then
      n=$((n + 1))
      docker logs -f "$cid" > "$RUN_DIR/tm-$n.log" 2> /dev/null || true
    fi
    sleep 0.5
  done
}
capture &
CAPTURE_PID=$!

step "labtui run --headless --backend compose: about 5 min"
t0=$(now_ms)
set +e
(cd "$REPO_DIR" && "$LABTUI" run --headless --backend compose \
  --record "$RUN_DIR/recording.jsonl" --hiccup gw-1@:40+35s --generate-for 150s --kill-after 220s --duration 300s \
  > "$RUN_DIR/out.txt" 2> "$RUN_DIR/err.txt" < /dev/null)
rc=$?
set -e
log "labtui exited $rc after $(( ($(now_ms) - t0) / 1000 )) s"
touch "$RUN_DIR/capture.stop"
for _ in $(seq 1 50); do kill -0 "$CAPTURE_PID" 2> /dev/null || break; sleep 0.2; done
kill "$CAPTURE_PID" 2> /dev/null || true
wait "$CAPTURE_PID" 2> /dev/null || true
check compose-exit "$([ $rc = 0 ]; echo $?)" "labtui run --headless --backend compose exits 0 (got $rc; $RUN_DIR/err.txt)"

# The fleet starts only once the job reads: its Kafka source holds every partition.
python3 - "$RUN_DIR/err.txt" > "$RUN_DIR/order.txt" <<'PY' || true
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
def first(text):
    return next((i for i, l in enumerate(lines) if text in l), None)
reads, fleet = first("its Kafka source holds all 3 partitions"), first("# generator on:")
ok = reads is not None and fleet is not None and reads < fleet
print(0 if ok else 1, f"labtui's log says the job's source holds every partition (line {reads}) before the generator starts (line {fleet})")
PY
read -r code detail < "$RUN_DIR/order.txt" || { code=1; detail="no order read"; }
check compose-job-reads-first "$code" "$detail"

# Every docker command labtui runs is on its log as typed.
missing=""
for want in "up -d --build --wait" "exec -T -e FLINK_OPT_DIR=/opt/flink-python-patched jobmanager flink run -d -py" "logs -f --no-log-prefix --since" \
  "kill taskmanager" "up -d --no-deps --wait taskmanager" "down"; do
  grep -qF "# \$ docker compose -p $PROJECT -f compose/docker-compose.yml $want" "$RUN_DIR/err.txt" || missing="$missing [$want]"
done
check compose-commands "$([ -z "$missing" ]; echo $?)" "labtui's log shows each docker compose command it ran${missing:+; not found:$missing}"

left_objects=$(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT"; docker network ls -q --filter "label=com.docker.compose.project=$PROJECT"; docker volume ls -q --filter "label=com.docker.compose.project=$PROJECT")
check compose-nothing-left "$([ -z "$left_objects" ]; echo $?)" "no container, network or volume of project $PROJECT is left after labtui quit${left_objects:+: $left_objects}"
busy=""
for p in 9092 8081; do
  python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()' "$p" 2> /dev/null || busy="$busy $p"
done
check compose-ports-free "$([ -z "$busy" ]; echo $?)" "ports 9092 and 8081 are free after the run${busy:+ (taken:$busy)}"

TM1="$RUN_DIR/tm-1.log"
TMLAST=$(ls "$RUN_DIR"/tm-*.log 2> /dev/null | sort -V | tail -1)
python3 - "$TM1" "${TMLAST:-/nonexistent}" "$RUN_DIR/err.txt" "$RUN_DIR/tm-run2.log" > "$RUN_DIR/checks.txt" <<'PY' || true
import json, re, sys
from collections import defaultdict
def lines(path):
    try:
        return open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return []
def read(ls):
    out = defaultdict(list)
    for line in ls:
        m = re.match(r"^([a-z-]+)(?::\d+)?> (\{.*\})", line)
        if m:
            out[m[1]].append(json.loads(m[2]))
    return out
l1, last = lines(sys.argv[1]), lines(sys.argv[2])
# The container's log holds run 1, then run 2: the last capture began at its start.
two = last[len(l1):] if sys.argv[1] != sys.argv[2] and last[:len(l1)] == l1 else []
open(sys.argv[4], "w").write("\n".join(two) + "\n")
r1, r2 = read(l1), read(two)
err = open(sys.argv[3], encoding="utf-8", errors="replace").read()
pt = {(w["tenant_id"], w["window_start"]): w for w in r1["processing-time"]}
et = {(w["tenant_id"], w["window_start"]): w for w in r1["event-time"]}
differ = sorted(k for k in pt.keys() & et.keys() if pt[k]["usd"] != et[k]["usd"] or pt[k]["requests"] != et[k]["requests"])
print("disagree", 0 if differ else 1, f"{len(differ)} (tenant, minute) windows differ between processing and event time in run 1, of {len(pt.keys() & et.keys())} both fired")
print("late", 0 if r1["late"] else 1, f"{len(r1['late'])} late records in run 1 under for_monotonous_timestamps()")
restarted = "# run 2 begins (kill): TaskManager killed" in err
print("restart", 0 if restarted and two else 1, "the x key killed the taskmanager container and the job ran again on it (run 2 begins (kill))")
ids1 = {t["request_id"] for t in r1["trace"]}
ids2 = {t["request_id"] for t in r2["trace"]}
print("recovered", 0 if ids1 and ids1 <= ids2 else 1, f"run 2 re-read the topic from the earliest offsets: it traced {len(ids1 & ids2)} of run 1's {len(ids1)} requests again")
PY
while read -r name code detail; do check "compose-$name" "$code" "$detail"; done < "$RUN_DIR/checks.txt"

"$LABTUI" replay --pace recorded --format jsonl --trace "$RUN_DIR/recording.jsonl" > "$RUN_DIR/reference.jsonl" 2> "$RUN_DIR/reference.log" || true
set +e
python3 "$HERE/compare.py" check --name backend-compose --shifted "$RUN_DIR/recording.jsonl" --reference "$RUN_DIR/reference.jsonl" \
  --flink "$TM1" --latency-ms 15000 --report "$RUN_DIR/report.txt" > "$RUN_DIR/result" 2> "$RUN_DIR/compare.err"
rc=$?
set -e
check compose-agrees-with-replay "$rc" "$(head -1 "$RUN_DIR/result" 2> /dev/null || tail -1 "$RUN_DIR/compare.err")"

# labtui killed (kill -9) while the lab runs: its watchdog takes the project down and kills
# the docker commands it had running (`logs -f` follows for as long as the lab runs).
step "kill -9 of labtui while the compose lab runs: about 1.5 min"
(cd "$REPO_DIR" && exec "$LABTUI" run --headless --backend compose --duration 600s \
  > "$RUN_DIR/kill9-out.txt" 2> "$RUN_DIR/kill9-err.txt" < /dev/null) &
K9=$!
for _ in $(seq 1 480); do
  grep -q "every task of it too" "$RUN_DIR/kill9-err.txt" 2> /dev/null && break
  kill -0 "$K9" 2> /dev/null || break
  sleep 0.5
done
before=$(docker ps -q --filter "label=com.docker.compose.project=$PROJECT" | wc -l)
kill -9 "$K9" 2> /dev/null || true
wait "$K9" 2> /dev/null || true
t0=$(now_ms)
left_objects=x
left_procs=x
for _ in $(seq 1 180); do
  left_objects=$(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT"; docker network ls -q --filter "label=com.docker.compose.project=$PROJECT")
  # The docker CLI and its compose plugin only: a test's fake docker may be named alike.
  left_procs=$(for p in $(pgrep -f -- "compose -p $PROJECT"); do
    case "$(readlink "/proc/$p/exe" 2> /dev/null)" in */docker | */docker-compose) echo "$p" ;; esac
  done)
  [ -n "$left_objects$left_procs" ] || break
  sleep 0.5
done
check compose-kill9 "$([ "$before" -gt 0 ] && [ -z "$left_objects$left_procs" ]; echo $?)" \
  "after kill -9 of labtui with $before containers running, its watchdog took project $PROJECT down and no docker command of it is left ($(( ($(now_ms) - t0) / 1000 )) s)${left_objects:+; containers or networks left: $left_objects}${left_procs:+; processes left: $left_procs}"

# The learner's walk on this engine (walk): tui/smoke/walkthrough.sh with
# WALK_BACKEND=compose, in its own XDG folders (so without this run's LABTUI_STATE_DIR).
if [ "$MODE" = walk ]; then
  step "the learner's walk (4.2-4.4) on --backend compose: about 16 min"
  set +e
  (cd "$REPO_DIR" && env -u LABTUI_STATE_DIR OUT="$RUN_DIR/walk" WALK_BACKEND=compose tui/smoke/walkthrough.sh "$LABTUI") \
    > "$RUN_DIR/walk.log" 2>&1 < /dev/null
  rc=$?
  set -e
  check compose-walk "$rc" "the learner's walk (4.2 with the picker's hiccup, x, 4.3 and 4.4, the answers, export, quit, continue with y, export again) passes on --backend compose ($RUN_DIR/walk.log)"
  left_objects=$(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT"; docker network ls -q --filter "label=com.docker.compose.project=$PROJECT")
  check compose-walk-nothing-left "$([ -z "$left_objects" ]; echo $?)" "no container or network of project $PROJECT is left after the walk's labtui quit${left_objects:+: $left_objects}"
fi
finish
