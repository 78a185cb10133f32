"""Timing, pairing and result records shared by the benchmark groups."""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field, asdict
from typing import Callable


@dataclass
class Sample:
    median: float
    min: float
    max: float
    runs: int

    @classmethod
    def of(cls, times: list[float]) -> "Sample":
        return cls(statistics.median(times), min(times), max(times), len(times))


@dataclass
class Row:
    group: str
    name: str
    ours: Sample | None
    peer: str = ""
    peer_sample: Sample | None = None
    unit: str = "s"
    #: ours/peer (lower is better for us) when both exist
    ratio: float | None = None
    target: str = ""
    passed: bool | None = None
    note: str = ""

    def to_json(self) -> dict:
        d = asdict(self)
        return d


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    peers: dict[str, str] = field(default_factory=dict)  # peer -> "ok" | reason unavailable
    #: scaling curves: workload -> peer -> [(N, CPU seconds)]
    curves: dict[str, dict[str, list[tuple[int, float]]]] = field(default_factory=dict)

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        return row


def time_call(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def measure(fn: Callable[[], object], runs: int, warmup: int = 1) -> Sample:
    for _ in range(warmup):
        fn()
    return Sample.of([time_call(fn) for _ in range(runs)])


def measure_pair(ours: Callable[[], object], peer: Callable[[], object], runs: int,
                 warmup: int = 1, timer: Callable[[Callable[[], object]], float] = time_call,
                 ) -> tuple[Sample, Sample, float]:
    """Alternate ours and peer run by run so machine drift cancels; ratio = median of the
    per-pair ratios ours/peer. ``timer(fn)``: the seconds one run takes (default: ``fn``'s
    wall time; a function that measures itself can be its own timer)."""
    for _ in range(warmup):
        ours()
        peer()
    a, b, ratios = [], [], []
    for i in range(runs):
        if i % 2 == 0:
            ta, tb = timer(ours), timer(peer)
        else:
            tb, ta = timer(peer), timer(ours)
        a.append(ta)
        b.append(tb)
        ratios.append(ta / tb if tb > 0 else math.inf)
    return Sample.of(a), Sample.of(b), statistics.median(ratios)


def geomean(values: list[float]) -> float:
    vals = [v for v in values if v > 0 and math.isfinite(v)]
    if not vals:
        return math.nan
    return math.exp(sum(math.log(v) for v in vals) / len(vals))
