"""Unit tests of gateway_meter.py's pure parts: parse_event, join, the cost formula.

They import pyflink (gateway_meter does) but start no cluster:

    $LABTUI_CACHE/venv-flink-2.2.1/bin/python -m unittest -v test_gateway_meter   # in job/

The cases mirror internal/gateway/event_test.go, so the Python job and the Go engine accept and reject
the same values.
"""

import copy
import json
import os
import random
import unittest

import gateway_meter as gm

STARTED = ('{"type":"RequestStarted","request_id":"r-103","tenant_id":"acme",'
           '"model":"flat-10c","gateway":"gw-1","ts":1795946430000,"prompt_tokens":1000}')
COMPLETED = ('{"type":"RequestCompleted","request_id":"r-103","tenant_id":"acme",'
             '"model":"flat-10c","gateway":"gw-1","ts":1795946444000,"completion_tokens":1000}')


def event(**fields):
    """A RequestStarted for a priced model, with fields replaced (None removes one)."""
    base = {"type": "RequestStarted", "request_id": "r", "tenant_id": "a", "model": "flat-10c",
            "gateway": "g", "ts": 1, "prompt_tokens": 1}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not None})


class ParseEvent(unittest.TestCase):

    def test_the_course_shape(self):
        s, c = gm.parse_event(STARTED), gm.parse_event(COMPLETED)
        self.assertEqual((s.type, s.request_id, s.tenant_id, s.model, s.gateway, s.ts,
                          s.prompt_tokens, s.completion_tokens),
                         ("RequestStarted", "r-103", "acme", "flat-10c", "gw-1",
                          1795946430000, 1000, 0))
        self.assertEqual((c.type, c.ts, c.prompt_tokens, c.completion_tokens),
                         ("RequestCompleted", 1795946444000, 0, 1000))

    def test_rejects_what_go_rejects(self):
        cases = {
            "not json": "not a JSON event object",
            "[1]": "not a JSON event object",
            event(type="RequestPaused"): "unknown event type",
            event(type=None): "missing field type",
            event(request_id=None): "missing field request_id",
            event(tenant_id=""): "missing field tenant_id",
            event(ts=None): "missing field ts",
            event(prompt_tokens=None): "without prompt_tokens",
            event(type="RequestCompleted", prompt_tokens=None,
                  completion_tokens=-5): "negative token count",
            event(ts="soon"): "ts is not an integer",
            event(prompt_tokens=1.5): "prompt_tokens is not an integer",
            event(prompt_tokens=True): "prompt_tokens is not an integer",
            event(ts=1 << 63): "ts is out of range",
            event(ts=float("nan")): "not a JSON event object",
            event(model="gpt-unknown"): "is not in the price table",
        }
        for raw, reason in cases.items():
            with self.subTest(raw=raw):
                with self.assertRaises(gm.MalformedEvent) as caught:
                    gm.parse_event(raw)
                self.assertIn(reason, str(caught.exception))

    def test_accepts_zero_and_negative_timestamps(self):
        for ts in (0, -1, -60000):
            self.assertEqual(gm.parse_event(event(ts=ts, prompt_tokens=0)).ts, ts)

    def test_the_event_contract_table(self):
        """Every case of event-contract.jsonl, the table internal/gateway/contract_test.go reads too.
        A value given in hex is bytes, decoded as Flink's SimpleStringSchema decodes them."""
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "event-contract.jsonl")
        with open(path, encoding="utf-8") as f:
            cases = [json.loads(line) for line in f if line.strip()]
        self.assertGreaterEqual(len(cases), 50)
        for c in cases:
            raw = (bytes.fromhex(c["value_hex"]).decode("utf-8", errors="replace")
                   if "value_hex" in c else c["value"])
            with self.subTest(case=c["name"]):
                if "error" in c:
                    with self.assertRaises(gm.MalformedEvent) as caught:
                        gm.parse_event(raw)
                    self.assertIn(c["error"], str(caught.exception))
                else:
                    e = gm.parse_event(raw)
                    self.assertEqual({k: getattr(e, k) for k in gm.EVENT_FIELDS}, c["event"])


class JoinAndCost(unittest.TestCase):

    def test_join_in_either_order(self):
        s, c = gm.parse_event(STARTED), gm.parse_event(COMPLETED)
        for a, b in ((s, c), (c, s)):
            r = gm.join(a, b)
            self.assertEqual(tuple(r), ("r-103", "acme", "flat-10c", "gw-1",
                                        1795946430000, 1795946444000, 1000, 1000))

    def test_cost_is_the_course_formula(self):
        r = gm.join(gm.parse_event(STARTED), gm.parse_event(COMPLETED))
        self.assertEqual(gm.record_usd(r), 0.1)
        acc = gm.TenantCost().create_accumulator()
        for _ in range(3):
            acc = gm.TenantCost().add(r, acc)
        self.assertEqual(acc, (0.1 + 0.1 + 0.1, 3))   # 0.30000000000000004, as Go adds it


class FakeTimers:
    def __init__(self):
        self.timers = set()

    def register_event_time_timer(self, t):
        self.timers.add(t)

    def delete_event_time_timer(self, t):
        self.timers.discard(t)


class FakeContext:
    def __init__(self, timers, ts):
        self.timers, self.ts = timers, ts

    def timer_service(self):
        return self.timers

    def timestamp(self):
        return self.ts


class KeyedHarness:
    """A keyed operator as Flink runs it, for a KeyedProcessFunction with a ValueState and
    event-time timers: one state per key; a timer per key and timestamp; advance(w) fires, in
    timestamp order, every timer at or below w, the timer service showing w; a timer
    registered at or behind the watermark fires at the next advance. With copy_state, state
    is read back as a copy, as after a trip to the JVM, so a function that changes what it
    read without update() loses the change."""

    class _State:
        def __init__(self, harness):
            self.h = harness

        def value(self):
            v = self.h.state.get(self.h.key)
            return copy.deepcopy(v) if self.h.copy_state else v

        def update(self, v):
            self.h.state[self.h.key] = copy.deepcopy(v) if self.h.copy_state else v

        def clear(self):
            self.h.state.pop(self.h.key, None)

    class _Timers:
        def __init__(self, harness):
            self.h = harness

        def current_watermark(self):
            return self.h.watermark

        def register_event_time_timer(self, t):
            self.h.timers.add((t, self.h.key))

        def delete_event_time_timer(self, t):
            self.h.timers.discard((t, self.h.key))

    class _Context:
        def __init__(self, harness, ts):
            self.h, self.ts = harness, ts

        def timer_service(self):
            return KeyedHarness._Timers(self.h)

        def timestamp(self):
            return self.ts

    def __init__(self, function, key_of, copy_state=False):
        self.f, self.key_of, self.copy_state = function, key_of, copy_state
        self.state, self.timers, self.key = {}, set(), None
        self.watermark = -(1 << 63)
        function.open(self)

    def get_state(self, descriptor):
        return KeyedHarness._State(self)

    def element(self, value, ts):
        self.key = self.key_of(value)
        return list(self.f.process_element(value, KeyedHarness._Context(self, ts)))

    def advance(self, watermark):
        assert watermark > self.watermark
        self.watermark = watermark
        out = []
        for t, key in sorted(x for x in self.timers if x[0] <= watermark):
            self.timers.discard((t, key))
            self.key = key
            out += list(self.f.on_timer(t, KeyedHarness._Context(self, t)))
        return out


class ReferenceAssembler:
    """The RequestAssembler's rules as the course's job keeps them, keyed by request_id: a
    ValueState with the half that came first and an event-time timer at its timestamp +
    forget_after_ms, deleted when the request completes."""

    def __init__(self, forget_after_ms):
        self.forget_after_ms = forget_after_ms

    def open(self, runtime_context):
        self.pending = runtime_context.get_state(None)

    def process_element(self, event, ctx):
        pending = self.pending.value()
        if pending is None:
            forget_at = min(ctx.timestamp() + self.forget_after_ms, gm.INT64_MAX)
            self.pending.update((event, forget_at))
            ctx.timer_service().register_event_time_timer(forget_at)
        elif pending[0].type != event.type:
            yield gm.join(pending[0], event)
            ctx.timer_service().delete_event_time_timer(pending[1])
            self.pending.clear()

    def on_timer(self, timestamp, ctx):
        self.pending.clear()
        return ()


def half(kind, request_id, ts):
    return gm.parse_event(json.dumps({
        "type": kind, "request_id": request_id, "tenant_id": "t", "model": "flat-10c",
        "gateway": "g", "ts": ts, "prompt_tokens" if kind == gm.STARTED else
        "completion_tokens": 7}))


class Assembler(unittest.TestCase):
    """RequestAssembler's rules, driven in a harness of Flink's keyed timers."""

    def assembler(self, forget_after_ms=600_000, copy_state=False):
        return KeyedHarness(gm.RequestAssembler(forget_after_ms),
                            lambda e: gm.assembler_bucket(e.request_id), copy_state)

    def test_a_pair_emits_one_record_in_either_order(self):
        for first, second in ((STARTED, COMPLETED), (COMPLETED, STARTED)):
            h = self.assembler()
            a, b = gm.parse_event(first), gm.parse_event(second)
            self.assertEqual(h.element(a, a.ts), [])
            (rec,) = h.element(b, b.ts)
            self.assertEqual(tuple(rec), ("r-103", "acme", "flat-10c", "gw-1",
                                          1795946430000, 1795946444000, 1000, 1000))
            self.assertEqual(h.advance(gm.INT64_MAX), [])
            self.assertEqual(h.state, {})  # nothing left once the bucket's timer fired

    def test_a_duplicate_half_is_ignored(self):
        h = self.assembler()
        s = gm.parse_event(STARTED)
        h.element(s, s.ts)
        self.assertEqual(h.element(s, s.ts), [])
        c = gm.parse_event(COMPLETED)
        self.assertEqual(len(h.element(c, c.ts)), 1)

    def test_a_lone_half_is_forgotten_when_the_watermark_passes_its_timer(self):
        h = self.assembler()
        s = gm.parse_event(STARTED)
        h.element(s, s.ts)
        h.advance(s.ts + 600_000 - 1)            # not yet
        c = gm.parse_event(COMPLETED)
        self.assertEqual(len(h.element(c, c.ts)), 1)
        h = self.assembler()
        h.element(s, s.ts)
        h.advance(s.ts + 600_000)                # its timer fires
        self.assertEqual(h.element(c, c.ts), [])  # the other half now waits alone

    def test_a_half_behind_the_watermark_waits_for_the_next_advance(self):
        # Its timer is already due; Flink fires it at the next watermark, not before.
        h = self.assembler(forget_after_ms=0)
        h.advance(2_000)
        h.element(half(gm.STARTED, "r", 1_000), 1_000)
        self.assertEqual(len(h.element(half(gm.COMPLETED, "r", 1_500), 1_500)), 1)
        h.element(half(gm.STARTED, "q", 1_000), 1_000)
        h.advance(2_001)
        self.assertEqual(h.element(half(gm.COMPLETED, "q", 1_500), 1_500), [])

    def test_a_timer_past_the_longs_end_is_the_last_long(self):
        h = self.assembler()
        h.element(half(gm.STARTED, "r", gm.TS_MAX), gm.TS_MAX)
        self.assertEqual({t for t, _ in h.timers}, {gm.INT64_MAX})

    def test_the_same_records_as_a_timer_per_request(self):
        """Random halves, duplicates and watermark advances: the bucketed assembler and the
        per-request reference emit the same records in the same order."""
        rng = random.Random(4)
        for trial in range(300):
            forget = rng.choice((0, 1, 50, 600_000))
            copy_state = trial % 2 == 1
            ours = self.assembler(forget, copy_state)
            ref = KeyedHarness(ReferenceAssembler(forget), lambda e: e.request_id, copy_state)
            ids = ["r%d" % i for i in range(rng.randint(1, 40))]
            wm = -1
            for _ in range(rng.randint(1, 200)):
                if rng.random() < 0.15:
                    wm += rng.randint(1, 80)
                    self.assertEqual(ours.advance(wm), ref.advance(wm))
                    continue
                ts = wm + rng.randint(-60, 60)
                e = half(rng.choice((gm.STARTED, gm.COMPLETED)), rng.choice(ids), ts)
                got, want = ours.element(e, ts), ref.element(e, ts)
                self.assertEqual([tuple(r) for r in got], [tuple(r) for r in want],
                                 f"trial {trial}: {tuple(e)}")
            ours.advance(gm.INT64_MAX)
            self.assertEqual(ours.state, {}, f"trial {trial}: state left after the last timer")


class WatermarkTimers(FakeTimers):
    def __init__(self, watermark):
        super().__init__()
        self.watermark = watermark

    def current_watermark(self):
        return self.watermark


class Late(unittest.TestCase):
    """DescribeLate's line: what labtui's parser (meter.ParseResultLine) reads of a late record."""

    def test_a_late_record_names_its_gateway(self):
        rec = gm.join(gm.parse_event(STARTED), gm.parse_event(COMPLETED))
        ctx = FakeContext(WatermarkTimers(1795946468999), 1795946444000)
        (line,) = list(gm.DescribeLate().process_element(rec, ctx))
        self.assertEqual(json.loads(line), {"request_id": "r-103", "tenant_id": "acme",
                                            "gateway": "gw-1", "timestamp": 1795946444000,
                                            "watermark": 1795946468999, "usd": 0.1})
        # the same keys in the same order as labtui's late lines (internal/jobspec/print.go)
        self.assertEqual(list(json.loads(line)), ["request_id", "tenant_id", "gateway",
                                                  "timestamp", "watermark", "usd"])



class Options(unittest.TestCase):

    def test_bundles_are_small_and_short_unless_asked(self):
        opts = gm.parse_options([])
        self.assertEqual((opts.bundle_time_ms, opts.bundle_size), (20, 1000))
        conf = gm.python_config(gm.parse_options(["--bundle-time-ms", "5", "--bundle-size", "7"]))
        self.assertEqual(conf.get_string("python.fn-execution.bundle.time", ""), "5")
        self.assertEqual(conf.get_string("python.fn-execution.bundle.size", ""), "7")

    def test_a_bundle_of_nothing_is_refused(self):
        with self.assertRaises(SystemExit):
            gm.parse_options(["--bundle-time-ms", "0"])

    def test_one_python_worker_unless_asked_for_two(self):
        self.assertEqual(gm.parse_options([]).python_workers, 1)
        self.assertEqual(gm.parse_options(["--python-workers", "2"]).python_workers, 2)
        for bad in ("0", "3", "two"):
            with self.subTest(workers=bad), self.assertRaises(SystemExit):
                gm.parse_options(["--python-workers", bad])

    def test_the_session_names_the_job(self):
        self.assertEqual(gm.job_name(gm.parse_options([])), "gateway-meter-lab4")
        opts = gm.parse_options(["--session", "class3-ana", "--results-topic", "t", "--run-id", "r1"])
        self.assertEqual(gm.job_name(opts), "gateway-meter-lab4-class3-ana")
        self.assertEqual((opts.results_topic, opts.run_id), ("t", "r1"))

    def test_a_session_that_is_no_topic_name_part_is_refused(self):
        for bad in ("Ana", "a b", "a/b", "x" * 41):
            with self.subTest(session=bad), self.assertRaises(SystemExit):
                gm.parse_options(["--session", bad])


class ResultsTopic(unittest.TestCase):
    """What the job writes to its results topic, as labtui's reader (internal/backend/flinklab,
    results.go) takes it apart: the session, the run, the print sink's identifier and the
    print line's JSON, untouched."""

    def test_a_line_is_tagged_and_kept_as_printed(self):
        rec = gm.join(gm.parse_event(STARTED), gm.parse_event(COMPLETED))
        (late,) = list(gm.DescribeLate().process_element(
            rec, FakeContext(WatermarkTimers(1795946468999), 1795946444000)))
        value = gm.TagResults("ana", "run-7", "late").map(late)
        self.assertEqual(json.loads(value), {"session": "ana", "run": "run-7", "output": "late",
                                             "result": json.loads(late)})
        self.assertTrue(value.endswith(',"result":' + late + "}"))
        # a float the print sink writes with 17 digits keeps them: the line is not re-encoded
        window = gm.to_json({"tenant_id": "acme", "usd": 0.1 + 0.2})
        self.assertIn('"usd":0.30000000000000004}',
                      gm.results_line("ana", "r", "event-time", window))

    @unittest.skipUnless(os.environ.get("LABTUI_JARS"), "set LABTUI_JARS to the Kafka connector jar's file:// URL")
    def test_every_output_reaches_the_results_sink_and_its_print_sink(self):
        from pyflink.datastream import StreamExecutionEnvironment
        opts = gm.parse_options(["--bootstrap", "127.0.0.1:1", "--session", "ana",
                                 "--results-topic", "gateway-results-ana", "--run-id", "r1"])
        env = StreamExecutionEnvironment.get_execution_environment()
        env.add_jars(*opts.jars.split(";"))
        gm.build(env, opts)
        plan = json.loads(env.get_execution_plan())
        names = [n["contents"] for n in plan["nodes"]]
        for output in gm.OUTPUTS:
            with self.subTest(output=output):
                self.assertIn("tag " + output, " ".join(names))
        self.assertTrue(any("results gateway-results-ana" in n for n in names), names)
        self.assertEqual(sum("Print to Std. Out" in n for n in names), len(gm.OUTPUTS), names)


if __name__ == "__main__":
    unittest.main()
