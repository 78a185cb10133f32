"""%%vm through a real kernel process: a cell, %vm status, and SIGKILL of the kernel."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from kernelclient import collect, start_kernel

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def _children(pid: int) -> list[tuple[int, bytes]]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            ppid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
            if ppid == pid:
                found.append((int(entry.name), (entry / "cmdline").read_bytes()))
        except (OSError, StopIteration, ValueError):
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _iopub_text(kc, msg_id, timeout=120):
    """(stream name, text) of a cell's stream messages."""
    return [(m["content"]["name"], m["content"]["text"]) for m in collect(kc, msg_id, timeout)
            if m["msg_type"] == "stream"]


@pytest.fixture
def kernel(guest_image, jupyter_kernels):
    """A kernel of its own per test: each test sees its first %%vm cell (and one kills it)."""
    with start_kernel("sandbox") as pair:
        yield pair


def test_vm_cell_in_a_kernel_and_sigkill(kernel):
    km, kc = kernel
    msg_id = kc.execute("echo hello > /workspace/from-shell.txt")
    _iopub_text(kc, msg_id)
    msg_id = kc.execute("%%vm\ncat from-shell.txt; uname -s; echo vm-made > from-vm.txt")
    streams = _iopub_text(kc, msg_id)
    stdout = "".join(t for n, t in streams if n == "stdout")
    assert stdout == "hello\nLinux\n", streams
    assert kc.get_shell_msg(timeout=30)["content"]["status"] == "ok"
    msg_id = kc.execute("%vm status\ncat from-vm.txt")
    streams = _iopub_text(kc, msg_id)
    stdout = "".join(t for n, t in streams if n == "stdout")
    assert "vm-made" in stdout and "vm: running" in stdout and "accelerator:" in stdout
    kernel_pid = km.provisioner.process.pid
    qemus = [pid for pid, cmd in _children(kernel_pid) if b"qemu-system" in cmd]
    assert len(qemus) == 1
    os.kill(kernel_pid, signal.SIGKILL)
    killed_at = time.monotonic()
    while _alive(qemus[0]) and time.monotonic() - killed_at < 5:
        time.sleep(0.02)
    assert not _alive(qemus[0]), "QEMU outlived the SIGKILLed kernel"


def test_vm_cell_reads_stdin_through_input_request(kernel):
    _, kc = kernel
    msg_id = kc.execute("%%vm\necho before; read name; echo \"hi $name\"", allow_stdin=True)
    request = kc.get_stdin_msg(timeout=120)  # the first %%vm cell also starts the VM
    assert request["msg_type"] == "input_request"
    kc.input("Ada")
    streams = _iopub_text(kc, msg_id)
    assert "".join(t for n, t in streams if n == "stdout") == "before\nhi Ada\n"
    assert kc.get_shell_msg(timeout=30)["content"]["status"] == "ok"
    # a frontend without stdin: the guest reads end of input at once
    msg_id = kc.execute("%%vm\nread name; echo \"status $?\"", allow_stdin=False)
    streams = _iopub_text(kc, msg_id)
    assert "".join(t for n, t in streams if n == "stdout") == "status 1\n"


def test_vm_setup_shows_as_one_updated_output_and_cell_options(kernel):
    _, kc = kernel
    msg_id = kc.execute("%%vm --root\nid -u")
    messages = collect(kc, msg_id, timeout=120)
    displays = [m for m in messages if m["msg_type"] in ("display_data", "update_display_data")]
    assert displays and displays[0]["msg_type"] == "display_data"
    assert all(m["msg_type"] == "update_display_data" for m in displays[1:])
    assert len({m["content"]["transient"]["display_id"] for m in displays}) == 1
    assert displays[-1]["content"]["data"]["text/plain"].startswith("vm: ready in")
    streams = [(m["content"]["name"], m["content"]["text"]) for m in messages if m["msg_type"] == "stream"]
    assert streams == [("stdout", "0\n")]
    msg_id = kc.execute("%%vm\nid -un")
    assert _iopub_text(kc, msg_id) == [("stdout", "user\n")]
    msg_id = kc.execute("%%vm --bogus\nid")
    assert any("unknown option '--bogus'" in text for _, text in _iopub_text(kc, msg_id))
