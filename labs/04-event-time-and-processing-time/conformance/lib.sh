# lib.sh: paths, versions and small helpers shared by the conformance scripts. Source it;
# it changes nothing on disk.
#
#   LABTUI_CACHE         cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/labtui-conformance:
#                        outside the work tree, so fresh clones on one machine, CI's included,
#                        share the downloads)
#   LABTUI_FLINK_VERSION apache-flink version pip installs (default 2.2.1)
#   LABTUI_KAFKA_VERSION org.apache.kafka:kafka_2.13 version Maven fetches (default 4.1.1)
#   LABTUI_CONNECTOR_VERSION flink-sql-connector-kafka version (default 5.0.0-2.2)
#   LABTUI_KAFKA_PORT    broker port on 127.0.0.1 (default 19092; controller uses port+1)
#   LABTUI_BROKER_DIR    the broker's folder (default $LABTUI_CACHE/broker)

CONF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB_DIR=$(dirname "$CONF_DIR")
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
JOB_PY="$LAB_DIR/job/gateway_meter.py"

LABTUI_CACHE=${LABTUI_CACHE:-"${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/labtui-conformance"}
LABTUI_FLINK_VERSION=${LABTUI_FLINK_VERSION:-2.2.1}
LABTUI_KAFKA_VERSION=${LABTUI_KAFKA_VERSION:-4.1.1}
LABTUI_CONNECTOR_VERSION=${LABTUI_CONNECTOR_VERSION:-5.0.0-2.2}
LABTUI_KAFKA_PORT=${LABTUI_KAFKA_PORT:-19092}

VENV="$LABTUI_CACHE/venv-flink-$LABTUI_FLINK_VERSION"
PY="$VENV/bin/python"
M2_REPO="$LABTUI_CACHE/m2"
JARS_DIR="$LABTUI_CACHE/jars"
KAFKA_LIBS="$LABTUI_CACHE/kafka-$LABTUI_KAFKA_VERSION/libs"
CONNECTOR_JAR="$JARS_DIR/flink-sql-connector-kafka-$LABTUI_CONNECTOR_VERSION.jar"
# labtui's copy of flink-python's jar (compose/flink/pythonjar), which
# `labtui cluster install` builds: `flink run` ships the one flink-python jar of
# $FLINK_OPT_DIR with the job, and this one's fixes keep a cancelled job from shutting the
# TaskManager down. Give it as FLINK_OPT_DIR to every `flink run`, as labtui does.
PYTHON_JAR_OPT_DIR="$LABTUI_CACHE/flink-python-patched-$LABTUI_FLINK_VERSION"
# the standalone cluster cluster.sh runs: conf, logs, pids
CLUSTER_DIR="$LABTUI_CACHE/cluster"
# server.properties, data, log, pid; `run` gives each run its own
BROKER_DIR=${LABTUI_BROKER_DIR:-"$LABTUI_CACHE/broker"}
BOOTSTRAP="127.0.0.1:$LABTUI_KAFKA_PORT"

# JAVA_HOME: keep the caller's, else derive it from the java on PATH (PyFlink needs it).
if [ -z "${JAVA_HOME:-}" ] && command -v java >/dev/null; then
  JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
fi
export JAVA_HOME

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
now_ms() { date +%s%3N; }

# kafka_cp prints the classpath of the fetched broker and tools.
kafka_cp() { printf '%s' "$KAFKA_LIBS/*"; }
