"""Unit tests of gateway_meter.py's pure parts: parse_event, join, the cost formula.

They import pyflink (gateway_meter does) but start no cluster:

    $LABTUI_CACHE/venv-flink-2.2.1/bin/python -m unittest -v test_gateway_meter   # in job/

The cases mirror gateway/event_test.go, so the Python job and the Go engine accept and reject
the same values.
"""

import json
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
            event(ts="soon"): "not a JSON event object",
            event(prompt_tokens=1.5): "not a JSON event object",
            event(prompt_tokens=True): "not a JSON event object",
            event(ts=1 << 63): "not a JSON event object",
            event(ts=float("nan")): "not a JSON event object",
            event(model="gpt-unknown"): "not in PRICE_PER_1K",
        }
        for raw, reason in cases.items():
            with self.subTest(raw=raw):
                with self.assertRaises(gm.MalformedEvent) as caught:
                    gm.parse_event(raw)
                self.assertIn(reason, str(caught.exception))

    def test_accepts_zero_and_negative_timestamps(self):
        for ts in (0, -1, -60000):
            self.assertEqual(gm.parse_event(event(ts=ts, prompt_tokens=0)).ts, ts)

    def test_reads_json_as_go_does(self):
        # Keys match case-insensitively, the last duplicate wins, null is absent, extra keys
        # are ignored.
        raw = ('{"TYPE":"RequestStarted","request_id":"x","request_id":"r","tenant_id":"a",'
               '"model":"flat-10c","gateway":"g","ts":5,"prompt_tokens":2,"ts":null,"extra":[1]}')
        e = gm.parse_event(raw)
        self.assertEqual((e.type, e.request_id, e.ts, e.prompt_tokens),
                         ("RequestStarted", "r", 5, 2))


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


if __name__ == "__main__":
    unittest.main()
