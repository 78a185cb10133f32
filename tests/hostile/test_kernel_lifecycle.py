"""Kernel lifecycle under abuse: interrupts of every engine, restart mid-cell, SIGKILL leaves
no child process, two kernels share nothing."""
from __future__ import annotations

import os
import signal
import time

import pytest

from sandbox_kernel.vm.machine import qemu_available
from tests.support.kernelclient import (execute, interrupt_after_output, output_text, start_kernel, stream_contains,
                                       wait_for_message)
from tests.support.prereqs import require


def run(kc, code: str, timeout: float = 60) -> tuple[dict, str]:
    reply, messages = execute(kc, code, timeout)
    return reply, output_text(messages)


@pytest.fixture
def kernel(jupyter_kernels):
    """A kernel of its own per test: these tests restart and kill it."""
    with start_kernel("sandbox") as pair:
        yield pair


def children_of(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.add(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("code", [
    "echo started; while true; do :; done",
    "echo started; sleep 100",
    "echo started; yes | cat | cat > /dev/null",
    "%%js\nconsole.log('started'); while (true) {}",
    "%%js\nconsole.log('started'); await new Promise(r => setTimeout(r, 100000))",
])
def test_interrupt_any_cell(kernel, code):
    km, kc = kernel
    run(kc, "%limits commands=1000000000")  # let the loop run until the interrupt
    run(kc, "echo keep > /workspace/keep.txt")
    content, messages, seconds = interrupt_after_output(km, kc, code, stream_contains("started"))
    assert seconds < 10
    assert content["status"] == "error" and content["ename"] == "Interrupted"
    content, out = run(kc, "cat /workspace/keep.txt")
    assert content["status"] == "ok" and out == "keep\n"


def test_restart_during_running_cell_gives_fresh_sandbox(kernel):
    km, kc = kernel
    run(kc, "echo old > /workspace/old.txt; X=1")
    msg_id = kc.execute("echo started; sleep 100")
    wait_for_message(kc, msg_id, stream_contains("started"))  # the cell runs: restart now
    km.restart_kernel(now=True)
    kc.wait_for_ready(timeout=60)
    content, out = run(kc, "ls /workspace; echo \"X=[$X]\"")
    assert content["status"] == "ok" and out == "X=[]\n"


def assert_sigkill_leaves_no_child(km) -> None:
    pid = km.provisioner.process.pid
    kids = children_of(pid)
    grandkids = set().union(*(children_of(k) for k in kids)) if kids else set()
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 15
    survivors = kids | grandkids
    while time.monotonic() < deadline:
        survivors = {p for p in survivors if alive(p)}
        if not survivors:
            break
        time.sleep(0.2)
    assert not survivors, f"processes outlived the kernel: {survivors}"


def test_sigkill_leaves_no_child(kernel):
    km, kc = kernel
    assert run(kc, "echo hi")[0]["status"] == "ok"
    assert run(kc, "%%js\n1 + 1")[0]["status"] == "ok"
    assert_sigkill_leaves_no_child(km)


@pytest.mark.vm
@pytest.mark.slow
def test_sigkill_leaves_no_child_after_a_vm_cell(kernel):
    """The same with QEMU and its helpers running (in CI a missing QEMU fails, not skips)."""
    require(qemu_available())
    km, kc = kernel
    assert run(kc, "%%js\n1 + 1")[0]["status"] == "ok"
    content, out = run(kc, "%%vm\necho vm-ran", timeout=300)  # the first %%vm cell may build the image
    assert content["status"] == "ok" and "vm-ran" in out, out
    assert_sigkill_leaves_no_child(km)


def test_two_kernels_share_nothing(jupyter_kernels):
    with start_kernel("sandbox") as a, start_kernel("sandbox") as b:
        run(a[1], "echo secret > /workspace/s.txt; export TOKEN=abc; f() { echo fa; }")
        run(a[1], "%%js\nglobalThis.shared = 'a'; fs.writeFileSync('/tmp/js.txt', 'a')")
        content, out = run(b[1], "ls /workspace /tmp; echo \"[$TOKEN]\"; type f 2>&1 | head -1")
        assert "s.txt" not in out and "js.txt" not in out and "[]" in out and "not found" in out
        content, out = run(b[1], "%%js\ntypeof globalThis.shared")
        assert "undefined" in out
        content, out = run(a[1], "echo $RANDOM $RANDOM $RANDOM")
        content2, out2 = run(b[1], "echo $RANDOM $RANDOM $RANDOM")
        assert content["status"] == content2["status"] == "ok" and out != out2
