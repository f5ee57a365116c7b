#!/usr/bin/env bash
# refresh.sh: makes requirements.txt and build.txt again from requirements.in and build.in:
# every package apache-flink needs, each pinned to one version with the SHA-256 of every
# file PyPI has for that version (pip-compile --generate-hashes), so that `labtui cluster
# install` (pip install --require-hashes) installs exactly these, or nothing.
#
# Run it with the Python the course uses (3.11): pip-compile resolves for the interpreter
# it runs on. It needs network access to PyPI and takes about 7 minutes (pip-compile
# downloads each package once to read its dependencies). Then check the diff, run
# `labtui cluster install` into a fresh cache (--cluster-cache) and the conformance run,
# and commit both files together.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=${PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet pip-tools
# A local wheel folder (PIP_FIND_LINKS) would put its own files' hashes in the lock.
unset PIP_FIND_LINKS
export TMPDIR=$WORK
cd "$HERE"
for f in requirements build; do
  "$WORK/venv/bin/pip-compile" --quiet --generate-hashes --allow-unsafe --strip-extras \
    --no-emit-index-url --no-emit-find-links --output-file="$f.txt" "$f.in"
done
echo "$(grep -c '==' requirements.txt) packages in requirements.txt, $(grep -c '==' build.txt) in build.txt"
