"""The shell's variables count against one limit, shell_memory_bytes, incrementally: what is
freed (unset, a replaced value, a function's locals, an ended subshell) is given back, and
what a running background job still holds is not."""
from __future__ import annotations

import asyncio

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits
from sandbox_kernel.streams import PIPE_CAPACITY, Pipe

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
                 'declare -A m=([a]="x$big" [b]="y$big" [c]="z$big")',
                 'f() { local s="x$big" t="y$big" u="z$big"; }; f',
                 # a subshell's copy of $1 ... is still the parent's
                 'set -- "x$big" "y$big"; ( set -- a; s="z$big" )'):
        out, err, status = run(code + "; echo ok")
        assert status == 1 and "limit shell_memory_bytes" in err, code


def test_a_running_background_job_keeps_what_it_shares():
    # the job holds the first value of s: replacing it in the shell frees nothing yet
    out, err, status = run('s="x$big"; t="y$big"; { read -t 1 < /dev/null; } & s="z$big"; echo same')
    assert status == 1 and "limit shell_memory_bytes" in err
    out, err, status = run('s="x$big"; t="y$big"; { :; } & wait; s="z$big"; echo after wait')
    assert (out, status) == ("after wait\n", 0), err


def error_for(name: str) -> str:
    return (f"bash: {name}: memory limit exceeded (4M; limit shell_memory_bytes; "
            "raise it with %limits shell_memory_bytes=8M)\n")


FOUR = '"$big$big$big$big"'


@pytest.mark.parametrize("code, name", [
    (f'echo "$(printf %s {FOUR})" >/dev/null', "command substitution"),
    (f'cat <(printf %s {FOUR}) >/dev/null', "process substitution"),
    (f'cat >/dev/null <<EOF\n{FOUR}\nEOF\n', "here-document"),
    (f'cat <<< {FOUR} >/dev/null', "here-string"),
    ('set -- "x$big" "y$big" "z$big"', "set"),
    ('f() { (( ++n > 5 )) && return; f "$1$n"; }; f "$big"', "f"),   # each call's arguments
    # a here-document held by a command that runs a shell function: each level keeps its own
    ('f() { (( ++n > 5 )) && return; { f; } <<EOF\n$big\nEOF\n}; f', "here-document"),
    ('f() { (( ++n > 5 )) && return; echo "$(printf %s "$big"; f)"; }; f >/dev/null', "command substitution"),
])
def test_storage_outside_variables_counts(code, name):
    out, err, status = run(code + "; echo unreachable")
    assert (out, err, status) == ("", error_for(name), 1)


@pytest.mark.parametrize("code", [
    'for i in {1..20}; do x=$(printf %s "$big"); done',
    'for i in {1..20}; do cat <(printf %s "$big$big") >/dev/null; done',
    'for i in {1..20}; do cat >/dev/null <<EOF\n$big$big\nEOF\ndone',
    'for i in {1..20}; do cat <<< "$big$big" >/dev/null; done',
    'for i in {1..20}; do exec 3<<< "$big"; done; exec 3<&-',
    'for i in {1..20}; do mapfile -t a <<< "$big"; unset a; done',
    'for i in {1..20}; do set -- "x$big" "y$big"; done; set --',
    'f() { :; }; for i in {1..20}; do f "x$big" "y$big"; done',
    'set -- a; f() { set -- "x$big" "y$big"; }; for i in {1..20}; do f; done; [[ $1 == a ]]',
])
def test_storage_outside_variables_is_given_back(code):
    out, err, status = run(code + "; echo ok")
    assert (out, err, status) == ("ok\n", "", 0)


def test_mapfile_counts_lines_as_it_reads_them():
    # without the count, mapfile reads an endless input until the wall time
    out, err, status = run_script("yes | mapfile -t lines; echo unreachable",
                                  limits=LIMIT.replace(wall_time=20))
    assert (out, err.decode(), status) == (b"", error_for("lines"), 1)


def test_read_stops_at_the_string_limit():
    out, err, status = run_script("yes | tr -d '\\n' | read -r line; echo unreachable",
                                  limits=LIMIT.replace(wall_time=20, string_bytes=1024 * 1024))
    assert status == 1 and out == b"" and b"limit string_bytes" in err, err
    out, err, status = run_script("yes | tr -d '\\n' | read -r -N 2000000 line; echo unreachable",
                                  limits=LIMIT.replace(wall_time=20, string_bytes=1024 * 1024))
    assert status == 1 and out == b"" and b"limit string_bytes" in err, err


def test_a_pipe_holds_at_most_its_capacity_and_one_write():
    # pipes between shell stages are bounded already: a writer whose reader does not read waits
    async def main():
        pipe = Pipe()

        async def writer():
            for _ in range(100):
                await pipe.writer.write(b"x" * 50_000)

        task = asyncio.ensure_future(writer())
        for _ in range(100):
            await asyncio.sleep(0)
        assert not task.done() and pipe.size < PIPE_CAPACITY + 50_000
        pipe.reader.close()
        with pytest.raises(BrokenPipeError):
            await task

    asyncio.run(main())


def test_a_waited_forks_noted_lookups_stay_bounded(monkeypatch):
    """A subshell that runs commands forever notes its lookups in a bounded list, then counts
    them in a table of its own (with the same hits bash shows)."""
    from sandbox_kernel.shell.eval import interp

    forks = []
    fork_waited = interp.Shell.fork_waited

    def spy(self):
        child = fork_waited(self)
        forks.append(child)
        return child

    monkeypatch.setattr(interp.Shell, "fork_waited", spy)
    _, _, status = run("( for i in $(seq 1 500); do basename a >/dev/null; done )")
    assert status == 0 and forks
    assert all(len(child.hash_uses or ()) < interp.HASH_USES_MAX for child in forks)
    out, _, status = run("( for i in $(seq 1 500); do basename a >/dev/null; done; hash )")
    assert status == 0 and "500\t/usr/bin/basename" in out.replace(" ", "")
