"""GatewayMeter, Lab 4: the cost of each tenant's minute, by processing time and by event time.

The course's module-4 code made whole for Apache Flink 2.2 (PyFlink, apache-flink==2.2.1):

    Kafka gateway-events ─► parse_event ─► EventTsAssigner ─► RequestAssembler ─► records
        records ─► key_by(tenant_id) ─┬─► TumblingProcessingTimeWindows(1 min) ─► "processing-time>"
                                      ├─► TumblingEventTimeWindows(1 min)      ─► "event-time>"
                                      │       └─ late side output ─► DescribeLate ─► "late>"
                                      └─► TraceRecords                         ─► "trace>"
        malformed values (side output of parse_event)                        ─► "malformed>"
        with --results-topic: every line above, tagged        ─► KafkaSink(results topic)

Every print line is `ID> {json}` (all print sinks have parallelism 1), so a program can read
the job's stdout. With --results-topic T the job also writes each of those lines to the Kafka
topic T (KafkaSink, parallelism 1, so the topic's one partition keeps the order), as
{"session":S,"run":R,"output":ID,"result":{json}}: S is --session, R is --run-id, ID the
print sink's identifier. That is how labtui reads the results on any Flink deployment, a
cluster a class shares included (a TaskManager's stdout may be the console of a container,
and holds every session's lines). The job is named gateway-meter-lab4-S (gateway-meter-lab4
without --session), so a teacher can tell the sessions' jobs apart. Run it either way:

    python gateway_meter.py --bootstrap 127.0.0.1:19092 --jars file:///path/flink-sql-connector-kafka-5.0.0-2.2.jar
    flink run -py gateway_meter.py                       # inside the lab's compose cluster

Options are arguments or environment variables (arguments win); `--help` lists them.

PyFlink 2.2.1 against the course's snippets: what failed and how it is fixed here
(tried on PyFlink's local mini-cluster and under `flink run -py` on a standalone cluster):
  1. Both windows carry the course's .uid("tenant-cost"). Side by side in one job that fails
     at submission: "Hash collision on user-specified ID "tenant-cost"". Fix: the uids
     tenant-cost-processing-time and tenant-cost-event-time.
  2. A function that uses a TypeInformation which was already passed as an output_type can no
     longer be pickled: "TypeError: cannot pickle '_thread.RLock' object" (the object now
     holds a Java reference). Fix: event_type() and record_type() build a fresh one per use.
  3. `python gateway_meter.py` runs the Python workers with `python` from PATH
     (python.executable); outside the venv they fail with "No module named 'pyflink'".
     Fix: run from the activated venv, or --python-executable.
  4. EmitTenantCostMinute's TenantCostMinute, TENANT_COST_MINUTE_TYPE and window_end_of are
     not PyFlink names (the lab's starting code was to supply them). Here the window's bounds
     are the attributes context.window().start / .end and the result is a JSON string
     (output_type=Types.STRING()), which the print sink writes as is.
  5. The Kafka connector is not in the apache-flink wheel: --jars adds its jar with
     env.add_jars("file://..."); the compose image has it in /opt/flink/lib instead.
  6. Not in the course, a PyFlink trap: an on_timer that returns None (emits nothing, no
     yield) kills the job the first time a timer fires: "TypeError: 'NoneType' object is not
     iterable". RequestAssembler.on_timer returns an empty tuple.
Unchanged and working as the course wrote them: TimestampAssigner from
pyflink.common.watermark_strategy, with_timestamp_assigner(EventTsAssigner()),
for_monotonous_timestamps(), Time.minutes(1) in the window assigners, the AggregateFunction.
key_by(..., key_type=Types.STRING()) is added: without it the key still reaches the window
function as a str, but Flink keys and shuffles it as pickled bytes.

Records between operators are named Rows (Types.ROW_NAMED) rather than Python classes: they
are a Flink type, so state, side outputs and the network carry them without pickling, and
fields still read as attributes (value.ts, rec.model), as in the course.

Latency: each Python operator hands records on in bundles, and the chain parse -> timestamps
-> RequestAssembler -> window/trace has four of them. With PyFlink's defaults
(python.fn-execution.bundle.size 100000, python.fn-execution.bundle.time 1000 ms) a bundle is
finished only when a second has passed, so a record reached the print sinks 3-25 s after its
completed_ts (median 7 s, measured by labtui on its cluster): each processing-time minute then
held the last seconds of the event-time minute before it. This job finishes a bundle after
--bundle-time-ms (default 20) or --bundle-size records (default 1000), whichever comes first;
the Kafka source needs nothing: its consumer's fetch.min.bytes is 1, so the broker answers a
fetch as soon as a record is there.
"""

import argparse
import json
import os
import re
import sys
import zlib
from typing import Iterable, Tuple

from pyflink.common import (Configuration, Duration, Row, SimpleStringSchema, Time, Types,
                            WatermarkStrategy)
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.connectors import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)
from pyflink.datastream.functions import (AggregateFunction, KeyedProcessFunction,
                                          MapFunction, ProcessFunction, ProcessWindowFunction,
                                          RuntimeContext)
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import TumblingEventTimeWindows, TumblingProcessingTimeWindows

TOPIC = "gateway-events"
JOB_NAME = "gateway-meter-lab4"
MINUTE_MS = 60_000

# USD per 1000 tokens: (input/prompt, output/completion). The Go side (gateway.DefaultPrices)
# holds the same table.
PRICE_PER_1K = {
    "nova-large": (0.0030, 0.0150),
    "nova-small": (0.00015, 0.0006),
    "orca-70b": (0.0009, 0.0009),
    "flat-10c": (0.05, 0.05),
}

# ---------------------------------------------------------------------------------------------
# Types. An Event is one value of gateway-events; a RequestRecord is one request, both halves
# joined. Both are named Rows, so fields read as attributes (value.ts, rec.model).
# The types are built by functions, not kept in constants: see fix 2 at the top.

EVENT_FIELDS = ["type", "request_id", "tenant_id", "model", "gateway", "ts",
                "prompt_tokens", "completion_tokens"]
RECORD_FIELDS = ["request_id", "tenant_id", "model", "gateway", "started_ts", "completed_ts",
                 "prompt_tokens", "completion_tokens"]


def event_field_types():
    """The types of EVENT_FIELDS: five strings, then ts and the two token counts as longs."""
    return [Types.STRING()] * 5 + [Types.LONG()] * 3


def event_type():
    """The Event row."""
    return Types.ROW_NAMED(EVENT_FIELDS, event_field_types())


# Positions in an Event row (EVENT_FIELDS). The assembler reads its rows by position: a named
# field of a PyFlink Row is a Python-level lookup (Row.__getattr__, then a search of the
# names), once per field and request.
TYPE, REQUEST_ID, TENANT_ID, MODEL, GATEWAY, TS, PROMPT_TOKENS, COMPLETION_TOKENS = (
    EVENT_FIELDS.index(f) for f in ("type", "request_id", "tenant_id", "model", "gateway",
                                    "ts", "prompt_tokens", "completion_tokens"))


def record_type():
    """The RequestRecord row: four strings, then two timestamps and two token counts."""
    return Types.ROW_NAMED(RECORD_FIELDS, [Types.STRING()] * 4 + [Types.LONG()] * 4)


STARTED, COMPLETED = "RequestStarted", "RequestCompleted"


def to_json(obj) -> str:
    """Compact JSON, keys in the order given: the shape every print line uses."""
    return json.dumps(obj, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Parsing: the event contract. One contract, kept by this job and by labtui's parser
# (gateway.Parser in Go), and tested on both sides against one table of tricky inputs,
# event-contract.jsonl beside this file:
#   - a value is one JSON object (RFC 8259, strictly: no NaN, no leading zeros, no raw
#     control characters in strings, nothing but white space after it);
#   - keys match exactly, as the gateway writes them (lower case): "TS" or "Type" is an
#     unknown key, and unknown keys are ignored; an escaped key is the text it spells;
#   - when a key occurs more than once the last occurrence wins, and null is the same as
#     no key (so "ts":5,"ts":null has no ts); every occurrence of a known key must be of its
#     type: type, request_id, tenant_id, model and gateway strings, ts and the token counts
#     integers in JSON's integer syntax (1.0 and 1e3 are not) from -(2^63-1) to 2^63-1
#     (Long.MIN_VALUE is Flink's "no timestamp" marker);
#   - ts lies in a one-minute window a long holds, TS_MIN to TS_MAX (checked last, after the
#     price: labtui's job checks it where it checks the price);
#   - the record's bytes are UTF-8, decoded by Flink's SimpleStringSchema before this code
#     sees them: bytes that are not UTF-8 arrive as U+FFFD, one per ill-formed sequence.

class MalformedEvent(ValueError):
    """A value of gateway-events that is not a valid Event; str(e) is the reason."""


INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
# The first and the last ts whose one-minute window a long holds: within a minute of the ends
# of the long range Flink's window arithmetic (TimeWindow.getWindowStartWithOffset, then
# start + size) overflows, and the event would be neither fired, nor late, nor kept.
TS_MIN = INT64_MIN + (-INT64_MIN) % MINUTE_MS          # -9223372036854720000
TS_MAX = INT64_MAX - INT64_MAX % MINUTE_MS - 1         # 9223372036854719999
_STRING_FIELDS = ("type", "request_id", "tenant_id", "model", "gateway")
_INT_FIELDS = ("ts", "prompt_tokens", "completion_tokens")


class _Pairs(list):
    """A JSON object's (key, value) pairs in document order, duplicates kept."""


def _reject_constant(name):
    raise ValueError(f"invalid JSON literal {name}")


def _decode(raw: str) -> dict:
    """Decode a JSON object into the eight known fields, as the contract above says."""
    try:
        pairs = json.loads(raw, object_pairs_hook=_Pairs, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise MalformedEvent(f"not a JSON event object: {e}") from None
    if not isinstance(pairs, _Pairs):
        raise MalformedEvent("not a JSON event object: not an object")
    fields = {}
    for name, value in pairs:
        if name not in EVENT_FIELDS:
            continue
        if value is not None and name in _STRING_FIELDS and not isinstance(value, str):
            raise MalformedEvent(f"{name} is not a string")
        if value is not None and name in _INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise MalformedEvent(f"{name} is not an integer")
            if not INT64_MIN < value <= INT64_MAX:
                raise MalformedEvent(f"{name} is out of range")
        fields[name] = value
    return {k: v for k, v in fields.items() if v is not None}


def parse_event(raw: str) -> Row:
    """JSON -> Event. Raises MalformedEvent for: not a JSON object, an unknown or missing type,
    a missing or empty field, a missing or negative token count, a model not in PRICE_PER_1K,
    a ts whose one-minute window a long does not hold."""
    f = _decode(raw)
    kind = f.get("type", "")
    if kind == STARTED:
        if "prompt_tokens" not in f:
            raise MalformedEvent("RequestStarted without prompt_tokens")
        prompt, completion = f["prompt_tokens"], 0
    elif kind == COMPLETED:
        if "completion_tokens" not in f:
            raise MalformedEvent("RequestCompleted without completion_tokens")
        prompt, completion = 0, f["completion_tokens"]
    elif kind == "":
        raise MalformedEvent("missing field type")
    else:
        raise MalformedEvent(f"unknown event type {json.dumps(kind, ensure_ascii=False)}")
    for name in ("request_id", "tenant_id", "model", "gateway"):
        if f.get(name, "") == "":
            raise MalformedEvent(f"missing field {name}")
    if "ts" not in f:
        raise MalformedEvent("missing field ts")
    if prompt < 0 or completion < 0:
        raise MalformedEvent("negative token count")
    if f["model"] not in PRICE_PER_1K:
        raise MalformedEvent(f"model {json.dumps(f['model'], ensure_ascii=False)} is not in the price table")
    if not TS_MIN <= f["ts"] <= TS_MAX:
        raise MalformedEvent(f"ts {f['ts']} is out of range for a one-minute window: a window must start "
                             f"and end within a long, so ts is accepted from {TS_MIN} to {TS_MAX}")
    return Row(type=kind, request_id=f["request_id"], tenant_id=f["tenant_id"],
               model=f["model"], gateway=f["gateway"], ts=f["ts"],
               prompt_tokens=prompt, completion_tokens=completion)


MALFORMED = OutputTag("malformed", Types.STRING())


class ParseEvents(ProcessFunction):
    """parse_event on every value: Events go on, malformed values go to the MALFORMED side
    output with their reason. A bad value never fails the job."""

    def process_element(self, raw, ctx: ProcessFunction.Context):
        try:
            yield parse_event(raw)
        except MalformedEvent as e:
            yield MALFORMED, to_json({"reason": str(e), "value": raw})


# ---------------------------------------------------------------------------------------------
# Event time: which field is the timestamp, and how watermarks follow it.

class EventTsAssigner(TimestampAssigner):
    """The event time of an Event is Event.ts, stamped by the gateway (ms since the epoch).
    record_timestamp, the Kafka record's timestamp, is deliberately ignored."""

    def extract_timestamp(self, value, record_timestamp) -> int:
        return value.ts


class StartedTsAssigner(TimestampAssigner):
    """Lab 4.4: re-stamp a RequestRecord with started_ts instead of completed_ts."""

    def extract_timestamp(self, value, record_timestamp) -> int:
        return value.started_ts


def watermark_strategy(out_of_orderness_ms: int, assigner: TimestampAssigner = None,
                       idleness_ms: int = 0) -> WatermarkStrategy:
    """Monotonous watermarks (largest timestamp seen - 1 ms) when no out-of-orderness is allowed,
    else bounded out-of-orderness (largest timestamp seen - bound - 1 ms). Without an assigner
    (on the Kafka source) the records keep the Kafka record timestamp; with idleness_ms, a
    split that brings nothing for that long leaves the minimum (with_idleness)."""
    if out_of_orderness_ms == 0:
        strategy = WatermarkStrategy.for_monotonous_timestamps()
    else:
        strategy = WatermarkStrategy.for_bounded_out_of_orderness(
            Duration.of_millis(out_of_orderness_ms))
    if idleness_ms:
        strategy = strategy.with_idleness(Duration.of_millis(idleness_ms))
    if assigner is not None:
        strategy = strategy.with_timestamp_assigner(assigner)  # an instance, not a lambda
    return strategy


# ---------------------------------------------------------------------------------------------
# RequestAssembler: join the two halves of each request.

# How many buckets the RequestAssembler's state is kept in: Flink's default max parallelism,
# so any parallelism up to it spreads the buckets over its subtasks.
ASSEMBLER_BUCKETS = 128


def assembler_bucket(request_id: str) -> int:
    """The bucket of a request id: stable across processes and restarts, unlike hash()."""
    return zlib.crc32(request_id.encode("utf-8", "surrogatepass")) % ASSEMBLER_BUCKETS


def _end_of_minute(t: int) -> int:
    """The last millisecond of t's epoch-aligned minute, at most Long.MAX_VALUE."""
    return min(t - t % MINUTE_MS + MINUTE_MS - 1, INT64_MAX)


class RequestAssembler(KeyedProcessFunction):
    """Joins the two halves of each request; keyed by assembler_bucket(request_id).

    The rules, per request_id, are Flink's for a KeyedProcessFunction keyed by request_id that
    keeps the half that came first in a ValueState with an event-time timer at its timestamp +
    forget_after_ms (at most Long.MAX_VALUE): the other half, of the other type, completes the
    request and one RequestRecord is emitted; a second half of the same type is a duplicate and
    is ignored; a half still alone when its timer fires is forgotten. The embedded Go engine
    keeps these rules keyed by request_id; change both or neither.

    Why buckets: in process mode each new key's first state read is a request from the Python
    worker to the JVM, one per request, and it was the job's cost. A bucket's state (a dict of
    the pending halves by request_id) stays in the worker's state cache, so those requests go.
    The price: a bucket that changed is written whole at the bundle's end. The lab's traffic
    keeps a few hundred halves pending (under a millisecond to write); a hundred thousand
    unmatched halves would cost about 0.2 s a bundle, where a state per request costs nothing
    more.

    Forgetting without a timer per request. Flink fires an event-time timer at t when the
    operator's watermark advances to a value >= t; a timer registered at or behind the current
    watermark fires at the next advance. So a half kept at watermark w_kept with forget_at f
    has been forgotten exactly when the current watermark w satisfies w >= f and w > w_kept
    (watermarks only advance, each advance by a larger value). That test is made whenever a
    half of its request arrives, which gives Flink's result. A timer per bucket and minute
    (the end of the forget_at's minute) removes such halves, so state stays bounded in event
    time as the per-request timers keep it.

    The emitted record carries the timestamp of the element that completed it (Flink sets it),
    normally the RequestCompleted's, so completed_ts is the record's event time."""

    def __init__(self, forget_after_ms: int):
        self.forget_after_ms = forget_after_ms

    def open(self, runtime_context: RuntimeContext):
        # (halves, purges): halves maps request_id -> (forget_at, w_kept, the Event's fields);
        # purges holds the bucket's registered clean-up timers.
        self.bucket = runtime_context.get_state(
            ValueStateDescriptor("pending-halves", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, event, ctx: KeyedProcessFunction.Context):
        bucket = self.bucket.value()
        halves, purges = bucket if bucket is not None else ({}, set())
        request_id = event[REQUEST_ID]
        timers = ctx.timer_service()
        watermark = timers.current_watermark()
        kept = halves.get(request_id)
        if kept is not None and watermark >= kept[0] and watermark > kept[1]:
            kept = None  # its timer has fired: forgotten
        if kept is None:
            forget_at = min(ctx.timestamp() + self.forget_after_ms, INT64_MAX)
            halves[request_id] = (forget_at, watermark, tuple(event))
            purge_at = _end_of_minute(forget_at)
            if purge_at not in purges:
                purges.add(purge_at)
                timers.register_event_time_timer(purge_at)
            self.bucket.update((halves, purges))
        elif kept[2][TYPE] != event[TYPE]:
            yield join(kept[2], event)
            del halves[request_id]
            self.bucket.update((halves, purges))
        # else: the same half twice, a duplicate: ignored.

    def on_timer(self, timestamp: int, ctx: KeyedProcessFunction.OnTimerContext):
        bucket = self.bucket.value()
        if bucket is not None:
            halves, purges = bucket
            watermark = ctx.timer_service().current_watermark()
            for request_id in [r for r, (forget_at, kept_at, _) in halves.items()
                               if watermark >= forget_at and watermark > kept_at]:
                del halves[request_id]
            purges.discard(timestamp)
            if halves or purges:
                self.bucket.update((halves, purges))
            else:
                self.bucket.clear()
        return ()  # fix 6: PyFlink iterates what on_timer returns, even when it emits nothing


def join(a: Row, b: Row) -> Row:
    """The RequestRecord of two halves given in either order; tenant, model and gateway are
    the RequestStarted's (as gateway.Join in Go)."""
    started, completed = (a, b) if a[TYPE] == STARTED else (b, a)
    return Row(request_id=started[REQUEST_ID], tenant_id=started[TENANT_ID],
               model=started[MODEL], gateway=started[GATEWAY],
               started_ts=started[TS], completed_ts=completed[TS],
               prompt_tokens=started[PROMPT_TOKENS],
               completion_tokens=completed[COMPLETION_TOKENS])


def record_usd(rec: Row) -> float:
    """What one request costs: the course's formula, evaluated in exactly this order (the Go
    side, gateway.PriceTable.Cost, reproduces the float arithmetic bit for bit)."""
    in_usd, out_usd = PRICE_PER_1K[rec.model]
    return rec.prompt_tokens / 1000 * in_usd + rec.completion_tokens / 1000 * out_usd


# ---------------------------------------------------------------------------------------------
# TenantCost: one AggregateFunction, two window assigners.

class TenantCost(AggregateFunction):
    """accumulator = (usd, requests)"""

    def create_accumulator(self) -> Tuple[float, int]:
        return 0.0, 0

    def add(self, rec, acc: Tuple[float, int]) -> Tuple[float, int]:
        in_usd, out_usd = PRICE_PER_1K[rec.model]
        usd = rec.prompt_tokens / 1000 * in_usd + rec.completion_tokens / 1000 * out_usd
        return acc[0] + usd, acc[1] + 1

    def get_result(self, acc: Tuple[float, int]) -> Tuple[float, int]:
        return acc

    def merge(self, a: Tuple[float, int], b: Tuple[float, int]) -> Tuple[float, int]:
        return a[0] + b[0], a[1] + b[1]


class EmitTenantCostMinute(ProcessWindowFunction):
    """Stamps tenant and window bounds on TenantCost's one pre-aggregated result and emits
    {"tenant_id","window_start","window_end","usd","requests"}. window_end is exclusive."""

    def process(self, tenant_id: str, context: ProcessWindowFunction.Context,
                results: Iterable[Tuple[float, int]]):
        usd, requests = next(iter(results))
        window = context.window()  # fix 4: start and end are attributes
        yield to_json({"tenant_id": tenant_id, "window_start": window.start,
                       "window_end": window.end, "usd": usd, "requests": requests})


LATE = OutputTag("late", record_type())


class DescribeLate(ProcessFunction):
    """A record the event-time window dropped as late, with the gateway that sent it (the
    instance a hiccup held, which Lab 4.2 looks for) and the watermark that made it late (as
    this operator sees it: the window operator's own watermark cannot be read)."""

    def process_element(self, rec, ctx: ProcessFunction.Context):
        yield to_json({"request_id": rec.request_id, "tenant_id": rec.tenant_id,
                       "gateway": rec.gateway, "timestamp": ctx.timestamp(),
                       "watermark": ctx.timer_service().current_watermark(),
                       "usd": record_usd(rec)})


class TraceRecords(KeyedProcessFunction):
    """Keyed by tenant like the windows: each RequestRecord with its timestamp, the watermark
    when it arrived, the end of the event-time minute it belongs to, whether that minute
    had already been passed by the watermark (then the event-time window drops it), its
    cost (labtui's real-Flink labs sum it into the windows still open), and seen_at: the
    processing time (epoch ms) at which this operator had it, so a reader can measure how
    far behind its arrival the job ran (the windows are sibling operators of this one)."""

    def process_element(self, rec, ctx: KeyedProcessFunction.Context):
        ts = ctx.timestamp()
        timers = ctx.timer_service()
        watermark = timers.current_watermark()
        window_end = ts - ts % MINUTE_MS + MINUTE_MS  # epoch-aligned; Python's % floors
        yield to_json({"request_id": rec.request_id, "tenant_id": rec.tenant_id,
                       "gateway": rec.gateway, "timestamp": ts, "watermark": watermark,
                       "event_window_end": window_end, "late": watermark >= window_end - 1,
                       "usd": record_usd(rec), "seen_at": timers.current_processing_time()})


# ---------------------------------------------------------------------------------------------
# The results topic: every print line, tagged with the session, the run and its output.

OUTPUTS = ("processing-time", "event-time", "late", "trace", "malformed")


def results_line(session: str, run_id: str, output: str, line: str) -> str:
    """One value of the results topic: the print line `output> line` as JSON, tagged with
    the session and the run that wrote it. line is already compact JSON (to_json), so it is
    embedded as it is, never parsed again (its floats keep their digits)."""
    return ('{"session":' + json.dumps(session) + ',"run":' + json.dumps(run_id)
            + ',"output":' + json.dumps(output) + ',"result":' + line + '}')


class TagResults(MapFunction):
    """results_line on each line of one output."""

    def __init__(self, session: str, run_id: str, output: str):
        self.session, self.run_id, self.output = session, run_id, output

    def map(self, line):
        return results_line(self.session, self.run_id, self.output, line)


def results_sink(opts) -> KafkaSink:
    """The results topic, values as strings. At least once: Flink flushes the producer at a
    checkpoint and when the job ends; between, the producer sends as soon as it can
    (linger.ms 0). A job that restarts without checkpoints writes its windows again: a
    reader tells the runs apart by what else it knows (labtui: the restart it reports)."""
    return (KafkaSink.builder()
            .set_bootstrap_servers(opts.bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(opts.results_topic)
                                   .set_value_serialization_schema(SimpleStringSchema())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
            .set_property("linger.ms", "0")
            .build())


def job_name(opts) -> str:
    """gateway-meter-lab4-SESSION, or gateway-meter-lab4 without a session."""
    return JOB_NAME + "-" + opts.session if opts.session else JOB_NAME


# ---------------------------------------------------------------------------------------------
# The job.

def kafka_source(opts) -> KafkaSource:
    """gateway-events, values as strings, from the earliest or the latest offsets."""
    offsets = (KafkaOffsetsInitializer.earliest() if opts.starting_offsets == "earliest"
               else KafkaOffsetsInitializer.latest())
    return (KafkaSource.builder()
            .set_bootstrap_servers(opts.bootstrap)
            .set_topics(opts.topic)
            .set_group_id(opts.group_id)
            .set_starting_offsets(offsets)
            .set_value_only_deserializer(SimpleStringSchema())
            .build())


def tenant_cost(by_tenant, assigner, name: str, late_tag: OutputTag = None):
    """Records keyed by tenant, windowed by `assigner`, summed by TenantCost, emitted as JSON
    by EmitTenantCostMinute. With late_tag, records the window drops as late go there."""
    windowed = by_tenant.window(assigner)
    if late_tag is not None:
        windowed = windowed.side_output_late_data(late_tag)
    return (windowed
            .aggregate(TenantCost(),
                       window_function=EmitTenantCostMinute(),
                       accumulator_type=Types.TUPLE([Types.DOUBLE(), Types.LONG()]),
                       output_type=Types.STRING())
            .name(name).uid(name))  # fix 1: one uid per window


# The slot-sharing group of the windows and the trace with --python-workers 2.
TENANT_MINUTES = "tenant-minutes"


def build(env: StreamExecutionEnvironment, opts) -> None:
    """Wire the pipeline described at the top of this file into env."""
    if opts.watermarks == "source":
        # Module 5: the strategy on the source, one generator per partition (split) and the
        # minimum over them. PyFlink's from_source passes only the Java strategy: a Python
        # TimestampAssigner given to it is dropped without a word (with_idleness even
        # returns a strategy without it), so the records keep the Kafka record timestamp,
        # which the gateway sets to Event.ts (labtui's generator and feed do). A malformed
        # value is an event of its partition here: the parse comes after the source.
        raw = env.from_source(kafka_source(opts), watermark_strategy(
            opts.out_of_orderness_ms, idleness_ms=opts.idleness_ms), TOPIC)
    else:
        raw = env.from_source(kafka_source(opts), WatermarkStrategy.no_watermarks(), TOPIC)

    parsed = raw.process(ParseEvents(), output_type=event_type()).name("parse_event")
    malformed = parsed.get_side_output(MALFORMED)

    events = parsed if opts.watermarks == "source" else parsed.assign_timestamps_and_watermarks(
        watermark_strategy(opts.out_of_orderness_ms, EventTsAssigner()))

    records = (events
               .key_by(lambda e: assembler_bucket(e[REQUEST_ID]), key_type=Types.INT())
               .process(RequestAssembler(opts.forget_after_ms), output_type=record_type())
               .name("RequestAssembler").uid("request-assembler"))
    if opts.timestamp == "started_ts":
        records = records.assign_timestamps_and_watermarks(
            watermark_strategy(opts.out_of_orderness_ms, StartedTsAssigner()))

    # One key_by for the two windows and the trace: in PyFlink a key_by is a Python map
    # that computes the key, so each one more costs every record a trip through Python.
    by_tenant = records.key_by(lambda r: r.tenant_id, key_type=Types.STRING())
    processing = tenant_cost(by_tenant, TumblingProcessingTimeWindows.of(Time.minutes(1)),
                             "tenant-cost-processing-time")
    event = tenant_cost(by_tenant, TumblingEventTimeWindows.of(Time.minutes(1)),
                        "tenant-cost-event-time", late_tag=LATE)
    late = (event.get_side_output(LATE)
            .process(DescribeLate(), output_type=Types.STRING()).name("late"))
    trace = by_tenant.process(TraceRecords(), output_type=Types.STRING()).name("trace")
    if opts.python_workers == 2:
        # A TaskManager runs all of a slot's Python operators in one Python worker, one
        # core at most; the RequestAssembler keeps that one busy (its state requests), so
        # what comes after it gets a slot, and so a worker, of its own. The results stay
        # the same: the parallelism and the operators do not change, only where they run.
        for stream in (processing, event, trace):
            stream.slot_sharing_group(TENANT_MINUTES)

    outputs = {"processing-time": processing, "event-time": event, "late": late,
               "trace": trace, "malformed": malformed}
    for output in OUTPUTS:
        outputs[output].print(output).set_parallelism(1)
    if opts.results_topic:
        tagged = [outputs[o].map(TagResults(opts.session, opts.run_id, o),
                                 output_type=Types.STRING()).name("tag " + o)
                  for o in OUTPUTS]
        (tagged[0].union(*tagged[1:])
         .sink_to(results_sink(opts)).name("results " + opts.results_topic)
         .set_parallelism(1))


_SESSION = re.compile(r"[a-z0-9_-]{1,40}")


def env_default(name: str, default: str) -> str:
    return os.environ.get(name, default)


def parse_options(argv) -> argparse.Namespace:
    """Command-line options; each defaults to an environment variable, then to a constant."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bootstrap", default=env_default("LABTUI_BOOTSTRAP", "kafka:29092"),
                   help="Kafka bootstrap servers (env LABTUI_BOOTSTRAP; default kafka:29092)")
    p.add_argument("--topic", default=env_default("LABTUI_TOPIC", TOPIC),
                   help="topic to read (env LABTUI_TOPIC; default gateway-events)")
    p.add_argument("--group-id", default=env_default("LABTUI_GROUP_ID", "gateway-meter-lab4"),
                   help="consumer group id (env LABTUI_GROUP_ID)")
    p.add_argument("--starting-offsets", choices=["earliest", "latest"],
                   default=env_default("LABTUI_STARTING_OFFSETS", "earliest"),
                   help="where a new job starts reading (env LABTUI_STARTING_OFFSETS)")
    p.add_argument("--timestamp", choices=["completed_ts", "started_ts"],
                   default=env_default("LABTUI_TIMESTAMP", "completed_ts"),
                   help="the RequestRecord field that is its event time (env LABTUI_TIMESTAMP)")
    p.add_argument("--out-of-orderness-ms", type=int,
                   default=int(env_default("LABTUI_OUT_OF_ORDERNESS_MS", "0")),
                   help="0: for_monotonous_timestamps(); N: for_bounded_out_of_orderness(N ms) "
                        "(env LABTUI_OUT_OF_ORDERNESS_MS)")
    p.add_argument("--forget-after-ms", type=int,
                   default=int(env_default("LABTUI_FORGET_AFTER_MS", "600000")),
                   help="event time after which an unmatched half is forgotten "
                        "(env LABTUI_FORGET_AFTER_MS; default 600000)")
    p.add_argument("--watermark-interval-ms", type=int,
                   default=int(env_default("LABTUI_WATERMARK_INTERVAL_MS", "200")),
                   help="pipeline.auto-watermark-interval; 0 disables periodic watermarks, so "
                        "event-time windows fire only on a drain (env "
                        "LABTUI_WATERMARK_INTERVAL_MS; default 200)")
    p.add_argument("--watermarks", choices=["stream", "source"],
                   default=env_default("LABTUI_WATERMARKS", "stream"),
                   help="stream: the assigner after parse_event (Lab 4); source: the strategy "
                        "on the Kafka source, per partition, on the Kafka record timestamps "
                        "(module 5) (env LABTUI_WATERMARKS)")
    p.add_argument("--idleness-ms", type=int, default=int(env_default("LABTUI_IDLENESS_MS", "0")),
                   help="with --watermarks source: with_idleness, 0 for none "
                        "(env LABTUI_IDLENESS_MS)")
    p.add_argument("--bundle-time-ms", type=int,
                   default=int(env_default("LABTUI_BUNDLE_TIME_MS", "20")),
                   help="python.fn-execution.bundle.time: how long a Python operator buffers "
                        "records before it processes them (env LABTUI_BUNDLE_TIME_MS; default "
                        "20, PyFlink's own 1000)")
    p.add_argument("--bundle-size", type=int,
                   default=int(env_default("LABTUI_BUNDLE_SIZE", "1000")),
                   help="python.fn-execution.bundle.size: the most records in one bundle "
                        "(env LABTUI_BUNDLE_SIZE; default 1000, PyFlink's own 100000)")
    p.add_argument("--python-workers", type=int, choices=[1, 2],
                   default=int(env_default("LABTUI_PYTHON_WORKERS", "1")),
                   help="2: the windows and the trace in a slot-sharing group of their own, so "
                        "in a second task slot and a second Python worker process; the job then "
                        "takes two slots (env LABTUI_PYTHON_WORKERS; default 1)")
    p.add_argument("--execution-mode", choices=["process", "thread"],
                   default=env_default("LABTUI_PYTHON_EXECUTION_MODE", "process"),
                   help="python.execution-mode: process runs the Python functions in Python "
                        "workers beside the TaskManager (PyFlink's default); thread runs them "
                        "in the TaskManager's JVM (env LABTUI_PYTHON_EXECUTION_MODE)")
    p.add_argument("--session", default=env_default("LABTUI_SESSION", ""),
                   help="the session on a cluster a class shares: names the job "
                        "gateway-meter-lab4-SESSION and tags each results-topic line "
                        "(env LABTUI_SESSION; 1 to 40 of a-z, 0-9, '-' and '_')")
    p.add_argument("--results-topic", default=env_default("LABTUI_RESULTS_TOPIC", ""),
                   help="a Kafka topic the job also writes every print line to, tagged "
                        "(see the top of this file); none by default "
                        "(env LABTUI_RESULTS_TOPIC)")
    p.add_argument("--run-id", default=env_default("LABTUI_RUN_ID", ""),
                   help="the tag of this submission on each results-topic line, so a reader "
                        "tells its own job's lines from another's (env LABTUI_RUN_ID)")
    p.add_argument("--jars", default=env_default("LABTUI_JARS", ""),
                   help="file:// URL(s) of the Kafka connector jar, ';'-separated; not needed "
                        "when it is in /opt/flink/lib (env LABTUI_JARS)")
    p.add_argument("--python-executable", default=env_default("LABTUI_PYTHON_EXECUTABLE", ""),
                   help="python the Flink Python workers run (python.executable); default: "
                        "`python` from PATH, which must have apache-flink installed "
                        "(env LABTUI_PYTHON_EXECUTABLE)")
    opts = p.parse_args(argv)
    if opts.idleness_ms and opts.watermarks != "source":
        p.error("--idleness-ms needs --watermarks source: after the parse one generator sees "
                "every partition")
    for name in ("out_of_orderness_ms", "forget_after_ms", "watermark_interval_ms", "idleness_ms"):
        if getattr(opts, name) < 0:
            p.error(f"--{name.replace('_', '-')} must not be negative, got {getattr(opts, name)}")
    if opts.session and not _SESSION.fullmatch(opts.session):
        p.error(f"--session {opts.session!r} is not a session name: give 1 to 40 of a-z, "
                "0-9, '-' and '_', such as ana or class3-ana")
    for name in ("bundle_time_ms", "bundle_size"):
        if getattr(opts, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(opts, name)}")
    return opts


def python_config(opts) -> Configuration:
    """The Python workers' bundles, small and short so records reach the windows promptly (see
    Latency at the top): a job option, so every cluster the job is submitted to runs it so."""
    config = Configuration()
    config.set_string("python.fn-execution.bundle.time", str(opts.bundle_time_ms))
    config.set_string("python.fn-execution.bundle.size", str(opts.bundle_size))
    config.set_string("python.execution-mode", opts.execution_mode)
    return config


def main(argv=None) -> None:
    opts = parse_options(sys.argv[1:] if argv is None else argv)
    env = StreamExecutionEnvironment.get_execution_environment(python_config(opts))
    if opts.jars:
        env.add_jars(*[j for j in opts.jars.split(";") if j])  # fix 5
    if opts.python_executable:
        env.set_python_executable(opts.python_executable)
    env.set_parallelism(1)
    env.get_config().set_auto_watermark_interval(opts.watermark_interval_ms)  # 0: none
    build(env, opts)
    env.execute(job_name(opts))


if __name__ == "__main__":
    main()
