#!/usr/bin/env python3
"""produce_seed.py: the course's seed burst into gateway-events, through Kafka's own
ConsoleProducer (java -cp <the broker jars env.sh fetched>). Standard library only.

The scenario is module 4's retry burst, at the minute scale, with M a whole wall-clock
minute (offsets are m:ss after M):

    tenant acme, six flat-10c requests, 1000 prompt + 1000 completion tokens ($0.10 each)
    r-101 gw-1  started 0:05  completed 0:12   delivered on time
    r-102 gw-2  started 0:20  completed 0:31   delivered on time
    r-103 gw-1  started 0:38  completed 0:44   the completion is held by gw-1's retry buffer
    r-104 gw-1  started 0:47  completed 0:55   both halves held; gw-1 delivers at 1:16-1:18
    r-105 gw-2  started 1:02  completed 1:09   delivered on time
    r-106 gw-2  started 1:12  completed 1:25   delivered on time
    r-107 gw-2  started 2:05  completed 2:08   tenant globex: a later request, so event time
                                               passes the end of minute M+1 and it fires
    and two malformed values at 0:03 (not JSON, an unknown type) for the malformed sink.

Expected, the course's table: processing time bills acme $0.20 for M and $0.40 for M+1;
event time puts r-101..r-104 in M and r-105, r-106 in M+1. Under for_monotonous_timestamps()
r-103 and r-104 reach the event-time window after r-105 moved the watermark past M, so they
come out on the late side output instead.

--pace live   (default) waits for the first M whose 0:03 is at least --lead-s seconds away
              and sends each value when the wall clock reaches its delivery time: event
              time and processing time are both meaningful. Takes about 2:10 after M.
--pace burst  sets M so the whole scenario lies in the past and sends every value at once,
              in delivery order: a replay, as in lab 4.3.

Each value sent is written as a JSON line to --schedule-out: {"key","value","due_ms",
"sent_ms"} (sent_ms is when the line went to the producer's stdin).
"""

import argparse
import json
import os
import subprocess
import sys
import time

MINUTE_MS = 60_000


def event(kind, rid, tenant, gateway, ts, tokens, model="flat-10c"):
    """One gateway-events value, keys in the gateway's order."""
    tokens_field = "prompt_tokens" if kind == "RequestStarted" else "completion_tokens"
    return {"type": kind, "request_id": rid, "tenant_id": tenant, "model": model,
            "gateway": gateway, "ts": ts, tokens_field: tokens}


def s(minutes, seconds):
    return (minutes * 60 + seconds) * 1000


def scenario(m):
    """[(delivery_ms, value_str, key_fields)] for the base minute m (epoch ms), in delivery
    order. Event ts are when it happened; delivery is when it reaches Kafka."""
    out = []

    def req(rid, tenant, gw, started, completed, started_at=None, completed_at=None):
        out.append((m + (started_at or started), event("RequestStarted", rid, tenant, gw,
                                                       m + started, 1000)))
        out.append((m + (completed_at or completed), event("RequestCompleted", rid, tenant, gw,
                                                           m + completed, 1000)))

    req("r-101", "acme", "gw-1", s(0, 5), s(0, 12))
    req("r-102", "acme", "gw-2", s(0, 20), s(0, 31))
    req("r-103", "acme", "gw-1", s(0, 38), s(0, 44), completed_at=s(1, 16))
    req("r-104", "acme", "gw-1", s(0, 47), s(0, 55), started_at=s(1, 17), completed_at=s(1, 18))
    req("r-105", "acme", "gw-2", s(1, 2), s(1, 9))
    req("r-106", "acme", "gw-2", s(1, 12), s(1, 25))
    req("r-107", "globex", "gw-2", s(2, 5), s(2, 8))
    rows = [(due, json.dumps(v, separators=(",", ":")), v) for due, v in out]
    return sorted(rows, key=lambda r: r[0])


def malformed(m):
    return [(m + s(0, 3), "not json", {}),
            (m + s(0, 3), json.dumps({"type": "RequestPaused", "request_id": "r-100",
                                      "tenant_id": "acme", "model": "flat-10c",
                                      "gateway": "gw-1", "ts": m + s(0, 2)},
                                     separators=(",", ":")), {})]


def base_minute(pace, lead_ms, now_ms):
    """M for the pace: live, the first minute whose first value is lead_ms away; burst, the
    latest minute that puts the last value (2:08) in the past."""
    if pace == "burst":
        return (now_ms - s(2, 10)) // MINUTE_MS * MINUTE_MS
    m = now_ms // MINUTE_MS * MINUTE_MS
    while m + s(0, 3) < now_ms + lead_ms:
        m += MINUTE_MS
    return m


def producer_cmd(opts):
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java"
    return [java, "-Xmx128m", "-cp", opts.kafka_cp,
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "org.apache.kafka.tools.ConsoleProducer",
            "--bootstrap-server", opts.bootstrap, "--topic", opts.topic,
            "--property", "parse.key=true", "--property", "key.separator=\t",
            "--producer-property", "linger.ms=0", "--producer-property", "acks=all"]


def main():
    p = argparse.ArgumentParser(description="produce the course's seed burst")
    p.add_argument("--bootstrap", default=os.environ.get("LABTUI_BOOTSTRAP", "127.0.0.1:19092"))
    p.add_argument("--topic", default=os.environ.get("LABTUI_TOPIC", "gateway-events"))
    p.add_argument("--kafka-cp", default=os.environ.get("LABTUI_KAFKA_CP", ""))
    p.add_argument("--pace", choices=["live", "burst"], default="live")
    p.add_argument("--lead-s", type=float, default=10.0,
                   help="live: at least this long before the first value (default 10)")
    p.add_argument("--key", choices=["tenant_id", "request_id", "gateway"], default="tenant_id",
                   help="record key; tenant_id keeps a tenant's values in one partition, in "
                        "delivery order (default)")
    p.add_argument("--no-malformed", action="store_true", help="leave out the two bad values")
    p.add_argument("--schedule-out", default="", help="write what was sent, as JSON lines")
    p.add_argument("--dry-run", action="store_true", help="print the schedule, send nothing")
    opts = p.parse_args()

    now = int(time.time() * 1000)
    m = base_minute(opts.pace, int(opts.lead_s * 1000), now)
    rows = scenario(m) + ([] if opts.no_malformed else malformed(m))
    rows.sort(key=lambda r: r[0])
    print(f"base minute M = {m} ({time.strftime('%H:%M:%S', time.localtime(m / 1000))}), "
          f"{len(rows)} values, pace {opts.pace}", file=sys.stderr)
    if opts.dry_run:
        for due, value, _ in rows:
            print(due - m, value)
        return
    if not opts.kafka_cp:
        sys.exit("no Kafka classpath: set LABTUI_KAFKA_CP (eval \"$(conformance/env.sh)\") or --kafka-cp")

    producer = subprocess.Popen(producer_cmd(opts), stdin=subprocess.PIPE, text=True)
    log = open(opts.schedule_out, "w") if opts.schedule_out else None
    try:
        for due, value, fields in rows:
            if opts.pace == "live":
                time.sleep(max(0.0, (due - time.time() * 1000) / 1000))
            key = fields.get(opts.key) or "malformed"
            producer.stdin.write(f"{key}\t{value}\n")
            producer.stdin.flush()
            sent = int(time.time() * 1000)
            if log:
                log.write(json.dumps({"key": key, "value": value, "due_ms": due,
                                      "sent_ms": sent, "base_minute": m}) + "\n")
                log.flush()
    finally:
        producer.stdin.close()
        rc = producer.wait(timeout=60)
        if log:
            log.close()
    if rc != 0:
        sys.exit(f"ConsoleProducer exited with {rc}")
    print(f"sent {len(rows)} values", file=sys.stderr)


if __name__ == "__main__":
    main()
