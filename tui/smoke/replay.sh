#!/usr/bin/env bash
# Tries exercises 4.3 and 4.4 in labtui as a new user would, in a detached tmux session:
# replay the recorded hour (r) and watch its progress line, open the diff against the
# live run (d) and its processing-time tab, switch to started_ts (t), read the moved
# requests, open the skew picture (s), export (e) and quit (q); then check the export
# holds the comparison, the moved requests and a well-formed SVG, and that nothing is
# left running. The screens it captured are left in $OUT (default a new temporary
# directory).
#
#   go build -o /tmp/labtui . && tui/smoke/replay.sh /tmp/labtui
set -euo pipefail
BIN=${1:?usage: replay.sh path/to/labtui}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d)}
S=labtui-replay-$$
mkdir -p "$OUT/run" && ln -sfn "$REPO/labs" "$OUT/run/labs"

cap() { tmux capture-pane -p -t "$S" > "$OUT/$1.txt"; }
key() { tmux send-keys -t "$S" "$@"; }
wait_for() { # wait_for TEXT SECONDS
	for _ in $(seq 1 $(( $2 * 20 ))); do
		tmux capture-pane -p -t "$S" | grep -qF -- "$1" && return 0
		sleep 0.05
	done
	echo "timed out waiting for: $1" >&2; tmux capture-pane -p -t "$S" >&2; return 1
}

# Port 0: the embedded broker takes a free port, whatever else runs on 9092.
tmux new-session -d -s "$S" -x 160 -y 48 \
	"cd '$OUT/run' && XDG_STATE_HOME='$OUT/state' '$BIN' --broker-addr 127.0.0.1:0; echo EXIT=\$? > '$OUT/exit'"
wait_for "still open, running totals:" 10
cap 1-live
key r
if wait_for "replay completed_ts [" 10; then cap 2-replaying; fi # the replay may finish first
wait_for "replay completed_ts done" 60
cap 3-replayed
key d
wait_for "event-time: 300 (tenant, minute) rows" 60
cap 4-diff-event-time
key Right
wait_for "[ processing time ]" 2
cap 5-diff-processing-time
key t
wait_for "replay started_ts done" 60
key Right
wait_for "changed minute" 60
cap 6-moved-requests
key s
wait_for "skew · run 3" 30
cap 7-skew
key e
wait_for "exported" 30
cap 8-exported
key q
for _ in $(seq 1 200); do [ -f "$OUT/exit" ] && break; sleep 0.05; done
cat "$OUT/exit"
md="$OUT/run/lab-04-answers.md"
grep -qF "#### The replay against the live run" "$md"
grep -qF "### Evidence: requests whose cost moved minutes with started_ts" "$md"
grep -qF "](lab-04-skew.svg)" "$md"
python3 -c 'import sys, xml.dom.minidom as x; x.parse(sys.argv[1])' "$OUT/run/lab-04-skew.svg"
if pgrep -f "^$BIN" >/dev/null; then echo "labtui is still running" >&2; exit 1; fi
if tmux has-session -t "$S" 2>/dev/null; then echo "the tmux session is still there" >&2; exit 1; fi
echo "ok: screens in $OUT"
