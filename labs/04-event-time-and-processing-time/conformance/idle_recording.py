#!/usr/bin/env python3
"""Write the recording of the every-split-idle and tombstone-only scenarios to OUT: three
partitions, as the run's topics have, and no topic line: the reference knows partition 2
from its tombstones alone.

  - Partition 0: acme, a request of 1 s every 10 s from 10:00:00 to 10:01:40, read as it
    happens; then a silence of 70 s; then acme again from 10:02:50 to 10:03:20.
  - Partition 1: globex, far ahead: its events are stamped 3 minutes after they are read,
    from 10:00:05 to 10:00:35, and then it falls quiet for good.
  - Partition 2: nothing but tombstones (null values, read at 10:00:02 and 10:00:50): the
    KafkaSource assigns it as every partition, and its deserializer skips a null value, so
    the split never brings an event and holds the source's watermark at Long.MIN_VALUE.

With withIdleness(30 s) on the source: partition 2 is idle from about 10:00:32, partition 1
from about 10:01:06 (the minimum follows partition 0), partition 0 from about 10:02:11, and
then every split is idle: the watermark rises to the largest, partition 1's 10:03:35.999
(CombinedWatermarkStatus: allIdle ? max : min), which fires acme's 10:00 and 10:01 and makes
acme's 10:02 records late when partition 0 sends again. Without idleness partition 2 holds
every event-time window back. The PyFlink job cannot read this recording: its
SimpleStringSchema fails on a null value, which stops the job.

    idle_recording.py OUT.jsonl
"""
import json
import sys

T0 = 1795946400000  # 2026-11-29T10:00:00Z
AHEAD = 180000      # partition 1's events are stamped this long after they are read


def main(out_path):
    rows = []  # (arrival, partition, ts, key, value or None)

    def request(p, tenant, n, arrival, shift):
        rid = f"{tenant[0]}-{n:03d}"
        for kind, tokens, dt in (("RequestStarted", "prompt_tokens", 0),
                                 ("RequestCompleted", "completion_tokens", 1000)):
            ts = arrival + dt + shift
            ev = {"type": kind, "request_id": rid, "tenant_id": tenant, "model": "flat-10c",
                  "gateway": f"gw-{p}", "ts": ts, tokens: 1000}
            rows.append((arrival + dt, p, ts, rid, ev))

    n = 0
    for cycle in list(range(0, 100001, 10000)) + list(range(170000, 200001, 10000)):
        request(0, "acme", n, T0 + cycle, 0)
        n += 1
    for k, cycle in enumerate(range(5000, 35001, 10000)):
        request(1, "globex", k, T0 + cycle, AHEAD)
    for at in (2000, 50000):
        rows.append((T0 + at, 2, T0 + at, "z", None))
    rows.sort(key=lambda r: (r[0], r[1]))
    offsets = [0, 0, 0]
    with open(out_path, "w") as f:
        for arrival, p, ts, key, value in rows:
            f.write(json.dumps({"partition": p, "offset": offsets[p], "timestamp": ts,
                                "arrival": arrival, "key": key, "value": value},
                               separators=(",", ":")) + "\n")
            offsets[p] += 1


if __name__ == "__main__":
    main(sys.argv[1])
