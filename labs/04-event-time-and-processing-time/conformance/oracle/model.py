"""An independent reference model of the lab's GatewayMeter job under Flink's rules.

It re-enacts a recording the way `labtui replay --pace recorded` says it does (a simulated
processing-time clock, watermark emits on epoch multiples of the interval) and computes what
Flink's operators would print, from these rules, each checked against the class named:

  - TimestampsAndWatermarksOperator: the record is emitted before the generator sees it;
    a periodic emit every interval of processing time, none when the interval is 0; its
    WatermarkEmitter forwards only strictly increasing watermarks and never Long.MIN_VALUE.
  - BoundedOutOfOrdernessWatermarks(B) (AscendingTimestampsWatermarks is B = 0): maxTs starts at
    Long.MIN_VALUE + B + 1, onEvent maxTs = max(maxTs, ts), onPeriodicEmit emits maxTs - B - 1.
  - ProcessingTimeServiceUtil.getProcessingTimeDelay: a timer due at t fires at t + 1 ms at the
    earliest, so on the simulated clock it runs before a record arriving at p exactly when t < p.
  - TimeWindow.getWindowStartWithOffset, maxTimestamp() = end - 1.
  - WindowOperator.processElement with EventTimeTrigger / ProcessingTimeTrigger: a window whose
    maxTimestamp <= currentWatermark is late and skipped, the element goes to the late side
    output when ts <= currentWatermark; event-time windows fire when the watermark reaches
    end - 1 (InternalTimerServiceImpl.advanceWatermark: every timer <= watermark), processing-
    time windows when the clock passes end - 1.
  - KeyedProcessFunction (the lab's RequestAssembler): the joined record takes the timestamp of
    the element that completed it (TimestampedCollector.setTimestamp); after a join the state is
    clear, so a later half of the same request starts a new one; the forget timer is
    ts + forget_after of the first half, deleted on a join, and fires on the first watermark
    at or past it.
  - --watermarks source: one generator per split, every partition a split from the start
    (SourceOperator creates the split outputs when the splits are added), the source's watermark
    the minimum over splits that are not idle, and the maximum over all of them when every
    split is idle (WatermarkOutputMultiplexer, CombinedWatermarkStatus.updateCombinedWatermark:
    allIdle ? max : min, emitted only when it rises, checked with javap -c on flink-core
    2.2.1; FLINK-38454); a tombstone or a malformed value is no event of its split, whose
    partition is a split all the same, and so is every partition of the recording's topic
    line ({"partitions": N}, its first line that is not blank: docs/RECORDING.md);
    WatermarksWithIdleness.IdlenessTimer.checkIfIdle on every periodic emit: activity
    since the last check resets it, the first check without activity starts the countdown,
    idle when now - start > D; a split is active again at the first periodic emit after an
    event (PartialWatermark.setWatermark clears idle).
  - --timestamp started_ts: a second TimestampsAndWatermarksOperator after the assembler, with
    the same strategy (no idleness), ignoring upstream watermarks except Long.MAX_VALUE.
  - --drain: Long.MAX_VALUE at the end (StopWithSavepoint --drain).

The parse is the lab's own contract (job/gateway_meter.py, parse_event), copied here so this
model runs without PyFlink. It is written without reading labtui's engine, meter, replay or
enginejob code: the point is independence. Standard library only.
"""

import gzip
import json

LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
MINUTE = 60_000
MAX_SPLITS = 1 << 16  # labtui's jobspec.maxPartitions
YEAR1_MS, YEAR9999_MS = -62135596800000, 253402300799999
# The first and the last ts whose minute a long holds (the lab job's TS_MIN, TS_MAX): the job
# refuses an event outside them as malformed, where Flink's window arithmetic would overflow.
TS_MIN, TS_MAX = LONG_MIN + (-LONG_MIN) % MINUTE, LONG_MAX - LONG_MAX % MINUTE - 1

PRICE_PER_1K = {
    "nova-large": (0.0030, 0.0150),
    "nova-small": (0.00015, 0.0006),
    "orca-70b": (0.0009, 0.0009),
    "flat-10c": (0.05, 0.05),
}
STARTED, COMPLETED = "RequestStarted", "RequestCompleted"
EVENT_FIELDS = ["type", "request_id", "tenant_id", "model", "gateway", "ts",
                "prompt_tokens", "completion_tokens"]
_STRING_FIELDS = ("type", "request_id", "tenant_id", "model", "gateway")
_INT_FIELDS = ("ts", "prompt_tokens", "completion_tokens")


class Malformed(ValueError):
    """A value that is not an event (the lab job's MalformedEvent)."""


class _Pairs(list):
    """A JSON object's (key, value) pairs in document order, duplicates kept."""


def _reject_constant(name):
    raise ValueError(f"invalid JSON literal {name}")


def parse_event(raw: str) -> dict:
    """The lab job's parse_event (gateway_meter.py), returning a dict instead of a Row."""
    try:
        pairs = json.loads(raw, object_pairs_hook=_Pairs, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise Malformed(f"not a JSON event object: {e}") from None
    if not isinstance(pairs, _Pairs):
        raise Malformed("not a JSON event object: not an object")
    f = {}
    for name, value in pairs:
        if name not in EVENT_FIELDS:
            continue
        if value is not None and name in _STRING_FIELDS and not isinstance(value, str):
            raise Malformed(f"{name} is not a string")
        if value is not None and name in _INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise Malformed(f"{name} is not an integer")
            if not LONG_MIN < value <= LONG_MAX:
                raise Malformed(f"{name} is out of range")
        f[name] = value
    f = {k: v for k, v in f.items() if v is not None}
    kind = f.get("type", "")
    if kind == STARTED:
        if "prompt_tokens" not in f:
            raise Malformed("RequestStarted without prompt_tokens")
        prompt, completion = f["prompt_tokens"], 0
    elif kind == COMPLETED:
        if "completion_tokens" not in f:
            raise Malformed("RequestCompleted without completion_tokens")
        prompt, completion = 0, f["completion_tokens"]
    elif kind == "":
        raise Malformed("missing field type")
    else:
        raise Malformed("unknown event type")
    for name in ("request_id", "tenant_id", "model", "gateway"):
        if f.get(name, "") == "":
            raise Malformed(f"missing field {name}")
    if "ts" not in f:
        raise Malformed("missing field ts")
    if prompt < 0 or completion < 0:
        raise Malformed("negative token count")
    if f["model"] not in PRICE_PER_1K:
        raise Malformed("model is not in the price table")
    if not TS_MIN <= f["ts"] <= TS_MAX:
        raise Malformed("ts is out of range for a one-minute window")
    return {"type": kind, "request_id": f["request_id"], "tenant_id": f["tenant_id"],
            "model": f["model"], "gateway": f["gateway"], "ts": f["ts"],
            "prompt_tokens": prompt, "completion_tokens": completion}


def usd_of(model: str, prompt: int, completion: int) -> float:
    """The course's formula in the lab job's order (record_usd)."""
    in_usd, out_usd = PRICE_PER_1K[model]
    return prompt / 1000 * in_usd + completion / 1000 * out_usd


def _pairs_to_json(v) -> str:
    """Re-serialise a value parsed with _Pairs, duplicate keys and their order kept."""
    if isinstance(v, _Pairs):
        return "{" + ",".join(json.dumps(k) + ":" + _pairs_to_json(x) for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_pairs_to_json(x) for x in v) + "]"
    return json.dumps(v)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_recording(path: str):
    """Lines of a recording: (lines, records, skipped, topic) where records are dicts with
    line, partition, offset, timestamp, arrival and value (raw string or None for a
    tombstone), skipped the line numbers of lines that are not records, and topic the
    partition count of its topic line (0 without one). Blank lines and the topic line are
    not counted."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace", newline="\n") as f:
        text = f.read()
    records, bad, lines = [], [], 0
    topic = 0  # the topic line's partition count, 0 without one
    first = True
    for no, line in enumerate(text.split("\n"), 1):
        if line.strip() == "":
            continue
        was_first, first = first, False
        try:
            obj = json.loads(line, object_pairs_hook=_Pairs, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            obj = None
        d = dict(obj) if isinstance(obj, _Pairs) else None
        if was_first and '"partitions"' in line and not (d is not None and "partition" in d):
            # the topic line, no line of records: {"topic": name, "partitions": N}; one that
            # is wrong is a bad line, and one without "partitions" (in a string) a line as any
            n = d.get("partitions") if d is not None else None
            if d is not None and "partitions" in d and _is_int(n) and 1 <= n <= 2147483647 \
                    and isinstance(d.get("topic", ""), str):
                topic = n
                continue
            if d is None or "partitions" in d:
                lines += 1
                bad.append(no)
                continue
        lines += 1
        if d is None:
            bad.append(no)
            continue
        if "payload" in d and "value" not in d:  # kcat -J
            d = {"partition": d.get("partition"), "offset": d.get("offset"),
                 "timestamp": d.get("ts"), "key": d.get("key"), "value": d.get("payload")}
        part, off, ts = d.get("partition"), d.get("offset"), d.get("timestamp")
        arr = d.get("arrival", ts)  # present, it must be a time (null is not one)
        key = d.get("key")
        ok = (key is None or isinstance(key, str)) and (_is_int(part) and 0 <= part <= 2147483647 and _is_int(off) and off >= 0
              and _is_int(ts) and YEAR1_MS <= ts <= YEAR9999_MS
              and _is_int(arr) and YEAR1_MS <= arr <= YEAR9999_MS)
        if not ok:
            bad.append(no)
            continue
        v = d.get("value")
        if isinstance(v, _Pairs):
            v = _pairs_to_json(v)
        elif v is not None and not isinstance(v, str):
            # a value is an object (its text), a string (the text) or null (a tombstone);
            # true, false, a number or an array is not a record's value: a bad line
            bad.append(no)
            continue
        records.append({"line": no, "partition": part, "offset": off, "timestamp": ts,
                        "arrival": arr, "value": v})
    return lines, records, bad, topic


def wrap(x: int) -> int:
    """x as a Java long: two's complement, 64 bits (Flink's window and timer arithmetic
    overflows so within a minute of the ends of the long range)."""
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def window_start(ts: int) -> int:
    """TimeWindow.getWindowStartWithOffset with offset 0 and a minute: r = ts % size
    (Java's truncating %), start = r < 0 ? ts - (r + size) : ts - r, in long arithmetic."""
    r = abs(ts) % MINUTE * (1 if ts >= 0 else -1)
    return wrap(ts - (r + MINUTE)) if r < 0 else ts - r


def window_end(start: int) -> int:
    return wrap(start + MINUTE)


def max_timestamp(start: int) -> int:
    """TimeWindow.maxTimestamp(): end - 1."""
    return wrap(window_end(start) - 1)


def window_late(start: int, wm: int) -> bool:
    """WindowOperator.isWindowLate with allowed lateness 0: cleanupTime(window), which is
    maxTimestamp + 0 (no overflow to guard), at or below the watermark."""
    return max_timestamp(start) <= wm


class Generator:
    """BoundedOutOfOrdernessWatermarks(B) behind a WatermarkEmitter (strictly increasing)."""

    def __init__(self, bound: int):
        self.bound = bound
        self.max_ts = LONG_MIN + bound + 1

    def on_event(self, ts: int):
        self.max_ts = max(self.max_ts, ts)

    def periodic(self) -> int:
        return self.max_ts - self.bound - 1


class Split:
    """One partition's generator on the source, with WatermarksWithIdleness's timer."""

    def __init__(self, bound: int, idleness: int):
        self.gen = Generator(bound)
        self.idleness = idleness
        self.counter = self.last_counter = 0
        self.inactive_since = None  # None: the countdown has not started
        self.idle_now = False
        self.partial = LONG_MIN       # PartialWatermark.watermark
        self.partial_idle = False     # PartialWatermark.idle

    def on_event(self, ts: int):
        self.gen.on_event(ts)
        self.counter += 1
        self.idle_now = False

    def _check_idle(self, now: int) -> bool:
        if self.idleness <= 0:
            return False
        if self.counter != self.last_counter:
            self.last_counter = self.counter
            self.inactive_since = None
            return False
        if self.inactive_since is None:
            self.inactive_since = now
            return False
        return now - self.inactive_since > self.idleness

    def periodic(self, now: int):
        if self._check_idle(now):
            if not self.idle_now:
                self.partial_idle = True
                self.idle_now = True
        else:
            self.partial_idle = False
            self.partial = max(self.partial, self.gen.periodic())


class Job:
    """The GatewayMeter job on one simulated clock; out collects (sink, dict) in order."""

    def __init__(self, opts):
        self.o = opts
        self.out = []
        self.bound = opts["out_of_orderness"]
        self.stream_gen = Generator(self.bound)
        self.stream_wm = LONG_MIN          # the watermark the first assigner has emitted
        self.splits = {}
        self.source_wm = LONG_MIN
        self.started_gen = Generator(self.bound)
        self.started_wm = LONG_MIN
        self.pending = {}                  # request_id -> (event, forget_at)
        self.window_wm = LONG_MIN          # the event-time windows' current watermark
        self.assembler_wm = LONG_MIN
        self.ev_windows = {}               # (tenant, start) -> [usd, n]
        self.pt_windows = {}
        self.assembled = 0
        self.late = 0
        self.dirty = False                 # an event since the last periodic emit

    # -- watermarks ---------------------------------------------------------------------
    def _assembler_watermark(self, wm: int):
        if wm <= self.assembler_wm:
            return
        self.assembler_wm = wm
        for rid in [r for r, (_, at) in self.pending.items() if at <= wm]:
            del self.pending[rid]

    def _window_watermark(self, wm: int):
        if wm <= self.window_wm:
            return
        self.window_wm = wm
        due = sorted((k for k in self.ev_windows if max_timestamp(k[1]) <= wm),
                     key=lambda k: (max_timestamp(k[1]), k[0]))
        for k in due:
            usd, n = self.ev_windows.pop(k)
            self.out.append(("event-time", {"tenant_id": k[0], "window_start": k[1],
                                            "window_end": window_end(k[1]), "usd": usd,
                                            "requests": n}))

    def _upstream_watermark(self, wm: int):
        """A watermark leaving the source or the first assigner, into the assembler."""
        self._assembler_watermark(wm)
        if self.o["timestamp"] == "started_ts":
            if wm == LONG_MAX:
                self._window_watermark(wm)
        else:
            self._window_watermark(wm)

    def tick(self, now: int):
        """The periodic emit of every assigner due at `now`."""
        self.dirty = False
        if self.o["watermarks"] == "stream":
            wm = self.stream_gen.periodic()
            if wm > self.stream_wm:
                self.stream_wm = wm
                self._upstream_watermark(wm)
        else:
            for s in self.splits.values():
                s.periodic(now)
            active = [s.partial for s in self.splits.values() if not s.partial_idle]
            if self.splits:
                # every split idle: the largest of them all (allIdle ? max : min)
                combined = min(active) if active else max(s.partial for s in self.splits.values())
                if combined > self.source_wm:
                    self.source_wm = combined
                    self._upstream_watermark(self.source_wm)
        if self.o["timestamp"] == "started_ts":
            wm = self.started_gen.periodic()
            if wm > self.started_wm:
                self.started_wm = wm
                self._window_watermark(wm)

    def drain(self):
        self._upstream_watermark(LONG_MAX)
        self._window_watermark(LONG_MAX)

    # -- processing time ----------------------------------------------------------------
    def next_pt_timer(self):
        if not self.pt_windows:
            return None
        return min(start for (_, start) in self.pt_windows) + MINUTE - 1

    def fire_pt(self, t: int):
        due = sorted((k for k in self.pt_windows if k[1] + MINUTE - 1 == t),
                     key=lambda k: k[0])
        for k in due:
            usd, n = self.pt_windows.pop(k)
            self.out.append(("processing-time", {"tenant_id": k[0], "window_start": k[1],
                                                 "window_end": window_end(k[1]), "usd": usd,
                                                 "requests": n}))

    # -- records ------------------------------------------------------------------------
    def record(self, rec: dict, event, now: int):
        """One Kafka record reaches the job at processing time `now`."""
        if event is None:
            return
        ts = event["ts"]
        self.dirty = True
        if self.o["watermarks"] == "source":
            self.splits[rec["partition"]].on_event(ts)
        else:
            self.stream_gen.on_event(ts)  # after the record went on: it never sees its own
        rid = event["request_id"]
        held = self.pending.get(rid)
        if held is None:
            self.pending[rid] = (event, wrap(ts + self.o["forget_after"]))
            return
        first, _ = held
        if first["type"] == event["type"]:
            return  # a duplicate half: ignored
        del self.pending[rid]
        started, completed = (first, event) if first["type"] == STARTED else (event, first)
        self.assembled += 1
        r = {"request_id": started["request_id"], "tenant_id": started["tenant_id"],
             "gateway": started["gateway"], "model": started["model"],
             "started_ts": started["ts"], "completed_ts": completed["ts"],
             "usd": usd_of(started["model"], started["prompt_tokens"],
                           completed["completion_tokens"])}
        rts = ts  # the timestamp of the element that completed it
        if self.o["timestamp"] == "started_ts":
            rts = r["started_ts"]
        self._to_windows(r, rts, now, rec)
        if self.o["timestamp"] == "started_ts":
            self.started_gen.on_event(rts)

    def _to_windows(self, r, rts, now, rec):
        tenant, usd = r["tenant_id"], r["usd"]
        pstart = window_start(now)
        acc = self.pt_windows.setdefault((tenant, pstart), [0.0, 0])
        acc[0] += usd
        acc[1] += 1
        estart = window_start(rts)
        wm = self.window_wm
        # a late window is skipped; the record goes to the late output only when its own
        # timestamp is at or below the watermark too (isElementLate): within a minute of
        # Long.MAX_VALUE a window's end overflows, and Flink drops such a record silently
        skipped = window_late(estart, wm)
        late = skipped and rts <= wm
        self.out.append(("trace", {"request_id": r["request_id"], "tenant_id": tenant,
                                   "gateway": r["gateway"], "arrival": now,
                                   "kafka_timestamp": rec["timestamp"], "timestamp": rts,
                                   "watermark": wm, "event_window_end": window_end(estart),
                                   "processing_window_end": pstart + MINUTE, "late": late,
                                   "usd": usd}))
        if late:
            self.late += 1
            self.out.append(("late", {"request_id": r["request_id"], "tenant_id": tenant,
                                      "gateway": r["gateway"], "timestamp": rts,
                                      "watermark": wm, "usd": usd}))
        elif not skipped:
            acc = self.ev_windows.setdefault((tenant, estart), [0.0, 0])
            acc[0] += usd
            acc[1] += 1


def deliveries(records, order: str = "arrival"):
    """Records in the order they reach the job and when.

    "arrival" (labtui's documented order, and what a topic written by `labtui feed` at the
    arrival times holds): by (arrival, partition, offset), equal ones in file order, each at
    its own arrival. "offset" (the file's offsets taken as Kafka's): within a partition in
    offset order, each no earlier than the one before; across partitions by (time,
    partition, offset). The two differ only when a partition's arrivals are not in offset
    order, which no consumer can record."""
    if order == "arrival":
        timed = sorted(records, key=lambda r: (r["arrival"], r["partition"], r["offset"],
                                               r["line"]))
        return [(r["arrival"], r) for r in timed]
    by_part = {}
    for r in records:
        by_part.setdefault(r["partition"], []).append(r)
    timed = []
    for p, rs in by_part.items():
        rs.sort(key=lambda r: r["offset"])
        t = None
        for r in rs:
            t = r["arrival"] if t is None else max(t, r["arrival"])
            timed.append((t, p, r["offset"], r))
    timed.sort(key=lambda x: (x[0], x[1], x[2]))
    return [(t, r) for t, _, _, r in timed]


def run(path: str, opts: dict) -> dict:
    """Replays path under opts; returns the output lines, in order, and the counts."""
    lines, records, bad, topic = read_recording(path)
    if opts.get("partitions"):
        topic = opts["partitions"]
    beyond = [r["line"] for r in records if topic and r["partition"] >= topic]
    if beyond:
        # labtui refuses a replay with a record of a partition the topic does not have
        return {"refused_partition": min(beyond)}
    skipped = list(bad)
    tombstones = []
    job = Job(opts)
    events = {}
    for r in records:
        ev = None
        if r["value"] is None:
            skipped.append(r["line"])
            tombstones.append(r["line"])
        else:
            try:
                ev = parse_event(r["value"])
            except Malformed:
                skipped.append(r["line"])
        events[id(r)] = ev
    if opts["watermarks"] == "source" and (records or topic):
        # every partition of the topic is a split: the topic line's, else up to the highest
        # a record or a tombstone names
        top = max([r["partition"] for r in records] + [topic - 1])
        if top + 1 > MAX_SPLITS:
            # labtui refuses at once what would be 2^31 splits of a few dozen bytes each (a
            # real topic has far fewer partitions; Flink would try to assign them all)
            return {"refused": True}
        for p in range(top + 1):
            job.splits[p] = Split(job.bound, opts["idleness"])
    order = deliveries(records, opts.get("partition_order", "arrival"))
    interval = opts["watermark_interval"]
    state = {"tick": None}
    # the job is taken to start at the first record with a value: labtui drops a tombstone
    # before the job, so one arriving first starts nothing (only an idleness countdown at
    # the source can tell; a real job's start is left to chance)
    valued = [t for t, r in order if r["value"] is not None]
    if valued and interval > 0:
        first = valued[0]
        state["tick"] = -(-first // interval) * interval  # the first multiple at or after it

    def advance(p):
        """Runs every tick and processing-time timer due at t < p (p None: all that remain,
        ticks only while one could still change something)."""
        while True:
            if state["tick"] is not None and not _tick_can_change(job):
                # no emit from here to the next record can change anything: skip them
                state["tick"] = None if p is None else max(
                    state["tick"], -(-p // interval) * interval)
            pt, tk = job.next_pt_timer(), state["tick"]
            cands = [t for t in (pt, tk) if t is not None and (p is None or t < p)]
            if not cands:
                return
            t = min(cands)
            if pt == t:
                job.fire_pt(t)
            if tk == t:
                job.tick(t)
                state["tick"] = t + interval

    for t, r in order:
        advance(t)
        job.record(r, events[id(r)], t)
    advance(None)
    pending = sorted(job.ev_windows.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    if opts["drain"]:
        job.drain()
        pending = []
    for (tenant, start), (usd, n) in pending:
        job.out.append(("pending", {"window": "event-time", "tenant_id": tenant,
                                    "window_start": start, "window_end": window_end(start),
                                    "usd": usd, "requests": n}))
    skipped.sort()
    return {"out": job.out, "lines": lines, "skipped": skipped, "tombstones": tombstones,
            "records": lines - len(skipped), "assembled": job.assembled, "late": job.late,
            "pending": len(pending)}


def _tick_can_change(job: Job) -> bool:
    """Whether a periodic emit could change anything: an event since the last one, or a split
    on the source whose idleness countdown may still end (then the minimum moves)."""
    if job.dirty:
        return True
    if job.o["watermarks"] != "source" or job.o["idleness"] <= 0:
        return False
    return any(not s.partial_idle for s in job.splits.values())
