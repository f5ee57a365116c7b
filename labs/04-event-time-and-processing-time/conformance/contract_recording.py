#!/usr/bin/env python3
"""Write the event-contract table (../job/event-contract.jsonl) as a recording, for the
conformance run to feed to the real job: every case marked "feed", two seconds apart on
partition 0, each followed one second later by its "partner", the canonical other half of
the request the case would be. A case the contract accepts is then assembled and traced; a
case it refuses leaves its partner alone, so a side that wrongly accepted it would trace a
request the other does not. Values go in as JSON strings (the bytes they hold, exactly),
except values given in hex (bytes that are not UTF-8), which go in raw as the object they
are.

    contract_recording.py OUT.jsonl
"""
import json
import os
import sys

T0 = 1795946400000 + 5000  # 2026-11-29T10:00:05Z, before the table's first ts


def main(out_path: str) -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    table = os.path.join(here, "..", "job", "event-contract.jsonl")
    with open(table, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    lines, offset = [], 0

    def entry(arrival: int, value: bytes) -> bytes:
        nonlocal offset
        head = json.dumps({"partition": 0, "offset": offset, "timestamp": arrival,
                           "arrival": arrival, "key": "contract"}, separators=(",", ":"))
        offset += 1
        return head[:-1].encode() + b',"value":' + value + b"}"

    for k, c in enumerate(c for c in cases if c.get("feed")):
        arrival = T0 + 2000 * k
        if "value_hex" in c:
            value = bytes.fromhex(c["value_hex"])
        else:
            value = json.dumps(c["value"], separators=(",", ":")).encode()
        lines.append(entry(arrival, value))
        if "partner" in c:
            lines.append(entry(arrival + 1000, json.dumps(c["partner"]).encode()))
    with open(out_path, "wb") as f:
        f.write(b"\n".join(lines) + b"\n")


if __name__ == "__main__":
    main(sys.argv[1])
