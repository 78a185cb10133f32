"""Pipeline throughput (issue 18 item 3): each pipeline over 1 MB, 10 MB and 100 MB of text,
ours (in-process, the file written into the VFS before the clock starts) against GNU tools on
tmpfs (``bash -c`` with LC_ALL=C). Target: ours within 3x of GNU (>= 1/3 of its throughput).

Alternating runs, median of the per-pair ratios. Also runnable alone:
``python -m benchmarks.throughput [--runs N] [--sizes 1,10,100] [--only SUBSTR] [--profile NAME]``
(``--profile`` prints cProfile's top functions of one pipeline at the largest size).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from .harness import Report, Row, measure_pair

MAX_RATIO = 3.0
SIZES_MB = (1, 10, 100)
BASH_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/tmp"}

PIPELINES = [
    "cat f | grep x | wc -l",
    "grep -c x f",
    "cut -d, -f2 f | tail -1",
    "awk '{s+=$1} END{print s}' f",
    "sort f | uniq -c | tail -1",
    "tr a-z A-Z < f | wc -c",
    "sed s/a/b/g f | wc -c",
    "wc -l f",
    "head -n -1 f | wc -l",
]

_WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
          "oscar papa quebec romeo sierra tango uniform victor whiskey yankee zulu the a of and "
          "to in is it that was for on are with as be at by this had not but from or have an "
          "they which one you were her all she there would their we him been has when who").split()
_cache: dict[int, bytes] = {}


def make_data(size: int) -> bytes:
    """``size`` bytes of CSV-ish text lines: a number, a comma, words (some with an x),
    a comma, a word; ~55 bytes a line, deterministic."""
    if size in _cache:
        return _cache[size]
    rng = random.Random(18)
    words = _WORDS
    # 20 000 distinct lines, repeated with a running number in front so sort has work to do
    base = [",".join((" ".join(rng.choice(words) for _ in range(rng.randint(3, 8))),
                      rng.choice(words))).encode() for _ in range(20_000)]
    out, total, i = [], 0, 0
    while total < size:
        line = b"%d,%s\n" % ((i * 7919) % 100_003, base[i % len(base)])
        out.append(line)
        total += len(line)
        i += 1
    data = b"".join(out)[:size]
    data = data[:data.rfind(b"\n") + 1]
    _cache[size] = data
    return data


class _DevNull:
    def write(self, data: bytes) -> None:
        pass


class _Collect:
    def __init__(self) -> None:
        self.buf = bytearray()

    def write(self, data: bytes) -> None:
        self.buf += data


def _limits():
    from sandbox_kernel.limits import Limits

    return Limits(wall_time=600.0, vfs_bytes=1 << 30, stdout_bytes=1 << 30, stderr_bytes=1 << 20,
                  string_bytes=1 << 30, shell_memory_bytes=1 << 30)


class Ours:
    """One sandbox holding the file; each call runs the pipeline there on one event loop."""

    def __init__(self, data: bytes) -> None:
        from sandbox_kernel.sandbox import Sandbox

        self.limits = _limits()
        self.sandbox = Sandbox(self.limits)
        self.sandbox.fs.write_bytes("/workspace/f", data)
        self.loop = asyncio.new_event_loop()

    def run(self, script: str, sink=None) -> int:
        from sandbox_kernel.engine import CancelToken, Streams

        sink = sink or _DevNull()
        result = self.loop.run_until_complete(
            self.sandbox.run("sh", script, Streams(sink, _DevNull(), CancelToken()), self.limits))
        return result.status

    def output(self, script: str) -> bytes:
        out = _Collect()
        self.run(script, out)
        return bytes(out.buf)

    def close(self) -> None:
        self.loop.run_until_complete(self.sandbox.shutdown())
        self.loop.close()


def _tmpfs() -> str | None:
    return "/dev/shm" if os.path.isdir("/dev/shm") else None


def gnu_output(tmp: str, script: str) -> bytes:
    return subprocess.run(["bash", "-c", script], cwd=tmp, env=BASH_ENV, capture_output=True,
                          check=False).stdout


def bench_throughput(report: Report, runs: int, sizes=SIZES_MB, only: str = "") -> None:
    for mb in sizes:
        data = make_data(mb * 1000 * 1000)
        ours = Ours(data)
        with tempfile.TemporaryDirectory(prefix="bench-", dir=_tmpfs()) as tmp:
            Path(tmp, "f").write_bytes(data)
            for script in PIPELINES:
                if only and only not in script:
                    continue
                name = f"{script} [{mb} MB]"
                try:
                    same = ours.output(script) == gnu_output(tmp, script)
                    a, b, ratio = measure_pair(lambda: ours.run(script), lambda: gnu_output(tmp, script),
                                               runs)
                except Exception as e:  # one broken pipeline must not hide the others
                    report.add(Row("throughput", name, None, "GNU", None, note=f"error: {type(e).__name__}: {e}"))
                    continue
                report.add(Row("throughput", name, a, "GNU", b, ratio=ratio, target=f"<= {MAX_RATIO:g}x GNU",
                               passed=ratio <= MAX_RATIO, note="" if same else "OUTPUT DIFFERS"))
        ours.close()


def profile(script: str, mb: int, top: int = 25) -> None:
    import cProfile
    import pstats

    ours = Ours(make_data(mb * 1000 * 1000))
    ours.run(script)
    prof = cProfile.Profile()
    prof.enable()
    ours.run(script)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)
    ours.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.throughput")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES_MB)), help="MB, comma-separated")
    ap.add_argument("--only", default="", help="only pipelines containing this text")
    ap.add_argument("--profile", default="", help="cProfile this pipeline (at the largest size)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.profile:
        profile(args.profile, max(sizes))
        return 0
    from .__main__ import print_table

    report = Report()
    bench_throughput(report, args.runs, sizes, args.only)
    print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
