"""`python -m benchmarks.opcount [--by-function] SNIPPET ...`: Python opcodes (and calls) one
iteration of a shell snippet costs, over an empty loop's.

A cost proxy that does not move with the machine: CPU time here drifts by 15-30 % within
minutes (a shared host), opcode counts are the same run after run, so a change to a hot path
shows its effect even when `make bench` cannot tell it from noise. It counts Python bytecode
only (not the C work of a dict copy, say) and time-driven checks (yields, the memory net) fire
more often under the tracer than in a real run: compare counts of the same snippet before and
after a change, not across snippets. ``--by-function``: where the opcodes go.
"""
from __future__ import annotations

import collections
import sys

from sandbox_kernel.cli import run_script

ITERATIONS = 200


def _counted(script: str, per_function: collections.Counter | None) -> tuple[int, int]:
    """(opcodes, calls) of running ``script`` (the run itself traced, the set-up too)."""
    counts = [0, 0]

    def tracer(frame, event, arg):
        if event == "call":
            counts[1] += 1
            frame.f_trace_opcodes = True
            return tracer
        if event == "opcode":
            counts[0] += 1
            if per_function is not None:
                code = frame.f_code
                per_function[f"{code.co_qualname} ({code.co_filename.rsplit('/', 2)[-1]}:{code.co_firstlineno})"] += 1
        return tracer

    sys.settrace(tracer)
    try:
        run_script(script)
    finally:
        sys.settrace(None)
    return counts[0], counts[1]


def main(argv: list[str]) -> int:
    by_function = "--by-function" in argv
    snippets = [a for a in argv if a != "--by-function"]
    if not snippets:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    empty = f"for i in $(seq 1 {ITERATIONS}); do :; done"
    run_script(empty)
    base_ops, base_calls = _counted(empty, None)
    for snippet in snippets:
        script = f"for i in $(seq 1 {ITERATIONS}); do {snippet}; done"
        run_script(script)  # (compiled, imported: not counted)
        per_function: collections.Counter | None = collections.Counter() if by_function else None
        ops, calls = _counted(script, per_function)
        print(f"{snippet!r:44} opcodes/iteration {(ops - base_ops) / ITERATIONS:8.0f}  "
              f"calls/iteration {(calls - base_calls) / ITERATIONS:6.0f}")
        if per_function is not None:
            for name, n in per_function.most_common(40):
                print(f"  {n / ITERATIONS:8.0f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
