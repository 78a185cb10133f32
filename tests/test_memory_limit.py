"""memory_bytes (sandbox_kernel/memory.py): a limit like the others (default, ceiling, %limits,
the CLI's --limit, the admin's --limit/--max-limit), what each command holds counted against
it with a clear error, and the run's safety net over the process. The bombs themselves, in
bounded memory: tests/hostile/test_command_memory.py."""
from __future__ import annotations

import argparse
import asyncio
import re

import pytest

from sandbox_kernel import memory, policy
from sandbox_kernel.cli import parse_limit_options, run_script
from sandbox_kernel.engine import CancelToken
from sandbox_kernel.kernel.protocol import magics
from sandbox_kernel.limits import DEFAULT_CEILINGS, CliLimits, Limits
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.streams import BytesInput, Pipe

from tests.support.session import Session

MiB = 1 << 20


def test_memory_bytes_is_a_limit_like_the_others():
    assert Limits().memory_bytes == 1 << 30 and DEFAULT_CEILINGS.memory_bytes == 4 << 30
    assert "memory_bytes" in Limits().describe()
    assert Limits().raise_hint("memory_bytes", ceilings=DEFAULT_CEILINGS) == "raise it with %limits memory_bytes=2G"
    assert CliLimits().raise_hint("memory_bytes") == "raise it with --limit memory_bytes=2G"
    at_ceiling = Limits(memory_bytes=4 << 30).raise_hint("memory_bytes", ceilings=DEFAULT_CEILINGS)
    assert "install --max-limit memory_bytes=" in at_ceiling


def test_percent_limits_and_the_cli_set_it_within_the_ceiling():
    trial, changed = magics.parse_limits(Limits(), ["memory_bytes=2G"])
    assert changed == ["memory_bytes"] and trial.memory_bytes == 2 << 30
    sb = Sandbox()
    sb.update_limits(trial, changed)
    assert sb.limits.memory_bytes == 2 << 30
    trial, changed = magics.parse_limits(sb.limits, ["memory_bytes=8G"])
    with pytest.raises(ValueError, match=re.escape("memory_bytes=8G is above this kernel's ceiling of 4G")):
        sb.update_limits(trial, changed)
    assert sb.limits.memory_bytes == 2 << 30
    limits, _ = parse_limit_options(["--limit", "memory_bytes=64M", "-c", "true"])
    assert limits.memory_bytes == 64 * MiB
    with pytest.raises(ValueError, match=re.escape("above the most the CLI allows (4G)")):
        parse_limit_options(["--limit", "memory_bytes=5G"])


def test_the_admin_sets_its_default_and_ceiling():
    def parse(*argv):
        parser = argparse.ArgumentParser()
        policy.add_arguments(parser)
        return policy.from_arguments(parser.parse_args(list(argv)))

    p = parse()
    assert (p.limits.memory_bytes, p.ceilings.memory_bytes) == (1 << 30, 4 << 30)
    p = parse("--limit", "memory_bytes=6G", "--max-limit", "memory_bytes=8G")
    assert (p.limits.memory_bytes, p.ceilings.memory_bytes) == (6 << 30, 8 << 30)
    p = parse("--max-limit", "memory_bytes=256M")  # a low ceiling lowers the default
    assert p.limits.memory_bytes == p.ceilings.memory_bytes == 256 * MiB


def test_a_meter_refuses_before_it_counts():
    m = memory.Meter(100)
    m.charge(60)
    m.need(40)
    with pytest.raises(memory.MemoryLimitExceeded):
        m.need(41)
    with pytest.raises(memory.MemoryLimitExceeded):
        m.charge(41)
    assert m.held == 60  # a refused charge counts nothing
    m.release(50)
    m.charge(90)
    assert str(memory.MemoryLimitExceeded(1 << 30)) == "memory limit exceeded (1G; limit memory_bytes)"
    assert [memory.size_text(n) for n in (1 << 30, 1536 * MiB, 5 * MiB, 100)] == ["1G", "1.5G", "5M", "100 bytes"]


def test_a_whole_input_counts_as_it_is_read():
    async def main():
        pipe = Pipe()
        token = memory.CURRENT.set(memory.Meter(10 * MiB))
        try:
            async def endless():
                while True:
                    await pipe.writer.write(b"y\n" * 32768)

            writer = asyncio.ensure_future(endless())
            with pytest.raises(memory.MemoryLimitExceeded):
                await pipe.reader.read()
            writer.cancel()
            # with a separator, each line it will keep counts too (memory.LINE_COST)
            memory.CURRENT.get().held = 0
            data = await BytesInput(b"a\n" * 1000).read_all(b"\n")
            assert len(data) == 2000 and memory.CURRENT.get().held == 2000 + 1000 * memory.LINE_COST
        finally:
            memory.CURRENT.reset(token)
        assert await BytesInput(b"x" * 100).read() == b"x" * 100  # outside commands: not counted

    asyncio.run(main())


def test_a_command_past_the_limit_says_so_and_the_script_goes_on():
    out, err, status = run_script("yes | head -c 3000000 | sort; echo \"after $?\"; seq 3 | sort -r",
                                  limits=CliLimits(memory_bytes=2 * MiB))
    assert err == b"sort: memory limit exceeded (2M; limit memory_bytes; raise it with --limit memory_bytes=4M)\n"
    assert (out, status) == (b"after 2\n3\n2\n1\n", 0)  # GNU sort's status when memory runs out
    out, err, status = run_script("awk 'BEGIN { s = \"x\"; while (1) s = s s }'; echo $?",
                                  limits=CliLimits(memory_bytes=8 * MiB))
    assert err.startswith(b"awk: memory limit exceeded (8M; limit memory_bytes;") and out == b"2\n"


class _Files:
    bytes_used = 0


def test_the_safety_net_counts_growth_beyond_what_the_other_limits_allow():
    limits = Limits(memory_bytes=32 * MiB, shell_memory_bytes=16 * MiB, wasm_memory_bytes=16 * MiB)
    files = _Files()
    memory.give_back()  # what earlier tests freed is not counted as the run's
    net = memory.RunMemory(limits, files)
    net.next_trim = float("inf")  # and is not given back during this test either
    assert net.start is not None and not net.exceeded()
    held = b"\x01" * (80 * MiB)  # written: resident
    files.bytes_used = 80 * MiB  # ... but the run wrote that much into files: allowed
    net.next_check = 0
    assert not net.exceeded()
    files.bytes_used = 0
    net.next_check = 0
    assert net.exceeded() and net.grown >= 64 * MiB
    assert re.fullmatch(r"memory limit exceeded \(the sandbox grew by [0-9.]+[MG] in this run; limit memory_bytes\)",
                        net.message())
    token = CancelToken()
    token.memory = net
    net.next_check = 0
    token.check_memory()
    assert token.reason == "memory"
    del held


def test_the_safety_net_stops_a_run_and_the_next_one_works():
    # an awk function's local array: no command counts it, the net does
    s = Session(memory_bytes=48 * MiB, shell_memory_bytes=8 * MiB, wasm_memory_bytes=8 * MiB, wall_time=60)
    try:
        s.run("true")
        result, out, err, _ = s.run("awk 'function f(a, i) { while (1) a[i++] = i } BEGIN { f() }'; echo never")
        assert result.status == 1 and out == b"", err
        assert re.fullmatch(rb"bash: memory limit exceeded \(the sandbox grew by [0-9.]+[MG] in this run; limit "
                            rb"memory_bytes; raise it with %limits memory_bytes=96M\)\n", err), err
        assert result.error.ename == "LimitExceeded"
        result, out, err, _ = s.run("seq 3 | sort -r | head -1")
        assert (result.status, out, err) == (0, b"3\n", b"")
    finally:
        s.close()


def test_writing_files_is_not_mistaken_for_a_bomb():
    # 100 MB of file is more than the 64 MiB the limits allow, so without the files' share the
    # net would stop the run; the margin is wide because the net reads the whole process (in a
    # long test session other threads and the allocator's slack move it by tens of MiB)
    s = Session(memory_bytes=48 * MiB, shell_memory_bytes=8 * MiB, wasm_memory_bytes=8 * MiB)
    try:
        result, out, err, _ = s.run("head -c 100000000 /dev/zero > big; wc -c < big")
        assert (result.status, out, err) == (0, b"100000000\n", b"")
    finally:
        s.close()


# ---------------------------------------------------------------- commands that hold their input
#: (script, the status GNU's tool fails with when memory runs out); the input is the file ``in``
#: (and stdin), ``small`` a short second file for diff
HOLDING = [("sort in", 2), ("sort -u < in", 2), ("tac in", 1), ("tac -s x < in", 1), ("shuf in", 1),
           ("diff in small", 2), ("diff - small < in", 2), ("diff -y small in", 2), ("xargs echo < in", 1),
           ("xargs -0 echo < in", 1), ("xargs -n 1000000 echo < in", 1), ("jq -R . in", 5),
           ("jq -R . < in", 5), ("jq -R -s . in", 5), ("column in", 1), ("column -t in", 1),
           ("split -n r/3 in part", 1), ("fmt in", 1)]
HOLD_LIMIT = 2 * MiB
#: what a command may hold beyond the limit: the memory is counted a chunk of input at a time
#: (streams.CHUNK) and written a batch at a time, and each batch's objects (a list slot and
#: join's buffer per line) cost up to ~90 bytes a line
ONE_CHUNK = 2 * MiB


def _input_shapes():
    """(lines, repeat, stretch): the input is the lines, each ``stretch`` times longer, ended by
    newlines, ``repeat`` times (a shape, not the text, so that a failing example reads short);
    no lines: one line without a newline, ``repeat`` bytes long."""
    from hypothesis import strategies as hs

    line = hs.text(alphabet="ab x\té", max_size=12)
    short_lines = hs.tuples(hs.lists(line, min_size=1, max_size=4), hs.integers(2000, 30000), hs.just(1))
    huge_lines = hs.tuples(hs.lists(hs.just("y"), min_size=1, max_size=4), hs.just(1), hs.integers(100000, 800000))
    no_newline = hs.tuples(hs.just([]), hs.integers(100000, 1500000), hs.just(1))
    return hs.one_of(short_lines, huge_lines, no_newline)


def test_a_command_that_holds_its_input_finishes_or_says_so_within_its_limit():
    """For commands that hold what they read and inputs of many short lines, few huge lines or no
    newline, under a small memory_bytes: the command finishes, or ends with its memory-limit
    message and GNU's failure status; either way what it allocated (tracemalloc) stays under the
    limit plus one chunk, so what each counts is at least what it holds."""
    import tracemalloc

    from hypothesis import HealthCheck, given, settings, strategies as hs

    s = Session(memory_bytes=HOLD_LIMIT, wall_time=120)
    s.sandbox.fs.write_bytes("/tmp/small", b"a\nb\n")
    for script, _ in HOLDING:  # first runs import and compile what later runs reuse
        s.sandbox.fs.write_bytes("/tmp/in", b"a b\nc\n")
        s.run(f"cd /tmp; {script} > /dev/null")

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hs.sampled_from(HOLDING), _input_shapes())
    def check(case, shape):
        script, status = case
        lines, repeat, stretch = shape
        text = "".join(line * stretch + "\n" for line in lines) * repeat if lines else "z" * repeat
        s.sandbox.fs.write_bytes("/tmp/in", text.encode())
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            result, out, err, _ = s.run(f"cd /tmp; {script} > /dev/null; echo $?")
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
        name = script.split()[0]
        message = (f"{name}: memory limit exceeded (2M; limit memory_bytes; raise it with %limits "
                   f"memory_bytes=4M)\n").encode()
        if err == b"xargs: argument line too long\n":  # one item longer than a command line may be
            assert out == b"1\n"
        elif err:
            assert (err, out) == (message, f"{status}\n".encode()), (script, len(text), err, out)
        else:
            assert out in (b"0\n", b"1\n"), (script, out)  # diff: 1 when the files differ
        assert peak <= HOLD_LIMIT + ONE_CHUNK, (script, len(text), peak)

    try:
        check()
    finally:
        s.close()


class _CountingToken(CancelToken):
    """A run's cancel token that counts how often the run's commands consult the memory net."""

    consulted = 0

    def check_memory(self) -> None:
        self.consulted += 1
        super().check_memory()


@pytest.mark.parametrize("script, at_least", [
    ("diff a b > /dev/null", 400000 // 65536),  # diff's ids: a check every 64 Ki lines
    ("xargs -n 1000000 echo < a > /dev/null", 1300000 // 65536),  # xargs: every 64 KiB of input
    ("tac a > /dev/null", 1300000 // 16384),  # tac: every block it writes
])
def test_the_long_loops_of_holding_commands_consult_the_safety_net(script, at_least):
    s = Session(wall_time=120)
    try:
        s.run("seq 200000 > a; seq 2 200001 > b")
        token = _CountingToken()
        result, _, err, _ = s.run(script, cancel=token)
        assert result.status in (0, 1) and err == b"", err
        assert token.consulted >= at_least, token.consulted
    finally:
        s.close()
