#!/usr/bin/env bash
# env.sh: set up, once, everything the conformance run needs, in the cache folder, with
# `labtui cluster install`:
#   1. a venv with apache-flink==$LABTUI_FLINK_VERSION (pip);
#   2. the flink-sql-connector-kafka jar, and a Kafka broker with its runtime dependencies
#      (the artifacts pom.xml resolves), from Maven Central.
# Each step leaves a stamp file; a second run finds the stamps and downloads nothing.
# It prints the variables the other scripts use, as shell assignments, so
#   eval "$(conformance/env.sh)"
# sets them in the caller. Timings of the steps it ran go to stderr and to
# $LABTUI_CACHE/timings.txt.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$LABTUI_CACHE"
# Should the cache be put inside a work tree (LABTUI_CACHE=...), this keeps git from seeing it.
[ -f "$LABTUI_CACHE/.gitignore" ] || printf '*\n' > "$LABTUI_CACHE/.gitignore"
TIMINGS="$LABTUI_CACHE/timings.txt"

# The install is labtui's own (`labtui cluster install`, package localcluster): one
# implementation for labtui --backend cluster and these scripts, in the same layout with the
# same stamp files. It needs python3 with venv, and no Maven: the jars are the ones pom.xml
# resolves, pinned with their SHA-256 in internal/localcluster/artifacts.go and fetched from Maven
# Central. $LABTUI_BIN is used when set, else labtui is built (go run) from this checkout;
# on an installed cache it only says so (about 2.5 s with go run, most of it the build).
install() {
  local t0; t0=$(now_ms)
  if [ -n "${LABTUI_BIN:-}" ]; then
    "$LABTUI_BIN" cluster install --cluster-cache "$LABTUI_CACHE" >&2
  else
    command -v go >/dev/null || die "go not found (or set LABTUI_BIN to a built labtui)"
    (cd "$REPO_DIR" && go run . cluster install --cluster-cache "$LABTUI_CACHE") >&2
  fi
  local dt=$(( $(now_ms) - t0 ))
  echo "cluster_install_ms=$dt apache-flink==$LABTUI_FLINK_VERSION connector=$LABTUI_CONNECTOR_VERSION kafka=$LABTUI_KAFKA_VERSION" >> "$TIMINGS"
}

install

cat <<VARS
export LABTUI_CACHE='$LABTUI_CACHE'
export JAVA_HOME='$JAVA_HOME'
export LABTUI_PYTHON='$PY'
export LABTUI_PYFLINK_VERSION='$(cat "$VENV/.installed")'
export LABTUI_CONNECTOR_JAR='$CONNECTOR_JAR'
export LABTUI_KAFKA_CP='$(kafka_cp)'
VARS
