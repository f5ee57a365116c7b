#!/usr/bin/env python3
"""Write the recording of the per-partition scenarios (module 5's two lessons) to OUT:
three partitions with one tenant each (acme on 0, globex on 1, initech on 2), one request
of 1 s on each every 10 s.

  - Partitions 0 and 1 reach the job as their events happen (acme's at 0 and 1 s into each
    10 s, globex's at 2.5 and 3.5 s); partition 2's arrive 20 s late (at 5 and 6 s: a
    gateway whose keys all hash there, behind a slow link). After the parse one generator
    follows the partitions ahead, so initech's records of the last 20 s of a minute are
    late; on the source the minimum waits for partition 2 and nothing is late.
  - Partition 2's last record arrives at 10:01:36; then it stalls (its gateway goes quiet)
    while 0 and 1 go on until 10:03:31. On the source the watermark stays at partition 2's
    10:01:15.999 and every later event-time window waits; withIdleness(30 s) leaves
    partition 2 out of the minimum from between 10:02:06.2 and 10:02:06.6 (the periodic emit
    that starts the countdown comes up to two intervals after the last record), 2.7 s after
    the record before and 3.4 s before the next, and the windows fire.

    partitions_recording.py OUT.jsonl
"""
import json
import sys

T0 = 1795946400000  # 2026-11-29T10:00:00Z
TENANTS = ["acme", "globex", "initech"]
ARRIVES = [0, 2500, 5000]   # ms into each 10 s at which the partition's request starts arriving
LATE = [0, 0, 20000]        # how long after it happened an event arrives
LAST = [210000, 210000, 96000]  # the cycle (ms after 10:00) of each partition's last request


def main(out_path):
    rows = []
    for p, tenant in enumerate(TENANTS):
        for n, cycle in enumerate(range(0 if p < 2 else 20000, LAST[p] + 1, 10000)):
            rid = f"{tenant[0]}-{n:03d}"
            arrival = T0 + cycle + ARRIVES[p]
            for kind, tokens, dt in (("RequestStarted", "prompt_tokens", 0),
                                     ("RequestCompleted", "completion_tokens", 1000)):
                ts = arrival + dt - LATE[p]
                ev = {"type": kind, "request_id": rid, "tenant_id": tenant, "model": "flat-10c",
                      "gateway": f"gw-{p}", "ts": ts, tokens: 1000}
                rows.append((arrival + dt, p, ev))
    rows.sort(key=lambda r: (r[0], r[1]))
    offsets = [0, 0, 0]
    with open(out_path, "w") as f:
        for arrival, p, ev in rows:
            f.write(json.dumps({"partition": p, "offset": offsets[p], "timestamp": ev["ts"],
                                "arrival": arrival, "key": ev["request_id"], "value": ev},
                               separators=(",", ":")) + "\n")
            offsets[p] += 1


if __name__ == "__main__":
    main(sys.argv[1])
