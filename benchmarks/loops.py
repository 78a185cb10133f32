"""Loops and arithmetic (issue 18): CPU time per iteration of the interpreter's hot paths,
ours against real bash and bashkit, with the targets <= 3x bash and <= 0.9x bashkit (issue
29); and a loop beside unrelated state (a nameref, xtrace on and off) within 10 % of the same
loop without it.

Ours and bashkit run in-process (``time.process_time``); bash runs as ``bash -c`` and is
charged its children's CPU (``RUSAGE_CHILDREN``). CPU time, not wall time: the loops are
compared on a shared machine. bashkit stops a session at 100 000 commands, so it runs each
loop at a smaller N; the rows compare the cost of one iteration. Best of ``runs`` each
(the least disturbed run), alternating ours, bash and bashkit.
"""
from __future__ import annotations

import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass

from .harness import Report, Row, Sample

F = "for ((i=0;i<{N};i++)); do "


@dataclass
class Loop:
    name: str
    script: str        # with {N}; a file "f" of N lines when ``lines``
    n: int             # iterations for us and bash
    n_bashkit: int     # iterations for bashkit (its session stops at 100 000 commands)
    lines: bool = False


LOOPS = [
    Loop("a+=($i)", "a=(); " + F + "a+=($i); done; echo ${{#a[@]}}", 100_000, 10_000),
    Loop("while [ $i -lt N ]; i=$((i+1))", "i=0; while [ $i -lt {N} ]; do i=$((i+1)); done; echo $i",
         100_000, 30_000),
    Loop("for ((i=0;i<N;i++)) :", F + ":; done; echo $i", 1_000_000, 30_000),
    Loop("associative set/get", "declare -A m; " + F + "m[k$i]=$i; x=${{m[k$i]}}; done; echo ${{#m[@]}}",
         100_000, 30_000),
    Loop("function calls", "f() {{ x=$1; }}; " + F + "f $i; done; echo $x", 100_000, 30_000),
    Loop("while read over N lines", "n=0; while read -r l; do n=$((n+1)); done < f; echo $n",
         100_000, 10_000, lines=True),
    Loop("s+=x", "s=; " + F + "s+=x; done; echo ${{#s}}", 1_000_000, 30_000),
    Loop("case and [[ ]] in a loop",
         F + "case $((i % 3)) in 0) x=a;; 1) x=b;; *) x=c;; esac; [[ $x == a ]] && n=$((n+1)); done; echo $n",
         100_000, 20_000),
]


def _lines(n: int) -> bytes:
    return b"".join(b"%d\n" % i for i in range(n))


def _ours(loop: Loop, n: int) -> float:
    from sandbox_kernel.limits import Limits
    from sandbox_kernel.sandbox import Sandbox

    from .shell import run_in_sandbox

    sandbox = Sandbox(limits=Limits(wall_time=600, commands=10**9))
    if loop.lines:
        sandbox.fs.write_bytes("/workspace/f", _lines(n))
    t = time.process_time()
    result = run_in_sandbox(sandbox, loop.script.format(N=n))
    spent = time.process_time() - t
    if result.status != 0:
        raise RuntimeError(f"status {result.status}")
    return spent


def _bash(loop: Loop, n: int) -> float:
    with tempfile.TemporaryDirectory(prefix="bench-loop-", dir="/dev/shm") as tmp:
        if loop.lines:
            with open(f"{tmp}/f", "wb") as f:
                f.write(_lines(n))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["bash", "-c", loop.script.format(N=n)], cwd=tmp, capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _bashkit(loop: Loop, n: int) -> float:
    import bashkit

    shell = bashkit.Bash(max_commands=10**9, max_loop_iterations=10**9, timeout_seconds=600)
    script = loop.script.format(N=n)
    if loop.lines:
        shell.write_file("/home/user/f", _lines(n).decode())
        script = "cd /home/user; " + script
    t = time.process_time()
    result = shell.execute_sync(script)
    spent = time.process_time() - t
    if result.exit_code != 0:
        raise RuntimeError(result.stderr[-200:])
    return spent


def bench_loops(report: Report, runs: int) -> None:
    have_bashkit = report.peers.get("bashkit", "ok") == "ok"
    runs = max(1, min(runs, 3))
    for loop in LOOPS:
        ours: list[float] = []
        bash: list[float] = []
        kit: list[float] = []
        for _ in range(runs):
            ours.append(_ours(loop, loop.n) / loop.n)
            bash.append(_bash(loop, loop.n) / loop.n)
            if have_bashkit:
                try:
                    kit.append(_bashkit(loop, loop.n_bashkit) / loop.n_bashkit)
                except Exception as e:  # a peer failing a row is reported, not fatal
                    report.add(Row("loops", loop.name, None, "bashkit", None, note=f"bashkit error: {e}"))
                    have_bashkit = False
        a, b = min(ours), min(bash)
        report.add(Row("loops", loop.name, Sample.of(ours), "bash", Sample.of(bash), unit="s/iter",
                       ratio=a / b, target="<= 3x bash", passed=a <= 3 * b))
        if kit:
            c = min(kit)
            report.add(Row("loops", loop.name, Sample.of(ours), "bashkit", Sample.of(kit), unit="s/iter",
                           ratio=a / c, target="<= 0.9x bashkit", passed=a <= 0.9 * c))
    _bench_unrelated_state(report, runs)


#: issue 29's one evaluator: state a loop does not use (a nameref elsewhere, xtrace turned on
#: and off before it) must not slow it down: within 10 % of the same loop without it
PLAIN_LOOP = F + "x=$i; y=${{x}}a; [[ $y == 5a ]] && n=$((n+1)); done; echo $n"
UNRELATED = [("an unrelated declare -n", "declare -n r=x; "),
             ("set -x on and off before", "{{ set -x; set +x; }} 2>/dev/null; ")]


def _bench_unrelated_state(report: Report, runs: int) -> None:
    n = 50_000
    plain = Loop("plain", PLAIN_LOOP, n, n)
    for name, prefix in UNRELATED:
        variant = Loop(name, prefix + PLAIN_LOOP, n, n)
        with_it: list[float] = []
        without: list[float] = []
        for _ in range(runs):
            with_it.append(_ours(variant, n) / n)
            without.append(_ours(plain, n) / n)
        a, b = min(with_it), min(without)
        report.add(Row("loops", f"loop with {name}", Sample.of(with_it), "ours without it", Sample.of(without),
                       unit="s/iter", ratio=a / b, target="<= 1.1x", passed=a <= 1.1 * b))
