"""Adversarial recordings in labtui's recording format (docs/RECORDING.md), from a seed.

Every recording mixes, at random, the cases a re-enactment gets wrong most easily: event times
on window boundaries (hh:mm:59.999, hh:mm:00.000), ties in timestamps and in arrivals,
arrivals on watermark ticks and window ends, out of order within and across partitions, a
partition that goes quiet (far ahead in event time, or not) or never sends, a partition of
only tombstones, a topic line with partitions nobody writes to, halves more than
--forget-after apart, duplicate
request ids and halves, a RequestCompleted before its RequestStarted, started_ts far from
completed_ts, tenants nobody configured, unpriced models, malformed values and lines,
tombstones, times near zero and negative, gaps of days, several hours, Kafka timestamps that
are not the event's ts.
"""

import gzip
import json
import os
import random

MINUTE = 60_000
CONTRACT = os.path.join(os.path.dirname(__file__), "..", "..", "job", "event-contract.jsonl")
MODELS = ["flat-10c", "nova-large", "nova-small", "orca-70b"]
TENANTS = ["acme", "globex", "initech", "umbrella", "hooli", "zz-unknown", "Acme", "ünï"]


def _contract_values():
    vals = []
    with open(CONTRACT, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if isinstance(d.get("value"), str):
                    vals.append(d["value"])
    return vals


def _base(rng) -> int:
    kind = rng.choice(["lab", "lab", "lab", "zero", "negative", "far"])
    if kind == "zero":
        return rng.choice([0, 1, -1, 59_999, 60_000, 200]) + rng.randrange(-3, 3) * MINUTE
    if kind == "negative":
        return -rng.randrange(1, 10**12)
    if kind == "far":
        return rng.randrange(10**13, 2 * 10**14)
    return 1795946400000 + rng.randrange(0, 3) * MINUTE  # 2026-11-29T10:00Z and after


def _snap(rng, t: int, interval: int) -> int:
    """Sometimes move t onto a boundary: a window's last ms, its first, a tick."""
    r = rng.random()
    if r < 0.15:
        return t - t % MINUTE + MINUTE - 1
    if r < 0.30:
        return t - t % MINUTE
    if r < 0.40:
        return t - t % interval
    return t


def recording(seed: int, swaps: bool = True):
    """The lines of recording `seed`: a list of strings (no newline). swaps: some neighbours
    of one partition change places, so its arrivals are not in offset order."""
    rng = random.Random(seed)
    base = _base(rng)
    parts = rng.choice([1, 2, 3, 3, 4])
    quiet = rng.random() < 0.3          # the last partition stops early
    never = rng.random() < 0.2          # a partition that never sends (a higher one does)
    ahead = rng.choice([0, 0, 0, 3, 10, 60]) * MINUTE  # the quiet partition's events ahead
    tombs = rng.random() < 0.15         # a partition of only tombstones, the highest
    topic = rng.random() < 0.25         # a topic line, perhaps with partitions nobody writes
    n = rng.choice([3, 10, 30, 60, 120])
    span = rng.choice([5_000, 60_000, 180_000, 900_000, 3 * 3600_000])
    tenants = rng.sample(TENANTS, rng.randint(1, 4))
    tick = rng.choice([200, 1000, 333])
    contract = _contract_values()
    msgs = []  # (partition, arrival, kafka ts, key, value) before offsets
    t = base
    for i in range(n):
        t += rng.choice([0, 0, 1, rng.randrange(0, max(1, 2 * span // n))])
        if rng.random() < 0.03:
            t += rng.choice([86_400_000, 7 * 86_400_000, 600_001])  # a very large gap
        rid = f"r-{seed}-{i}" if rng.random() > 0.08 else f"r-{seed}-{rng.randrange(max(1, i))}"
        tenant = rng.choice(tenants)
        model = rng.choice(MODELS) if rng.random() > 0.04 else "gpt-unknown"
        gw = f"gw-{rng.randrange(3)}"
        started = _snap(rng, t, tick)
        dur = rng.choice([0, 1, 250, 1500, 12_000, 59_999, 60_000])
        if rng.random() < 0.05:
            dur = rng.choice([600_001, 3600_000, -5_000])  # far apart, or completed first
        completed = _snap(rng, started + dur, tick)
        p_tok = rng.choice([0, 1, 1000, 1234, 99_999, 2**53 + 1])
        c_tok = rng.choice([0, 7, 1000, 4321, 10**9])
        s = {"type": "RequestStarted", "request_id": rid, "tenant_id": tenant, "model": model,
             "gateway": gw, "ts": started, "prompt_tokens": p_tok}
        c = {"type": "RequestCompleted", "request_id": rid, "tenant_id": tenant, "model": model,
             "gateway": gw, "ts": completed, "completion_tokens": c_tok}
        part = hash_part(rid, parts)
        halves = [(s, started), (c, completed)]
        if rng.random() < 0.1:
            halves.reverse()  # the Completed reaches the topic first
        if rng.random() < 0.04:
            halves = halves[:1]  # the other half never comes
        if rng.random() < 0.05:
            halves.append(rng.choice(halves))  # a duplicate half
        for ev, ts in halves:
            p = part if rng.random() > 0.1 else rng.randrange(parts)
            delay = rng.choice([0, 0, 0, 1, 5, 200, 999])
            if rng.random() < 0.08:
                delay = rng.choice([35_000, 61_000, 700_000])  # a retry buffer's hold
            arrival = _snap(rng, ts + delay, tick) if rng.random() < 0.3 else ts + delay
            arrival = max(arrival, ts - 1000) if rng.random() < 0.9 else arrival
            kts = ts if rng.random() > 0.05 else ts + rng.randrange(-90_000, 90_000)
            value = json.dumps(ev, separators=(",", ":"))
            r = rng.random()
            if r < 0.02:
                value = rng.choice(contract)
            elif r < 0.03:
                value = None  # a tombstone
            msgs.append([p, arrival, kts, rid, value])
    if quiet and parts > 1:
        cut = sorted(m[1] for m in msgs)[len(msgs) // 3]
        msgs = [m for m in msgs if not (m[0] == parts - 1 and m[1] > cut)]
        if ahead:
            # the quiet partition far ahead in event time: once every split is idle the
            # source's watermark is its (allIdle ? max : min), and what follows is late
            for m in msgs:
                if m[0] == parts - 1:
                    m[4] = _shift_ts(m[4], ahead)
    if never and parts > 1:
        gone = rng.randrange(parts - 1)
        for m in msgs:
            if m[0] == gone:
                m[0] = parts - 1
    if tombs:
        arrivals = [m[1] for m in msgs] or [base]
        for _ in range(rng.choice([1, 2, 5])):
            msgs.append([parts, rng.choice(arrivals) + rng.choice([0, 1, 7_000]), base, "z", None])
    # topic order: per partition in arrival order (mostly), offsets given in that order
    msgs.sort(key=lambda m: (m[1], m[0]))
    if rng.random() < 0.1 and swaps:  # arrivals out of offset order within a partition
        for _ in range(3):
            if len(msgs) > 2:
                k = rng.randrange(len(msgs) - 1)
                msgs[k], msgs[k + 1] = msgs[k + 1], msgs[k]
    offsets = {}
    lines = []
    for p, arrival, kts, key, value in msgs:
        off = offsets.get(p, 0)
        offsets[p] = off + 1
        rec = {"partition": p, "offset": off, "timestamp": kts, "arrival": arrival,
               "key": key, "value": value}
        if value is not None and rng.random() < 0.5 and value.startswith("{"):
            try:
                rec["value"] = json.loads(value)  # the value as an object, not a string
                if not isinstance(rec["value"], dict):
                    rec["value"] = value
            except ValueError:
                pass
        line = json.dumps(rec, separators=(",", ":"), ensure_ascii=rng.random() < 0.5)
        if isinstance(value, str) and _is_object(value) and rng.random() < 0.5:
            # the value's own text as the line's value object, duplicate keys and all
            head = dict(rec, value=0)
            line = json.dumps(head, separators=(",", ":"))[:-2] + value.strip() + "}"
        elif value is not None and arrival == kts and rng.random() < 0.05:
            # kcat -J's envelope (it has no arrival: the Kafka timestamp stands for it)
            line = json.dumps({"topic": "gateway-events", "partition": p, "offset": off,
                               "tstype": "create", "ts": kts, "broker": 1, "key": key,
                               "payload": value}, separators=(",", ":"))
        lines.append(line)
    if topic:
        top = max([m[0] for m in msgs] + [0])
        lines.insert(0, json.dumps({"topic": "gateway-events",
                                    "partitions": top + 1 + rng.choice([0, 0, 1, 2])},
                                   separators=(",", ":")))
    if lines and rng.random() < 0.05:  # one line twice, same partition and offset
        k = rng.randrange(len(lines))
        lines.insert(k + 1, lines[k])
    if rng.random() < 0.05:  # CRLF line ends
        lines = [ln + "\r" for ln in lines]
    for _ in range(rng.choice([0, 0, 1, 3])):  # lines that are not records
        bad = rng.choice(["garbage", "{", "[]", '{"partition":-1,"offset":0,"timestamp":1}',
                          '{"partition":0,"offset":-3,"timestamp":1}', '"just a string"',
                          '{"partition":0,"offset":1.5,"timestamp":1}', "   "])
        lines.insert(rng.randrange(len(lines) + 1), bad)
    return lines


def _shift_ts(value, by: int):
    """value (an event's JSON text) with its ts moved by `by`; any other value as it is."""
    if not isinstance(value, str):
        return value
    try:
        ev = json.loads(value)
    except ValueError:
        return value
    if not isinstance(ev, dict) or not isinstance(ev.get("ts"), int) or isinstance(ev.get("ts"), bool):
        return value
    ev["ts"] += by
    return json.dumps(ev, separators=(",", ":"))


def _is_object(text: str) -> bool:
    """Whether text is one JSON object by Python's parser with NaN refused."""
    def no(name):
        raise ValueError(name)
    try:
        return isinstance(json.loads(text, parse_constant=no), dict)
    except ValueError:
        return False


def hash_part(key: str, parts: int) -> int:
    h = 0
    for ch in key.encode():
        h = (h * 31 + ch) & 0xFFFFFFFF
    return h % parts


def _rec(p, o, ts, arr, rid, typ, tok=1000, tenant="acme", kts=None):
    v = {"type": typ, "request_id": rid, "tenant_id": tenant, "model": "flat-10c",
         "gateway": "gw-0", "ts": ts}
    v["prompt_tokens" if typ == "RequestStarted" else "completion_tokens"] = tok
    return json.dumps({"partition": p, "offset": o, "timestamp": ts if kts is None else kts,
                       "arrival": arr, "key": rid, "value": v}, separators=(",", ":"))


def corners():
    """Hand-made recordings, each aimed at one rule: {name: lines}."""
    T = 1795946400000
    S, C = "RequestStarted", "RequestCompleted"
    return {
        # the course's burst: one partition's records held 35 s across a minute
        "idle-after-the-end": [  # p1 goes idle after the last record, before p0 does
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(1, 0, T + 2000, T + 2000, "a", C),
            _rec(1, 1, T + 30000, T + 65900, "b", S), _rec(0, 1, T + 66100, T + 66100, "b", C)],
        "all-idle-far-ahead": [  # p1, 5 min ahead, goes idle first; then p0: the max
            _rec(1, 0, T + 301000, T + 500, "b", S), _rec(1, 1, T + 302000, T + 600, "b", C),
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(0, 1, T + 2000, T + 2000, "a", C),
            _rec(0, 2, T + 20000, T + 20000, "c", S), _rec(0, 3, T + 21000, T + 21000, "c", C),
            _rec(0, 4, T + 100000, T + 100000, "d", S), _rec(0, 5, T + 101000, T + 101000, "d", C)],
        "only-tombstones": [  # p2 holds nothing but tombstones: a split at Long.MIN_VALUE
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(1, 0, T + 2000, T + 2000, "a", C),
            json.dumps({"partition": 2, "offset": 0, "timestamp": T + 3000, "arrival": T + 3000,
                        "key": "z", "value": None}, separators=(",", ":")),
            _rec(0, 1, T + 65000, T + 65000, "b", S), _rec(0, 2, T + 66000, T + 66000, "b", C)],
        "topic-line": [  # four partitions, two of them empty
            '{"topic":"gateway-events","partitions":4}',
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(1, 0, T + 2000, T + 2000, "a", C),
            _rec(0, 1, T + 65000, T + 65000, "b", S), _rec(0, 2, T + 66000, T + 66000, "b", C)],
        "beyond-the-topic-line": [
            '{"topic":"gateway-events","partitions":2}',
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(2, 0, T + 2000, T + 2000, "a", C)],
        "idle-before-the-end": [
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(1, 0, T + 2000, T + 2000, "a", C),
            _rec(0, 1, T + 65000, T + 65000, "b", S), _rec(0, 2, T + 66000, T + 66000, "b", C)],
        "boundaries": [  # :59.999 and :00.000, arrivals on ticks and window ends
            _rec(0, 0, T + 59999, T + 59999, "a", S), _rec(0, 1, T + 59999, T + 60000, "a", C),
            _rec(1, 0, T + 60000, T + 60000, "b", S), _rec(1, 1, T + 60000, T + 60200, "b", C),
            _rec(2, 0, T + 59998, T + 60200, "c", S), _rec(2, 1, T + 59999, T + 60400, "c", C),
            _rec(0, 2, T + 119999, T + 119999, "d", S), _rec(0, 3, T + 119999, T + 119999, "d", C),
            _rec(1, 2, T + 60001, T + 120000, "e", S), _rec(1, 3, T + 119998, T + 120000, "e", C)],
        "big-tokens": [  # a count above 2**53: int / 1000 is not float(int) / 1000
            _rec(0, 0, T + 1000, T + 1000, "a", S, 36028797018963980),
            _rec(0, 1, T + 2000, T + 2000, "a", C, 9223372036854775807)],
        "completed-first": [
            _rec(0, 0, T + 59000, T + 59000, "a", C), _rec(1, 0, T + 1000, T + 61000, "a", S),
            _rec(0, 1, T + 70000, T + 70000, "b", S), _rec(0, 2, T + 69000, T + 71000, "b", C)],
        "rejoin-after-join": [  # a third half after a join starts a new request
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(0, 1, T + 2000, T + 2000, "a", C),
            _rec(0, 2, T + 3000, T + 3000, "a", C), _rec(0, 3, T + 4000, T + 4000, "a", S),
            _rec(0, 4, T + 5000, T + 5000, "a", S)],
        "forgotten": [  # halves 10 min apart and a bit
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(0, 1, T + 601000, T + 601000, "x", S),
            _rec(0, 2, T + 601001, T + 601500, "y", S), _rec(0, 3, T + 601002, T + 601600, "a", C),
            _rec(0, 4, T + 601003, T + 601700, "y", C)],
        "ill-formed-utf8": _ill_formed(T),
        "long-range-ends": [  # records stamped within a minute of the ends of the long range:
            # refused where their minute's window would overflow a long, accepted just inside
            # (each first half at a plain time: ts + --forget-after overflowing is left out,
            # PyFlink's job cannot register such a timer at all; see the README)
            _rec(0, 0, 1000, T, "a", S, kts=T), _rec(0, 1, 2**63 - 1, T + 1, "a", C, kts=T),
            _rec(0, 2, 2000, T + 2, "b", S, kts=T), _rec(0, 3, -(2**63 - 1), T + 3, "b", C, kts=T),
            _rec(1, 0, 3000, T + 400, "c", S, kts=T), _rec(1, 1, 2**63 - 59000, T + 600, "c", C, kts=T),
            _rec(1, 2, 4000, T + 700, "e", S, kts=T), _rec(1, 3, -(2**63) + 70000, T + 900, "e", C, kts=T)],
        "long-range-bounds": [  # the job's TS_MIN and TS_MAX, and one past each
            _rec(0, 0, 1000, T, "a", S, kts=T), _rec(0, 1, 2**63 - 55_809, T + 1, "a", C, kts=T),
            _rec(0, 2, 2000, T + 2, "b", S, kts=T), _rec(0, 3, 2**63 - 55_808, T + 3, "b", C, kts=T),
            _rec(0, 4, 3000, T + 4, "c", S, kts=T), _rec(0, 5, -(2**63) + 55_808, T + 5, "c", C, kts=T),
            _rec(0, 6, 4000, T + 6, "d", S, kts=T), _rec(0, 7, -(2**63) + 55_807, T + 7, "d", C, kts=T),
            _rec(0, 8, 5000, T + 8, "e", S, kts=T), _rec(0, 9, 6000, T + 9, "e", C, kts=T)],
        "long-range-start": [
            _rec(0, 0, 1000, T, "a", S, kts=T), _rec(0, 1, -(2**63 - 1), T + 1, "a", C, kts=T),
            _rec(0, 2, 2000, T + 2, "b", C, kts=T), _rec(0, 3, -(2**63) + 59_999, T + 300, "b", S, kts=T)],
        "duplicate-value-keys": [  # the last of an envelope's duplicate keys wins
            _rec(0, 0, T + 1000, T + 1000, "a", S)[:-1] + ',"value":null}',
            '{"partition":0,"offset":1,"timestamp":%d,"arrival":%d,"key":"a","value":null,"value":%s}'
            % (T + 1500, T + 1500, json.dumps(json.loads(_rec(0, 1, T + 1500, T + 1500, "a", S))["value"], separators=(",", ":"))),
            _rec(0, 2, T + 2000, T + 2000, "a", C)[:-1] + ',"value":true}',
            _rec(0, 3, T + 2500, T + 2500, "a", C)],
        "tombstone-first": [  # the job starts at the first record with a value
            json.dumps({"partition": 2, "offset": 0, "timestamp": T - 60000, "arrival": T - 60000,
                        "key": "z", "value": None}, separators=(",", ":")),
            _rec(2, 1, T + 59999, T + 59999, "a", S), _rec(2, 2, T + 80000, T + 118999, "a", C)],
        "partition-2147483647": [  # a split each up to it would be 2^31 of them
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(2147483647, 0, T + 2000, T + 2000, "a", C)],
        "partition-40": [
            _rec(0, 0, T + 1000, T + 1000, "a", S), _rec(40, 0, T + 2000, T + 2000, "a", C),
            _rec(0, 1, T + 70000, T + 70000, "b", S), _rec(0, 2, T + 71000, T + 71000, "b", C)],
        "arrivals-out-of-offset-order": [  # a consumer reads a partition in offset order
            _rec(0, 0, T + 1000, T + 9000, "a", S), _rec(0, 1, T + 2000, T + 2000, "b", S),
            _rec(1, 0, T + 3000, T + 10000, "a", C), _rec(1, 1, T + 4000, T + 10000, "b", C)],
    }


def _ill_formed(T: int):
    """Values with bytes that are not UTF-8, as objects and as JSON strings with escapes;
    the lines are str with the bytes as surrogate escapes (write encodes them back)."""
    seqs = [b"\xff", b"\xe2\x82", b"\xed\xa0\x80", b"\xf0\x9f", b"\xc0\xaf", b"\xf4\x90\x80\x80",
            b"\xe2\x82\xe2\x82\xac", b"\x80\x80"]
    out = []
    for i, s in enumerate(seqs):
        rid = f"u{i}".encode()
        ts = T + i * 1000
        started = (b'{"type":"RequestStarted","request_id":"' + rid + b'","tenant_id":"t' + s +
                   b'x","model":"flat-10c","gateway":"gw-0","ts":%d,"prompt_tokens":1000}' % ts)
        done = (b'{"type":"RequestCompleted","request_id":"' + rid + b'","tenant_id":"t",'
                b'"model":"flat-10c","gateway":"gw-0","ts":%d,"completion_tokens":1000}' % (ts + 10))
        if i % 2:
            v = b'"' + started.replace(b'"', b'\\"') + b'"'
        else:
            v = started
        head = b'{"partition":0,"offset":%d,"timestamp":%d,"arrival":%d,"key":"k","value":'
        out.append(head % (2 * i, ts, ts) + v + b"}")
        out.append(head % (2 * i + 1, ts + 10, ts + 10) + done + b"}")
    return [b.decode("utf-8", "surrogateescape") for b in out]
