"""No QEMU outlives the kernel process, even when the kernel is SIGKILLed."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = [pytest.mark.vm, pytest.mark.slow]

CHILD = textwrap.dedent("""
    import asyncio, sys
    from sandbox_kernel.sandbox import Sandbox

    async def main():
        sb = Sandbox()
        engine = sb.engine("vm")
        await engine.start(lambda line: None)
        print(engine.machine.proc.pid, flush=True)
        await asyncio.sleep(600)

    asyncio.run(main())
""")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_sigkill_of_the_kernel_process_kills_qemu(guest_image):
    kernel = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        line = kernel.stdout.readline()
        assert line.strip().isdigit(), "child did not start a VM"
        qemu_pid = int(line)
        assert _alive(qemu_pid)
        with open(f"/proc/{qemu_pid}/cmdline", "rb") as f:
            assert b"qemu-system-x86_64" in f.read()
        kernel.send_signal(signal.SIGKILL)
        kernel.wait()
        killed_at = time.monotonic()
        while _alive(qemu_pid) and time.monotonic() - killed_at < 5:
            time.sleep(0.01)
        assert not _alive(qemu_pid), "QEMU survived the SIGKILLed kernel process"
        print(f"QEMU gone {time.monotonic() - killed_at:.3f} s after the kernel's SIGKILL")
    finally:
        if kernel.poll() is None:
            kernel.kill()
            kernel.wait()


def test_shutdown_stops_qemu(guest_image):
    import asyncio

    from sandbox_kernel.sandbox import Sandbox

    async def main():
        sb = Sandbox()
        engine = sb.engine("vm")
        await engine.start(lambda line: None)
        proc = engine.machine.proc
        run_dir = engine.machine.run_dir
        started = time.monotonic()
        await sb.shutdown()
        assert proc.poll() is not None
        assert not run_dir.exists()
        return time.monotonic() - started

    took = asyncio.run(main())
    assert took < 6
    print(f"graceful stop took {took:.2f} s")
