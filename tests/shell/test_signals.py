"""Signals and named pipes in the notebook's shell: what differential cases cannot check (the
interrupt, the wall time, waits that only a signal ends, the interactive shell's own pid).
Every wait here is on an event (the shell blocked in wait, a file made), not a timing."""
from __future__ import annotations

import asyncio

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits

from tests.shell.test_background_jobs import notebook


async def _until(predicate, timeout: float = 30) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(poll(), timeout)


def _waiting_for_a_signal(nb) -> bool:
    waiter = nb.engine.shell.signal_waiter
    return waiter is not None and not waiter.done()


def test_a_trapped_signal_ends_wait_with_128_plus_n_then_its_trap_runs():
    async def test(nb):
        code = ("trap 'echo got $?' USR1\n"
                "{ until [ -e go ]; do sleep 0.01; done; kill -USR1 $$; until [ -e end ]; do sleep 0.01; done; } &\n"
                "wait $!; echo \"wait=$?\"\n"
                "touch end; wait; echo \"all=$?\"")
        cell = asyncio.ensure_future(nb.run(code))
        await _until(lambda: _waiting_for_a_signal(nb))  # the shell is in `wait`
        nb.sandbox.fs.write_bytes("/workspace/go", b"")
        done = await asyncio.wait_for(cell, 30)
        assert (done.status, done.out.text) == (0, "got 138\nwait=138\nall=0\n")
    notebook(test)


def test_the_interrupt_ends_reads_and_writes_blocked_on_a_named_pipe():
    async def test(nb):
        assert (await nb.run("mkfifo p")).status == 0
        for code in ("cat p", "read x < p", "echo hi > p", "exec 3<> p; head -c 1 <&3"):
            cell = await nb.run(code, interrupt_after=0.2)
            assert cell.status == 130, code
            assert cell.result.error.ename == "Interrupted"
        # nothing else was left open: once fd 3 closes, a writer and a reader meet as usual
        cell = await nb.run("exec 3<&-; echo back > p & cat p")
        assert (cell.status, cell.out.text) == (0, "back\n")
    notebook(test)


def test_the_wall_time_ends_a_script_blocked_on_a_named_pipe():
    out, err, status = run_script("mkfifo p; cat p; echo not reached", limits=Limits(wall_time=0.5))
    assert status == 124 and out == b"" and b"wall time" in err


def test_kill_of_the_notebook_shell():
    """An interactive shell ignores TERM and INT without a trap (`kill $$` cannot end the
    notebook's shell); USR1 ends the cell as bash would die of it (138), and the next cell
    runs; a trap set for it runs instead."""
    async def test(nb):
        cell = await nb.run("kill $$; kill -INT $$; echo alive")
        assert (cell.status, cell.out.text) == (0, "alive\n")
        cell = await nb.run("kill -USR1 $$; echo not reached")
        assert (cell.status, cell.out.text) == (138, "")
        cell = await nb.run("trap 'echo trapped' USR1; kill -USR1 $$; echo after")
        assert (cell.status, cell.out.text) == (0, "trapped\nafter\n")
        # its jobs are an interactive shell's: INT ends them (a script's jobs ignore it)
        cell = await nb.run("sleep 100 & kill -INT %1; wait %1; echo \"job=$?\"")
        assert cell.out.text == "job=130\n"
    notebook(test)


def test_a_signal_from_a_job_between_cells_waits_for_the_next_command():
    async def test(nb):
        first = await nb.run("trap 'echo trapped' USR1; { until [ -e go ]; do sleep 0.01; done; kill -USR1 $$; "
                             "touch sent; } &")
        assert first.status == 0
        nb.sandbox.fs.write_bytes("/workspace/go", b"")
        await _until(lambda: nb.sandbox.fs.exists("/workspace/sent"))
        cell = await nb.run("echo next")
        assert cell.out.text == "trapped\nnext\n"
    notebook(test)


def test_kill_never_reaches_a_host_process():
    # the test process's own pid and init's: kill knows only the sandbox's emulated processes
    import os
    import signal

    received: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: received.append(signum))
    try:
        out, err, status = run_script(f"kill -0 {os.getpid()}; echo $?; kill -USR1 {os.getpid()}; echo $?; "
                                      "kill -0 1; echo $?")
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert out == b"1\n1\n1\n", (out, err)
    assert b"No such process" in err
    assert received == []
