#!/usr/bin/env bash
# e2e.sh: the whole conformance run, from a clean checkout.
#
#   e2e.sh [--pace live|burst] [--out-dir DIR] [--expect live|burst|none] [-- job options]
#
#  1. env.sh: venv with apache-flink, connector jar, Kafka broker jars (cached after the 1st run)
#  2. broker.sh start: a fresh KRaft broker on 127.0.0.1, topic gateway-events (3 partitions)
#  3. run_job.sh: gateway_meter.py on PyFlink's local mini-cluster, stdout to DIR/job.out
#  4. once the job consumes: produce_seed.py, the course's retry burst (live: paced by the
#     wall clock over about two minutes; burst: all at once, timestamps in the past)
#  5. the job runs on until the processing-time window holding the last value has fired
#     (end of its wall-clock minute, + 4 s), then is stopped, and so is the broker
#  6. check_output.py: the print lines parse, and agree with each other and with the course
#
# A broker that is already running (broker.sh start by hand) is reused and left running;
# the job then reads from the latest offsets, so old values do not count. --expect defaults
# to the pace when no job options are given (the scenario table assumes the defaults), else
# to none. Default out dir: $LABTUI_CACHE/runs/<time>-<pace>.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"

pace=live; outdir=""; expect=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pace) pace=$2; shift 2 ;;
    --out-dir) outdir=$2; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    --) shift; break ;;
    *) die "unknown option $1 (job options go after --)" ;;
  esac
done
job_opts=("$@")
[ -n "$expect" ] || { [ ${#job_opts[@]} -eq 0 ] && expect=$pace || expect=none; }

eval "$("$HERE/env.sh")"
outdir=${outdir:-"$LABTUI_CACHE/runs/$(date +%Y%m%d-%H%M%S)-$pace"}
mkdir -p "$outdir"

started_broker=no
if "$HERE/broker.sh" status >/dev/null 2>&1; then
  log "reusing the running broker; the job reads from the latest offsets"
  job_opts=(--starting-offsets latest "${job_opts[@]}")
else
  "$HERE/broker.sh" start >/dev/null
  started_broker=yes
fi
bootstrap=$(cat "$BROKER_DIR/bootstrap")
job_pid=""
cleanup() {
  [ -z "$job_pid" ] || { touch "$outdir/stop"; wait "$job_pid" 2>/dev/null || true; }
  [ "$started_broker" = no ] || "$HERE/broker.sh" stop
}
trap cleanup EXIT INT TERM

rm -f "$outdir/ready" "$outdir/stop"
LABTUI_BOOTSTRAP=$bootstrap "$HERE/run_job.sh" --seconds 900 --out "$outdir/job.out" \
  --ready-file "$outdir/ready" --stop-file "$outdir/stop" -- --group-id "e2e-$$" "${job_opts[@]}" &
job_pid=$!
for _ in $(seq 1 900); do
  [ -f "$outdir/ready" ] && break
  kill -0 "$job_pid" 2>/dev/null || die "the job ended before it consumed; see $outdir/job.out.stderr"
  sleep 0.2
done
[ -f "$outdir/ready" ] || die "the job did not start consuming within 180 s"
[ "$pace" = live ] || sleep 2   # let the reader settle on its start offsets

python3 "$HERE/produce_seed.py" --bootstrap "$bootstrap" --kafka-cp "$LABTUI_KAFKA_CP" \
  --pace "$pace" --schedule-out "$outdir/schedule.jsonl"

# Wait for the processing-time window that holds the last value to fire. The value reaches
# the window operator up to ~5 s after it was sent (four Python operators, each holding
# records for up to a 1 s bundle), so allow 10 s before picking its wall-clock minute.
last_sent=$(tail -1 "$outdir/schedule.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sent_ms"])')
stop_at=$(( ((last_sent + 10000) / 60000 + 1) * 60000 + 4000 ))
log "letting the job run until $(date -d @$(( stop_at / 1000 )) +%H:%M:%S)"
while [ "$(now_ms)" -lt "$stop_at" ]; do
  kill -0 "$job_pid" 2>/dev/null || break
  sleep 0.5
done
touch "$outdir/stop"
wait "$job_pid" || true
job_pid=""
cat "$outdir/job.out.meta" >&2
first_sent=$(head -1 "$outdir/schedule.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sent_ms"])')
first_at=$(sed -n 's/^first_output_at_ms=//p' "$outdir/job.out.meta")
consuming=$(sed -n 's/^consuming_ms=//p' "$outdir/job.out.meta")
[ "$first_at" -lt 0 ] || log "job launch to consuming: ${consuming} ms; first value sent to first print line: $(( first_at - first_sent )) ms"

set +e
python3 "$HERE/check_output.py" "$outdir/job.out" --schedule "$outdir/schedule.jsonl" \
  --expect "$expect" | tee "$outdir/check.txt"
rc=${PIPESTATUS[0]}
set -e
log "output, schedule and check in $outdir"
exit "$rc"
