"""Hostile guests: fork bombs, disk floods past the VFS quota, a killed agent, a panic.
The kernel-side sandbox must report each clearly and keep working."""
from __future__ import annotations

import asyncio

import pytest

from sandbox_kernel.vm.image import ensure_image
from sandbox_kernel.vm.machine import qemu_available
from tests.support.prereqs import require

from tests.support.session import Session

pytestmark = [pytest.mark.vm, pytest.mark.slow]


@pytest.fixture(scope="module")
def vm():
    require(qemu_available())
    asyncio.run(ensure_image(lambda line: None))
    s = Session(wall_time=20, vfs_bytes=32 * 1024 * 1024)
    s.run("echo precious > /workspace/keep.txt")
    yield s
    result, out, *_ = s.run("cat /workspace/keep.txt")
    assert out == b"precious\n"
    s.close()


def vm_alive(s: Session) -> None:
    result, out, err, _ = s.run("echo vm-ok; cat /workspace/keep.txt", "vm")
    assert result.status == 0 and out == b"vm-ok\nprecious\n", err
    assert s.run("echo sh-ok")[1] == b"sh-ok\n"


def test_fork_bomb_in_guest_is_contained(vm):
    result, out, err, dt = vm.run("bomb() { bomb | bomb & }; bomb; sleep 5", "vm")
    assert dt < 40
    vm_alive(vm)


def test_guest_flood_over_the_vfs_quota_is_reported(vm):
    result, out, err, dt = vm.run("head -c 60000000 /dev/zero > /workspace/flood.bin; echo written", "vm")
    assert b"written" in out
    assert b"quota" in err.lower() or b"space" in err.lower()
    flood = "/workspace/flood.bin"
    assert not vm.sandbox.fs.exists(flood) or vm.sandbox.fs.stat(flood).st_size < 60000000
    vm_alive(vm)


def test_killed_agent_is_reported_and_recovered(vm):
    result, out, err, dt = vm.run("kill -9 $(pidof agent sandbox-agent 2>/dev/null) 2>/dev/null; "
                                  "kill -9 $PPID; sleep 30", "vm", args=["--root"])
    assert result.status != 0 and dt < 40
    vm_alive(vm)


def test_guest_kernel_panic_is_reported_and_recovered(vm):
    result, out, err, dt = vm.run("echo c > /proc/sysrq-trigger; sleep 30", "vm", args=["--root"])
    assert result.status != 0 and err and dt < 40
    vm_alive(vm)
