"""VM performance numbers at the agent level: ``python -m benchmarks.vm_figures`` (prints one line
per figure; `make bench`'s vm group measures the same through cells).

First use in a fresh kernel via resume and via full boot, warm exec round trip (`true`),
upload/download throughput, idle memory; each with the accelerator used.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time

from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vm.machine import Machine, MachineConfig, qemu_available


async def _first_use() -> tuple[float, str, str]:
    """A fresh sandbox's VM start (resumes the saved state when there is one)."""
    sandbox = Sandbox()
    engine = sandbox.engine("vm")
    try:
        started = time.monotonic()
        machine = await engine.start(lambda line: None)
        return time.monotonic() - started, machine.config.accel, machine.boot_mode
    finally:
        await sandbox.shutdown()


async def _full_boot() -> tuple[float, str]:
    """Boot the same machine without the saved state."""
    from sandbox_kernel.vm.accel import choose_accelerator

    image = await _image()
    config = MachineConfig()
    config.accel, _ = await choose_accelerator(image)
    machine = Machine.for_image(config, image)
    started = time.monotonic()
    try:
        await machine.start()
        return time.monotonic() - started, config.accel
    finally:
        await machine.stop()


async def _image():
    from sandbox_kernel.vm.image import ensure_image
    return await ensure_image()


async def main() -> int:
    reason = qemu_available()
    if reason:
        print(f"vm bench skipped: {reason}")
        return 0
    await _image()
    await _first_use()  # makes the saved state when it is missing
    resumes = [await _first_use() for _ in range(3)]
    boots = [await _full_boot() for _ in range(2)]
    accel = resumes[0][1]
    print(f"vm first use via {resumes[0][2]}: median {statistics.median(t for t, _, _ in resumes):.3f} s [{accel}]")
    print(f"vm first use via full boot: median {statistics.median(t for t, _ in boots):.3f} s [{accel}]")
    sandbox = Sandbox()
    engine = sandbox.engine("vm")
    try:
        machine = await engine.start(lambda line: None)
        client = machine.client
        assert client is not None
        times = []
        for _ in range(50):
            t = time.perf_counter()
            ex = await client.exec(["true"])
            async for _ in ex.events():
                pass
            times.append(time.perf_counter() - t)
        print(f"vm warm exec `true` round trip: median {statistics.median(times) * 1e3:.1f} ms [{accel}]")
        blob = os.urandom(32 << 20)
        t = time.perf_counter()
        await client.write_file("/tmp/blob", blob)
        up = time.perf_counter() - t
        t = time.perf_counter()
        back = await client.read_file("/tmp/blob")
        down = time.perf_counter() - t
        assert back == blob
        print(f"vm upload {len(blob) / up / 1e6:.0f} MB/s, download {len(blob) / down / 1e6:.0f} MB/s [{accel}]")
        await client.remove("/tmp/blob")
        meminfo = (await client.read_chunk("/proc/meminfo", 0, 4096)).decode()
        fields = {line.split(":")[0]: line.split(":")[1].strip() for line in meminfo.splitlines() if ":" in line}
        rss_kb = 0
        with open(f"/proc/{machine.proc.pid}/status") as f:  # type: ignore[union-attr]
            for line in f:
                if line.startswith("VmRSS:"):
                    rss_kb = int(line.split()[1])
        print(f"vm idle memory: QEMU RSS {rss_kb / 1024:.0f} MiB, guest MemAvailable {fields.get('MemAvailable')} "
              f"of {fields.get('MemTotal')} [{accel}]")
    finally:
        await sandbox.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
