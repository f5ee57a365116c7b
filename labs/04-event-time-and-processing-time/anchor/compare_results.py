#!/usr/bin/env python3
"""compare_results.py: the anchor's event-time results against labtui's on the same file.
Standard library only.

    compare_results.py --labtui REF.jsonl --anchor ANCHOR.OUT [--name NAME]

REF.jsonl is `labtui replay --pace fast --drain --format jsonl` of a recording, ANCHOR.OUT
the print lines of `anchor/run.sh --file` of the same recording. Both ran to the end of the
input with the maximum watermark (the FileSource's end; --drain), so every event-time window
fired on both sides. Compared exactly:

  event time  the same (tenant, window_start, window_end) windows, each with the same
              request count and the same usd, bit for bit (both add a tenant's records in the
              order they reach the window: the file's);
  late        the same late records (request_id, tenant, timestamp, usd bit for bit); the
              watermark each met is not compared: at fast pace it depends on when the
              wall-clock watermark ticks fall;
  malformed   none on the anchor's side.

Processing-time windows are not compared: at fast pace they are wall-clock minutes, and a
bounded Flink job drops the open ones at its end. The results are deterministic only where no
record's lateness depends on when a watermark tick falls: a bound above the largest lateness
in the file (the recorded hour's is 34.8 s; `perf.sh` uses 40s). Prints one line; exits 1 on
any difference, listing the first ten.
"""

import argparse
import json
import re
import sys
from collections import Counter

LINE = re.compile(r"^(?P<sink>[a-z-]+)(?::\d+)?> (?P<body>\{.*\})\s*$")


def read_labtui(path):
    out = {"event-time": [], "late": [], "malformed": []}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                obj = json.loads(line)
                sink = obj.pop("sink")
                if sink in out:
                    out[sink].append(obj)
    return out


def read_anchor(path):
    out = {"event-time": [], "late": [], "malformed": []}
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = LINE.match(raw.rstrip("\n"))
            if m and m["sink"] in out:
                out[m["sink"]].append(json.loads(m["body"]))
    return out


def windows(rows):
    return {(w["tenant_id"], w["window_start"], w["window_end"]): (w["requests"], w["usd"]) for w in rows}


def late(rows):
    return Counter((r["request_id"], r["tenant_id"], r["timestamp"], r["usd"]) for r in rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--labtui", required=True)
    p.add_argument("--anchor", required=True)
    p.add_argument("--name", default="")
    a = p.parse_args(argv)
    ref, got = read_labtui(a.labtui), read_anchor(a.anchor)
    diffs = []
    rw, gw = windows(ref["event-time"]), windows(got["event-time"])
    if len(rw) != len(ref["event-time"]) or len(gw) != len(got["event-time"]):
        diffs.append("a window fired twice (labtui %d lines for %d windows, anchor %d for %d)"
                     % (len(ref["event-time"]), len(rw), len(got["event-time"]), len(gw)))
    for k in sorted(set(rw) | set(gw)):
        if rw.get(k) != gw.get(k):
            diffs.append("event-time %s [%d, %d): labtui %s, anchor %s" % (k[0], k[1], k[2], rw.get(k), gw.get(k)))
    rl, gl = late(ref["late"]), late(got["late"])
    for k in sorted(set(rl) | set(gl)):
        if rl[k] != gl[k]:
            diffs.append("late %s: labtui %d, anchor %d" % (k, rl[k], gl[k]))
    for m in got["malformed"][:3]:
        diffs.append("anchor malformed: %s" % m.get("reason"))
    if len(got["malformed"]) > 3:
        diffs.append("... %d malformed in all" % len(got["malformed"]))
    requests = sum(r for r, _ in rw.values())
    usd = sum(u for _, u in rw.values())
    what = "%d windows, %s requests, $%s, %d late" % (len(rw), format(requests, ","), format(usd, ",.6f"), sum(rl.values()))
    name = a.name + ": " if a.name else ""
    if diffs:
        print("FAIL %sevent-time results differ from labtui's (%d differences; labtui %s):" % (name, len(diffs), what))
        for d in diffs[:10]:
            print("  " + d)
        return 1
    print("%sevent-time results equal labtui's: %s" % (name, what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
