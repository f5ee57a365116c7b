#!/usr/bin/env bash
# build.sh: compile the anchor (pom.xml beside this file) with Maven, the local repository
# inside the conformance cache ($LABTUI_CACHE/m2, as conformance/env.sh uses it), so a clean
# checkout downloads Flink 2.2.1 and the Kafka connector once. Writes target/classes and
# target/classpath.txt; does nothing when they are newer than pom.xml and every source.
# Prints nothing on success but the time Maven took (stderr). One build at a time runs
# (flock on $LABTUI_CACHE/anchor-build.lock).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../conformance/lib.sh"

# Scenarios start their anchors at once: one build at a time (mvn in one target/ folder at
# once fails with "Cannot create resource output directory"); the others wait, then find
# the stamp.
mkdir -p "$LABTUI_CACHE"
exec 9> "$LABTUI_CACHE/anchor-build.lock"
flock 9
stamp="$HERE/target/.built"
if [ -f "$stamp" ] && [ -f "$HERE/target/classpath.txt" ] \
   && [ -z "$(find "$HERE/pom.xml" "$HERE/src" -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
command -v mvn >/dev/null || die "mvn not found: the anchor is built with Maven (Debian: apt-get install maven)"
mkdir -p "$M2_REPO"
t0=$(now_ms)
# (sed: Maven 3.8 prints colour resets even in batch mode)
if ! mvn -B -q -f "$HERE/pom.xml" -Dmaven.repo.local="$M2_REPO" compile 2>&1 \
     | sed 's/\x1b\[[0-9;]*m//g' >&2; then
  die "mvn compile of the anchor failed"
fi
[ -f "$HERE/target/classpath.txt" ] || die "mvn compile left no target/classpath.txt"
touch "$stamp"
log "anchor built in $(( $(now_ms) - t0 )) ms"
