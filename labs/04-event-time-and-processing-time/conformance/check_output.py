#!/usr/bin/env python3
"""check_output.py: read what gateway_meter.py printed and check it. Standard library only.

    check_output.py OUT [--schedule SCHEDULE.jsonl] [--expect live|burst|none]
                        [--require processing-time,event-time,trace]

Checks, each counted as passed or failed:
  shape        every `ID> ...` line of a known sink parses as a JSON object with its keys, in
               order; the required sinks (default processing-time, event-time, trace) appear
  trace        event_window_end is the epoch-aligned minute end of timestamp, and late says
               watermark >= event_window_end - 1
  event-time   each event-time window holds exactly the traced records of its tenant and
               minute that were not late (the window and the trace see the same watermarks),
               and their cost (needs --schedule to price them)
  late         the late side output holds exactly the records the trace calls late, each with
               the trace's gateway
  processing   per tenant, processing-time windows never count more requests than were traced
  scenario     with --expect and --schedule (produce_seed.py's), the course's table for acme:
               live: processing time M $0.20 (2), M+1 $0.40 (4); event time M $0.20 (2) and
               M+1 $0.20 (2), r-103 and r-104 late (for_monotonous_timestamps());
               burst: event time M $0.40 (4), M+1 $0.20 (2); processing time $0.60 (6) in all.
Prints the windows side by side and ends with a line `N passed, N failed`; exit 1 on failure.
"""

import argparse
import json
import re
import sys
from collections import defaultdict

MINUTE_MS = 60_000
PRICE_PER_1K = {"nova-large": (0.0030, 0.0150), "nova-small": (0.00015, 0.0006),
                "orca-70b": (0.0009, 0.0009), "flat-10c": (0.05, 0.05)}
KEYS = {
    "processing-time": ["tenant_id", "window_start", "window_end", "usd", "requests"],
    "event-time": ["tenant_id", "window_start", "window_end", "usd", "requests"],
    "trace": ["request_id", "tenant_id", "gateway", "timestamp", "watermark",
              "event_window_end", "late", "usd"],
    "late": ["request_id", "tenant_id", "gateway", "timestamp", "watermark", "usd"],
    "malformed": ["reason", "value"],
}
LINE = re.compile(r"^(?P<id>[a-z-]+)(?::\d+)?> (?P<body>.*)$")


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {what}")
        return ok


def read_lines(path):
    out = defaultdict(list)
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = LINE.match(raw.rstrip("\n"))
            if m and m["id"] in KEYS:
                out[m["id"]].append(m["body"])
    return out


def costs_from_schedule(path):
    """request_id -> cost, priced as TenantCost.add prices it, from the values produced."""
    halves = defaultdict(dict)
    base = None
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            base = row.get("base_minute", base)
            try:
                ev = json.loads(row["value"])
            except ValueError:
                continue
            if isinstance(ev, dict) and ev.get("type") in ("RequestStarted", "RequestCompleted"):
                halves[ev["request_id"]].setdefault(ev["type"], ev)
    costs = {}
    for rid, h in halves.items():
        if len(h) == 2:
            s, c = h["RequestStarted"], h["RequestCompleted"]
            in_usd, out_usd = PRICE_PER_1K[s["model"]]
            costs[rid] = (s["prompt_tokens"] / 1000 * in_usd
                          + c["completion_tokens"] / 1000 * out_usd)
    return costs, base


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--schedule", default="")
    p.add_argument("--expect", choices=["live", "burst", "none"], default="none")
    p.add_argument("--require", default="processing-time,event-time,trace")
    opts = p.parse_args()

    c = Checks()
    lines = read_lines(opts.out)
    parsed = {}
    for sink, bodies in lines.items():
        parsed[sink] = []
        for body in bodies:
            try:
                obj = json.loads(body)
                ok = isinstance(obj, dict) and list(obj) == KEYS[sink]
            except ValueError:
                obj, ok = None, False
            if c.check(ok, f"shape: {sink}> {body}"):
                parsed[sink].append(obj)
    for sink in filter(None, opts.require.split(",")):
        c.check(parsed.get(sink), f"shape: no `{sink}>` line")

    trace = parsed.get("trace", [])
    for t in trace:
        end = t["timestamp"] - t["timestamp"] % MINUTE_MS + MINUTE_MS
        c.check(t["event_window_end"] == end and t["late"] == (t["watermark"] >= end - 1),
                f"trace: window end or late flag wrong in {t}")

    costs, base = costs_from_schedule(opts.schedule) if opts.schedule else ({}, None)
    for w in parsed.get("event-time", []):
        mine = [t for t in trace if t["tenant_id"] == w["tenant_id"]
                and t["event_window_end"] == w["window_end"] and not t["late"]]
        c.check(len(mine) == w["requests"],
                f"event-time: {w} but the trace has {len(mine)} on-time records for it")
        if costs and all(t["request_id"] in costs for t in mine):
            usd = 0.0
            for t in mine:  # in arrival order, as TenantCost adds them
                usd += costs[t["request_id"]]
            c.check(usd == w["usd"], f"event-time: usd {w['usd']} != {usd} from the trace")

    late_ids = sorted(t["request_id"] for t in trace if t["late"])
    c.check(sorted(x["request_id"] for x in parsed.get("late", [])) == late_ids,
            f"late: side output {[x['request_id'] for x in parsed.get('late', [])]}, "
            f"trace says {late_ids}")
    gateways = {t["request_id"]: t["gateway"] for t in trace}
    wrong = [x["request_id"] for x in parsed.get("late", [])
             if x["request_id"] in gateways and x["gateway"] != gateways[x["request_id"]]]
    c.check(not wrong, f"late: the side output's gateway differs from the trace's for {wrong[:10]}")

    traced = defaultdict(int)
    for t in trace:
        traced[t["tenant_id"]] += 1
    counted = defaultdict(int)
    for w in parsed.get("processing-time", []):
        counted[w["tenant_id"]] += w["requests"]
    for tenant, n in counted.items():
        c.check(n <= traced[tenant], f"processing: {tenant} {n} requests > {traced[tenant]} traced")

    print_tables(parsed, base)
    if opts.expect != "none":
        if c.check(base is not None, "scenario: needs --schedule from produce_seed.py"):
            check_scenario(c, parsed, base, opts.expect)
    print(f"{c.passed} passed, {c.failed} failed")
    sys.exit(1 if c.failed else 0)


def minutes(rows, tenant, base):
    """{minute offset from base: (usd, requests)} of one tenant's windows."""
    return {(w["window_start"] - base) // MINUTE_MS: (round(w["usd"], 9), w["requests"])
            for w in rows if w["tenant_id"] == tenant}


def check_scenario(c, parsed, m, expect):
    pt = minutes(parsed.get("processing-time", []), "acme", m)
    et = minutes(parsed.get("event-time", []), "acme", m)
    late = sorted(x["request_id"] for x in parsed.get("late", []))
    if expect == "live":
        c.check(pt == {0: (0.2, 2), 1: (0.4, 4)},
                f"scenario: processing time acme {pt}, want {{0: (0.2, 2), 1: (0.4, 4)}}")
        c.check(et == {0: (0.2, 2), 1: (0.2, 2)},
                f"scenario: event time acme {et}, want {{0: (0.2, 2), 1: (0.2, 2)}}")
        c.check(late == ["r-103", "r-104"], f"scenario: late {late}, want r-103, r-104")
    else:
        c.check(et == {0: (0.4, 4), 1: (0.2, 2)},
                f"scenario: event time acme {et}, want {{0: (0.4, 4), 1: (0.2, 2)}}")
        total = sum(v[1] for v in pt.values()), round(sum(v[0] for v in pt.values()), 9)
        c.check(total == (6, 0.6), f"scenario: processing time acme in all {total}, want (6, 0.6)")


def print_tables(parsed, base):
    rows = defaultdict(dict)
    for sink in ("processing-time", "event-time"):
        for w in parsed.get(sink, []):
            rows[(w["tenant_id"], w["window_start"])][sink] = f"${w['usd']:.2f} ({w['requests']})"
    if not rows:
        return
    print(f"{'tenant':8} {'minute':>8} {'processing-time':>16} {'event-time':>12}")
    for (tenant, start) in sorted(rows):
        label = f"M+{(start - base) // MINUTE_MS}" if base is not None else str(start)
        r = rows[(tenant, start)]
        print(f"{tenant:8} {label:>8} {r.get('processing-time', '-'):>16} {r.get('event-time', '-'):>12}")
    for x in parsed.get("late", []):
        print(f"late: {x['request_id']} ts={x['timestamp']} watermark={x['watermark']}")


if __name__ == "__main__":
    main()
