"""Runs `labtui replay` and the reference model on many generated recordings, the recorded
hour and the lab's scenarios, under many option combinations, and diffs them exactly; a
disagreement is shrunk to a minimal recording, written under --findings.

    python3 runner.py --labtui ./labtui --seeds 200 [--combos 12] [--findings DIR]

Exit 0 when every run agrees, 1 otherwise. Standard library only.
"""

import argparse
import itertools
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402
import gen  # noqa: E402

LAB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

AXES = {
    "out_of_orderness": [0, 1, 999, 40_000, 86_400_000],
    "watermark_interval": [200, 1, 1000, 0, 333, 90_000],
    "forget_after": [600_000, 0, 5_000, 86_400_000],
    "timestamp": ["completed_ts", "started_ts"],
    "watermarks": ["stream", "source"],
    "idleness": [0, 1, 1_000, 30_000],
    "drain": [False, True],
}
DEFAULT = {"out_of_orderness": 0, "watermark_interval": 200, "forget_after": 600_000,
           "timestamp": "completed_ts", "watermarks": "stream", "idleness": 0, "drain": False}


def all_combos():
    keys = list(AXES)
    for vals in itertools.product(*(AXES[k] for k in keys)):
        o = dict(zip(keys, vals))
        if o["watermarks"] == "stream" and o["idleness"]:
            continue
        yield o


WHERE = {}  # --where KEY=VALUE: only option sets with these values


def combos_for(seed: int, k: int):
    """The default, the default drained and k option sets drawn by the seed (a corner case,
    seed < 0, gets three times as many)."""
    rng = random.Random(seed * 7919 + 1)
    if seed < 0:
        k *= 3
    every = [o for o in all_combos() if all(str(o[w]) == v for w, v in WHERE.items())]
    if WHERE:
        return rng.sample(every, min(k, len(every)))
    picked = [dict(DEFAULT), dict(DEFAULT, drain=True)] + rng.sample(every, k)
    return picked


def name(o):
    return " ".join(compare.labtui_args(o)[6:])


def shrink(binary, lines, opts, tmp, ext):
    """Deletes chunks of lines while labtui and the model still disagree."""
    def fails(ls):
        path = os.path.join(tmp, "shrink" + ext)
        gen_write(path, ls)
        d, _, _ = compare.compare(binary, path, opts)
        return bool(d)
    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i, changed = 0, False
        while i < len(lines):
            cand = lines[:i] + lines[i + chunk:]
            if cand and fails(cand):
                lines, changed = cand, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return lines


def gen_write(path, lines):
    import gzip
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")
    if path.endswith(".gz"):
        with open(path, "wb") as f:  # two gzip members, as cat a.gz b.gz makes
            half = data.rfind(b"\n", 0, len(data) // 2) + 1
            f.write(gzip.compress(data[:half]) + gzip.compress(data[half:]))
    else:
        with open(path, "wb") as f:
            f.write(data)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labtui", required=True, help="the labtui binary to check")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--combos", type=int, default=10, help="random option sets per recording")
    ap.add_argument("--findings", default="", help="where shrunk recordings go")
    ap.add_argument("--no-hour", action="store_true", help="skip the recorded hour")
    ap.add_argument("--hour-sets", type=int, default=6,
                    help="how many of the recorded hour's six option sets to run")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--no-swaps", action="store_true",
                    help="keep every partition's arrivals in offset order")
    ap.add_argument("--max-findings", type=int, default=20)
    ap.add_argument("--where", action="append", default=[],
                    help="KEY=VALUE: only option sets with it, e.g. watermarks=source")
    a = ap.parse_args(argv)
    for w in a.where:
        key, _, val = w.partition("=")
        if key not in AXES:
            ap.error(f"--where {w}: {key} is not one of {', '.join(AXES)}")
        WHERE[key] = val
    tmp = tempfile.mkdtemp(prefix="oracle-")
    runs = agree = 0
    findings = []
    cases = []
    for s in ("seed-burst.jsonl", "end-of-input.jsonl"):
        cases.append((os.path.join(LAB, "scenarios", s), None, 0))
    for k, (cname, lines) in enumerate(gen.corners().items()):
        if a.no_swaps and cname == "arrivals-out-of-offset-order":
            continue
        path = os.path.join(tmp, f"corner-{cname}.jsonl")
        gen_write(path, lines)
        cases.append((path, lines, -1 - k))
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        ext = ".jsonl.gz" if seed % 5 == 0 else ".jsonl"
        path = os.path.join(tmp, f"seed-{seed}{ext}")
        lines = gen.recording(seed, swaps=not a.no_swaps)
        gen_write(path, lines)
        cases.append((path, lines, seed))
    for path, lines, seed in cases:
        for o in combos_for(seed, a.combos):
            runs += 1
            d, _, _ = compare.compare(a.labtui, path, o, text=o == DEFAULT)
            if not d:
                agree += 1
                continue
            key = (d[0].split(":")[0].split("[")[0], o["watermarks"], o["timestamp"])
            print(f"DIFFER {os.path.basename(path)} {name(o)}\n  " + "\n  ".join(d[:4]),
                  flush=True)
            if lines is not None and not a.no_shrink and len(findings) < a.max_findings:
                small = shrink(a.labtui, list(lines), o, tmp, ".jsonl")
                findings.append((seed, o, small))
                if a.findings:
                    os.makedirs(a.findings, exist_ok=True)
                    out = os.path.join(a.findings, f"seed-{seed}-{len(findings)}.jsonl")
                    gen_write(out, small)
                    with open(out + ".flags", "w") as f:
                        f.write(" ".join(compare.labtui_args(o)) + "\n")
                print(f"  shrunk to {len(small)} lines:\n    " + "\n    ".join(small), flush=True)
    if not a.no_hour:
        hour = os.path.join(LAB, "data", "recorded-hour.jsonl.gz")
        for o in [DEFAULT, dict(DEFAULT, drain=True), dict(DEFAULT, out_of_orderness=40_000),
                  dict(DEFAULT, watermarks="source"), dict(DEFAULT, timestamp="started_ts"),
                  dict(DEFAULT, watermarks="source", idleness=1_000, drain=True)][:a.hour_sets]:
            runs += 1
            d, _, _ = compare.compare(a.labtui, hour, o)
            if d:
                print(f"DIFFER recorded-hour {name(o)}\n  " + "\n  ".join(d[:4]), flush=True)
            else:
                agree += 1
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"oracle: {runs} runs on {len(cases) + (0 if a.no_hour else 1)} recordings: {agree} agree, "
          f"{runs - agree} differ")
    return 0 if runs == agree else 1


if __name__ == "__main__":
    sys.exit(main())
