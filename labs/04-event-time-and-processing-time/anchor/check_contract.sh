#!/usr/bin/env bash
# check_contract.sh: the anchor's parser against the event contract's table
# (../job/event-contract.jsonl), the one labtui's parser and the lab's job are tested on:
# one line per failure, then `event contract: N passed, N failed`; exit 1 on a failure.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../conformance/lib.sh"
"$HERE/build.sh"
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
  -cp "$HERE/target/classes:$(cat "$HERE/target/classpath.txt")" \
  io.labtui.anchor.ContractCheck "$LAB_DIR/job/event-contract.jsonl"
