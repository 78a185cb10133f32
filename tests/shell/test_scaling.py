"""Array and string operations grow linearly with the number of elements.

Each workload runs at N and 10N; CPU time (not wall time, so other load on the machine does
not count) may grow at most 20x, an exponent of 1.3. Before IndexedArray, ``a+=(x)`` grew
47x per decade (it copied the array and searched its top index on every append) and the
``${#a[@]}`` loop condition 58x (the keys were sorted on every count).
"""
from __future__ import annotations

import time

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits

WORKLOADS = {
    "append": ("for ((i=0;i<N;i++)); do a+=($i); done; echo ${#a[@]}", "N"),
    "element assignment": ("for ((i=0;i<N;i++)); do a[i]=$i; done; echo ${#a[@]}", "N"),
    "all elements": ('a=($(seq N)); n=0; for x in "${a[@]}"; do n=$((n+1)); done; echo $n', "N"),
    "count in a loop condition": ("a=($(seq N)); i=0; while (( i < ${#a[@]} )); do i=$((i+1)); done; echo $i", "N"),
    "unset elements": ("a=($(seq N)); for ((i=0;i<N;i++)); do unset 'a[i]'; done; echo ${#a[@]}", "0"),
    "sparse, last element": ("for ((i=0;i<N;i++)); do a[i*1000]=$i; x=${a[-1]}; done; echo $((x+1))", "N"),
    "stack pop": ("a=($(seq N)); while (( ${#a[@]} )); do x=${a[-1]}; unset 'a[-1]'; done; echo $x", "1"),
    "read -a": ("read -r -a w < <(seq N | tr '\\n' ' '); echo ${#w[@]}", "N"),
    "mapfile": ("seq N > /tmp/lines; mapfile -t m < /tmp/lines; echo ${#m[@]}", "N"),
    "string append": ("for ((i=0;i<N;i++)); do s+=x; done; echo ${#s}", "N"),
}
LIMITS = Limits(wall_time=300, commands=10**9)


def _cpu_seconds(code: str, n: int, expected: str, runs: int) -> float:
    best = float("inf")
    script = code.replace("N", str(n))
    for _ in range(runs):
        start = time.process_time()
        out, err, status = run_script(script, limits=LIMITS)
        best = min(best, time.process_time() - start)
        assert status == 0 and out.decode().strip() == expected.replace("N", str(n)), (out, err)
    return best


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_array_operations_grow_linearly(name):
    code, expected = WORKLOADS[name]
    small = _cpu_seconds(code, 10_000, expected, runs=2)
    large = _cpu_seconds(code, 100_000, expected, runs=1)
    assert large / small < 20, f"{name}: {small:.3f}s at 1e4, {large:.3f}s at 1e5"
