#!/usr/bin/env python3
"""compare.py: what gateway_meter.py printed on real Flink, result by result, against
`labtui replay --pace recorded --format jsonl --trace` of the same (shifted) recording.
Standard library only.

    compare.py check  --shifted S.jsonl --reference REF.jsonl --flink JOB.OUT
                      [--out-of-orderness-ms B] [--timestamp completed_ts|started_ts]
                      [--latency-ms L] [--bundle-ms 2000] [--name N] [--report FILE]
    compare.py wait   --reference REF.jsonl --flink JOB.OUT --deadline-ms T [--job-pid P]
                      returns once Flink has printed everything the reference fired, or at T
                      (past T while Flink's output still grows, up to T + 10 min)

Both sides saw the same records at the same arrival times: labtui feed produced each record
at the arrival the shifted recording gives it, and the reference re-enacts that recording on
a simulated clock with Java Flink's timing (200 ms watermark ticks, no other delay). PyFlink
adds latency: a record reaches an operator some time d after its arrival, 0 <= d <= L, and
records of different partitions may reach the source in another order than they arrived (at
most L apart). L is measured, not assumed: the trace says when its operator had each record
(seen_at), and L is the largest seen_at - arrival of the run plus S, the skew allowed between
the trace and its sibling operators (the windows read the same stream in other Python
workers): S = --bundle-ms + a quarter of that largest delay, as a busy machine delays every
worker alike but not in step. --latency-ms is L's floor (and L itself for a trace without
seen_at). The report's last line says the measured delay and the machine's load average.
Nothing else may differ:

  trace      every request the reference assembled is traced by Flink, none else, with the
             same tenant, gateway, timestamp and event-time window.
  watermark  the watermark a record met in Flink is a watermark the assigner can emit (the
             minimum, or an event's timestamp - out-of-orderness - 1 ms), never decreases in
             Flink's trace order, and lies in
                 [W(arrival - L), W'(min(arrival + L, seen_at))]
             where W(t) is the watermark an instant assigner holds at t (largest timestamp
             that arrived before t, - out-of-orderness - 1 ms) and W' also counts records of
             other partitions that arrived up to then, but not the record's own (nothing that
             arrived after the trace had the record can be in its watermark).
             The reference's watermark must itself be in that range. How many equal the
             reference's, and how many trail it by less than a bundle (--bundle-ms) is printed.
  late       on both sides late == (watermark >= window end - 1); so a record whose late flag
             differs is explained by its watermark, within the range above (it is listed).
             The late side output holds the records Flink's window dropped, with the
             reference's tenant, gateway, timestamp and usd (floats, bit for bit): those the
             trace calls late, but for records the window and the trace met at different
             watermarks (sibling Python operators take a watermark at their own bundle's
             end): such a record is listed, and is one only when the watermark the late
             output names is within its range above while the trace's is below its window's
             end, or the other way round. Flink's event-time side is what the window did:
             the records it traced, less its late output.
  event time for every (tenant, minute): the records each side traced on time are the same
             (but for the listed ones); a window fired in Flink iff it fired in the reference
             (else it is pending there); a fired window holds exactly Flink's on-time records,
             their usd summed in Flink's order; and equals the reference's window bit for bit
             when the records came in the same order (when not, the last bits may differ:
             floating-point addition is not associative; such windows are listed).
  processing for each tenant, Flink's windows in order take consecutive runs of its records
             in Flink's trace order (the processing-time window sees the same stream); every
             record of a window arrived in [start - L, end), and the trace had it in
             [start - S, end + S); usd is the run's sum; totals equal the reference's. A
             minute where no record of the tenant crossed one of its boundaries (arrived
             before it, and the trace had it after it - S; without seen_at: arrived within L
             before it) must equal the reference's window; the others are listed as explained
             by latency when they differ.
  malformed  the values Flink's job sent to malformed> (but the run's own warm-up value) are
             the values the reference skipped as malformed events (--reference-log, labtui
             replay's stderr), reason for reason: the same count of each reason, where every
             "not a JSON event object: ..." counts as one reason (the parsers' details differ).
             Without --reference-log: none.
Anything else is a difference: `check` prints FAIL and exits 1.
"""

import argparse
import bisect
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict

MINUTE_MS = 60_000
LONG_MIN = -(1 << 63)
LINE = re.compile(r"^(?P<sink>[a-z-]+)(?::\d+)?> (?P<body>\{.*\})\s*$")
WARM_UP = "conformance warm-up"


# ---------------------------------------------------------------------------------------------
# Reading.

def read_flink(path):
    """The print-sink lines of the job's stdout, by sink, in order."""
    out = defaultdict(list)
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = LINE.match(raw.rstrip("\n"))
            if not m:
                continue
            try:
                out[m["sink"]].append(json.loads(m["body"]))
            except ValueError:
                out["unparsable"].append(raw.rstrip("\n"))
    return out


def read_reference(path):
    out = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                obj = json.loads(line)
                out[obj.pop("sink")].append(obj)
    return out


def skipped_lines(reference_log):
    """The line numbers labtui replay reported as skipped (malformed events) in its log."""
    lines = set()
    if reference_log:
        with open(reference_log, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.search(r":(\d+): skipped: ", line)
                if m:
                    lines.add(int(m.group(1)))
    return lines


def read_events(path, skipped=frozenset(), by_partition=None):
    """(arrival, timestamp, request_id) of every value of the shifted recording that is an
    event, but the lines the reference skipped: what the first timestamp assigner sees.
    With by_partition (a dict), each partition's rows are also put there under its number,
    and every partition of the topic has its entry, one that brings no event (only
    tombstones or malformed values, or nothing: the topic line's) an empty one."""
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or n in skipped:
                continue
            e = json.loads(line)
            if "partition" not in e:  # the topic line
                if by_partition is not None and n == 1 and isinstance(e.get("partitions"), int):
                    for p in range(e["partitions"]):
                        by_partition.setdefault(p, [])
                continue
            if by_partition is not None:
                by_partition.setdefault(e["partition"], [])
            v = e["value"]
            if isinstance(v, str):
                try:
                    v = json.loads(v)
                except ValueError:
                    continue
            if (isinstance(v, dict) and v.get("type") in ("RequestStarted", "RequestCompleted")
                    and isinstance(v.get("ts"), int) and isinstance(v.get("request_id"), str)):
                rows.append((e.get("arrival", e["timestamp"]), v["ts"], v["request_id"]))
                if by_partition is not None:
                    by_partition.setdefault(e["partition"], []).append(rows[-1])
    return rows


# ---------------------------------------------------------------------------------------------
# Waiting for the job.

def expected_counts(ref):
    pt = defaultdict(int)
    for w in ref["processing-time"]:
        pt[w["tenant_id"]] += w["requests"]
    return {"trace": len(ref["trace"]), "late": len(ref["late"]),
            "event-time": len(ref["event-time"]), "pt_requests": dict(pt)}


def reached(want, flink):
    pt = defaultdict(int)
    for w in flink.get("processing-time", []):
        pt[w["tenant_id"]] += w["requests"]
    return (len(flink.get("trace", [])) >= want["trace"]
            and len(flink.get("late", [])) >= want["late"]
            and len(flink.get("event-time", [])) >= want["event-time"]
            and all(pt[t] >= n for t, n in want["pt_requests"].items()))


def alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


# ---------------------------------------------------------------------------------------------
# Watermarks.

class Watermarks:
    """The watermarks of an assigner fed items (arrival, timestamp, key)."""

    def __init__(self, items, bound_ms):
        self.items = sorted(items)
        self.arrivals = [a for a, _, _ in self.items]
        self.prefix_max = []
        m = LONG_MIN
        for _, ts, _ in self.items:
            m = max(m, ts)
            self.prefix_max.append(m)
        self.bound = bound_ms
        self.values = {ts - bound_ms - 1 for _, ts, _ in self.items} | {LONG_MIN}

    def wm(self, max_ts):
        return LONG_MIN if max_ts == LONG_MIN else max_ts - self.bound - 1

    def before(self, t):
        """W(t): from every item that arrived strictly before t."""
        i = bisect.bisect_left(self.arrivals, t)
        return self.wm(self.prefix_max[i - 1] if i else LONG_MIN)

    def upper(self, arrival, t, own):
        """W'(t): from every item that arrived before `arrival` (the record's own first half
        included) and every item but the record's own that arrived from then up to t."""
        i = bisect.bisect_left(self.arrivals, arrival)
        m = self.prefix_max[i - 1] if i else LONG_MIN
        for k in range(i, bisect.bisect_right(self.arrivals, t)):
            if self.items[k][2] != own:
                m = max(m, self.items[k][1])
        return self.wm(m)

    def lag(self, arrival, wm):
        """How long before `arrival` an instant assigner had already passed wm (0 if it had
        not): how stale the watermark was when the record met it."""
        if wm >= self.before(arrival):
            return 0
        i = bisect.bisect_right(self.prefix_max, wm + self.bound + 1)
        return max(0, arrival - self.arrivals[i] - 1) if i < len(self.arrivals) else 0


class SourceBounds:
    """Bounds on the watermark of a WatermarkStrategy on the source: the minimum over the
    partitions' own watermarks (each partition's largest timestamp - bound - 1, Long.MIN_VALUE
    before its first event). Idleness takes partitions out of the minimum, and with every
    partition idle raises the watermark to the largest partition's (allIdle ? max : min), so
    the minimum over every partition stays a lower bound, and the largest watermark of any
    partition (the watermark after the parse) becomes the upper one."""

    def __init__(self, by_partition, bound_ms, idleness):
        self.parts = [Watermarks(items, bound_ms) for items in by_partition.values()]
        self.all = Watermarks([i for items in by_partition.values() for i in items], bound_ms)
        self.idleness = idleness

    def before(self, t):
        return min(w.before(t) for w in self.parts) if self.parts else LONG_MIN

    def upper(self, arrival, t, own):
        if self.idleness:
            return self.all.upper(arrival, t, own)
        return min(w.upper(arrival, t, own) for w in self.parts) if self.parts else LONG_MIN


# ---------------------------------------------------------------------------------------------
# The comparison.

class Report:
    def __init__(self):
        self.lines, self.fails, self.explained = [], [], []

    def fail(self, msg):
        self.fails.append(msg)
        self.lines.append("FAIL " + msg)

    def explain(self, msg):
        self.explained.append(msg)
        self.lines.append("explained by latency: " + msg)

    def note(self, msg):
        self.lines.append("note: " + msg)


def fsum(values):
    s = 0.0
    for v in values:
        s += v
    return s


def check(opts):
    ref = read_reference(opts.reference)
    fl = read_flink(opts.flink)
    rep = Report()
    L = opts.latency_ms
    stats = {}

    for raw in fl.get("unparsable", []):
        rep.fail(f"unparsable print line: {raw}")
    flink_bad = [m for m in fl.get("malformed", []) if WARM_UP not in m.get("value", "")]
    if not opts.reference_log:
        for m in flink_bad:
            rep.fail(f"malformed> {m}: the recording holds only events")
    else:
        def reason(r):
            return "not a JSON event object" if r.startswith("not a JSON event object") else r
        ours = Counter()
        with open(opts.reference_log, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.search(r": skipped: malformed event: (.*)$", line.rstrip("\n"))
                if m:
                    ours[reason(m.group(1))] += 1
        theirs = Counter(reason(m.get("reason", "")) for m in flink_bad)
        for r in sorted(set(ours) | set(theirs)):
            if ours[r] != theirs[r]:
                rep.fail(f"malformed: {theirs[r]} values refused by Flink's job and {ours[r]} by labtui for: {r}")
        stats["malformed"] = sum(theirs.values())

    # ---- trace
    rtrace = {t["request_id"]: t for t in ref["trace"]}
    ftrace_list = [t for t in fl.get("trace", [])]
    ftrace = {}
    for t in ftrace_list:
        if t["request_id"] in ftrace:
            rep.fail(f"trace: {t['request_id']} traced twice by Flink")
        ftrace[t["request_id"]] = t
    missing = sorted(set(rtrace) - set(ftrace))
    extra = sorted(set(ftrace) - set(rtrace))
    if missing:
        rep.fail(f"trace: {len(missing)} requests the reference assembled are not in Flink's "
                 f"trace: {missing[:10]}")
    if extra:
        rep.fail(f"trace: {len(extra)} requests in Flink's trace the reference did not "
                 f"assemble: {extra[:10]}")
    ftrace_list = [t for t in ftrace_list if t["request_id"] in rtrace]

    # ---- the job's delay, measured: L and S (the header says how)
    seen_at = {t["request_id"]: t["seen_at"] for t in ftrace_list if isinstance(t.get("seen_at"), int)}
    delays = sorted(seen - rtrace[rid]["arrival"] for rid, seen in seen_at.items())
    S = None
    early = 0  # how far before its arrival the trace had a record (a feed that sent early)
    if delays:
        S = opts.bundle_ms + max(0, delays[-1]) // 4
        L = max(L, delays[-1] + S)
        early = max(0, -delays[0])
    stats["delay"] = (delays[-1] if delays else None, delays[len(delays) // 2] if delays else None,
                      L, S)

    # ---- watermarks
    if opts.timestamp == "started_ts":
        # The trace's watermark comes from the second assigner, behind the RequestAssembler:
        # its items are the assembled records, at the arrival of the half that completed them.
        items = [(t["arrival"], t["timestamp"], t["request_id"]) for t in ref["trace"]]
    else:
        by_partition = {}
        items = read_events(opts.shifted, skipped_lines(opts.reference_log), by_partition)
    W = Watermarks(items, opts.out_of_orderness_ms)
    B = W  # the bounds a record's watermark must be within
    if opts.watermarks == "source" and opts.timestamp != "started_ts":
        B = SourceBounds(by_partition, opts.out_of_orderness_ms, opts.idleness)
        # PyFlink's strategy on the source sees the run's own warm-up value too (its parse
        # comes after the source): an event of partition 0 with Kafka timestamp 0, whose
        # watermark a source with the other partitions idle may emit before the recording.
        W.values.add(0 - opts.out_of_orderness_ms - 1)
    equal = within_bundle = 0
    lags = []
    flips = {}
    prev = LONG_MIN
    for f in ftrace_list:
        rid = f["request_id"]
        r = rtrace[rid]
        for k in ("tenant_id", "gateway", "timestamp", "event_window_end"):
            if f[k] != r[k]:
                rep.fail(f"trace {rid}: {k} {f[k]!r} in Flink, {r[k]!r} in the reference")
        end1 = r["event_window_end"] - 1
        if r["late"] != (r["watermark"] >= end1):
            rep.fail(f"trace {rid}: the reference calls it late={r['late']} at watermark "
                     f"{r['watermark']}, window end {r['event_window_end']}")
        if f["late"] != (f["watermark"] >= end1):
            rep.fail(f"trace {rid}: Flink calls it late={f['late']} at watermark {f['watermark']}, "
                     f"window end {f['event_window_end']}")
        if f["watermark"] not in W.values:
            rep.fail(f"trace {rid}: watermark {f['watermark']} in Flink is no event's timestamp "
                     f"- {opts.out_of_orderness_ms} - 1")
        if f["watermark"] < prev:
            rep.fail(f"trace {rid}: watermark {f['watermark']} in Flink is lower than the one "
                     f"before it ({prev})")
        prev = max(prev, f["watermark"])
        lo = B.before(r["arrival"] - L)
        until = r["arrival"] + L
        if rid in seen_at:
            until = min(until, seen_at[rid] + early)
        hi = B.upper(r["arrival"], until, rid)
        if not lo <= r["watermark"] <= B.upper(r["arrival"], r["arrival"] + L, rid):
            rep.fail(f"trace {rid}: the reference's watermark {r['watermark']} is outside "
                     f"[{lo}, {B.upper(r['arrival'], r['arrival'] + L, rid)}]")
        if not lo <= f["watermark"] <= hi:
            rep.fail(f"trace {rid}: watermark {f['watermark']} in Flink, {r['watermark']} in the "
                     f"reference, outside [{lo}, {hi}] (arrival {r['arrival']}, seen at "
                     f"{seen_at.get(rid)}, margin {L} ms)")
        lag = W.lag(r["arrival"], f["watermark"])
        lags.append(lag)
        if f["watermark"] == r["watermark"]:
            equal += 1
        elif f["watermark"] <= r["watermark"] and W.lag(r["arrival"], f["watermark"]) <= opts.bundle_ms:
            within_bundle += 1
        if f["late"] != r["late"]:
            flips[rid] = f["late"]
            rep.explain(f"{rid} ({r['tenant_id']}, timestamp {r['timestamp']}, arrival "
                        f"{r['arrival']}) is {'late' if f['late'] else 'on time'} in Flink, "
                        f"{'late' if r['late'] else 'on time'} in the reference: it met watermark "
                        f"{f['watermark']} in Flink, {r['watermark']} in the reference, window end "
                        f"{r['event_window_end']}")
    lags.sort()
    stats["wm"] = (equal, within_bundle, len(lags), lags[-1] if lags else 0,
                   lags[len(lags) // 2] if lags else 0)

    # ---- late side output
    rlate = {x["request_id"]: x for x in ref["late"]}
    for rid, x in rlate.items():
        if rid not in rtrace or not rtrace[rid]["late"]:
            rep.fail(f"late: the reference's late output has {rid}, its trace does not call it late")
    flate = {}
    for x in fl.get("late", []):
        if x["request_id"] in flate:
            rep.fail(f"late: {x['request_id']} twice in Flink's late output")
        flate[x["request_id"]] = x
    if set(flate) - set(ftrace):
        rep.fail(f"late: Flink's late output has records its trace does not: "
                 f"{sorted(set(flate) - set(ftrace))[:10]}")
    # The window and the trace are sibling operators: each takes a watermark at its own
    # bundle's end, so a record may meet another watermark in each. Such a record is one
    # when the window's watermark (the late output's) is within the record's range.
    want = {t["request_id"] for t in ftrace_list if t["late"]}
    apart = 0
    for rid in sorted((set(flate) ^ want) & set(rtrace)):
        r, x = rtrace[rid], flate.get(rid)
        lo = B.before(r["arrival"] - L)
        hi = B.upper(r["arrival"], r["arrival"] + L, rid)
        if x is not None and not lo <= x["watermark"] <= hi:
            rep.fail(f"late {rid}: in Flink's late output at watermark {x['watermark']}, outside "
                     f"[{lo}, {hi}], while the trace met {ftrace[rid]['watermark']} (on time)")
            continue
        apart += 1
        rep.explain(f"late {rid} (window end {r['event_window_end']}): "
                    + (f"the window dropped it at watermark {x['watermark']}, the trace had it on "
                       f"time at {ftrace[rid]['watermark']}" if x is not None else
                       f"the trace calls it late at watermark {ftrace[rid]['watermark']}, the "
                       f"window kept it (its watermark was still below the window's end)"))
    # What Flink's event-time window did: late is what it dropped.
    wflips = {rid for rid in ftrace if rid in rtrace and (rid in flate) != rtrace[rid]["late"]}
    late_wm_equal = 0
    for rid in sorted(set(flate) & set(rtrace)):
        x, r = flate[rid], rtrace[rid]
        for k in ("tenant_id", "gateway", "timestamp", "usd"):
            if x.get(k) != r.get(k):
                rep.fail(f"late {rid}: {k} {x.get(k)!r} in Flink, {r.get(k)!r} in the reference")
        if x["watermark"] < r["event_window_end"] - 1:
            rep.fail(f"late {rid}: Flink's watermark {x['watermark']} has not passed its window")
        if x["watermark"] != ftrace[rid]["watermark"]:
            rep.note(f"late {rid}: the late output's watermark {x['watermark']}, the trace's "
                     f"{ftrace[rid]['watermark']}")
        if rid in rlate and x["watermark"] == rlate[rid]["watermark"]:
            late_wm_equal += 1
    stats["late"] = (len(flate), len(rlate), late_wm_equal, apart)

    # ---- event-time windows
    usd = {rid: r["usd"] for rid, r in rtrace.items()}
    r_on, f_on = defaultdict(list), defaultdict(list)
    for t in ref["trace"]:
        if not t["late"]:
            r_on[(t["tenant_id"], t["event_window_end"] - MINUTE_MS)].append(t["request_id"])
    for t in ftrace_list:
        if t["request_id"] not in flate:
            f_on[(t["tenant_id"], t["event_window_end"] - MINUTE_MS)].append(t["request_id"])
    rfired = {(w["tenant_id"], w["window_start"]): w for w in ref["event-time"]}
    rpend = {(w["tenant_id"], w["window_start"]): w for w in ref["pending"]
             if w.get("window") == "event-time"}
    ffired = {}
    for w in fl.get("event-time", []):
        k = (w["tenant_id"], w["window_start"])
        if k in ffired:
            rep.fail(f"event-time {k}: fired twice in Flink")
        if w["window_end"] != w["window_start"] + MINUTE_MS or w["window_start"] % MINUTE_MS:
            rep.fail(f"event-time {w}: not an epoch-aligned minute")
        ffired[k] = w
    et_equal = et_bits = 0
    flipped = {(rtrace[rid]["tenant_id"], rtrace[rid]["event_window_end"] - MINUTE_MS) for rid in wflips}
    for k in sorted(set(rfired) | set(rpend) | set(ffired) | set(r_on) | set(f_on)):
        rw = rfired.get(k) or rpend.get(k)
        rs, fs = r_on.get(k, []), f_on.get(k, [])
        if rw is None and rs:
            rep.fail(f"event-time {k}: the reference traced {len(rs)} on time but has no window")
        if rw is not None and (rw["requests"] != len(rs) or rw["usd"] != fsum(usd[x] for x in rs)):
            rep.fail(f"event-time {k}: the reference's window {rw} does not hold what it traced on time")
        if set(rs) != set(fs):
            if set(rs) ^ set(fs) <= wflips:
                rep.explain(f"event-time {k}: {len(fs)} requests on time in Flink, {len(rs)} in the "
                            f"reference, by the records above")
            else:
                rep.fail(f"event-time {k}: on time in Flink only {sorted(set(fs) - set(rs))[:5]}, "
                         f"in the reference only {sorted(set(rs) - set(fs))[:5]}")
        fw = ffired.get(k)
        if fw is not None and (fw["requests"] != len(fs) or fw["usd"] != fsum(usd[x] for x in fs)):
            rep.fail(f"event-time {k}: Flink's window {fw} does not hold what Flink traced and did "
                     f"not drop as late ({len(fs)}, usd {fsum(usd[x] for x in fs)!r})")
        if (fw is not None) != (k in rfired):
            if k in flipped and not (fs and rs):
                rep.explain(f"event-time {k}: fired only in {'Flink' if fw else 'the reference'}")
            else:
                rep.fail(f"event-time {k}: {'fired' if fw else 'not fired'} in Flink, "
                         f"{'fired' if k in rfired else 'pending' if k in rpend else 'absent'} in the reference")
            continue
        got = fw if fw is not None else {"requests": len(fs), "usd": fsum(usd[x] for x in fs)}
        if rw is None:
            continue
        if got["requests"] == rw["requests"] and got["usd"] == rw["usd"]:
            et_equal += 1
        elif set(rs) == set(fs) and rs != fs:
            et_bits += 1
            rep.note(f"event-time {k} ({'fired' if fw else 'pending'}): usd {got['usd']!r} in Flink, "
                     f"{rw['usd']!r} in the reference: the same {len(rs)} records, added in another "
                     f"order (records close in time on different partitions reached the source in "
                     f"another order than they arrived)")
        elif k not in flipped:
            rep.fail(f"event-time {k}: Flink {got}, reference {rw}")
    stats["et"] = (et_equal, et_bits, len(rfired), len(rpend))

    # ---- processing time
    seq = defaultdict(list)
    for t in ftrace_list:
        seq[t["tenant_id"]].append(t["request_id"])
    fpt = defaultdict(list)
    for w in fl.get("processing-time", []):
        fpt[w["tenant_id"]].append(w)
    rpt = defaultdict(dict)
    for w in ref["processing-time"]:
        rpt[w["tenant_id"]][w["window_start"]] = w
    arrivals = defaultdict(list)  # (arrival, seen_at or None) of each record of the tenant
    for t in ref["trace"]:
        arrivals[t["tenant_id"]].append((t["arrival"], seen_at.get(t["request_id"])))
    pt_equal = pt_explained = pt_total = 0
    pt_late = 0  # the furthest before a boundary a record arrived that Flink put after it
    for tenant in sorted(set(fpt) | set(rpt)):
        wins = sorted(fpt.get(tenant, []), key=lambda w: w["window_start"])
        rtot = sum(w["requests"] for w in rpt[tenant].values())
        ftot = sum(w["requests"] for w in wins)
        if ftot != rtot or ftot != len(seq[tenant]):
            rep.fail(f"processing-time {tenant}: {ftot} requests in Flink's windows, {rtot} in the "
                     f"reference's, {len(seq[tenant])} traced by Flink")
            continue
        pos = 0
        for w in wins:
            run = seq[tenant][pos:pos + w["requests"]]
            pos += w["requests"]
            for rid in run:
                a = rtrace[rid]["arrival"]
                if not w["window_start"] - L <= a < w["window_end"]:
                    rep.fail(f"processing-time {tenant} [{w['window_start']}, {w['window_end']}) holds "
                             f"{rid}, which arrived at {a}: not in [start - {L} ms, end)")
                seen = seen_at.get(rid)
                if seen is not None and not w["window_start"] - S <= seen < w["window_end"] + S:
                    rep.fail(f"processing-time {tenant} [{w['window_start']}, {w['window_end']}) holds "
                             f"{rid}, which the trace had at {seen}: not in [start - {S} ms, end + {S} ms)")
                pt_late = max(pt_late, w["window_start"] - a)
            if w["usd"] != fsum(usd[x] for x in run):
                rep.fail(f"processing-time {tenant} {w['window_start']}: usd {w['usd']!r} is not the "
                         f"sum of its {len(run)} records in Flink's order "
                         f"({fsum(usd[x] for x in run)!r})")
        arr = arrivals[tenant]
        for start in sorted(set(rpt[tenant]) | {w["window_start"] for w in wins}):
            pt_total += 1
            end = start + MINUTE_MS
            def crossed(a, seen, b):  # arrived before b, and an operator may have had it after b
                return a < b and (seen + S >= b if seen is not None else a >= b - L)
            near = sum(1 for a, seen in arr if crossed(a, seen, start) or crossed(a, seen, end))
            r = rpt[tenant].get(start)
            f = next((w for w in wins if w["window_start"] == start), None)
            if r is not None and f is not None and (r["requests"], r["usd"]) == (f["requests"], f["usd"]):
                pt_equal += 1
            elif near:
                pt_explained += 1
                rep.explain(f"processing-time {tenant} minute {start}: {(f or {}).get('requests', 0)} "
                            f"requests in Flink, {(r or {}).get('requests', 0)} in the reference; "
                            f"{near} of the tenant's records arrived before one of its boundaries and "
                            f"reached the job after it (or within {S if S is not None else L} ms of it)")
            else:
                rep.fail(f"processing-time {tenant} minute {start}: Flink {f}, reference {r}, and no "
                         f"record of the tenant crossed its boundaries on the way to the job")
    stats["pt"] = (pt_equal, pt_explained, pt_total, pt_late)

    eq, wb, n, lag_max, lag_med = stats["wm"]
    lf, lr, lwe, lapart = stats["late"]
    dmax, dmed, L, S = stats["delay"]
    ee, eb, er, ep = stats["et"]
    pe, px, pn, pl = stats["pt"]
    parts = [f"{len(ftrace)}/{len(rtrace)} requests traced",
             f"watermarks {eq} equal, {wb} more within a bundle ({opts.bundle_ms} ms), "
             f"the rest within {L} ms (lag median {lag_med} ms, max {lag_max} ms)",
             f"late {lf}/{lr}" + (f" ({len(flips)} flips explained)" if flips else "")
             + (f" ({lapart} met another watermark in the window than in the trace)" if lapart else ""),
             f"event-time {ee} equal" + (f", {eb} usd in other bits (order)" if eb else "")
             + f" of {er} fired + {ep} pending",
             f"processing-time {pe}/{pn} minutes equal"
             + (f", {px} explained by latency (a record {pl} ms before a boundary landed after it)"
                if px else ""),
             (f"delay measured: seen {dmed} ms after arrival (median), {dmax} ms at most, so L "
              f"{L} ms, S {S} ms" if dmax is not None else f"no seen_at in the trace: L {L} ms")
             + f"; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"]
    return rep, "; ".join(parts)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["check", "wait"])
    p.add_argument("--reference", required=True)
    p.add_argument("--flink", required=True)
    p.add_argument("--shifted")
    p.add_argument("--watermarks", default="stream", choices=["stream", "source"],
                   help="where the job generates watermarks: the bounds a record's watermark must be within")
    p.add_argument("--idleness", action="store_true", help="with --watermarks source: withIdleness is on")
    p.add_argument("--reference-log", default="",
                   help="labtui replay's stderr: its skipped malformed events, to compare with malformed>")
    p.add_argument("--out-of-orderness-ms", type=int, default=0)
    p.add_argument("--timestamp", default="completed_ts", choices=["completed_ts", "started_ts"])
    p.add_argument("--latency-ms", type=int, default=15000,
                   help="the most PyFlink may delay a record after its arrival (default 15000)")
    p.add_argument("--bundle-ms", type=int, default=2000,
                   help="watermarks that trail by at most this are counted apart (default 2000)")
    p.add_argument("--deadline-ms", type=int, default=0)
    p.add_argument("--grace-ms", type=int, default=3000)
    p.add_argument("--job-pid", type=int, default=0,
                   help="wait: stop waiting when this process group is gone")
    p.add_argument("--report", default="")
    p.add_argument("--name", default="")
    opts = p.parse_args()

    if opts.mode == "wait":
        # The deadline assumes a job within its margin; a job that runs further behind (a
        # busy machine) is waited for while its output still grows: for 75 s after its last
        # line (so a processing-time minute that holds its last records can still fire), up
        # to 10 min past the deadline.
        want = expected_counts(read_reference(opts.reference))
        size, grew = -1, time.time()
        while True:
            now = time.time()
            if opts.job_pid and not alive(opts.job_pid):
                print("job gone")
                return
            if reached(want, read_flink(opts.flink)):
                time.sleep(opts.grace_ms / 1000)
                print("in")
                return
            try:
                n = os.path.getsize(opts.flink)
            except OSError:
                n = -1
            if n != size:
                size, grew = n, now
            if now * 1000 >= opts.deadline_ms and (now - grew > 75
                                                   or now * 1000 >= opts.deadline_ms + 600_000):
                print(f"deadline ({round(now * 1000 - opts.deadline_ms)} ms past it, the output "
                      f"last grew {round(now - grew)} s before)")
                return
            time.sleep(1)

    rep, summary = check(opts)
    verdict = "FAIL" if rep.fails else "PASS"
    line = f"{verdict} {opts.name}: {summary}"
    if opts.report:
        with open(opts.report, "w") as f:
            f.write("\n".join(rep.lines + [line]) + "\n")
    if rep.fails:
        line += f"; {len(rep.fails)} differences, the first: {rep.fails[0]}"
    print(line)
    sys.exit(1 if rep.fails else 0)


if __name__ == "__main__":
    main()
