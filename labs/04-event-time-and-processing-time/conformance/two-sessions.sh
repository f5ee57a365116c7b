#!/usr/bin/env bash
# two-sessions.sh LABTUI BOOTSTRAP REST OUT: two learners on one shared cluster at once.
#
# Two `labtui run --headless --backend remote` sessions, ana and bo, start together on the
# broker BOOTSTRAP and the Flink cluster whose REST API is REST (host:port), which the
# caller started (backend-cluster.sh step 2). Each has tenants of its own (ana-1, ana-2;
# bo-1, bo-2), holds one of its gateways with a hiccup, and at 70 s replays the seed burst
# (scenarios/seed-burst.jsonl) as the r key does, and runs 200 s in all: on an idle machine the
# job has read it 22-32 s after r, and a busy one has 130 s. Checked, per session:
#   - it exits 0, and its first r worked: "the job has read the whole recording", no error;
#   - it showed window results, and every result it showed is its own: a live tenant of the
#     other session never appears, and each request of the seed burst is traced exactly
#     once (the other session's replay of the same recording is not shown);
#   - no line of its results topic was another session's or job's (none "is not shown").
# Then the cluster is left with no job of either session running.
#
# Prints one check per line, "NAME CODE DETAIL" (CODE 0 passed), for the caller's check().
# Files in OUT. Bounded: each labtui is killed after 420 s; about 4 min on two busy cores.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"
# After lib.sh, whose BOOTSTRAP is the default broker's: the caller's broker is the one used.
LABTUI=$1 BOOTSTRAP=$2 REST=$3 OUT=$4
mkdir -p "$OUT"
SEED="$LAB_DIR/scenarios/seed-burst.jsonl"

session() {  # session NAME HICCUP
  LABTUI_STATE_DIR="$OUT/$1/state" timeout -s TERM 420 "$LABTUI" run --headless --backend remote \
    --brokers "$BOOTSTRAP" --flink "http://$REST" --cluster-cache "$LABTUI_CACHE" --cluster-run-dir "$OUT/$1/run" \
    --session "$1" --tenants "$1-1,$1-2" --hiccup "$2" --recording "$SEED" --replay-after 70s \
    --duration 200s --format jsonl --trace > "$OUT/$1/out.jsonl" 2> "$OUT/$1/err.txt" < /dev/null
  echo $? > "$OUT/$1/rc"
}
mkdir -p "$OUT/ana" "$OUT/bo"
t0=$(now_ms)
session ana gw-1@:40+20s &
A=$!
session bo gw-2@:10+20s &
B=$!
wait $A $B
log "two sessions ran at once in $(( ($(now_ms) - t0) / 1000 )) s"

for s in ana bo; do
  other=$([ $s = ana ] && echo bo || echo ana)
  python3 - "$s" "$other" "$OUT/$s" "$SEED" <<'PY'
import json, sys
me, other, d, seed = sys.argv[1:]
rc = open(f"{d}/rc").read().strip()
err = open(f"{d}/err.txt", encoding="utf-8", errors="replace").read()
print(f"{me}-exit", 0 if rc == "0" else 1, f"labtui --session {me} exits 0 (got {rc}; {d}/err.txt)")
bad = [l for l in err.splitlines() if l.startswith("# replay-after: ") and "replaying" not in l and "has read the whole" not in l]
read = "# replay-after: the job has read the whole recording" in err
# Not read by the end: what the replay did last says whether it was slow or stuck.
last = [l for l in err.splitlines() if "replay" in l or "savepoint" in l][-1:]
why = bad[0][:160] if bad else ("" if read else "not within the run's 130 s after r; its last word: " + (last[0][:200] if last else "none"))
print(f"{me}-first-r", 0 if read and not bad else 1,
      f"its first r replayed the seed burst and the job read it all{'; ' + why if why else ''}")
results = [json.loads(l) for l in open(f"{d}/out.jsonl", encoding="utf-8") if l.startswith("{")]
windows = [r for r in results if r["sink"] in ("processing-time", "event-time")]
mine = [r for r in windows if r["tenant_id"].startswith(me + "-")]
theirs = [r for r in results if r.get("tenant_id", "").startswith(other + "-")]
print(f"{me}-own-results", 0 if mine and not theirs else 1,
      f"{len(mine)} windows of its own tenants, {len(theirs)} results of {other}'s tenants (0 wanted)")
ids = {json.loads(l)["value"]["request_id"] for l in open(seed) if l.strip()}
traced = {}
for r in results:
    if r["sink"] == "trace" and r["request_id"] in ids:
        traced[r["request_id"]] = traced.get(r["request_id"], 0) + 1
once = sorted(traced.values()) == [1] * len(ids)
print(f"{me}-replay-once", 0 if once else 1,
      f"the seed burst's {len(ids)} requests traced {sum(traced.values())} times in all, each once wanted (the other session replayed it too)")
skipped = [l for l in err.splitlines() if "it is not shown" in l]
print(f"{me}-topic-own", 0 if not skipped else 1,
      f"{len(skipped)} lines of its results topic were another session's or job's{': ' + skipped[0][:160] if skipped else ''}")
PY
done
python3 - "$REST" <<'PY'
import json, sys, urllib.request
jobs = json.load(urllib.request.urlopen("http://" + sys.argv[1] + "/jobs/overview", timeout=5))["jobs"]
left = [j["name"] for j in jobs if j["name"] in ("gateway-meter-lab4-ana", "gateway-meter-lab4-bo") and j["state"] not in ("CANCELED", "FINISHED", "FAILED")]
print("sessions-jobs-cancelled", 0 if not left else 1, f"no job of either session runs afterwards{': ' + ', '.join(left) if left else ''}")
PY
