"""The shell's variables count against one limit, shell_memory_bytes, incrementally: what is
freed (unset, a replaced value, a function's locals, an ended subshell) is given back, and
what a running background job still holds is not."""
from __future__ import annotations

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits

LIMIT = Limits(shell_memory_bytes=4 * 1024 * 1024)
#: a 1 MiB string: two more fit next to it, three do not
MAKE = "big=$(printf '%01048576d' 0); "


def run(code: str) -> tuple[str, str, int]:
    out, err, status = run_script(MAKE + code, limits=LIMIT)
    return out.decode(), err.decode(), status


def test_over_the_limit_the_run_stops_with_a_clear_error():
    out, err, status = run('a=("$big$big" "x$big"); echo unreachable')
    assert status == 1 and out == ""
    out, err, status = run('a=("$big$big$big"); echo unreachable')
    assert status == 1 and out == ""
    assert err == ("bash: a: memory limit exceeded (4M; limit shell_memory_bytes; "
                   "raise it with %limits shell_memory_bytes=8M)\n")


@pytest.mark.parametrize("code", [
    'for i in {1..20}; do s="x$big"; done',                          # a replaced value
    'for i in {1..20}; do s="x$big"; unset s; done',                 # unset
    'for i in {1..20}; do a[1]="x$big"; unset "a[1]"; done',        # an element
    'declare -A m; for i in {1..20}; do m[k]="x$big"; unset "m[k]"; done',
    'f() { local s="x$big"; }; for i in {1..20}; do f; done',         # a function's locals
    'for i in {1..20}; do ( s="x$big" ); done',                      # a subshell's copies
    'for i in {1..20}; do n=$(s="x$big"; echo ${#s}); done',
    'for i in {1..20}; do a+=("x$big"); a=(); done',
])
def test_freed_values_are_given_back(code):
    out, err, status = run(code + "; echo ok")
    assert (out, err, status) == ("ok\n", "", 0)


def test_values_held_together_count():
    for code in ('a=("x$big" "y$big" "z$big")', 's="x$big"; t="y$big"; u="z$big"',
                 'declare -A m=([a]="x$big" [b]="y$big" [c]="z$big")', 'f() { local s="x$big" t="y$big" u="z$big"; }; f'):
        out, err, status = run(code + "; echo ok")
        assert status == 1 and "limit shell_memory_bytes" in err, code


def test_a_running_background_job_keeps_what_it_shares():
    # the job holds the first value of s: replacing it in the shell frees nothing yet
    out, err, status = run('s="x$big"; t="y$big"; { read -t 1 < /dev/null; } & s="z$big"; echo same')
    assert status == 1 and "limit shell_memory_bytes" in err
    out, err, status = run('s="x$big"; t="y$big"; { :; } & wait; s="z$big"; echo after wait')
    assert (out, status) == ("after wait\n", 0), err
