#!/usr/bin/env bash
# floor.sh: what a record costs PyFlink for each Python operator it passes, on the cluster
# cluster.sh started, reading a topic already filled (the recorded hour, say):
#
#   floor.sh --topic T --records N [--rounds R]
#
# Submits floor.py (cluster.sh submit) R times (default 2) in each of four shapes: the values
# through 1 and through 3 Python operators, and through the lab's parse_event and then 1 and 3
# more. Each job is timed from `flink run` to its `floor-done> N` line, and charged the CPU
# time (user + system, from /proc) of the TaskManager's JVM and of its Python workers over
# that span; then it is cancelled. The last lines give the cost of one more operator a record:
# the difference between 3 and 1, halved, over N.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

topic="" records="" rounds=2
while [ $# -gt 0 ]; do
  case "$1" in
    --topic) topic=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) die "unknown option $1 (floor.sh --topic T --records N [--rounds R])" ;;
  esac
done
[ -n "$topic" ] && [ -n "$records" ] || die "usage: floor.sh --topic T --records N [--rounds R]"

[ -f "$CLUSTER_DIR/taskmanager.jvm" ] || die "no cluster: cluster.sh start first"
tm=$(cat "$CLUSTER_DIR/taskmanager.jvm")
kill -0 "$tm" 2>/dev/null || die "the TaskManager (pid $tm) is not running"
tm_out=$(ls "$CLUSTER_DIR"/log/*taskexecutor*.out | head -1)
tick=$(getconf CLK_TCK)

# ticks PID: the user and system CPU time of PID, in clock ticks (0 once it is gone).
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
# workers: the CPU time of the TaskManager's child processes and theirs (the Python workers).
workers() {
  local sum=0 p q
  for p in $(pgrep -P "$tm" || true); do
    sum=$((sum + $(ticks "$p")))
    for q in $(pgrep -P "$p" || true); do sum=$((sum + $(ticks "$q"))); done
  done
  echo "$sum"
}

declare -A jvm_cpu py_cpu
run_one() { # run_one SHAPE ARGS...: one job; sets LAST_JVM, LAST_PY (s) and LAST_WALL (s)
  local shape=$1; shift
  local offset; offset=$(stat -c %s "$tm_out")
  local jvm0; jvm0=$(ticks "$tm")
  local t0; t0=$(now_ms)
  local client; client=$(mktemp)
  local job; job=$("$CONF_DIR/cluster.sh" submit "$client" "$CONF_DIR/floor.py" \
    --topic "$topic" --group-id "floor-$$-$RANDOM" --records "$records" "$@")
  rm -f "$client"
  local py=0 now
  until tail -c +"$((offset + 1))" "$tm_out" | grep -q "^floor-done> $records\$"; do
    now=$(workers); [ "$now" -gt "$py" ] && py=$now
    kill -0 "$tm" 2>/dev/null || die "the TaskManager stopped; see $CLUSTER_DIR/log"
    [ $(( $(now_ms) - t0 )) -lt 600000 ] || die "$shape: no floor-done line within 600 s"
    sleep 0.2
  done
  LAST_WALL=$(( $(now_ms) - t0 ))
  now=$(workers); [ "$now" -gt "$py" ] && py=$now
  LAST_JVM=$(( $(ticks "$tm") - jvm0 )); LAST_PY=$py
  "$CONF_DIR/cluster.sh" cancel "$job" >/dev/null 2>&1 || log "cancel of $job failed"
  while pgrep -P "$tm" >/dev/null; do # its Python workers gone
    kill -0 "$tm" 2>/dev/null || die "the TaskManager stopped; see $CLUSTER_DIR/log"
    sleep 0.2
  done
}

shapes=("strings-1:--trips 1" "strings-3:--trips 3" "parse-2:--parse --trips 2" "parse-4:--parse --trips 4")
for round in $(seq 1 "$rounds"); do
  for s in "${shapes[@]}"; do
    name=${s%%:*}
    # shellcheck disable=SC2086
    run_one "$name" ${s#*:}
    jvm_cpu[$name]="${jvm_cpu[$name]:-} $LAST_JVM"; py_cpu[$name]="${py_cpu[$name]:-} $LAST_PY"
    printf '%s round %d: %.1f s to the last record; CPU: TaskManager JVM %.2f s, Python workers %.2f s\n' \
      "$name" "$round" "$(echo "$LAST_WALL / 1000" | bc -l)" \
      "$(echo "$LAST_JVM / $tick" | bc -l)" "$(echo "$LAST_PY / $tick" | bc -l)"
  done
done

# median of the given tick counts
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
per_trip() { # per_trip ONE THREE: microseconds of CPU a record for each operator more
  local jvm py
  # shellcheck disable=SC2086
  jvm=$(echo "($(median ${jvm_cpu[$2]}) - $(median ${jvm_cpu[$1]})) / 2 / $tick / $records * 1000000" | bc -l)
  # shellcheck disable=SC2086
  py=$(echo "($(median ${py_cpu[$2]}) - $(median ${py_cpu[$1]})) / 2 / $tick / $records * 1000000" | bc -l)
  printf 'one more Python operator, %s: %.1f us of CPU a record (JVM %.1f, Python %.1f)\n' \
    "$3" "$(echo "$jvm + $py" | bc -l)" "$jvm" "$py"
}
per_trip strings-1 strings-3 "a string"
per_trip parse-2 parse-4 "an Event row"
