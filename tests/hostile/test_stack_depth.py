"""Recursion never runs past the C stack (red team, item 5: `jq -n 'def f: [f]; f'` killed the
kernel with SIGSEGV: the recursion limit assumed more stack than generator chains leave)."""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

PROGRAMS = [
    ("jq -n 'def f: [f]; f'", "stack overflow"),
    ("jq -n 'def f: [limit(1; f)]; f'", "stack overflow"),
    ("jq -n 'def f: {a: f}; f'", "stack overflow"),
    ("f() { f; }; f", "nesting"),
    ("f() { echo x | f; }; f", "nesting"),
    ("awk 'function f(n) { return f(n + 1) } BEGIN { f(0) }'", "awk"),
    # deep data: 100 000 nested arrays read, then built and printed, compared, flattened, streamed
    ("awk 'BEGIN { for (i = 0; i < 100000; i++) printf \"[\"; for (i = 0; i < 100000; i++) printf \"]\" }' | jq .",
     "depth limit"),
    # (printed, they are cut at 256 levels as jq 1.6 cuts them; read back, they are too deep)
    ("jq -n 'reduce range(100000) as $x (null; [.]) | tojson | fromjson'", "depth limit"),
    ("jq -nc 'reduce range(100000) as $x (null; {a: .}) | tojson | fromjson'", "depth limit"),
    ("jq -n 'reduce range(100000) as $x (null; [.]) | . == .'", "stack overflow"),
    ("jq -n 'reduce range(100000) as $x (null; [.]) | flatten'", "stack overflow"),
    ("jq -nc 'reduce range(100000) as $x (null; [.]) | tostream'", "stack overflow"),
]


def run_with_stack(code: str, soft: int, hard: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        _, h = resource.getrlimit(resource.RLIMIT_STACK)
        resource.setrlimit(resource.RLIMIT_STACK, (soft, hard if hard is not None else h))
    return subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", "-c", code], capture_output=True,
                          text=True, timeout=120, preexec_fn=limit)


@pytest.mark.parametrize("code, message", PROGRAMS)
@pytest.mark.parametrize("hard", [None, 8 << 20], ids=["raisable", "fixed-8MiB"])
def test_deep_recursion_ends_in_an_error_not_a_crash(code, message, hard):
    """Jupyter often starts kernels with an 8 MiB stack: it is raised where the hard limit
    allows, and the recursion limit follows the stack that is there."""
    done = run_with_stack(code, 8 << 20, hard)
    assert done.returncode > 0, f"killed by signal {-done.returncode}: {done.stderr[-500:]}"
    assert message in done.stderr.lower() or "recursion" in done.stderr.lower(), done.stderr[-500:]


def test_the_stack_is_raised_and_the_limit_follows_it():
    code = ("import resource, sys; from sandbox_kernel import stack; limit = stack.recursion_limit(); "
            "print(resource.getrlimit(resource.RLIMIT_STACK)[0] >> 20, limit)")

    def soft_8mib() -> None:
        resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          preexec_fn=soft_8mib)
    if resource.getrlimit(resource.RLIMIT_STACK)[1] in (resource.RLIM_INFINITY,) or \
            resource.getrlimit(resource.RLIMIT_STACK)[1] >= 64 << 20:
        assert done.stdout.split() == ["64", "20000"], done.stdout + done.stderr
    fixed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                           preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20)))
    assert fixed.stdout.split() == ["8", str((8 << 20) // 1536)], fixed.stdout + fixed.stderr
