"""Background jobs across cells (bash's interactive semantics): a cell ends when its foreground
ends; its jobs go on, write to the cell that started them, are listed, waited for, brought to
the foreground and killed from later cells, keep the limits of the cell that started them, and
end with the kernel. Scripts (the CLI) still end when their jobs ended.

Every assertion is on events and order (a job still running when its cell replied, output in
one cell's sink and not another's), not on timings."""
from __future__ import annotations

import asyncio
import signal

from sandbox_kernel.cli import run_script
from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox

#: a job that waits for the file `go` (made by a later cell), then writes
WAITS_FOR_GO = "{ until [ -e go ]; do sleep 0.01; done; echo late; echo oops >&2; }"


class Sink:
    def __init__(self) -> None:
        self.data = bytearray()
        self.changed = asyncio.Event()

    def write(self, b: bytes) -> None:
        self.data += b
        self.changed.set()

    @property
    def text(self) -> str:
        return self.data.decode()

    async def until(self, text: str, timeout: float = 60) -> None:
        """Until ``text`` arrived (the loop runs the jobs meanwhile)."""
        async def wait() -> None:
            while text not in self.text:
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), timeout)


class Cell:
    def __init__(self, result, out: Sink, err: Sink) -> None:
        self.result, self.out, self.err = result, out, err

    @property
    def status(self) -> int:
        return self.result.status


class Notebook:
    """One sandbox, cells run one after another (each with its own sinks and token)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.sandbox = Sandbox(limits)
        self.kept: list[int] = []  # holds taken on each cell's streams (Streams.keep), released or not

    @property
    def engine(self):
        return self.sandbox.engine("sh")

    async def run(self, code: str, interrupt_after: float | None = None, limits: Limits | None = None,
                  cancel: CancelToken | None = None) -> Cell:
        out, err = Sink(), Sink()
        token = cancel or CancelToken()
        if interrupt_after is not None:
            asyncio.get_running_loop().call_later(interrupt_after, token.set, "interrupt")
        slot = len(self.kept)
        self.kept.append(0)

        def keep():
            self.kept[slot] += 1
            return lambda: self.kept.__setitem__(slot, self.kept[slot] - 1)
        result = await self.sandbox.run("sh", code, Streams(out, err, token, keep=keep), limits)
        return Cell(result, out, err)

    def running(self) -> list:
        """The notebook shell's jobs still running."""
        table = self.engine.shell.jobtable
        return [j for j in table.jobs.values() if not j.done()] if table is not None else []

    async def close(self) -> None:
        await self.sandbox.shutdown()


def notebook(test):
    """Run ``test(nb)`` (a coroutine) on a fresh notebook, closed afterwards."""
    async def main():
        nb = Notebook()
        try:
            return await test(nb)
        finally:
            await nb.close()
    return asyncio.run(main())


# ---------------------------------------------------------------------------- the cell ends
def test_a_cell_ends_with_its_foreground_and_its_job_goes_on():
    async def test(nb):
        first = await nb.run(f"{WAITS_FOR_GO} & echo started")
        assert (first.status, first.out.text, first.err.text) == (0, "started\n", "")
        assert [j.text for j in nb.running()] == [WAITS_FOR_GO]  # still running: the cell replied first
        assert nb.kept == [1]  # the job holds the cell's output open
        second = await nb.run("touch go; echo second")
        await first.out.until("late\n")
        await first.err.until("oops\n")
        # the job's output went to the cell that started it, not to the one running
        assert (first.out.text, first.err.text) == ("started\nlate\n", "oops\n")
        assert second.out.text == "second\n"
        await asyncio.sleep(0)
        assert nb.running() == [] and nb.kept == [0, 0]  # the job ended and let go of the cell's output
    notebook(test)


def test_the_status_of_a_cell_is_its_last_foreground_commands():
    async def test(nb):
        cell = await nb.run("false & true")
        assert cell.status == 0
        cell = await nb.run("true & false")
        assert cell.status == 1 and cell.result.error.ename == "ExitStatus"
    notebook(test)


def test_ended_jobs_are_reported_before_the_next_prompt_as_bash_does():
    """At the end of the cell in which they ended, or of the next cell (bash prints them before
    its next prompt, after the output of the command then running)."""
    async def test(nb):
        cell = await nb.run("sleep 0.01 & (exit 3) & wait; echo waited")
        assert cell.out.text == "waited\n"
        assert cell.err.text == "[1]-  Done                    sleep 0.01\n[2]+  Exit 3                  ( exit 3 )\n"
        first = await nb.run(f"{WAITS_FOR_GO} &")
        await nb.run("touch go")
        await first.out.until("late\n")
        cell = await nb.run("echo next")
        assert (cell.out.text, cell.err.text) == ("next\n", f"[1]+  Done                    {WAITS_FOR_GO}\n")
        cell = await nb.run("jobs; echo again")
        assert (cell.out.text, cell.err.text) == ("again\n", "")  # said once
    notebook(test)


# ---------------------------------------------------------------------------- later cells
def test_jobs_lists_them_and_dollar_bang_survives():
    async def test(nb):
        await nb.run("sleep 30 & sleep 31 &")
        pid = nb.engine.shell.last_bg_pid
        cell = await nb.run("jobs; jobs -l; jobs -p %1; echo $!")
        assert cell.out.text == (
            "[1]-  Running                 sleep 30 &\n"
            "[2]+  Running                 sleep 31 &\n"
            f"[1]- {pid - 1} Running                 sleep 30 &\n"
            f"[2]+ {pid} Running                 sleep 31 &\n"
            f"{pid - 1}\n{pid}\n")
    notebook(test)


def test_wait_in_a_later_cell_waits_and_gives_the_status():
    async def test(nb):
        first = await nb.run(f"{{ {WAITS_FOR_GO}; exit 4; }} &")
        cell = await nb.run("touch go; wait %1; echo status $?")
        assert cell.out.text == "status 4\n" and first.out.text == "late\n"
        cell = await nb.run("wait $!; echo again $?")  # a waited job keeps its status
        assert cell.out.text == "again 4\n"
    notebook(test)


def test_kill_a_job_of_an_earlier_cell_by_jobspec_or_pid():
    async def test(nb):
        await nb.run("sleep 30 & sleep 31 &")
        cell = await nb.run("kill %1; kill $!; wait; echo killed")
        assert cell.out.text == "killed\n"
        assert cell.err.text == "[1]-  Terminated              sleep 30\n[2]+  Terminated              sleep 31\n"
        assert nb.running() == [] and nb.engine.rt.live_jobs == 0
        cell = await nb.run("kill %1")
        assert (cell.status, cell.err.text) == (1, "bash: line 1: kill: %1: no such job\n")
    notebook(test)


def test_fg_brings_the_job_and_its_output_to_the_current_cell():
    async def test(nb):
        first = await nb.run(f"{WAITS_FOR_GO} &")
        cell = await nb.run("touch go; fg %1; echo status $?")
        assert cell.out.text == f"{WAITS_FOR_GO}\nlate\nstatus 0\n" and cell.err.text == "oops\n"
        assert first.out.text == "" and first.err.text == ""
        cell = await nb.run("jobs; fg")  # no notice for a job that ended in the foreground
        assert (cell.status, cell.out.text, cell.err.text) == (1, "", "bash: line 1: fg: current: no such job\n")
    notebook(test)


def test_interrupting_a_later_cell_leaves_the_job_running():
    async def test(nb):
        first = await nb.run(f"{WAITS_FOR_GO} &")
        for code in ("wait", "wait %1", "wait -n", "sleep 30"):
            cell = await nb.run(code, interrupt_after=0.2)
            assert (cell.status, cell.result.error.ename) == (130, "Interrupted"), code
            assert len(nb.running()) == 1, code
        await nb.run("touch go")
        await first.out.until("late\n")
    notebook(test)


def test_interrupting_fg_ends_the_job_as_ctrl_c_does():
    async def test(nb):
        await nb.run("sleep 30 &")
        cell = await nb.run("fg", interrupt_after=0.2)
        assert (cell.status, cell.out.text) == (130, "sleep 30\n")
        assert nb.running() == []
        cell = await nb.run("jobs; wait $!; echo $?")
        assert (cell.out.text, cell.err.text) == (f"{128 + signal.SIGINT}\n", "")
    notebook(test)


def test_interrupting_the_cell_that_started_a_job_leaves_the_job_running():
    """Ctrl-C in a terminal stops the foreground only."""
    async def test(nb):
        cell = await nb.run("sleep 30 & sleep 30", interrupt_after=0.2)
        assert cell.status == 130 and [j.text for j in nb.running()] == ["sleep 30"]
    notebook(test)


def test_disown_and_bg():
    async def test(nb):
        await nb.run("sleep 30 &")
        cell = await nb.run("bg; disown; jobs; echo $?")
        assert (cell.out.text, cell.err.text) == ("0\n", "bash: line 1: bg: job 1 already in background\n")
        assert nb.engine.rt.live_jobs == 1  # a disowned job goes on (within its limits)
    notebook(test)


def test_jobs_of_subshells_are_not_the_notebooks():
    async def test(nb):
        cell = await nb.run("( sleep 30 & ); x=$(sleep 31 &); jobs; wait; echo waited")
        assert (cell.out.text, cell.err.text) == ("waited\n", "")
        assert nb.engine.rt.live_jobs == 2  # they still run, bounded, and end with the kernel
    notebook(test)


# ---------------------------------------------------------------------------- limits
def test_a_job_keeps_the_wall_time_of_the_cell_that_started_it():
    async def test(nb):
        await nb.run("sleep 0 & wait")  # what the cell runs is loaded: the short wall time is the job's
        short = nb.sandbox.limits.replace(wall_time=1)
        first = await nb.run("sleep 30 & echo started", limits=short)
        assert first.status == 0
        # a later cell with more time: the job still ends at its own cell's deadline
        await first.err.until("\n")
        assert first.err.text == ("bash: job [1] (sleep 30): wall time limit exceeded (1 s; limit wall_time; "
                                  "raise it with %limits wall_time=2)\n")
        cell = await nb.run("wait %1; echo $?")
        assert (cell.out.text, cell.err.text) == ("124\n", "[1]+  Exit 124                sleep 30\n")
    notebook(test)


def test_a_job_keeps_the_limits_it_started_with():
    """%limits changes the notebook's Limits in place: a job's are a copy."""
    async def test(nb):
        limits = nb.sandbox.limits
        limits.commands = 2000
        first = await nb.run(f"{{ {WAITS_FOR_GO}; while :; do :; done; }} &", limits=limits)
        limits.commands = 10**9
        await nb.run("touch go", limits=limits)
        await first.err.until("limit commands")
        assert "too many commands: 2000 executed" in first.err.text
    notebook(test)


def test_a_cell_that_fails_on_a_limit_ends_its_own_jobs_only():
    async def test(nb):
        await nb.run("sleep 30 &")
        cell = await nb.run("sleep 31 & sleep 32 & while :; do :; done", limits=Limits(commands=1000))
        assert cell.result.error.ename == "LimitExceeded"
        assert [j.text for j in nb.running()] == ["sleep 30"]
        cell = await nb.run("jobs")
        assert cell.out.text == "[1]+  Running                 sleep 30 &\n"
    notebook(test)


def test_the_live_jobs_cap_counts_every_cells_jobs():
    async def test(nb):
        cell = await nb.run("for ((i = 0; i < 999; i++)); do sleep 30 & done")
        assert cell.status == 0
        cell = await nb.run("sleep 31 & sleep 32 &")
        assert cell.err.text == "bash: fork: 1000 background jobs already running (limit commands)\n"
        assert len(nb.running()) == 999
    notebook(test)


def test_a_jobs_memory_net_is_its_own_run_of_the_budget():
    async def test(nb):
        budget = nb.sandbox.memory_budget
        await nb.run(f"{WAITS_FOR_GO} &")
        assert len(budget.runs) == 1  # the job's; the cell's left with the cell
        await nb.run("touch go; wait")
        assert budget.runs == []
    notebook(test)


# ---------------------------------------------------------------------------- the end
def test_shutdown_ends_every_job_and_lets_go_of_the_cells_output():
    async def main():
        nb = Notebook()
        await nb.run("sleep 30 & ( sleep 31 & ) ; :(){ sleep 32 & }; : &")
        rt = nb.engine.rt
        tasks = [t for g in rt.live_groups for t in g.tasks]
        assert rt.live_jobs >= 3 and nb.kept == [3]
        await nb.close()
        await asyncio.sleep(0)
        return rt, tasks, nb
    rt, tasks, nb = asyncio.run(main())
    assert all(t.done() for t in tasks) and rt.live_jobs == 0 and not rt.live_groups and not rt.processes
    assert nb.kept == [0] and nb.sandbox.memory_budget.runs == []


def test_a_script_still_ends_when_its_jobs_ended():
    """bash -c does not wait for its jobs, but their output still reaches whoever reads the
    script's output; the CLI's run (in-process) waits for them so that it is all there."""
    out, err, status = run_script("{ sleep 0.05; echo late; } & ( { sleep 0.05; echo orphan; } & ); echo early; "
                                  "(exit 3)")
    assert (out.split(b"\n", 1)[0], sorted(out.split()[1:]), err, status) == (b"early", [b"late", b"orphan"], b"", 3)
    out, err, status = run_script("sleep 0.2 & sleep 0.01; jobs; echo --; true & wait; jobs")
    assert (out, err) == (b"[1]+  Running                 sleep 0.2 &\n--\n", b"")


def test_a_run_view_has_every_attribute_of_the_runtime():
    """A run's view forwards what it does not own (SHARED_FIELDS): nothing of the Runtime is
    missing from it, whatever is added to the Runtime later."""
    from sandbox_kernel.shell.eval.runs import RunView

    rt = Sandbox().engine("sh").rt
    view = RunView(rt, Limits(), CancelToken(), 0.0)
    # private attributes are the Runtime's own (``_random`` is what its ``random`` property,
    # shared, makes on first use)
    names = {n for n in vars(rt) if not n.startswith("_")} | {n for n in dir(type(rt)) if not n.startswith("_")}
    assert sorted(n for n in names if not hasattr(view, n)) == []
    view.live_jobs += 1
    assert rt.live_jobs == 1 and view.new_pid() == rt.next_pid


def test_every_cells_output_is_let_go_once_its_jobs_ended():
    """``Streams.keep``: the cell that started a job and the one that brought it back with `fg`
    (also a job ended already) are kept open until the job ended, then let go."""
    async def test(nb):
        await nb.run(f"{WAITS_FOR_GO} & sleep 30 &")
        assert nb.kept == [2]
        await nb.run("touch go; fg %1")
        await nb.run("fg %2", interrupt_after=0.2)
        await nb.run("sleep 0.01 & sleep 0.1; fg")
        for group in list(nb.engine.rt.live_groups):  # the interrupted one ending
            await asyncio.wait_for(group.wait(), 60)
        assert nb.kept == [0, 0, 0, 0] and nb.running() == []
    notebook(test)
