"""Scaling curves: CPU time against N for the workloads that must grow linearly (issue 18),
ours against real bash (and bashkit where it can run them). Each curve's growth exponent is
the least-squares slope of log(time) over log(N) across three decades; ours must stay <= 1.2.

Ours and bashkit run in-process (``time.process_time``, set-up not timed); bash runs as
``bash -c`` on tmpfs and is charged its children's CPU (``RUSAGE_CHILDREN``).
"""
from __future__ import annotations

import asyncio
import math
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .harness import Report, Row, Sample

MAX_EXPONENT = 1.2
#: a curve stops before a size whose run would take longer than this (extrapolated from the
#: last two points, at least linearly); a curve that stops short is a MISS
RUN_BUDGET = 20.0
F = "for ((i=0;i<{N};i++)); do "
LOOP_SIZES = [100, 1000, 10_000, 100_000]
FILE_SIZES = [100, 1000, 10_000, 100_000]


@dataclass
class Workload:
    name: str
    script: str       # with {N}
    setup: str = ""   # kind of files made before the clock starts (see entries)
    sizes: tuple[int, ...] = tuple(LOOP_SIZES)
    bashkit: bool = True


WORKLOADS = [
    Workload("a+=(x)", "a=(); " + F + "a+=($i); done; echo ${{#a[@]}}"),
    Workload("a[i]=x", "a=(); " + F + "a[i]=$i; done; echo ${{#a[@]}}"),
    Workload('b=("${a[@]}")', 'a=($(seq 1 {N})); for k in 1 2 3; do b=("${{a[@]}}"); done; echo ${{#b[@]}}',
             sizes=(1000, 10_000, 100_000, 1_000_000)),
    Workload("unset 'a[i]'", "a=($(seq 1 {N})); " + F + "unset 'a[i]'; done; echo ${{#a[@]}}"),
    Workload("sparse a[i*1000], ${a[-1]}", F + "a[i*1000]=$i; x=${{a[-1]}}; done; echo ${{#a[@]}}"),
    Workload("s+=x", "s=; " + F + "s+=x; done; echo ${{#s}}"),
    Workload("read -a of N words", "read -r -a arr < f; echo ${{#arr[@]}}", "words",
             sizes=(1000, 10_000, 100_000, 1_000_000)),
    Workload("mapfile N lines", "mapfile -t arr < f; echo ${{#arr[@]}}", "lines",
             sizes=(1000, 10_000, 100_000, 1_000_000)),
    Workload("N files in one dir", "mkdir d; " + F + ": > d/f$i; done; echo ok", sizes=tuple(FILE_SIZES)),
    Workload("deep tree: find, du", "find t | wc -l; du -s t", "deep", sizes=(10, 100, 1000), bashkit=False),
    Workload("find tree of N files", "find t -type f | wc -l", "tree", sizes=tuple(FILE_SIZES), bashkit=False),
    Workload("ls -R tree of N files", "ls -R t | wc -l", "tree", sizes=tuple(FILE_SIZES), bashkit=False),
    Workload("du tree of N files", "du -s t", "tree", sizes=tuple(FILE_SIZES), bashkit=False),
    Workload("glob t/*/*/* of N files", "set -- t/*/*/*; echo $#", "tree", sizes=tuple(FILE_SIZES),
             bashkit=False),
]


def entries(kind: str, n: int) -> Iterator[tuple[str, bytes | None]]:
    """(relative path, file data or None for a directory), parents first."""
    if kind == "words":
        yield "f", b" ".join(b"%d" % i for i in range(n)) + b"\n"
    elif kind == "lines":
        yield "f", b"".join(b"%d\n" % i for i in range(n))
    elif kind == "deep":
        path = "t"
        for _ in range(n):
            yield path, None
            yield path + "/f", b"x\n"
            path += "/d"
    elif kind == "tree":  # t/dA/dB/fI: 10 files a directory, 100 directories a level
        yield "t", None
        made: set[str] = set()
        for i in range(n):
            j = i // 10
            upper, lower = f"t/d{j // 100}", f"t/d{j // 100}/d{j % 100}"
            for d in (upper, lower):
                if d not in made:
                    made.add(d)
                    yield d, None
            yield f"{lower}/f{i}", b"x\n"


def exponent(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(t) against log(N)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-6)) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else math.nan


class _Null:
    def write(self, data: bytes) -> None:
        pass


def _ours(w: Workload, n: int, runs: int) -> float:
    from sandbox_kernel.engine import CancelToken, Streams
    from sandbox_kernel.limits import Limits
    from sandbox_kernel.sandbox import Sandbox

    limits = Limits(wall_time=600.0, vfs_inodes=2_000_000, vfs_bytes=1 << 31)
    times = []
    for _ in range(runs + 1):  # the first run warms up
        sandbox = Sandbox(limits)
        fs = sandbox.fs
        for rel, data in entries(w.setup, n):
            parent, _, name = ("/workspace/" + rel).rpartition("/")
            if data is None:
                fs.mkdir(name, cwd=parent)
            else:
                fs.write_bytes(name, data, cwd=parent)
        loop = asyncio.new_event_loop()
        try:
            t = time.process_time()
            loop.run_until_complete(sandbox.run("sh", "cd /workspace; " + w.script.format(N=n),
                                                Streams(_Null(), _Null(), CancelToken())))
            times.append(time.process_time() - t)
            loop.run_until_complete(sandbox.shutdown())
        finally:
            loop.close()
    return statistics.median(times[1:])


def _bash(w: Workload, n: int, runs: int) -> float:
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    times = []
    with tempfile.TemporaryDirectory(prefix="bench-scaling-", dir=shm) as tmp:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            for rel, data in entries(w.setup, n):
                # deep trees outgrow PATH_MAX: make each level relative to its parent
                if w.setup == "deep":
                    if data is None:
                        os.mkdir(rel.rsplit("/", 1)[-1], dir_fd=fd)
                        sub = os.open(rel.rsplit("/", 1)[-1], os.O_RDONLY, dir_fd=fd)
                        os.close(fd)
                        fd = sub
                    else:
                        with open(os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "wb") as f:
                            f.write(data)
                elif data is None:
                    os.mkdir(os.path.join(tmp, rel))
                else:
                    Path(tmp, rel).write_bytes(data)
        finally:
            os.close(fd)
        script = w.script.format(N=n)
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(["bash", "-c", script], cwd=tmp, capture_output=True, check=False,
                           env={"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/tmp"})
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times)


def _bashkit(w: Workload, n: int, runs: int) -> float:
    import bashkit

    times = []
    for _ in range(runs + 1):
        shell = bashkit.Bash()
        for rel, data in entries(w.setup, n):  # only single files (words, lines) here
            if data is not None:
                shell.write_file("/tmp/" + rel, data.decode())
        t = time.process_time()
        shell.execute_sync("cd /tmp; " + w.script.format(N=n))
        times.append(time.process_time() - t)
    return statistics.median(times[1:])


def predicted(points: list[tuple[int, float]], n: int) -> float:
    """The time at ``n`` if the curve keeps its last slope (or grows linearly, if faster)."""
    (n0, t0), (n1, t1) = points[-2] if len(points) > 1 else points[-1], points[-1]
    slope = math.log(t1 / t0) / math.log(n1 / n0) if n1 > n0 and t0 > 0 and t1 > 0 else 1.0
    return t1 * (n / n1) ** max(1.0, slope)


def curve(run, w: Workload, sizes: tuple[int, ...], runs: int) -> list[tuple[int, float]]:
    points: list[tuple[int, float]] = []
    for n in sizes:
        if points and predicted(points, n) > RUN_BUDGET:
            break
        points.append((n, run(w, n, runs if not points or points[-1][1] < 1.0 else 1)))
    return points


def bench_scaling(report: Report, runs: int) -> None:
    runs = min(runs, 3)
    quick = runs == 1
    have_bash = report.peers.get("bash", "ok") == "ok" and shutil.which("bash") is not None
    have_bashkit = report.peers.get("bashkit", "ok") == "ok"
    for w in WORKLOADS:
        sizes = w.sizes[:-1] if quick else w.sizes
        curves = {"ours": curve(_ours, w, sizes, runs)}
        if have_bash:
            curves["bash"] = curve(_bash, w, sizes, runs)
        if have_bashkit and w.bashkit:
            try:  # bashkit stops at 100 000 commands a session: its curve ends at 10 000
                curves["bashkit"] = curve(_bashkit, w, tuple(s for s in sizes if s <= 10_000), runs)
            except Exception as e:
                report.add(Row("scaling", w.name, None, "bashkit", None, note=f"bashkit error: {e}"))
        report.curves[w.name] = curves
        ours = curves["ours"]
        exps = {peer: exponent(points) for peer, points in curves.items() if len(points) >= 2}
        n_top, t_top = ours[-1]
        covered = n_top == sizes[-1]
        passed = covered and exps.get("ours", math.inf) <= MAX_EXPONENT
        bash_top = dict(curves.get("bash", [])).get(n_top)
        note = ", ".join(f"{peer} {e:.2f}" for peer, e in exps.items())
        if not covered:
            note += (f"; ours stopped at N={n_top}: N={sizes[len(ours)]} would take "
                     f"~{predicted(ours, sizes[len(ours)]):.0f} s")
        report.add(Row("scaling", f"{w.name} N={n_top}", Sample(t_top, t_top, t_top, 1),
                       "bash" if bash_top else "", Sample(bash_top, bash_top, bash_top, 1) if bash_top else None,
                       ratio=t_top / bash_top if bash_top else None,
                       target=f"exponent <= {MAX_EXPONENT}", passed=passed, note="exponents: " + note))
