"""%%vm cells: streaming, statuses, signals, limits, interrupt, network, crash recovery."""
from __future__ import annotations

import asyncio
import time

import pytest

from sandbox_kernel.engine import CancelToken

from .vm_helpers import Recorder, run_cell, with_sandbox

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def test_output_streams_before_the_cell_ends(guest_image):
    async def body(sb):
        run = await run_cell(sb, "echo first; sleep 1.5; echo second >&2; echo third")
        assert run.status == 0, run.err.text
        assert run.out.text == "first\nthird\n"
        assert "second\n" in run.err.text
        first_at = next(t for t, c in run.out.chunks if b"first" in c)
        assert run.ended - first_at > 1.0, "first line arrived only at the end"
        assert run.result.error is None
    with_sandbox(body)


def test_exit_status_and_signal(guest_image):
    async def body(sb):
        run = await run_cell(sb, "echo before; exit 3")
        assert run.status == 3 and run.result.error.ename == "ExitStatus"
        assert run.out.text.endswith("before\n")
        run = await run_cell(sb, "kill -TERM $$")
        assert run.status == 128 + 15
        run = await run_cell(sb, "no-such-program-xyz")
        assert run.status == 127 and "not found" in run.err.text
        run = await run_cell(sb, "true")
        assert run.status == 0 and run.result.error is None
    with_sandbox(body)


def test_wall_time_limit_kills_the_guest_process(guest_image):
    async def body(sb):
        run = await run_cell(sb, "echo start; sleep 30; echo never", wall_time=1.5)
        assert run.status == 124 and run.result.error.ename == "Timeout"
        assert run.result.error.evalue == ("wall time of 1.5 s exceeded (limit wall_time; "
                                           "raise it with %limits wall_time=3)")
        assert "never" not in run.out.text
        assert run.ended - run.started < 8
        # the sleep is gone and the VM still works
        run = await run_cell(sb, "pgrep -x sleep || echo no-sleep")
        assert "no-sleep" in run.out.text
    with_sandbox(body)


def test_interrupt(guest_image):
    async def body(sb):
        cancel = CancelToken()

        class InterruptWhenReady(Recorder):  # like a user pressing stop once output shows
            def write(self, data: bytes) -> None:
                super().write(data)
                if b"ready" in self.data:
                    cancel.set("interrupt")
        run = await run_cell(sb, "echo ready; sleep 20; echo never", cancel=cancel, out=InterruptWhenReady())
        assert run.status == 130 and run.result.error.ename == "Interrupted"
        assert run.out.text == "ready\n"
        assert run.ended - run.started < 10
        # sandbox.interrupt() reaches the same path
        task = asyncio.ensure_future(run_cell(sb, "sleep 20"))
        await asyncio.sleep(1.0)
        sb.interrupt()
        run = await task
        assert run.status == 130
    with_sandbox(body)


def test_output_limit(guest_image):
    async def body(sb):
        run = await run_cell(sb, "yes", stdout_bytes=100_000, stderr_bytes=10_000, wall_time=20)
        assert len(run.out.data) == 100_000
        assert "truncated" in run.err.text
        assert ("vm: output limit reached (110000 bytes; limits stdout_bytes + stderr_bytes; raise them with "
                "%limits stdout_bytes=200000 stderr_bytes=20000): process killed") in run.err.text
        assert run.status != 0
        assert run.ended - run.started < 15
    with_sandbox(body)


def test_network_is_absent(guest_image):
    async def body(sb):
        run = await run_cell(sb, "ls /sys/class/net; python3 -c \"import socket; "
                                 "socket.create_connection(('1.1.1.1', 80), timeout=2)\"")
        assert run.out.text.split() == ["lo"]
        assert run.status != 0
        assert "unreachable" in run.err.text.lower() or "timed out" in run.err.text.lower()
    with_sandbox(body)


def test_guest_crash_is_reported_and_the_next_cell_restarts(guest_image):
    async def body(sb):
        run = await run_cell(sb, "echo c > /proc/sysrq-trigger; sleep 5", args=["--root"])
        assert run.status != 0 and run.result.error.ename == "VMError"
        assert "crash" in run.err.text
        run = await run_cell(sb, "echo alive")
        assert run.status == 0 and "alive" in run.out.text
        assert "VM crashed" in run.err.text and "starting a new VM" in run.err.text
    with_sandbox(body)


def test_concurrent_commands(guest_image):
    async def body(sb):
        engine = sb.engine("vm")
        await run_cell(sb, "true")
        client = engine.machine.client

        async def one(i):
            ex = await client.exec(["bash", "-c", f"sleep 1; echo {i}"])
            out = b""
            async for kind, data in ex.events():
                out += data
            return out, ex.exit.status

        started = time.monotonic()
        results = await asyncio.gather(*(one(i) for i in range(8)))
        assert [r for r in results] == [(f"{i}\n".encode(), 0) for i in range(8)]
        assert time.monotonic() - started < 6, "requests did not run concurrently"
    with_sandbox(body)


def test_python_and_tools_in_the_guest(guest_image):
    async def body(sb):
        run = await run_cell(sb, "python3 -c 'import ssl, json, sqlite3; print(6*7)'; "
                                 "echo a,b | gawk -F, '{print $2}'; ls /etc/ssl/certs/ca-certificates.crt; pwd")
        assert run.status == 0, run.err.text
        assert run.out.text.splitlines() == ["42", "b", "/etc/ssl/certs/ca-certificates.crt", "/workspace"]
    with_sandbox(body)


def test_the_tools_the_docs_promise_are_in_the_guest(guest_image):
    """docs/deploy.md's egress and secrets examples use curl, git and pip; a venv gets pip
    through ensurepip (creating one runs ~50 s under TCG, so only its parts are checked here)."""
    async def body(sb):
        run = await run_cell(sb, "curl --version | head -c 5; echo; git --version | head -c 11; echo; "
                                 "python3 -m pip --version | head -c 4; echo; "
                                 "python3 -c 'import ensurepip, venv; print(ensurepip.version())'; "
                                 "python3 -m venv --without-pip /tmp/v && /tmp/v/bin/python -c 'import sys; "
                                 "print(sys.prefix)'; cd /tmp && git init -q r && cd r && "
                                 "git -c user.name=a -c user.email=a@b commit -q --allow-empty -m first && "
                                 "git log --format=%s")
        assert run.status == 0, run.err.text
        lines = run.out.text.splitlines()
        assert lines[:3] == ["curl ", "git version", "pip "] and lines[3][:1].isdigit(), lines
        assert lines[4:] == ["/tmp/v", "first"], lines
    with_sandbox(body)


def test_resumed_vms_get_fresh_randomness_and_the_current_time(guest_image):
    script = "head -c 16 /dev/urandom | od -An -tx1; date +%s; python3 -c 'import random; print(random.random())'"

    async def body(sb):
        run = await run_cell(sb, script)
        assert run.status == 0, run.err.text
        assert "resuming a saved state" in run.err.text
        return run.out.text.splitlines()

    first, second = with_sandbox(body), with_sandbox(body)
    assert first[0] != second[0] and first[2] != second[2]
    for lines in (first, second):
        assert abs(int(lines[1]) - time.time()) < 30


def test_stale_saved_state_falls_back_to_a_full_boot(guest_image):
    async def body(sb):
        engine = sb.engine("vm")
        from sandbox_kernel.vm.accel import choose_accelerator
        engine.config.accel, _ = await choose_accelerator(guest_image)
        state = engine._state_path(guest_image)
        assert state.exists()
        state.write_bytes(b"not a VM state")
        run = await run_cell(sb, "echo booted")
        assert run.status == 0 and run.out.text == "booted\n"
        assert "resume failed" in run.err.text and "full boot" in run.err.text
        assert state.stat().st_size > 1_000_000  # saved again by the full boot
    with_sandbox(body)


def test_hung_guest_is_killed_and_replaced(guest_image):
    import os
    import signal as sig

    async def body(sb):
        await run_cell(sb, "true")
        qemu = sb.engine("vm").machine.proc
        asyncio.get_running_loop().call_later(0.5, os.kill, qemu.pid, sig.SIGSTOP)  # freeze the whole VM
        run = await run_cell(sb, "sleep 30", wall_time=1.0)
        assert run.status != 0 and run.result.error.ename == "VMError"
        assert "hung" in run.result.error.evalue
        assert qemu.poll() is not None
        run = await run_cell(sb, "echo back")
        assert run.out.text == "back\n"
    with_sandbox(body)


def test_guest_frozen_between_cells_is_reported_during_the_sync(guest_image):
    import os
    import signal as sig

    async def body(sb):
        await run_cell(sb, "true")
        qemu = sb.engine("vm").machine.proc
        os.kill(qemu.pid, sig.SIGSTOP)  # frozen right after a cell: the next one has files to sync in
        sb.fs.write_bytes("/workspace/new.txt", b"x" * 100_000)
        run = await run_cell(sb, "cat new.txt > /dev/null", wall_time=1.0)
        assert run.ended - run.started < 15
        assert run.status != 0 and run.result.error.ename == "VMError" and "hung" in run.result.error.evalue
        assert qemu.poll() is not None
        run = await run_cell(sb, "wc -c < new.txt")
        assert run.out.text == "100000\n"
    with_sandbox(body)
