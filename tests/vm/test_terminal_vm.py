"""The Sandbox VM terminal through a real kernel: the sandbox.terminal comm with "shell": "vm"
opens a login shell on a pty in the notebook's VM (vm/terminal.py, kernel/terminal.py)."""
from __future__ import annotations

import itertools
import re
import time

import pytest

from tests.support.kernelclient import TerminalComm, run_ok, start_kernel

pytestmark = [pytest.mark.vm, pytest.mark.slow]
PROMPT = "user@vm:/workspace$ "
MARKS = itertools.count(1000)


def run(term: TerminalComm, command: str, timeout: float = 60) -> str:
    """Type ``command`` and Enter; the terminal's text from that line to the end mark the
    command prints (keys typed ahead are echoed by the guest's tty, so prompts do not count)."""
    mark = next(MARKS)
    start = term.text().rfind("\n") + 1
    term.send(f"{command}\recho end-$(({mark}+1))\r")
    return term.wait_for(lambda t: re.search(rf"^end-{mark + 1}$", t[start:], re.M), timeout)[start:]


@pytest.fixture(scope="module")
def vm_kernel(guest_image, jupyter_kernels):
    with start_kernel("sandbox") as pair:
        yield pair


def guest_processes(kc) -> str:
    """What runs in the VM, as a %%vm cell's ps sees it (kernel threads left out)."""
    return run_ok(kc, "%%vm --root\nps -eo user,args | grep -v '\\['", timeout=120)


def test_vm_terminal_end_to_end(vm_kernel):
    km, kc = vm_kernel
    term = TerminalComm(kc, cols=80, rows=24, shell="vm")
    try:
        text = term.wait_for(PROMPT, timeout=180)  # boots the VM (progress shown first)
        assert "vm: ready in" in text
        # a command, as the guest's user, on a pty
        out = run(term, "echo hi-$((6*7)); id -un; tty")
        assert re.search(r"^hi-42$", out, re.M) and "\nuser\n" in out and "/dev/pts/" in out, out
        # resize: the pty gets the new size
        term.resize(132, 40)
        assert "\n40 132\n" in run(term, "stty size")
        # Ctrl-C: the guest's line discipline interrupts the foreground job (which prints
        # "started" itself: then it is the terminal's foreground process group)
        term.send("bash -c 'echo started; exec sleep 100'\r")
        term.wait_for(lambda t: re.search(r"^started$", t, re.M), timeout=60)
        interrupted = time.monotonic()
        term.send("\x03")
        assert "status=130" in run(term, "echo status=$?")
        assert time.monotonic() - interrupted < 20
        # the workspace is synced both ways while the terminal is open
        run(term, "echo from-vm > /workspace/vm-term.txt")
        deadline = time.monotonic() + 60
        while run_ok(kc, "cat /workspace/vm-term.txt 2>/dev/null || true") != "from-vm\n":
            assert time.monotonic() < deadline, "the terminal's file never reached the notebook"
            time.sleep(0.2)  # between polls: the sync runs every 2 s
        run_ok(kc, "echo from-notebook > /workspace/nb.txt")
        deadline = time.monotonic() + 60
        while "\nfrom-notebook\n" not in run(term, "cat nb.txt 2>/dev/null || echo missing"):
            assert time.monotonic() < deadline, "the notebook's file never reached the terminal"
        # processes started in the terminal, also ones that left its session
        run(term, "sleep 1001 & nohup sleep 1002 >/dev/null 2>&1 & setsid sleep 1003 &")
        assert all(f"sleep {n}" in guest_processes(kc) for n in (1001, 1002, 1003))
    finally:
        term.close()
    # closing the comm ends the shell and all it started: nothing is left in the VM
    deadline = time.monotonic() + 60
    while re.search(r"sleep 100[0-3]|bash -l", processes := guest_processes(kc)):
        assert time.monotonic() < deadline, f"left running after the terminal closed:\n{processes}"
        time.sleep(0.2)


def test_vm_terminal_exit_status_and_a_second_terminal(vm_kernel):
    km, kc = vm_kernel
    first, second = TerminalComm(kc, shell="vm"), TerminalComm(kc, shell="vm")
    try:
        first.wait_for(PROMPT, timeout=120)
        second.wait_for(PROMPT, timeout=120)
        first.send("exit 7\r")
        first.wait_for(lambda _: first.exit_status is not None, timeout=60)
        assert first.exit_status == 7
        assert "still-here" in run(second, "echo still-here")
        # the VM stopped from the notebook: the terminal says so and ends
        assert run_ok(kc, "%vm stop") == "vm: stopped\n"
        second.wait_for(lambda _: second.exit_status is not None, timeout=60)
        assert "vm: the VM was stopped" in second.text() and second.exit_status == 1
        assert "vm: not running\n" in run_ok(kc, "%vm status")  # no crash reported
    finally:
        first.close()
        second.close()
