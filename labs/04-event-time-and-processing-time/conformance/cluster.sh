#!/usr/bin/env bash
# cluster.sh: a standalone Flink 2.2 session cluster (one JobManager, one TaskManager) run from
# the Flink distribution inside the apache-flink wheel, to prove the job under `flink run -py`
# as the compose cluster runs it, without Docker.
#
#   cluster.sh start                  write a config.yaml (loopback only, free ports), start
#                                     both JVMs, wait until the TaskManager has registered
#   cluster.sh run --seconds N --out FILE [-- job options]
#                                     `flink run -d -py gateway_meter.py`, wait N s, cancel
#                                     the job; FILE gets the TaskManager stdout lines (the
#                                     print sinks) this job wrote
#   cluster.sh submit CLIENT SCRIPT [script options]
#                                     `flink run -d -py SCRIPT` with the broker and the
#                                     connector jar; prints the JobID, CLIENT gets the
#                                     client's output
#   cluster.sh cancel JOB             cancel the job
#   cluster.sh stop                   stop both JVMs (by their pids)
#
# Everything lives in $LABTUI_CACHE/cluster (conf, logs, pids). The TaskManager's Python
# workers and the `flink run` client use the venv's python (PATH), and the job ships the
# connector jar with --jars, as it would with the image's /opt/flink/lib.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ -x "$PY" ] || die "no venv at $VENV: run conformance/env.sh first"
FLINK_HOME=$("$PY" -c 'import os, pyflink; print(os.path.dirname(pyflink.__file__))')
export FLINK_HOME FLINK_CONF_DIR="$CLUSTER_DIR/conf" FLINK_LOG_DIR="$CLUSTER_DIR/log" \
       FLINK_PID_DIR="$CLUSTER_DIR/pid" PATH="$VENV/bin:$PATH" VIRTUAL_ENV="$VENV"

pids() { cat "$CLUSTER_DIR"/*.jvm 2>/dev/null || true; }
running() { local p; for p in $(pids); do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
rest() { cat "$CLUSTER_DIR/rest" 2>/dev/null; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

write_config() {
  mkdir -p "$FLINK_CONF_DIR" "$FLINK_LOG_DIR" "$FLINK_PID_DIR"
  cp "$FLINK_HOME"/conf/log4j*.properties "$FLINK_HOME"/conf/logback*.xml "$FLINK_CONF_DIR/"
  local rest_port rpc_port
  rest_port=$(free_port); rpc_port=$(free_port)
  # Start from the wheel's config.yaml (it carries the JVM --add-opens that Java 17 needs).
  "$PY" - "$FLINK_HOME/conf/config.yaml" "$FLINK_CONF_DIR/config.yaml" "$rest_port" "$rpc_port" <<'PY'
import sys, yaml
src, dst, rest_port, rpc_port = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
conf = yaml.safe_load(open(src))
conf["jobmanager"].update({"bind-host": "127.0.0.1", "rpc": {"address": "127.0.0.1", "port": rpc_port},
                           "memory": {"process": {"size": "1024m"}}})
conf["taskmanager"].update({"bind-host": "127.0.0.1", "host": "127.0.0.1", "numberOfTaskSlots": 2,
                            "memory": {"process": {"size": "2048m"}}})
conf["rest"] = {"address": "127.0.0.1", "bind-address": "127.0.0.1", "port": rest_port}
conf["blob"] = {"server": {"port": "0"}}
yaml.safe_dump(conf, open(dst, "w"), default_flow_style=False)
PY
  printf '127.0.0.1\n' > "$FLINK_CONF_DIR/workers"
  printf '127.0.0.1:%s\n' "$rest_port" > "$FLINK_CONF_DIR/masters"
  echo "127.0.0.1:$rest_port" > "$CLUSTER_DIR/rest"
}

start() {
  if running; then log "cluster already running, REST at $(rest)"; return; fi
  local t0; t0=$(now_ms)
  rm -rf "$CLUSTER_DIR"; mkdir -p "$CLUSTER_DIR"
  write_config
  # start-foreground execs the JVM, so each $! is a JVM's pid. STD_REDIRECT_TO_FILE sends
  # its stdout (the print sinks) to $FLINK_LOG_DIR/*.out and keeps log lines out of it.
  STD_REDIRECT_TO_FILE=true setsid "$FLINK_HOME/bin/jobmanager.sh" start-foreground \
    >"$CLUSTER_DIR/jobmanager.console" 2>&1 </dev/null &
  echo $! > "$CLUSTER_DIR/jobmanager.jvm"
  STD_REDIRECT_TO_FILE=true setsid "$FLINK_HOME/bin/taskmanager.sh" start-foreground \
    >"$CLUSTER_DIR/taskmanager.console" 2>&1 </dev/null &
  echo $! > "$CLUSTER_DIR/taskmanager.jvm"
  local deadline=$(( $(now_ms) + 120000 ))
  until curl_overview | grep -q '"taskmanagers":1'; do
    running || die "cluster JVMs exited; see $FLINK_LOG_DIR"
    [ "$(now_ms)" -lt "$deadline" ] || { stop; die "no TaskManager registered within 120 s"; }
    sleep 0.5
  done
  local dt=$(( $(now_ms) - t0 ))
  log "Flink session cluster up in ${dt} ms, REST at http://$(rest)"
  echo "cluster_start_ms=$dt flink=$(cat "$VENV/.installed")" >> "$LABTUI_CACHE/timings.txt"
}

curl_overview() {
  python3 -c 'import sys, urllib.request
try: print(urllib.request.urlopen("http://" + sys.argv[1] + "/overview", timeout=2).read().decode())
except Exception: pass' "$(rest)"
}

stop() {
  local p
  for p in $(pids); do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 1 100); do running || break; sleep 0.2; done
  for p in $(pids); do kill -0 "$p" 2>/dev/null && { log "SIGKILL $p"; kill -KILL "$p"; }; done
  rm -f "$CLUSTER_DIR"/*.jvm
  log "cluster stopped"
}

# submit CLIENT SCRIPT [script options]: the one way a script is submitted here, with
# labtui's flink-python jar as labtui submits (PYTHON_JAR_OPT_DIR in lib.sh); prints the JobID.
submit() {
  local client=$1 script=$2; shift 2
  running || die "cluster not running: cluster.sh start"
  [ -f "$PYTHON_JAR_OPT_DIR/flink-python-$LABTUI_FLINK_VERSION.jar" ] \
    || die "no $PYTHON_JAR_OPT_DIR/flink-python-$LABTUI_FLINK_VERSION.jar: run env.sh first"
  local bootstrap=${LABTUI_BOOTSTRAP:-$(cat "$BROKER_DIR/bootstrap" 2>/dev/null || echo "$BOOTSTRAP")}
  FLINK_OPT_DIR="$PYTHON_JAR_OPT_DIR" "$FLINK_HOME/bin/flink" run -m "$(rest)" -d -py "$script" \
    --bootstrap "$bootstrap" --jars "file://$CONNECTOR_JAR" "$@" > "$client" 2>&1 \
    || { cat "$client" >&2; die "flink run failed"; }
  local job_id; job_id=$(sed -n 's/.*JobID \([0-9a-f]\{32\}\).*/\1/p' "$client" | head -1)
  [ -n "$job_id" ] || { cat "$client" >&2; die "no JobID in the flink run output"; }
  echo "$job_id"
}

cancel() { "$FLINK_HOME/bin/flink" cancel -m "$(rest)" "$1"; }

run() {
  local seconds="" out=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --seconds) seconds=$2; shift 2 ;;
      --out) out=$2; shift 2 ;;
      --) shift; break ;;
      *) die "unknown option $1 (job options go after --)" ;;
    esac
  done
  [ -n "$seconds" ] && [ -n "$out" ] || die "usage: cluster.sh run --seconds N --out FILE [-- job options]"
  running || die "cluster not running: cluster.sh start"
  mkdir -p "$(dirname "$out")"
  local tm_out; tm_out=$(ls "$FLINK_LOG_DIR"/*taskexecutor*.out | head -1)
  local offset; offset=$(stat -c %s "$tm_out")
  local t0; t0=$(now_ms)
  local job_id; job_id=$(submit "$out.client" "$JOB_PY" "$@")
  log "submitted job $job_id in $(( $(now_ms) - t0 )) ms; running it for ${seconds} s"
  sleep "$seconds"
  cancel "$job_id" >> "$out.client" 2>&1 || log "cancel failed"
  tail -c +"$((offset + 1))" "$tm_out" > "$out"
  log "$(grep -cE '^[a-z-]+(:[0-9]+)?> ' "$out" || true) print lines in $out"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) running && echo "REST at http://$(rest)" || { echo "not running" >&2; exit 1; } ;;
  run) shift; run "$@" ;;
  submit) [ $# -ge 3 ] || die "usage: cluster.sh submit CLIENT SCRIPT [script options]"; shift; submit "$@" ;;
  cancel) [ $# -eq 2 ] || die "usage: cluster.sh cancel JOB"; cancel "$2" ;;
  *) echo "usage: $0 start|stop|status|run --seconds N --out FILE [-- job options]|submit CLIENT SCRIPT [...]|cancel JOB" >&2; exit 2 ;;
esac
