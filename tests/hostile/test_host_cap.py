"""The host-wide VM cap's lock directory (no VM needed): slots are flocks, a dead holder frees
its slot, a full host makes a start wait a bounded time and then refuse with the holders named."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap

import pytest

from sandbox_kernel.vm.hostcap import HostFull, HostSlots


def test_slots_are_exclusive_and_released(tmp_path):
    first, second = HostSlots(tmp_path, 2), HostSlots(tmp_path, 2)
    a = first.try_acquire("kernel A")
    b = second.try_acquire("kernel B")
    assert a is not None and b is not None and a.path != b.path
    assert second.try_acquire() is None  # both taken, also for another opener in this process
    assert sorted(h.split(" since")[0] for h in first.holders()) == [f"pid {os.getpid()}"] * 2
    a.release()
    assert not a.held and len(first.holders()) == 1
    c = second.try_acquire()
    assert c is not None and c.path == a.path
    b.release()
    c.release()
    assert first.holders() == []


def test_a_killed_holder_frees_its_slot(tmp_path):
    """A crashed kernel cleans nothing up: Linux drops the flock with the process."""
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys
        from sandbox_kernel.vm.hostcap import HostSlots
        slot = HostSlots({str(tmp_path)!r}, 1).try_acquire("crashing kernel")
        print("held" if slot else "busy", flush=True)
        sys.stdin.read()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        slots = HostSlots(tmp_path, 1)
        assert slots.try_acquire() is None
        assert "crashing kernel" in slots.holders()[0]
        holder.kill()
        holder.wait(10)
        slot = slots.try_acquire()
        assert slot is not None
        slot.release()
    finally:
        holder.kill()


def test_a_full_host_waits_then_refuses(tmp_path):
    slots = HostSlots(tmp_path, 1)
    held = slots.try_acquire("kernel A")
    told: list[str] = []
    with pytest.raises(HostFull) as info:
        asyncio.run(slots.acquire(0.3, told.append))
    assert "all 1 VM slot of this host are in use" in told[0]
    message = str(info.value)
    assert "allows 1 running VM at once (--max-vms)" in message and "kernel A" in message and "%vm stop" in message
    held.release()


def test_a_waiting_start_gets_the_slot_when_it_frees(tmp_path):
    slots = HostSlots(tmp_path, 1)
    held = slots.try_acquire("kernel A")

    async def main():
        told = asyncio.Event()
        waiter = asyncio.ensure_future(slots.acquire(30, lambda line: told.set()))
        await told.wait()  # it is queued now
        held.release()
        return await asyncio.wait_for(waiter, 10)
    slot = asyncio.run(main())
    assert slot.held
    slot.release()


def test_an_unusable_lock_directory_is_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError):
        HostSlots(blocker / "slots", 1).try_acquire()
