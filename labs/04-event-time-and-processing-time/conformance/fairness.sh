#!/usr/bin/env bash
# fairness.sh: how unevenly a consumer at full speed reads the three partitions of the
# recorded hour from a real Kafka 4.1.1 broker, and how many records that makes late under
# for_monotonous_timestamps after the source, with
#   1. the embedded lab's job consumer (franz-go, its fetch sizes), beside kfake, read
#      while the hour is produced (as a replay reads it) and after: the Go test
#      TestRealKafkaReadsTheHourAsKfakeDoes (internal/backend/embedded/fairness_test.go) prints each
#      run's largest lead and late counts;
#   2. real Flink: the anchor's KafkaSource (the Kafka consumer's defaults), --watermarks
#      stream, on a topic the hour was produced into as a replay produces it; late> lines
#      counted.
# Run it under `flock /work/flink.lock` on a shared machine. It starts the broker and stops
# it; RUNS (default 2) runs of each Flink mode.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
eval "$("$HERE/env.sh")"
. "$HERE/lib.sh"
RUNS=${RUNS:-2}
out="$LABTUI_CACHE/runs/fairness-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
trap '"$HERE/broker.sh" stop' EXIT
"$HERE/broker.sh" start >/dev/null
boot=$("$HERE/broker.sh" status)
(cd "$REPO_DIR" && go test -c -o "$out/embedded.test" ./internal/backend/embedded/)
(cd "$REPO_DIR/backend/embedded" && LABTUI_REAL_KAFKA=$boot "$out/embedded.test" \
  -test.run '^TestRealKafkaReadsTheHourAsKfakeDoes$' -test.v -test.timeout 20m) | tee "$out/franz-go.txt" >&2

produce() {  # $1 topic
  (cd "$REPO_DIR/backend/embedded" && LABTUI_REAL_KAFKA=$boot LABTUI_FAIRNESS_TOPIC=$1 \
    "$out/embedded.test" -test.run '^TestProduceTheHourForFlink$' -test.v) > "$out/$1.produce" 2>&1
}

# flink MODE N: MODE after (the hour produced, then read) or while (read as produced).
flink() {
  local topic="fairness-$1-$2" dir="$out/flink-$1-$2"
  mkdir -p "$dir"
  "$HERE/broker.sh" topic "$topic" 3
  [ "$1" = after ] && produce "$topic"
  ANCHOR_LOG=$dir/flink.log setsid "$LAB_DIR/anchor/run.sh" --bootstrap "$boot" --topic "$topic" \
    --group-id "fairness-$1-$2" --watermarks stream --no-trace > "$dir/job.out" 2> "$dir/job.err" &
  local pid=$!
  until grep -qs 'Assigning splits to readers' "$dir/flink.log"; do
    kill -0 "$pid" 2>/dev/null || { cat "$dir/job.err" >&2; die "the anchor exited"; }
    sleep 0.2
  done
  [ "$1" = while ] && produce "$topic"
  # The job never ends: it has read the hour once its output has not grown for 10 s.
  local size=-1 still=0
  while [ "$still" -lt 10 ]; do
    sleep 1
    local now; now=$(wc -c < "$dir/job.out")
    if [ "$now" = "$size" ]; then still=$((still + 1)); else still=0; size=$now; fi
  done
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  local late; late=$(grep -c '^late>' "$dir/job.out" || true)
  echo "real Flink (anchor KafkaSource), read $1 produced, run $2: late $late" | tee -a "$out/flink.txt" >&2
}
for n in $(seq 1 "$RUNS"); do flink after "$n"; flink while "$n"; done
log "figures in $out (franz-go.txt, flink.txt)"
