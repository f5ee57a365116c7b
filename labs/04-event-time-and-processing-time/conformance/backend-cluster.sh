#!/usr/bin/env bash
# backend-cluster.sh: labtui's own real lab, checked end to end on real Kafka and Flink:
#
#   1. `labtui run --headless --backend cluster` (labtui starts a KRaft broker, a Flink
#      JobManager and TaskManager as its own processes, from the install env.sh made) with
#      the course's hiccup across a minute (--hiccup gw-1@:40+35s), the generator on for
#      300 s (so at least two quiet minutes after the hold close in both windows, however
#      the start falls in a minute: a stall of the job in one of them, which 4.1 rightly
#      leaves out, still leaves one), then the x key at 360 s (--kill-after: its TaskManager killed
#      with SIGKILL and a new one started), once the processing-time window of the
#      generator's last minute fired. It records the topic as labtui's own consumer reads
#      it (--record). Then `labtui export` of the run's saved state: the sheet's 4.2 is
#      met, its late records name gw-1, and 4.1 counts a minute after the hold.
#      Checked: the two windows disagree for a minute, late records appear, and records
#      reach labtui a median of under a second after their completed_ts (run 1); the
#      job is restarted and its new TaskManager traces every request of run 1 again (it
#      re-read the topic from the earliest offsets with empty state); nothing labtui
#      started is left running and its ports are free; and run 1's print lines agree with
#      `labtui replay --pace recorded` of the recording it made, by compare.py with the
#      scenarios' latency margin (measured from the trace's seen_at, at least 15 s).
#   1b. a second `--backend cluster` run: once its job's Python worker runs, every listener
#      of the run (ss -ltnp) is on loopback; after a kill -9 of labtui, no process of it is
#      left within 10 s (the watchdog, internal/localcluster/watchdog.go). About 2 min.
#   2. `labtui run --headless --backend remote` on a broker and a Flink cluster this script
#      starts (broker.sh, cluster.sh): results read from the session's results topic, the
#      kill refused with a sentence, and the cluster still running afterwards (labtui stops
#      only its own job).
#   2b. two sessions at once on that one cluster (two-sessions.sh): each sees only its own
#      results, and each first r works; then the cluster is stopped here. About 4 min.
#   3. The backend contract (internal/backend/backendtest) on the cluster lab, by `go test
#      ./internal/backend/clusterplatform` with LABTUI_REAL_CLUSTER: late records with their gateway, a
#      replay complete once the job has read it all, read positions per partition.
#   4. labtui's copy of flink-python's jar (compose/flink/pythonjar) against the
#      wheel's, by `go test ./internal/localcluster` with LABTUI_REAL_CLUSTER: a cancelled
#      task's double release no longer throws.
#
# One line per check, then `N passed, N failed` (exit 1 on a failure). Files in
# $LABTUI_CACHE/runs/<time>-backend-cluster/. LABTUI_BIN uses a built labtui. About 14 min.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"

eval "$("$HERE/env.sh")"
RUN_DIR="$LABTUI_CACHE/runs/$(date +%Y%m%d-%H%M%S)-backend-cluster"
mkdir -p "$RUN_DIR"
# A headless run saves its lab evidence: here, not in the user's state folder.
export LABTUI_STATE_DIR="$RUN_DIR/state"
if [ -n "${LABTUI_BIN:-}" ]; then
  LABTUI=$LABTUI_BIN
else
  LABTUI="$RUN_DIR/labtui"
  (cd "$REPO_DIR" && go build -o "$LABTUI" .) || die "go build failed"
fi
PASS=0; FAIL=0
check() {  # check NAME CONDITION-EXIT-CODE DETAIL
  if [ "$2" = 0 ]; then PASS=$((PASS + 1)); log "PASS $1: $3"; else FAIL=$((FAIL + 1)); log "FAIL $1: $3"; fi
}
# left DIR: processes whose command line or environment names DIR (none may be left).
left() {
  python3 - "$1" <<'PY'
import os, sys
d = sys.argv[1].encode()
n = 0
for p in os.listdir("/proc"):
    if not p.isdigit() or int(p) == os.getpid():
        continue
    try:
        cmd = open(f"/proc/{p}/cmdline", "rb").read()
        env = open(f"/proc/{p}/environ", "rb").read()
    except OSError:
        continue
    if d in cmd or d in env:
        print(p, cmd.replace(b"\0", b" ")[:120].decode(errors="replace")); n += 1
sys.exit(1 if n else 0)
PY
}

# ---------------------------------------------------------------------------------------------
# 1. --backend cluster
C="$RUN_DIR/cluster"
mkdir -p "$C"
log "labtui run --headless --backend cluster: about 8 min"
t0=$(now_ms)
set +e
"$LABTUI" run --headless --backend cluster --cluster-cache "$LABTUI_CACHE" --cluster-run-dir "$C/run" \
  --record "$C/recording.jsonl" --hiccup gw-1@:40+35s --generate-for 300s --kill-after 360s --duration 440s \
  > "$C/out.txt" 2> "$C/err.txt" < /dev/null
rc=$?
set -e
log "labtui exited $rc after $(( ($(now_ms) - t0) / 1000 )) s"
check cluster-exit "$([ $rc = 0 ]; echo $?)" "labtui run --headless --backend cluster exits 0 (got $rc; $C/err.txt)"
sleep 1
leftover=$(left "$C/run" || true)
check cluster-nothing-left "$([ -z "$leftover" ]; echo $?)" "no process of the run is left${leftover:+: $leftover}"
ports=$(sed -n 's/.*Kafka on 127.0.0.1:\([0-9]*\) .*REST API and web UI on http:\/\/127.0.0.1:\([0-9]*\) .*/\1 \2/p' "$C/err.txt" | head -1)
busy=""
# Free: a new listener can take it (SO_REUSEADDR, as every server sets it, so the closed
# connections' TIME_WAIT left on the port do not count).
for p in $ports; do
  python3 -c 'import socket,sys; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()' "$p" 2>/dev/null || busy="$busy $p"
done
check cluster-ports-free "$([ -n "$ports" ] && [ -z "$busy" ]; echo $?)" "ports ${ports:-?} are free after the run${busy:+ (taken:$busy)}"

TM1=$(ls "$C"/run/flink/log/taskmanager-1/*.out 2>/dev/null | head -1)
TM2=$(ls "$C"/run/flink/log/taskmanager-2/*.out 2>/dev/null | head -1)
python3 - "$TM1" "${TM2:-/nonexistent}" "$C/err.txt" "$C/out.txt" > "$C/checks.txt" <<'PY' || true
import json, re, sys
from collections import defaultdict
def read(path):
    out = defaultdict(list)
    try:
        for line in open(path, encoding="utf-8", errors="replace"):
            m = re.match(r"^([a-z-]+)(?::\d+)?> (\{.*\})", line)
            if m:
                out[m[1]].append(json.loads(m[2]))
    except OSError:
        pass
    return out
r1, r2 = read(sys.argv[1]), read(sys.argv[2])
err = open(sys.argv[3], encoding="utf-8", errors="replace").read()
pt = {(w["tenant_id"], w["window_start"]): w for w in r1["processing-time"]}
et = {(w["tenant_id"], w["window_start"]): w for w in r1["event-time"]}
differ = sorted(k for k in pt.keys() & et.keys() if pt[k]["usd"] != et[k]["usd"] or pt[k]["requests"] != et[k]["requests"])
print("disagree", 0 if differ else 1, f"{len(differ)} (tenant, minute) windows differ between processing and event time in run 1, of {len(pt.keys() & et.keys())} both fired")
# Promptness: labtui stamps each trace line with when it read it (arrival); run 1's trace
# of a request is its first (run 2 re-reads the topic). The median, not the held records.
first = {}
for line in open(sys.argv[4], encoding="utf-8", errors="replace"):
    if line.startswith("trace> "):
        t = json.loads(line[len("trace> "):].split("  # ")[0])
        first.setdefault(t["request_id"], t["arrival"] - t["timestamp"])
lat = sorted(first.values())
med = lat[len(lat) // 2] if lat else None
print("prompt", 0 if med is not None and med < 1000 else 1,
      f"run 1's records reached labtui a median {med} ms after their completed_ts (p90 {lat[len(lat) * 9 // 10] if lat else None} ms; under 1000 wanted; load average {' '.join(f'{x:.1f}' for x in __import__('os').getloadavg())})")
print("late", 0 if r1["late"] else 1, f"{len(r1['late'])} late records in run 1 under for_monotonous_timestamps()")
restarted = "# run 2 begins (kill): TaskManager killed" in err
print("restart", 0 if restarted and sys.argv[2] != "/nonexistent" else 1, "the x key killed the TaskManager and a new one ran the job (run 2 begins (kill))")
ids1 = {t["request_id"] for t in r1["trace"]}
ids2 = {t["request_id"] for t in r2["trace"]}
print("recovered", 0 if ids1 and ids1 <= ids2 else 1, f"run 2 re-read the topic from the earliest offsets: it traced {len(ids1 & ids2)} of run 1's {len(ids1)} requests again")
PY
while read -r name code detail; do check "cluster-$name" "$code" "$detail"; done < "$C/checks.txt"

# The sheet of the headless run, as a learner hands it in.
mkdir -p "$C/export"
set +e
"$LABTUI" export --export-dir "$C/export" > "$C/export.log" 2>&1
python3 - "$C/export/lab-04-answers.json" > "$C/sheet.txt" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ex = {e["id"]: e for e in doc["exercises"]}
f42 = (ex.get("4.2") or {}).get("finding") or {}
h = ((ex.get("4.2") or {}).get("evidence") or {}).get("hiccup") or {}
late = h.get("late") or []
gws = sorted({x.get("gateway") for x in late})
bad = []
if not f42.get("met"):
    bad.append("4.2 is not met")
if not late or gws != ["gw-1"]:
    bad.append(f"4.2's late records name {gws or 'nothing'}, not gw-1 alone")
a = ((ex.get("4.1") or {}).get("finding") or {}).get("agreement") or {}
after = (h.get("at", 0) + h.get("duration_ms", 0)) // 60000 * 60000 + 60000
quiet = [m for m in a.get("minutes", []) if m >= after]
if not h or not quiet:
    bad.append(f"4.1 counts no minute after the hold (minutes {a.get('minutes')}, the first after it {after})")
print("; ".join(bad) if bad else f"4.2 met, its {h.get('late_count', len(late))} late records all from gw-1; "
      f"4.1 counts {len(quiet)} quiet minute(s) after the hold, both windows agreeing")
sys.exit(1 if bad else 0)
PY
rc=$?
set -e
# On a failure, what the run said of 4.1 at its end (its minutes, and why any was left out).
why41=""
[ "$rc" = 0 ] || why41=" (the run's last word on it: $(grep -m1 '^# 4\.1 ' "$C/err.txt" | cut -c3-))"
check cluster-sheet "$rc" "the headless run's sheet: $(tail -1 "$C/sheet.txt")$why41"

"$LABTUI" replay --pace recorded --format jsonl --trace "$C/recording.jsonl" > "$C/reference.jsonl" 2> "$C/reference.log" || true
set +e
python3 "$HERE/compare.py" check --name backend-cluster --shifted "$C/recording.jsonl" --reference "$C/reference.jsonl" \
  --flink "$TM1" --latency-ms 15000 --report "$C/report.txt" > "$C/result" 2> "$C/compare.err"
rc=$?
set -e
check cluster-agrees-with-replay "$rc" "$(head -1 "$C/result" 2>/dev/null || tail -1 "$C/compare.err")"

# ---------------------------------------------------------------------------------------------
# 1b. Loopback and kill -9: a second --backend cluster run, once its job's Python worker
# runs (the TaskManager's grandchild), must listen on loopback only (ss -ltnp), and after a
# kill -9 of labtui no process of it may be left within 10 s. About 2 min.
K="$RUN_DIR/kill9"
mkdir -p "$K"
log "labtui run --headless --backend cluster, killed with SIGKILL once its Python worker runs"
"$LABTUI" run --headless --backend cluster --cluster-cache "$LABTUI_CACHE" --cluster-run-dir "$K/run" \
  --duration 600s > "$K/out.txt" 2> "$K/err.txt" < /dev/null &
LPID=$!
t0=$(now_ms)
# The Python worker names the run folder in its environment (FLINK_CONF_DIR), as every
# process of the run does.
worker=""
while [ -z "$worker" ] && [ $(( $(now_ms) - t0 )) -lt 300000 ] && kill -0 $LPID 2>/dev/null; do
  sleep 2
  worker=$(left "$K/run" | grep -m1 'beam_boot' || true)
done
log "Python worker after $(( ($(now_ms) - t0) / 1000 )) s: ${worker:-none}"
check kill9-python-worker "$([ -n "$worker" ]; echo $?)" "the job's Python worker runs (${worker:-none within 5 min; $K/err.txt})"
ss -ltnpH > "$K/ss.txt"
python3 - "$K/run" "$K/ss.txt" > "$K/listeners.txt" <<'PY'
import os, re, sys
d = sys.argv[1].encode()
pids = set()
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            if d in open(f"/proc/{p}/cmdline", "rb").read() or d in open(f"/proc/{p}/environ", "rb").read():
                pids.add(int(p))
        except OSError:
            pass
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 6:
        continue
    owners = {int(m) for m in re.findall(r"pid=(\d+)", line)}
    if owners & pids:
        host = f[3].rsplit(":", 1)[0].strip("[]")
        print("loopback" if host in ("127.0.0.1", "::ffff:127.0.0.1", "::1") else "BEYOND", f[3], f[5])
PY
n=$(grep -c '' "$K/listeners.txt" || true)
beyond=$(grep '^BEYOND' "$K/listeners.txt" | tr '\n' ' ' || true)
check kill9-loopback "$([ "${n:-0}" -gt 0 ] && [ -z "$beyond" ]; echo $?)" "ss -ltnp: the run's ${n:-0} listeners are all on loopback${beyond:+; beyond: $beyond}"
kids=$(ps -o pid= --ppid $LPID | tr -d ' ' | tr '\n' ' ')
kill -KILL $LPID
t0=$(now_ms)
wait $LPID 2>/dev/null || true
leftover=x
while [ -n "$leftover" ] && [ $(( $(now_ms) - t0 )) -lt 10000 ]; do
  leftover=$(left "$K/run" || true)
  for k in $kids; do [ -d /proc/$k ] && leftover="$leftover $k:$(tr '\0' ' ' < /proc/$k/cmdline | cut -c1-60)"; done
  [ -n "$leftover" ] && sleep 0.2
done
log "after kill -9: ${leftover:-nothing} left after $(( $(now_ms) - t0 )) ms"
check kill9-nothing-left "$([ -z "$leftover" ]; echo $?)" "10 s after kill -9 of labtui no process of its run is left${leftover:+: $leftover}"
# Whatever the check found, nothing of this run stays for the next steps.
for p in $(left "$K/run" | awk '{print $1}'); do kill -KILL "$p" 2>/dev/null || true; done
# A killed run leaves its temporary files (144 MB); labtui removes them only in the cache's
# own runs/ folders, and this run's folder is the script's.
tmp_mb=$(du -sm "$K/run/tmp" 2>/dev/null | cut -f1)
log "the killed run left ${tmp_mb:-0} MB of temporary files in $K/run/tmp: removed"
rm -rf "$K/run/tmp"

# ---------------------------------------------------------------------------------------------
# 2. --backend remote, on a broker and a cluster started here.
R="$RUN_DIR/remote"
mkdir -p "$R"
export LABTUI_BROKER_DIR="$R/broker"
log "a broker and a Flink cluster for --backend remote (broker.sh, cluster.sh)"
"$HERE/broker.sh" start > "$R/bootstrap" 2> "$R/broker.log" || die "broker.sh start failed: $(tail -1 "$R/broker.log")"
stop_remote() { "$HERE/cluster.sh" stop >/dev/null 2>&1 || true; "$HERE/broker.sh" stop >/dev/null 2>&1 || true; }
trap stop_remote EXIT
"$HERE/cluster.sh" start 2> "$R/cluster.log" || die "cluster.sh start failed: $(tail -1 "$R/cluster.log")"
REST=$(cat "$LABTUI_CACHE/cluster/rest")
log "labtui run --headless --backend remote --brokers $(cat "$R/bootstrap") --flink http://$REST: about 2.5 min"
set +e
"$LABTUI" run --headless --backend remote --brokers "$(cat "$R/bootstrap")" --flink "http://$REST" \
  --cluster-cache "$LABTUI_CACHE" --hiccup gw-1@:40+35s --kill-after 100s --duration 140s \
  > "$R/out.txt" 2> "$R/err.txt" < /dev/null
rc=$?
set -e
check remote-exit "$([ $rc = 0 ]; echo $?)" "labtui run --headless --backend remote exits 0 (got $rc; $R/err.txt)"
n=$(grep -cE '^(processing-time|event-time)> ' "$R/out.txt" || true)
check remote-results "$([ "${n:-0}" -gt 0 ]; echo $?)" "$n window results read from the session's results topic"
grep -q "kill-after: kill the taskmanager: labtui did not start this cluster's TaskManager" "$R/err.txt"
check remote-refuses-kill $? "the x key on a cluster labtui did not start is refused with a sentence"
# Under set -e a failing check must not end the script before it is reported. A TaskManager
# whose JVM runs but that the JobManager does not list lost its heartbeat (50 s by default)
# on a loaded machine and registers again by itself: that is waited for, up to 90 s, and
# said. One whose JVM is gone failed the check, with the last problems its log names.
tm_pid=$(cat "$LABTUI_CACHE/cluster/taskmanager.jvm" 2>/dev/null || true)
tm_alive() { [ -n "$tm_pid" ] && kill -0 "$tm_pid" 2>/dev/null; }
overview_now() { python3 -c 'import json,sys,urllib.request; o=json.load(urllib.request.urlopen("http://"+sys.argv[1]+"/overview", timeout=5)); print(json.dumps(o)); sys.exit(0 if o["taskmanagers"] == 1 and o["jobs-running"] == 0 else 1)' "$REST" 2>&1; }
overview=$(overview_now) && left=0 || left=$?
tm_said=""
t0=$(now_ms)
if [ "$left" != 0 ] && tm_alive; then
  while [ "$left" != 0 ] && tm_alive && [ $(( $(now_ms) - t0 )) -lt 90000 ]; do
    sleep 2
    overview=$(overview_now) && left=0 || left=$?
  done
  tm_said="; waited $(( ($(now_ms) - t0) / 1000 )) s for the TaskManager to register again"
fi
if [ "$left" != 0 ]; then
  cp -r "$LABTUI_CACHE/cluster/log" "$R/flink-log" 2>/dev/null || true
  tm_alive || tm_said="$tm_said; the TaskManager's JVM (pid ${tm_pid:-unknown}) is gone: $(grep -hE ' (ERROR|WARN) |Fatal|OutOfMemory|Killed' "$LABTUI_CACHE"/cluster/log/*taskexecutor*.log "$LABTUI_CACHE"/cluster/log/*taskexecutor*.out 2>/dev/null | tail -3 | cut -c1-300 | tr '\n' '|' || true)"
fi
check remote-left-running "$left" "the cluster still runs with its TaskManager after labtui quit, and labtui's job is cancelled (overview: $overview$tm_said)"

# 2b. Two sessions, ana and bo, at once on this one cluster: each sees only its own results
#     and each first r works (two-sessions.sh says what it checks). Bounded: each labtui is
#     killed after 420 s; about 4 min.
two_sessions() {
  log "two sessions at once on the remote cluster (two-sessions.sh): about 4 min"
  local t0; t0=$(now_ms)
  "$HERE/two-sessions.sh" "$LABTUI" "$(cat "$R/bootstrap")" "$REST" "$RUN_DIR/sessions" > "$RUN_DIR/sessions.txt" 2> "$RUN_DIR/sessions.log"
  while read -r name code detail; do check "sessions-$name" "$code" "$detail"; done < "$RUN_DIR/sessions.txt"
  log "two sessions checked in $(( ($(now_ms) - t0) / 1000 )) s"
}
two_sessions
stop_remote
trap - EXIT

# ---------------------------------------------------------------------------------------------
# 3. The backend contract (internal/backend/backendtest) on the cluster lab: a TaskManager killed,
#    the strategy changed, the seed burst replayed and complete only once the job has read
#    it, with the job's read positions per partition. About 3 min.
log "the backend contract on --backend cluster (go test ./internal/backend/clusterplatform): about 3 min"
t0=$(now_ms)
set +e
(cd "$REPO_DIR" && LABTUI_REAL_CLUSTER="$LABTUI_CACHE" go test -count=1 -timeout 15m -run TestTheClusterLabKeepsTheBackendContract -v ./internal/backend/clusterplatform) \
  > "$RUN_DIR/contract.txt" 2>&1
rc=$?
set -e
check cluster-contract "$([ $rc = 0 ]; echo $?)" "the cluster lab keeps the backend contract in $(( ($(now_ms) - t0) / 1000 )) s ($RUN_DIR/contract.txt)"

# ---------------------------------------------------------------------------------------------
# 4. labtui's copy of flink-python's jar: its PythonSharedResources survives Beam's double
#    release on a cancellation where flink-python's throws (and so shuts the TaskManager
#    down). About 10 s.
set +e
(cd "$REPO_DIR" && LABTUI_REAL_CLUSTER="$LABTUI_CACHE" go test -count=1 -run TestLabtuisFlinkPythonJarSurvivesADoubleRelease -v ./internal/localcluster) \
  > "$RUN_DIR/pythonjar.txt" 2>&1
rc=$?
set -e
check pythonjar-double-release "$([ $rc = 0 ] && grep -q '^--- PASS' "$RUN_DIR/pythonjar.txt"; echo $?)" "labtui's flink-python jar closes a cancelled task's Python workers without the exception that shuts the TaskManager down ($RUN_DIR/pythonjar.txt)"

log "$PASS passed, $FAIL failed ($RUN_DIR)"
[ "$FAIL" = 0 ]
