#!/usr/bin/env bash
# run.sh: run the anchor, GatewayMeter in Java on a local Flink 2.2.1 MiniCluster in one JVM
# (build.sh first when the build is missing or older than the sources). Arguments go to the
# job: run.sh --help lists them. Its print lines go to stdout, its timings and errors to
# stderr, Flink's own log to $ANCHOR_LOG (default $LABTUI_CACHE/anchor/flink.log). JVM options
# in $ANCHOR_JVM_ARGS (default: the JVM's own).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../conformance/lib.sh"

"$HERE/build.sh"
log_file=${ANCHOR_LOG:-"$LABTUI_CACHE/anchor/flink.log"}
mkdir -p "$(dirname "$log_file")"
# shellcheck disable=SC2086 # ANCHOR_JVM_ARGS is a list of options
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" ${ANCHOR_JVM_ARGS:-} \
  -Danchor.log.file="$log_file" -Dlog4j2.statusLoggerLevel=OFF \
  -cp "$HERE/target/classes:$(cat "$HERE/target/classpath.txt")" \
  io.labtui.anchor.GatewayMeter "$@"
