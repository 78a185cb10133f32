"""Background jobs through jupyter_client: a cell replies when its foreground ends; its jobs
write later under that cell's parent header (frontends show it under the cell), and later
cells list, wait for, bring back and kill them. Assertions are on messages and their order,
not on timings."""
from __future__ import annotations

import time
from queue import Empty

import pytest

from tests.support.kernelclient import execute, interrupt_after_output, run_ok, shell_reply, start_kernel, stream_text

#: a job that waits for the file NAME (made by a later cell), then writes
WAITS_FOR = "{{ until [ -e {0} ]; do sleep 0.01; done; echo late; echo oops >&2; }}"


class IOPub:
    """Every IOPub message in arrival order (whichever request it belongs to)."""

    def __init__(self, kc) -> None:
        self.kc = kc
        self.messages: list[dict] = []

    def of(self, msg_id: str) -> list[dict]:
        return [m for m in self.messages if m["parent_header"].get("msg_id") == msg_id]

    def text(self, msg_id: str, name: str = "stdout") -> str:
        return stream_text(self.of(msg_id), name)

    def idle(self, msg_id: str) -> bool:
        return any(m["msg_type"] == "status" and m["content"]["execution_state"] == "idle" for m in self.of(msg_id))

    def until(self, condition, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                seen = [(m["msg_type"], m["content"]) for m in self.messages[-20:]]
                raise AssertionError(f"not seen within {timeout} s: {seen}")
            try:
                self.messages.append(self.kc.get_iopub_msg(timeout=0.2))
            except Empty:
                continue

    def run(self, code: str, timeout: float = 60) -> tuple[str, dict]:
        """(msg_id, reply content) of a cell, once it replied and went idle."""
        msg_id = self.kc.execute(code)
        reply = shell_reply(self.kc, msg_id, timeout)
        self.until(lambda: self.idle(msg_id), timeout)
        return msg_id, reply["content"]


@pytest.fixture(autouse=True)
def no_jobs_left(kc):
    """Each test starts with no job in the shared kernel (numbering from [1]) and ends its own."""
    yield
    run_ok(kc, "for pid in $(jobs -p); do kill $pid; done; wait; jobs > /dev/null")
    drain(kc)


def drain(kc) -> None:
    """Drop what the earlier tests' cells still had on IOPub."""
    while True:
        try:
            kc.get_iopub_msg(timeout=0.2)
        except Empty:
            return


def test_a_cell_replies_when_its_foreground_ends_and_its_job_writes_under_it_later(kc):
    drain(kc)
    iopub = IOPub(kc)
    first, reply = iopub.run(f"rm -f go1; {WAITS_FOR.format('go1')} & echo started")
    assert reply["status"] == "ok" and iopub.text(first) == "started\n"
    replied_at = len(iopub.messages)  # the cell replied and went idle while the job still runs
    assert run_ok(kc, "jobs") == f"[1]+  Running                 {WAITS_FOR.format('go1')} &\n"
    second, _ = iopub.run("touch go1; echo second")
    iopub.until(lambda: "late" in iopub.text(first) and "oops" in iopub.text(first, "stderr"))
    later = [m for m in iopub.messages[replied_at:] if m["parent_header"].get("msg_id") == first]
    # after the reply, with the first cell's parent header: the job's own output, nothing else
    assert [m["msg_type"] for m in later if m["msg_type"] != "stream"] == []
    assert stream_text(later) == "late\n" and stream_text(later, "stderr") == "oops\n"
    assert iopub.text(second) == "second\n"
    # the cell during which it ended or the next one says so once, as bash does before its next prompt
    third, _ = iopub.run("echo next")
    assert iopub.text(second, "stderr") + iopub.text(third, "stderr") == \
        f"[1]+  Done                    {WAITS_FOR.format('go1')}\n"


def test_jobs_wait_kill_and_dollar_bang_in_later_cells(kc):
    run_ok(kc, "sleep 30 & sleep 31 & echo started")
    assert run_ok(kc, "jobs; jobs -p %2 | grep -cx $!") == ("[1]-  Running                 sleep 30 &\n"
                                                             "[2]+  Running                 sleep 31 &\n1\n")
    reply, messages = execute(kc, "kill %1 $!; wait %1; echo $?; wait; echo all")
    assert reply["status"] == "ok" and stream_text(messages) == "143\nall\n"
    assert stream_text(messages, "stderr") == ("[1]-  Terminated              sleep 30\n"
                                                "[2]+  Terminated              sleep 31\n")
    assert run_ok(kc, "jobs") == ""


def test_fg_brings_the_jobs_output_to_the_current_cell(kc):
    drain(kc)
    iopub = IOPub(kc)
    first, _ = iopub.run(f"rm -f go2; {WAITS_FOR.format('go2')} &")
    second, reply = iopub.run("touch go2; fg %1; echo status $?")
    assert reply["status"] == "ok"
    assert iopub.text(second) == f"{WAITS_FOR.format('go2')}\nlate\nstatus 0\n"
    assert iopub.text(second, "stderr") == "oops\n" and iopub.text(first) == ""


def test_interrupting_a_later_cell_leaves_the_job_running(kernel):
    km, kc = kernel
    run_ok(kc, "sleep 30 & echo started")
    reply, _, elapsed = interrupt_after_output(km, kc, "echo started; wait")
    assert reply["ename"] == "Interrupted" and elapsed < 3
    assert run_ok(kc, "jobs") == "[1]+  Running                 sleep 30 &\n"
    reply, _, _ = interrupt_after_output(km, kc, "echo started; fg")  # Ctrl-C reaches a job in the foreground
    assert reply["ename"] == "Interrupted"
    assert run_ok(kc, "jobs; wait $!; echo $?") == "130\n"


def test_a_job_keeps_the_wall_time_of_its_cell_and_says_when_it_ends(kc):
    run_ok(kc, "sleep 0 & wait")  # what the cell runs is loaded: the short wall time is the job's
    drain(kc)
    iopub = IOPub(kc)
    try:
        cell, reply = iopub.run("%limits wall_time=1\nsleep 30 & echo started")
        assert reply["status"] == "ok"
        iopub.until(lambda: "limit wall_time" in iopub.text(cell, "stderr"))
        assert iopub.text(cell, "stderr") == ("bash: job [1] (sleep 30): wall time limit exceeded (1 s; limit "
                                              "wall_time; raise it with %limits wall_time=2)\n")
    finally:
        run_ok(kc, "%limits wall_time=600")
    _, messages = execute(kc, "wait %1; echo $?")
    assert stream_text(messages) == "124\n"


# Known bug, not fixed yet: about one graceful shutdown in ten with live jobs ends in libzmq's
# "Assertion failed: pfd.revents & POLLIN (signaler.cpp)" (status -6) instead of 0, although the
# kernel's relays are now closed before ipykernel's teardown; the run still shows every other part
# (the jobs end, the kernel goes away within the bound), so it stays in the suite, not strict.
@pytest.mark.xfail(strict=False, reason="libzmq abort at shutdown with live jobs, ~1 run in 10 (see the comment)")
def test_kernel_shutdown_with_live_jobs_is_clean(jupyter_kernels):
    with start_kernel("sandbox") as (km, kc):
        run_ok(kc, "sleep 1000 & ( sleep 1001 & ); f() { sleep 1002 & }; f & echo started")
        assert run_ok(kc, "ps | grep -c bash") == "4\n"  # the shell and its three sleeps
        km.request_shutdown()
        deadline = time.monotonic() + 30
        while km.is_alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not km.is_alive()
        assert km.provisioner.process.returncode == 0
