"""The admin's host-wide VM cap with real VMs: with --max-vms 1 a second sandbox waits for the
first one's VM to stop, or is refused with a clear message once its bounded wait is over."""
from __future__ import annotations

import asyncio
import dataclasses

import pytest

from sandbox_kernel.policy import Policy
from sandbox_kernel.sandbox import Sandbox

from vm_helpers import Recorder, run_cell

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
