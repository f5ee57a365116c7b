#!/usr/bin/env bash
# broker.sh: a real single-node Kafka broker (KRaft, broker+controller in one JVM) on
# 127.0.0.1, run from the jars env.sh fetched. Nothing here needs Docker or root.
#
#   broker.sh start          fresh storage, format it (kafka.tools.StorageTool), start
#                            kafka.Kafka in the background, wait until it serves, create the
#                            topic gateway-events with 3 partitions (TopicCommand)
#   broker.sh stop           stop the broker this script started (by its pid file)
#   broker.sh status         print the bootstrap address if it runs, exit 1 if not
#   broker.sh topic NAME [P] create another topic (P partitions, default 3)
#
# Port: $LABTUI_KAFKA_PORT (default 19092) and the next one for the controller; when either
# is taken, two free ports are picked. The address in use is written to
# $LABTUI_CACHE/broker/bootstrap. Broker log: $LABTUI_CACHE/broker/broker.log.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PIDFILE="$BROKER_DIR/kafka.pid"
BOOTFILE="$BROKER_DIR/bootstrap"
BROKER_LOG="$BROKER_DIR/broker.log"
TIMINGS="$LABTUI_CACHE/timings.txt"

[ -d "$KAFKA_LIBS" ] || die "no broker jars in $KAFKA_LIBS: run conformance/env.sh first"
JAVA="$JAVA_HOME/bin/java"
# The tools run for seconds: C1 only and the serial GC start them in half the CPU time.
kjava() { "$JAVA" -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$(kafka_cp)" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "$@"; }

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

# free_ports P prints P and P+1 when both can be bound on 127.0.0.1, else two free ports.
free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
def bindable(p):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); return True
    except OSError:
        return False
    finally:
        s.close()
p = int(sys.argv[1])
if bindable(p) and bindable(p + 1):
    print(p, p + 1)
else:
    socks = [socket.socket() for _ in range(2)]
    for s in socks: s.bind(("127.0.0.1", 0))
    print(*[s.getsockname()[1] for s in socks])
    for s in socks: s.close()
PY
}

write_properties() {  # $1 broker port, $2 controller port
  cat > "$BROKER_DIR/server.properties" <<PROPS
# Written by conformance/broker.sh: one KRaft node, broker and controller, loopback only.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$2
listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$2
advertised.listeners=PLAINTEXT://127.0.0.1:$1
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$BROKER_DIR/data
num.partitions=3
auto.create.topics.enable=false
# No deletion by age: some records this harness writes carry old timestamps (the warm-up's
# is 0, some recordings' are unshifted), which Kafka's default 7 days would delete at the
# next retention check, before the job reads them.
log.retention.ms=-1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
}

create_topic() {  # $1 name, $2 partitions
  kjava org.apache.kafka.tools.TopicCommand --bootstrap-server "$(cat "$BOOTFILE")" \
    --create --if-not-exists --topic "$1" --partitions "$2" --replication-factor 1 >&2
}

start() {
  if running; then log "broker already running (pid $(cat "$PIDFILE")) at $(cat "$BOOTFILE")"; return; fi
  local t0; t0=$(now_ms)
  rm -rf "$BROKER_DIR/data"; mkdir -p "$BROKER_DIR"
  read -r port cport < <(free_ports "$LABTUI_KAFKA_PORT")
  write_properties "$port" "$cport"
  local cluster_id
  # Drawn again when it begins with '-' (one id in 64, as Kafka's Uuid.randomUuid does):
  # kafka-storage reads "--cluster-id -x..." as an option with no value.
  cluster_id=$(python3 -c '
import base64, uuid
while True:
    s = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not s.startswith("-"):
        print(s); break')
  kjava kafka.tools.StorageTool format --cluster-id "$cluster_id" \
    --config "$BROKER_DIR/server.properties" >"$BROKER_DIR/format.log" 2>&1 \
    || { cat "$BROKER_DIR/format.log" >&2; die "formatting the storage failed"; }
  # setsid: the broker gets its own session, so it outlives this shell and is stopped by pid.
  setsid "$JAVA" -Xms256m -Xmx512m -cp "$(kafka_cp)" \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=info -Dorg.slf4j.simpleLogger.showDateTime=true \
    kafka.Kafka "$BROKER_DIR/server.properties" >"$BROKER_LOG" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  echo "127.0.0.1:$port" > "$BOOTFILE"
  local deadline=$(( $(now_ms) + 90000 ))
  until grep -q "Kafka Server started" "$BROKER_LOG" 2>/dev/null; do
    running || { tail -20 "$BROKER_LOG" >&2; die "broker exited during start"; }
    [ "$(now_ms)" -lt "$deadline" ] || { stop; die "broker not started within 90 s"; }
    sleep 0.2
  done
  local started=$(( $(now_ms) - t0 ))
  create_topic "$TOPIC_NAME" 3
  local dt=$(( $(now_ms) - t0 ))
  log "broker up at 127.0.0.1:$port (pid $(cat "$PIDFILE")): format+start ${started} ms, with topic ${dt} ms"
  echo "broker_start_ms=$started broker_start_with_topic_ms=$dt kafka=$LABTUI_KAFKA_VERSION" >> "$TIMINGS"
  cat "$BOOTFILE"
}

stop() {
  if ! running; then rm -f "$PIDFILE"; log "broker not running"; return; fi
  local pid; pid=$(cat "$PIDFILE")
  kill -TERM "$pid"
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then log "broker $pid ignored SIGTERM for 30 s: SIGKILL"; kill -KILL "$pid"; fi
  rm -f "$PIDFILE"
  log "broker stopped (pid $pid)"
}

TOPIC_NAME=${LABTUI_TOPIC:-gateway-events}
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) running && cat "$BOOTFILE" || { echo "not running" >&2; exit 1; } ;;
  topic) running || die "broker not running"; create_topic "${2:?topic name}" "${3:-3}" ;;
  *) echo "usage: $0 start|stop|status|topic NAME [PARTITIONS]" >&2; exit 2 ;;
esac
