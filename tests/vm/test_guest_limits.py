"""Limits inside the guest (a cgroup per VM command) and stdin given only on request."""
from __future__ import annotations

import pytest

from sandbox_kernel.engine import CancelToken, Streams

from .vm_helpers import Recorder, run_cell, with_sandbox

pytestmark = [pytest.mark.vm, pytest.mark.slow]

GROW = "python3 -c '\nblocks = []\nwhile True: blocks.append(bytearray(10**7))'"


def test_each_command_runs_in_its_own_limited_cgroup(guest_image):
    async def body(sb):
        script = ('cg=/sys/fs/cgroup$(cut -d: -f3 /proc/self/cgroup); echo "$cg"; '
                  'cat "$cg/pids.max" "$cg/memory.max"')
        run = await run_cell(sb, script, vm_processes=77, vm_memory_bytes=123 << 20)
        cgroup, pids, memory = run.out.text.split()
        assert cgroup.startswith("/sys/fs/cgroup/exec-") and pids == "77" and int(memory) == 123 << 20
        run = await run_cell(sb, script)
        # each command gets its own limits (a cgroup left empty may be reused)
        assert run.out.text.split()[1] == "1024"
        total_kb = int((await run_cell(sb, "awk '/MemTotal/ {print $2}' /proc/meminfo")).out.text)
        assert int(run.out.text.split()[2]) == total_kb * 1024 - (64 << 20)  # guest memory less the reserve
        # a command's cgroup holds only its own processes, not those a previous one left running
        left = (await run_cell(sb, "sleep 300 > /dev/null 2>&1 & echo $!")).out.text.strip()
        run = await run_cell(sb, 'cat "/sys/fs/cgroup$(cut -d: -f3 /proc/self/cgroup)/cgroup.procs"')
        assert left not in run.out.text.split()
    with_sandbox(body)


def test_memory_bomb_is_killed_inside_the_command(guest_image):
    async def body(sb):
        run = await run_cell(sb, f"{GROW}; echo status $?", vm_memory_bytes=96 << 20)
        assert run.out.text == "status 137\n", run.err.text
        assert "vm: out of memory" in run.err.text and "vm_memory_bytes=96M" in run.err.text
        # without a lower limit the guest's own memory bounds it, and the VM stays up
        run = await run_cell(sb, f"{GROW}; echo status $?")
        assert run.out.text == "status 137\n" and "the VM's 512 MB less 64 MiB" in run.err.text
        run = await run_cell(sb, "echo alive")
        assert run.status == 0 and run.out.text == "alive\n"
        assert "out of memory" not in run.err.text  # counted per command, not per cgroup
    with_sandbox(body)


def test_fork_bomb_meets_the_process_limit(guest_image):
    async def body(sb):
        run = await run_cell(sb, "bomb() { bomb | bomb & }; bomb; sleep 3; echo done",
                             vm_processes=64, wall_time=30)
        assert run.ended - run.started < 25
        assert "vm: process limit reached" in run.err.text
        assert "(vm_processes=64; raise it with %limits vm_processes=128)" in run.err.text
        run = await run_cell(sb, "ps -e -o comm= | grep -c '^bash$' || true")
        assert int(run.out.text) <= 3, "the bomb's processes outlived the command"
    with_sandbox(body)


def test_timeout_kills_processes_that_left_the_process_group(guest_image):
    async def body(sb):
        run = await run_cell(sb, "setsid sleep 300 & sleep 30", wall_time=1.5)
        assert run.status == 124
        run = await run_cell(sb, "pgrep -x sleep || echo none")
        assert run.out.text == "none\n"
    with_sandbox(body)


def test_background_processes_end_with_the_cell_unless_kept(guest_image):
    """Red team D3: setsid, nohup and & escape the process group, not the cell's cgroup."""
    async def body(sb):
        run = await run_cell(sb, "setsid sleep 1000 & nohup sleep 1001 > /dev/null 2>&1 & (sleep 1002 &); echo started")
        assert run.status == 0 and run.out.text == "started\n"
        run = await run_cell(sb, "pgrep -x sleep || echo none")
        assert run.out.text == "none\n"
        # opted in for one cell, then for every cell: they live on, and a plain cell leaves them be
        run = await run_cell(sb, "setsid sleep 300 > /dev/null 2>&1 & echo started", args=["--keep"])
        assert run.status == 0 and run.out.text == "started\n"
        engine = sb.engine("vm")
        assert "daemons=on" in await engine.magic("config daemons=on")
        await run_cell(sb, "nohup sleep 301 > /dev/null 2>&1 & true")
        assert "daemons=off" in await engine.magic("config daemons=off")
        run = await run_cell(sb, "pgrep -x sleep | wc -l")
        assert run.out.text == "2\n"
    with_sandbox(body)


def test_a_backgrounded_fork_bomb_does_not_hang_the_next_cell(guest_image):
    """Red team D3: the next cell took 27 s and found the VM hung."""
    async def body(sb):
        run = await run_cell(sb, "b(){ b|b& }; (b) & echo launched", wall_time=30)
        assert run.status == 0 and run.out.text == "launched\n", run.err.text
        run = await run_cell(sb, "echo next-ok; ps -e -o comm= | grep -c '^bash$' || true")
        assert run.status == 0 and run.out.text.split()[0] == "next-ok", run.err.text
        assert run.ended - run.started < 5
        assert int(run.out.text.split()[1]) <= 1, "the bomb outlived its cell"
        # kept on purpose, it runs on (until its process limit), and the agent still answers at once
        run = await run_cell(sb, "b(){ b|b& }; (b) & echo launched", args=["--keep"], wall_time=30)
        assert run.status == 0 and run.out.text == "launched\n", run.err.text
        for _ in range(3):
            run = await run_cell(sb, "echo next-ok")
            assert run.status == 0 and run.out.text == "next-ok\n", run.err.text
            assert run.ended - run.started < 5
    with_sandbox(body)


def test_kept_processes_that_reach_their_process_limit_are_ended(guest_image):
    async def body(sb):
        await run_cell(sb, "(while true; do sleep 0.5 & done) > /dev/null 2>&1 & echo started",
                       args=["--keep"], vm_processes=16)
        counts = []
        for _ in range(40):  # each command first ends kept commands that met their limit since
            counts.append(int((await run_cell(sb, "pgrep -c -x sleep || true")).out.text))
            if counts[-1] == 0:
                break
        assert max(counts) > 0 and counts[-1] == 0, counts
    with_sandbox(body)


def test_dev_shm_is_emptied_after_the_cell(guest_image):
    """Red team D4: a file in /dev/shm kept 200 MB of guest memory across cells."""
    shared = "awk '/^Shmem:/ {print $2}' /proc/meminfo"

    async def body(sb):
        run = await run_cell(sb, f"head -c 100000000 /dev/zero > /dev/shm/big; ls /dev/shm; {shared}")
        name, kb = run.out.text.split()
        assert name == "big" and int(kb) > 90_000
        run = await run_cell(sb, f"ls -A /dev/shm; {shared}")
        assert int(run.out.text) < 20_000, run.out.text  # no file left, the memory is back
        # while a kept daemon may use it, /dev/shm is left alone
        await run_cell(sb, "echo x > /dev/shm/daemon-state; setsid sleep 300 > /dev/null 2>&1 &", args=["--keep"])
        run = await run_cell(sb, "cat /dev/shm/daemon-state")
        assert run.out.text == "x\n"
    with_sandbox(body)


async def _run_with_input(sb, code: str, answers: list[str | None]):
    asked: list[str] = []
    pending = list(answers)

    async def ask(prompt: str, password: bool) -> str | None:
        asked.append(prompt)
        return pending.pop(0) if pending else None
    out, err = Recorder(), Recorder()
    result = await sb.run("vm", code, Streams(out, err, CancelToken(), input=ask))
    return result, out.text, err.text, asked


def test_stdin_is_asked_for_only_when_a_guest_process_reads_it(guest_image):
    async def body(sb):
        result, out, err, asked = await _run_with_input(sb, "sleep 0.5; echo no input needed", ["unused"])
        assert result.status == 0 and out == "no input needed\n" and asked == []
        code = ("read name; echo \"hi $name\"; python3 -c 'print(input().upper())'; "
                "cat; echo \"end $?\"")
        result, out, err, asked = await _run_with_input(sb, code, ["Ada", "grace", None])
        assert result.status == 0, err
        assert out == "hi Ada\nGRACE\nend 0\n"
        assert len(asked) == 3  # read, input(), then cat until end of input
    with_sandbox(body)


def test_stdin_without_a_frontend_is_empty(guest_image):
    async def body(sb):
        run = await run_cell(sb, "read line; echo \"read status $?\"; cat; echo end")
        assert run.out.text == "read status 1\nend\n"
    with_sandbox(body)
