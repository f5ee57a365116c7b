#!/usr/bin/env bash
# perf.sh: the performance anchor. The same recordings through `labtui replay --pace fast`
# (the embedded engine) and through the anchor (the same job in Java on Flink 2.2.1,
# anchor/run.sh --file), events/s of each, and a check that their event-time results are
# equal (compare_results.py). From a clean checkout:
#
#   anchor/perf.sh [--ten-hours] [--passes N] [--out FILE]
#
#   the recorded hour   ../data/recorded-hour.jsonl.gz (143,400 records), always
#   --ten-hours         also 10 hours made by `labtui record --simulate` (1.44 M records, plain
#                       JSONL, 390 MB, written to $LABTUI_CACHE/anchor/ and removed after)
#   --passes N          passes of the anchor in one JVM (default 3): the first is cold, the best
#                       of the others is "warm" (JIT settled); each pass is a fresh MiniCluster
#   --out FILE          also append the result lines to FILE
#
# Both sides run the job with --out-of-orderness 40s: the recordings' largest lateness is
# 34.9 s, so no record is late and no half is forgotten whenever the wall-clock watermark
# ticks fall, and the results are deterministic on both sides (compare_results.py's header).
# Per recording it prints one line: labtui's replay rate (best of 3 runs; Go has no JIT to
# warm) and its whole process, the anchor's warm rate (first value to last result of a pass),
# its first pass, and its whole process for one pass (the JVM's wall time less the later
# passes); then whether the event-time results are equal. Exits 1 on a difference or a
# failure. labtui is $LABTUI_BIN, else built with go build. Uses 1 core of the machine's 2 for
# the anchor (parallelism 1) and prints the load average beside the figures.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../conformance/lib.sh"

ten=no; passes=3; out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --ten-hours) ten=yes; shift ;;
    --passes) passes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done
[[ "$passes" =~ ^[1-9][0-9]*$ ]] || die "--passes must be a whole number of at least 1, not \"$passes\""

WORK="$LABTUI_CACHE/anchor/perf-$$"
mkdir -p "$WORK"
TEN="$WORK/ten-hours.jsonl"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "${LABTUI_BIN:-}" ]; then
  LABTUI=$LABTUI_BIN
else
  LABTUI="$WORK/labtui"
  (cd "$REPO_DIR" && go build -o "$LABTUI" .) || die "go build failed"
fi
"$HERE/build.sh"

JOB=(--out-of-orderness 40s)
say() { echo "$*"; [ -z "$out" ] || echo "$*" >> "$out"; }
ms_of() {  # a Go duration as printed (256ms, 1.2s, 850µs) in whole ms
  python3 -c '
import re, sys
m = re.fullmatch(r"([0-9.]+)(ms|s|µs|m)", sys.argv[1])
print(round(float(m[1]) * {"ms": 1, "s": 1000, "µs": 0.001, "m": 60000}[m[2]]))' "$1"
}

failed=0
measure() {  # NAME FILE
  local name=$1 file=$2 dir="$WORK/$1" best="" whole="" e_ms n_rec t0 dt line
  mkdir -p "$dir"
  for _ in 1 2 3; do
    t0=$(now_ms)
    "$LABTUI" replay --pace fast --drain --format jsonl "${JOB[@]}" "$file" > "$dir/labtui.jsonl" 2> "$dir/labtui.log" \
      || { say "FAIL $name: labtui replay failed: $(tail -1 "$dir/labtui.log")"; failed=1; return; }
    dt=$(( $(now_ms) - t0 ))
    line=$(grep -E '^replayed [0-9]+ records' "$dir/labtui.log" | tail -1)
    n_rec=$(sed -E 's/^replayed ([0-9]+) records.*/\1/' <<< "$line")
    e_ms=$(ms_of "$(sed -E 's/.* in ([0-9.]+(ms|s|µs|m)):.*/\1/' <<< "$line")")
    if [ -z "$best" ] || [ "$e_ms" -lt "$best" ]; then best=$e_ms; fi
    if [ -z "$whole" ] || [ "$dt" -lt "$whole" ]; then whole=$dt; fi
  done
  t0=$(now_ms)
  ANCHOR_LOG="$dir/flink.log" "$HERE/run.sh" --file "$file" --no-trace "${JOB[@]}" --repeat "$passes" \
    > "$dir/anchor.out" 2> "$dir/anchor.err" \
    || { say "FAIL $name: the anchor failed: $(grep -v '^\[' "$dir/anchor.err" | tail -2 | tr '\n' ' ')"; failed=1; return; }
  dt=$(( $(now_ms) - t0 ))
  # anchor: run K of N: V values, R requests assembled, X results; first value to last result S s (E values/s); execute() T s
  read -r a_first a_warm a_whole < <(python3 - "$dir/anchor.err" "$dt" <<'PY'
import re, sys
runs = [(int(m[1]), float(m[2]), int(m[3]), float(m[4])) for m in
        re.finditer(r"anchor: run (\d+) of \d+: .*? first value to last result ([0-9.]+) s \((\d+) values/s\); execute\(\) ([0-9.]+) s", open(sys.argv[1]).read())]
later = runs[1:]
warm = max((r[2] for r in later), default=runs[0][2])
whole = int(sys.argv[2]) - round(sum(r[3] for r in later) * 1000)
print(runs[0][2], warm, whole)
PY
)
  local cmp
  cmp=$(python3 "$HERE/compare_results.py" --labtui "$dir/labtui.jsonl" --anchor "$dir/anchor.out") || failed=1
  say "$name ($n_rec records): labtui replay --pace fast $(( n_rec * 1000 / (best > 0 ? best : 1) )) events/s (${best} ms), whole process ${whole} ms;" \
      "Flink Java anchor (parallelism 1) warm ${a_warm} events/s, first pass ${a_first}, whole process for one pass ${a_whole} ms;" \
      "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  say "  $cmp"
  rm -f "$dir/labtui.jsonl"
}

measure "recorded hour, .jsonl.gz" "$LAB_DIR/data/recorded-hour.jsonl.gz"
if [ "$ten" = yes ]; then
  "$LABTUI" record --simulate --seed 10 --start 2026-11-29T00:00:00Z --duration 10h \
    --hiccup gw-1@2h20m40s+35s --hiccup gw-2@6h45m40s+35s --out "$TEN" > "$WORK/record.log" 2>&1 \
    || die "labtui record --simulate failed: $(tail -1 "$WORK/record.log")"
  measure "10 hours, .jsonl" "$TEN"
fi
[ "$failed" -eq 0 ]
