"""The admin's host-wide VM cap with real VMs: with --max-vms 1 a second sandbox waits for the
first one's VM to stop, or is refused with a clear message once its bounded wait is over."""
from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from pathlib import Path

import pytest

from sandbox_kernel.policy import Policy
from sandbox_kernel.sandbox import Sandbox

from .vm_helpers import Recorder, run_cell

pytestmark = [pytest.mark.vm, pytest.mark.slow]


async def until_written(recorder: Recorder, text: str, timeout: float = 60) -> None:
    async def poll():
        while text not in recorder.text:
            await asyncio.sleep(0.02)
    await asyncio.wait_for(poll(), timeout)


def test_two_sandboxes_and_a_cap_of_one(guest_image, tmp_path):
    cap = Policy(max_vms=1, vm_slots_dir=str(tmp_path / "slots"), vm_queue_timeout=60)

    async def main():
        first, second = Sandbox(policy=cap), Sandbox(policy=cap)
        impatient = Sandbox(policy=dataclasses.replace(cap, vm_queue_timeout=0.2))
        try:
            assert (await run_cell(first, "echo one")).out.text == "one\n"
            assert "host VM slots: 1 of 1 in use" in await first.engine("vm").magic("status")
            refused = await run_cell(impatient, "echo never")
            assert refused.status == 1 and refused.out.text == ""
            assert "no VM slot free on this host after 0.2 s" in refused.err.text
            assert "allows 1 running VM at once (--max-vms)" in refused.err.text and "%vm stop" in refused.err.text
            assert impatient.engine("vm").machine is None
            err = Recorder()
            waiting = asyncio.ensure_future(run_cell(second, "echo two", err=err))
            await until_written(err, "waiting up to 60 s")
            assert not waiting.done()
            assert await first.engine("vm").stop()
            run = await asyncio.wait_for(waiting, 60)
            assert run.status == 0 and run.out.text == "two\n", run.err.text
            # the slot went with the stopped VM; it is the first's again once the second stops
            assert await second.engine("vm").stop()
            again = await run_cell(first, "echo again")
            assert again.out.text == "again\n" and "waiting" not in again.err.text
        finally:
            for sandbox in (first, second, impatient):
                await sandbox.shutdown()
    asyncio.run(main())


def _qemu_children() -> set[int]:
    """QEMU processes this test process started (QEMU runs under setpriv, which execs it)."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and b"qemu-system" in (entry / "cmdline").read_bytes() \
                    and f"PPid:\t{os.getpid()}\n" in (entry / "status").read_text():
                found.add(int(entry.name))
        except OSError:
            continue
    return found


def test_a_boot_that_outlasts_the_boot_timeout_is_stopped(guest_image, tmp_path):
    """--vm-boot-timeout ends a full boot that takes longer: the cell fails with a message that
    names the option, no QEMU is left running, the host slot is free again, and the next
    start with a sane timeout works."""
    before = _qemu_children()
    slow = Policy(vm_boot_timeout=0.3, max_vms=1, vm_slots_dir=str(tmp_path / "slots"))

    async def main():
        sb = Sandbox(policy=slow)
        engine = sb.engine("vm")
        engine.resume_states = False  # a full boot (seconds under TCG)...
        engine.save_states = False    # ...that leaves the shared saved state alone
        try:
            started = time.monotonic()
            run = await run_cell(sb, "echo never")
            took = time.monotonic() - started
            left = _qemu_children() - before
            holders = engine.slots.holders()
            sb.policy = dataclasses.replace(slow, vm_boot_timeout=120)
            again = await run_cell(sb, "echo booted")
            return run, took, left, holders, again
        finally:
            await sb.shutdown()
    run, took, left, holders, again = asyncio.run(main())
    assert run.status == 1 and run.out.text == "" and run.result.error.ename == "VMError"
    assert "the VM did not boot within 0.3 s (the admin's --vm-boot-timeout)" in run.err.text, run.err.text
    assert "--vm-boot-timeout SECONDS" in run.err.text
    assert took < 10, took
    assert left == set(), f"QEMU left running: {left}"
    assert holders == []  # its host slot was given back
    assert again.status == 0 and again.out.text == "booted\n", again.err.text
    assert _qemu_children() == before
