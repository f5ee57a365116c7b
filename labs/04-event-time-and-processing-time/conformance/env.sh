#!/usr/bin/env bash
# env.sh: set up, once, everything the conformance run needs, in the cache folder:
#   1. a venv with apache-flink==$LABTUI_FLINK_VERSION (pip);
#   2. with Maven (pom.xml beside this file, local repo inside the cache):
#      the flink-sql-connector-kafka jar, and a Kafka broker with its runtime dependencies.
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

setup_venv() {
  local stamp="$VENV/.installed"
  [ -f "$stamp" ] && return
  command -v python3 >/dev/null || die "python3 not found"
  log "creating $VENV and installing apache-flink==$LABTUI_FLINK_VERSION (slow: several minutes)"
  local t0; t0=$(now_ms)
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$PY" -m pip install --quiet --disable-pip-version-check "apache-flink==$LABTUI_FLINK_VERSION" >&2
  "$PY" -c 'import pyflink.version as v; print(v.__version__)' > "$stamp"
  local dt=$(( $(now_ms) - t0 ))
  log "pip install done in ${dt} ms"
  echo "pip_install_ms=$dt apache-flink==$LABTUI_FLINK_VERSION" >> "$TIMINGS"
}

setup_jars() {
  local stamp="$LABTUI_CACHE/.jars-$LABTUI_CONNECTOR_VERSION-kafka-$LABTUI_KAFKA_VERSION"
  [ -f "$stamp" ] && [ -f "$CONNECTOR_JAR" ] && [ -d "$KAFKA_LIBS" ] && return
  command -v mvn >/dev/null || die "mvn not found"
  log "fetching flink-sql-connector-kafka $LABTUI_CONNECTOR_VERSION and kafka_2.13 $LABTUI_KAFKA_VERSION with Maven"
  local t0; t0=$(now_ms)
  local mvn=(mvn -B -q -f "$CONF_DIR/pom.xml" -Dmaven.repo.local="$M2_REPO"
             -Dflink.kafka.connector.version="$LABTUI_CONNECTOR_VERSION"
             -Dkafka.version="$LABTUI_KAFKA_VERSION")
  # (sed: Maven 3.8 prints colour resets even in batch mode)
  "${mvn[@]}" dependency:copy -DoutputDirectory="$JARS_DIR" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2
  rm -rf "$KAFKA_LIBS"
  "${mvn[@]}" dependency:copy-dependencies -DoutputDirectory="$KAFKA_LIBS" 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g' >&2
  [ -f "$CONNECTOR_JAR" ] || die "connector jar missing after fetch: $CONNECTOR_JAR"
  ls "$KAFKA_LIBS"/kafka_2.13-*.jar >/dev/null || die "kafka_2.13 jar missing in $KAFKA_LIBS"
  local dt=$(( $(now_ms) - t0 ))
  log "mvn fetch done in ${dt} ms ($(ls "$KAFKA_LIBS" | wc -l) broker jars)"
  echo "mvn_fetch_ms=$dt connector=$LABTUI_CONNECTOR_VERSION kafka=$LABTUI_KAFKA_VERSION" >> "$TIMINGS"
  touch "$stamp"
}

setup_venv
setup_jars

cat <<VARS
export LABTUI_CACHE='$LABTUI_CACHE'
export JAVA_HOME='$JAVA_HOME'
export LABTUI_PYTHON='$PY'
export LABTUI_PYFLINK_VERSION='$(cat "$VENV/.installed")'
export LABTUI_CONNECTOR_JAR='$CONNECTOR_JAR'
export LABTUI_KAFKA_CP='$(kafka_cp)'
VARS
