"""Runs `labtui replay` and the reference model on one recording with one set of options and
says where they differ: every sink's lines, in order, numbers compared as float64 exactly, and
the replay's counts (records, skipped lines, assembled, late, pending)."""

import json
import re
import subprocess

import model

SUMMARY = re.compile(r"replayed (\d+) records \((\d+) skipped\) at recorded pace in [^:]*: "
                     r"(\d+) requests assembled, (\d+) late, (\d+) windows? pending")
SKIPPED = re.compile(r":(\d+): skipped: ")


def labtui_args(opts: dict) -> list:
    """The replay flags for opts (durations in milliseconds)."""
    a = ["--pace", "recorded", "--format", "jsonl", "--trace",
         "--out-of-orderness", f"{opts['out_of_orderness']}ms",
         "--watermark-interval", f"{opts['watermark_interval']}ms",
         "--forget-after", f"{opts['forget_after']}ms",
         "--timestamp", opts["timestamp"], "--watermarks", opts["watermarks"]]
    if opts["watermarks"] == "source":
        a += ["--idleness", f"{opts['idleness']}ms"]
    if opts["drain"]:
        a.append("--drain")
    if opts.get("partitions"):
        a += ["--partitions", str(opts["partitions"])]
    return a


def text_differs(binary: str, path: str, opts: dict, jsonl: list) -> list:
    """The text format's lines are `sink> {json}  # comment`, the jsonl lines' JSON without
    "sink": the differences, if any."""
    args = [a if a != "jsonl" else "text" for a in labtui_args(opts)]
    p = subprocess.run([binary, "replay", path] + args, capture_output=True, timeout=600,
                       env={"HOME": "/tmp", "PATH": "/usr/bin:/bin"})
    got = []
    for raw in p.stdout.split(b"\n"):
        if not raw.strip():
            continue
        line = raw.decode("utf-8", "surrogateescape")
        sink, _, rest = line.partition("> ")
        body = rest.split("  # ", 1)[0]
        got.append((sink, json.loads(body)))
    if len(got) != len(jsonl):
        return [f"text format: {len(got)} lines, jsonl {len(jsonl)}"]
    for (s, d), (t, e) in zip(got, jsonl):
        if s != t or not _same(d, e):
            return [f"text format: {s}> {json.dumps(d)} is jsonl {t} {json.dumps(e)}"]
    return []


def run_labtui(binary: str, path: str, opts: dict) -> dict:
    p = subprocess.run([binary, "replay", path] + labtui_args(opts), capture_output=True,
                       text=True, timeout=600, env={"HOME": "/tmp", "PATH": "/usr/bin:/bin",
                                                    "XDG_CONFIG_HOME": "/nonexistent",
                                                    "XDG_STATE_HOME": "/tmp/oracle-state"})
    out = []
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        out.append((d.pop("sink"), d))
    res = {"out": out, "rc": p.returncode, "stderr": p.stderr}
    m = SUMMARY.search(p.stderr)
    if m:
        res.update(records=int(m[1]), nskipped=int(m[2]), assembled=int(m[3]),
                   late=int(m[4]), pending=int(m[5]))
    skipped = [int(x) for x in SKIPPED.findall(p.stderr)]
    res["skipped"] = skipped
    return res


def _same(a, b) -> bool:
    """JSON values equal, numbers as float64 exactly (1 and 1.0 are one number)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _canon(lines, sink):
    """A sink's lines; the windows fired by one watermark or timer are in no order Flink
    defines across keys (a heap of timers of one timestamp), so those sort by window then
    tenant; trace, late and pending keep their order."""
    got = [d for s, d in lines if s == sink]
    if sink in ("event-time", "processing-time", "pending"):
        got.sort(key=lambda d: (d["window_start"], d["tenant_id"]))
    return got


SINKS = ("trace", "late", "processing-time", "event-time", "pending")


def compare(binary: str, path: str, opts: dict, text: bool = False):
    """Returns (differences, labtui result, model result); no differences means they agree.
    text: also check that --format text prints the same lines."""
    lt = run_labtui(binary, path, opts)
    md = model.run(path, opts)
    diffs = []
    if md.get("refused_partition"):
        want = f"line {md['refused_partition']} names partition "
        if lt["rc"] == 0 or want not in lt["stderr"]:
            diffs.append(f"labtui exit {lt['rc']} without refusing {want.strip()}: {lt['stderr'][-300:]}")
        return diffs, lt, md
    if md.get("refused"):
        if lt["rc"] == 0 or "partitions are more than" not in lt["stderr"]:
            diffs.append(f"labtui exit {lt['rc']} without refusing the partitions: {lt['stderr'][-300:]}")
        return diffs, lt, md
    if lt["rc"] != 0:
        diffs.append(f"labtui exit {lt['rc']}: {lt['stderr'][-400:]}")
    other = sorted({s for s, _ in lt["out"]} - set(SINKS))
    if other:
        diffs.append(f"labtui printed sinks the model has no rule for: {other}")
    for sink in SINKS:
        a, b = _canon(lt["out"], sink), _canon(md["out"], sink)
        if len(a) != len(b):
            diffs.append(f"{sink}: labtui {len(a)} lines, model {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            if not _same(x, y):
                diffs.append(f"{sink}[{i}]: labtui {json.dumps(x)}\n      model  {json.dumps(y)}")
                break
    for k, mk in (("records", "records"), ("nskipped", None), ("assembled", "assembled"),
                  ("late", "late"), ("pending", "pending")):
        want = len(md["skipped"]) if mk is None else md[mk]
        if lt.get(k) != want:
            diffs.append(f"count {k}: labtui {lt.get(k)}, model {want}")
    if text and lt["rc"] == 0:
        diffs += text_differs(binary, path, opts, lt["out"])
    # each skipped line is reported once, in line order (tombstones as one count)
    reported = lt["skipped"]
    if len(reported) < 100:
        tomb = set(md.get("tombstones", []))
        want = [n for n in md["skipped"] if n not in tomb]
        if reported != want:
            diffs.append(f"skipped lines: labtui {reported[:20]}, model {want[:20]}")
    return diffs, lt, md
