#!/usr/bin/env bash
# run_job.sh: run gateway_meter.py on PyFlink's local mini-cluster for a given time and
# collect what it prints.
#
#   run_job.sh --seconds N --out FILE [--ready-file F] [--stop-file S] [--pid-file P] [--anchor] [-- job options...]
#
# --anchor runs the Java anchor (../anchor/run.sh, GatewayMeter on Flink's DataStream API in
# one JVM, with a KafkaSource) instead of the PyFlink job, with the same print lines and
# files; its options are the anchor's (--watermarks, --idleness, durations as 40s).
#
# The job reads $LABTUI_BOOTSTRAP (else the broker broker.sh started) with the connector jar
# env.sh fetched (--jars file://...). Its stdout (the print sinks) goes to FILE, its stderr
# to FILE.stderr, Flink's own log to FILE.flink-log/. After N seconds the whole process group
# (python, its JVM, the Python workers) gets SIGTERM, then SIGKILL 10 s later.
# FILE.meta records launch_ms, consuming_ms (launch until the Kafka source got its
# partitions), first_output_ms (launch until the first `ID> ` line) (-1: never) and the
# command. --ready-file F is touched once the job consumes, for a caller that must not
# produce before that; creating --stop-file S stops the job before the N seconds are up.
# --pid-file P gets the job's process group id, for a caller that must be able to stop the
# job even if this script is killed (kill -- -PGID).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=""; out=""; ready=""; stopfile=""; pidfile=""; anchor=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --ready-file) ready=$2; shift 2 ;;
    --stop-file) stopfile=$2; shift 2 ;;
    --pid-file) pidfile=$2; shift 2 ;;
    --anchor) anchor=yes; shift ;;
    --) shift; break ;;
    *) die "unknown option $1 (job options go after --)" ;;
  esac
done
[ -n "$seconds" ] && [ -n "$out" ] || die "usage: run_job.sh --seconds N --out FILE [--ready-file F] [--stop-file S] [-- job options]"
[ -x "$PY" ] || die "no venv at $VENV: run conformance/env.sh first"
[ -f "$CONNECTOR_JAR" ] || die "no connector jar at $CONNECTOR_JAR: run conformance/env.sh first"
bootstrap=${LABTUI_BOOTSTRAP:-$(cat "$BROKER_DIR/bootstrap" 2>/dev/null || echo "$BOOTSTRAP")}

mkdir -p "$(dirname "$out")"
: > "$out"; : > "$out.stderr"
# The mini-cluster's own log (Flink's log4j) goes to FILE.flink-log/, not to the venv's
# pyflink/log: the ready check below reads it, and must see this run's lines only.
flink_log_dir="$out.flink-log"
rm -rf "$flink_log_dir"; mkdir -p "$flink_log_dir"
export FLINK_LOG_DIR="$flink_log_dir"
# The Python workers the mini-cluster starts run `python` from PATH (python.executable):
# it must be the venv's, which has pyflink, as if the venv were activated.
export PATH="$VENV/bin:$PATH" VIRTUAL_ENV="$VENV"
if [ -n "$anchor" ]; then
  export ANCHOR_LOG="$flink_log_dir/flink.log" ANCHOR_JVM_ARGS=${JVM_ARGS:-}
  cmd=("$LAB_DIR/anchor/run.sh" --bootstrap "$bootstrap" "$@")
else
  cmd=("$PY" -u "$JOB_PY" --bootstrap "$bootstrap" --jars "file://$CONNECTOR_JAR" "$@")
fi
launch=$(now_ms)
setsid "${cmd[@]}" >"$out" 2>"$out.stderr" < /dev/null &
pid=$!   # setsid runs the job as the leader of a new process group: pgid = pid
[ -z "$pidfile" ] || echo "$pid" > "$pidfile"
log "job started (pid $pid), for ${seconds} s, output to $out"

stop_job() {
  # The group, not the leader: the JVM and the Python workers may outlive the python leader.
  kill -0 -- "-$pid" 2>/dev/null || return 0
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 -- "-$pid" 2>/dev/null || return 0; sleep 0.2; done
  log "job group $pid still alive 10 s after SIGTERM: SIGKILL"
  kill -KILL -- "-$pid" 2>/dev/null || true
}
trap stop_job EXIT INT TERM

first=-1; first_at=-1; ready_ms=-1
deadline=$(( launch + seconds * 1000 ))
while [ "$(now_ms)" -lt "$deadline" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then log "job exited early; see $out.stderr"; break; fi
  if [ -n "$stopfile" ] && [ -f "$stopfile" ]; then log "stop requested"; break; fi
  if [ "$first" -lt 0 ] && grep -qE '^[a-z-]+(:[0-9]+)?> ' "$out"; then
    first_at=$(now_ms); first=$(( first_at - launch )); log "first output after ${first} ms"
  fi
  # The enumerator hands the partitions to the source reader once every task runs.
  if [ "$ready_ms" -lt 0 ] && grep -qs "Assigning splits to readers" "$flink_log_dir"/*.log; then
    ready_ms=$(( $(now_ms) - launch )); log "job is consuming after ${ready_ms} ms"
    [ -z "$ready" ] || touch "$ready"
  fi
  sleep 0.2
done
stop_job
trap - EXIT INT TERM
[ -z "$pidfile" ] || rm -f "$pidfile"
cat > "$out.meta" <<META
launch_ms=$launch
first_output_ms=$first
first_output_at_ms=$first_at
consuming_ms=$ready_ms
bootstrap=$bootstrap
command=${cmd[*]}
META
log "job stopped; $(grep -cE '^[a-z-]+(:[0-9]+)?> ' "$out" || true) print lines in $out"
