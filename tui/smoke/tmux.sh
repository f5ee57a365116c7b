#!/usr/bin/env bash
# Tries labtui as a new user would, in a detached tmux session: start it, see both panes
# fill, inject a hiccup on gw-1, export, quit, and check nothing is left running. The
# screens it captured are left in $OUT (default a new temporary directory).
#
#   go build -o /tmp/labtui . && tui/smoke/tmux.sh /tmp/labtui
set -euo pipefail
BIN=${1:?usage: tmux.sh path/to/labtui [broker-addr]}
ADDR=${2:-127.0.0.1:29593}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d)}
S=labtui-smoke-$$
mkdir -p "$OUT/run" && ln -sfn "$REPO/labs" "$OUT/run/labs"

cap() { tmux capture-pane -p -t "$S" > "$OUT/$1.txt"; }
wait_for() { # wait_for TEXT SECONDS
	for _ in $(seq 1 $(( $2 * 20 ))); do
		tmux capture-pane -p -t "$S" | grep -qF -- "$1" && return 0
		sleep 0.05
	done
	echo "timed out waiting for: $1" >&2; tmux capture-pane -p -t "$S" >&2; return 1
}

tmux new-session -d -s "$S" -x 100 -y 30 \
	"cd '$OUT/run' && XDG_STATE_HOME='$OUT/state' '$BIN' --broker-addr $ADDR; echo EXIT=\$? > '$OUT/exit'"
wait_for "still open, running totals:" 5   # the windows fill as soon as requests flow
cap 1-panes-filling
wait_for "req/s" 2
tmux send-keys -t "$S" i
wait_for "[gw-1]" 2
tmux send-keys -t "$S" Enter
wait_for "HICCUP" 3
cap 2-hiccup
tmux send-keys -t "$S" m
wait_for "hiccup gw-1" 2
tmux send-keys -t "$S" e
wait_for "exported lab-04-answers.md" 3
cap 3-exported
tmux send-keys -t "$S" q
for _ in $(seq 1 100); do [ -f "$OUT/exit" ] && break; sleep 0.05; done
cat "$OUT/exit"
test -s "$OUT/run/lab-04-answers.md" && test -s "$OUT/run/lab-04-answers.json"
if pgrep -f "^$BIN" >/dev/null; then echo "labtui is still running" >&2; exit 1; fi
if tmux has-session -t "$S" 2>/dev/null; then echo "the tmux session is still there" >&2; exit 1; fi
echo "ok: screens in $OUT"
