"""Pipelines and background jobs: the parts of a run that go on concurrently.

Functions over the shell: ``run_pipeline`` and ``run_stages`` run ``a | b | c`` (each stage in
a fork, or in the shell itself when it cannot change state), ``start_background`` starts
``cmd &`` as a job of the shell's table, ``wait_job``/``wait_all_jobs`` wait for them (the
builtins reach those through the shell: ``ShellAPI``). They use of the shell its forks
(``fork``, ``run_as_child``, ``run_exit_trap``), its job table and ``Runtime``, its options and
traps, and its error output.
"""
from __future__ import annotations

import resource
import time

from ... import aio
from ...commands import registry
from ...commands.registry import CommandCancelled
from ...lazy import TYPE_CHECKING, lazy_import
from ...streams import EmptyInput, OutputTooLarge, Pipe, SinkOutput
from ..builtins import BUILTINS
from ..builtins.jobs import QUIET_SIGNALS, signal_description
from ..state import (AbortCommand, BreakLoop, ContinueLoop, ControlFlow, ExitShell, LimitExceeded, ReturnFromFunction,
                     ShellError, WaitInterrupted)
from ..syntax.ast import Pipeline, SimpleCommand, Subshell
from ..syntax.printer import format_command
from .fastpath import raise_later, stage_names, start
from .runs import MAX_LIVE_JOBS, Job, JobGroup

if TYPE_CHECKING:
    from asyncio import Task

    from .interp import Shell

asyncio = lazy_import("asyncio")  # with the loop (aio.py)

#: builtins a pipeline stage may run in the shell itself (they only write output)
STATELESS_BUILTINS = frozenset({"echo", "true", "false", ":", "test", "[", "pwd", "type", "help"})


async def run_pipeline(sh: Shell, node: Pipeline, fds: dict) -> int:
    commands = node.commands
    if len(commands) > 1 and not node.timed and not sh.traps.get("DEBUG"):
        sh.lineno = node.line
        return await run_stages(sh, node, fds)
    start = time.monotonic() if node.timed else 0.0
    cpu_start = resource.getrusage(resource.RUSAGE_SELF) if node.timed else None
    # `!` keeps errexit (and ERR) from its commands only when errexit is on already
    suppress = node.negate and sh.options["errexit"]
    if suppress:
        sh.errexit_suppress += 1
    try:
        if len(commands) == 1:
            statuses = [await sh.run_node(commands[0], fds)]
        else:
            sh.lineno = node.line
            statuses = await _run_stages(sh, node, fds)
    finally:
        if suppress:
            sh.errexit_suppress -= 1
    if cpu_start is not None:
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        await _report_time(sh, node, fds, time.monotonic() - start, cpu.ru_utime - cpu_start.ru_utime,
                                cpu.ru_stime - cpu_start.ru_stime)
    return _pipeline_status(sh, node, statuses)


async def run_stages(sh: Shell, node: Pipeline, fds: dict, names: tuple | None = None) -> int:
    """A pipeline of two or more stages, not timed, without a DEBUG trap to run (what the
    compiled runner starts: one coroutine; ``names``: its ``stage_names``)."""
    suppress = node.negate and sh.options["errexit"]
    if suppress:
        sh.errexit_suppress += 1
    try:
        statuses = await _start_stages(sh, node, fds, names)
    finally:
        if suppress:
            sh.errexit_suppress -= 1
    return _pipeline_status(sh, node, statuses)


def _pipeline_status(sh: Shell, node: Pipeline, statuses: list[int]) -> int:
    """The pipeline's status (the last stage's; with pipefail the last failure's; ``!``
    inverts it); PIPESTATUS is every stage's."""
    status = statuses[-1]
    if len(statuses) > 1 and sh.options["pipefail"]:
        for s in reversed(statuses):
            if s:
                status = s
                break
    sh.pipestatus = statuses
    if node.negate:
        sh.errexit_exempt = True
        return 0 if status else 1
    return status


async def _report_time(sh: Shell, node: Pipeline, fds: dict, real: float, user: float, system: float) -> None:
    """The ``time`` keyword's report on stderr, in TIMEFORMAT's format (CPU times are the
    sandbox process's while the pipeline ran)."""
    fmt = POSIX_TIMEFORMAT if node.posix_time else sh.get_scalar("TIMEFORMAT")
    if fmt is None:
        fmt = DEFAULT_TIMEFORMAT
    if not fmt:
        return
    try:
        text = format_times(fmt, real, user, system)
    except ValueError as e:
        await sh.report(fds, f"TIMEFORMAT: `{e}': invalid format character")
        return
    await sh.err(fds, text + "\n")


async def _run_stages(sh: Shell, node: Pipeline, fds: dict) -> list[int]:
    debug = sh.traps.get("DEBUG")
    if not debug:
        return await _start_stages(sh, node, fds)
    # bash runs the DEBUG trap in the shell for each simple-command stage, before any runs;
    # the stages themselves (subshells) run without it
    for cmd in node.commands:
        if type(cmd) is SimpleCommand:
            await sh.debug_trap(cmd.line)
    del sh.traps["DEBUG"]
    sh.sync_debug_trap()
    try:
        return await _start_stages(sh, node, fds)
    finally:
        sh.traps.setdefault("DEBUG", debug)
        sh.sync_debug_trap()


async def _start_stages(sh: Shell, node: Pipeline, fds: dict, names: tuple | None = None) -> list[int]:
    await aio.need_loop()  # stages may be tasks
    commands = node.commands
    n = len(commands)
    if names is None:
        names = stage_names(node)
    pipes = [Pipe()] if n == 2 else [Pipe() for _ in range(n - 1)]
    tasks: list[Task[int]] = []
    statuses: list[int] = []
    lastpipe = sh.shopts["lastpipe"] and not sh.options["monitor"]
    last_arg = sh.last_arg
    # stages running in the shell itself remember no lookups (see Shell.stages_in_shell)
    in_shell = 0 if lastpipe else 1
    sh.stages_in_shell += in_shell
    try:
        for i, cmd in enumerate(commands):
            stage_fds = dict(fds)
            reader = pipes[i - 1].reader if i > 0 else None
            writer = pipes[i].writer if i < n - 1 else None
            if reader is not None:
                stage_fds[0] = reader
            if writer is not None:
                stage_fds[1] = writer
                if node.stderr_pipes[i]:
                    stage_fds[2] = writer
            if lastpipe:
                # only the last stage may set $_ (the others would, running in the shell)
                shell = sh if i == n - 1 else sh.fork()
            else:
                shell = sh if runs_in_shell(sh, names[i]) else sh.fork()
            if shell is not sh:
                if type(cmd) is SimpleCommand:
                    shell.parent_jobs = sh.jobtable or sh.parent_jobs  # bash: `jobs -p | ...`
                else:
                    shell.loop_depth = 0  # like ( ): a compound stage is outside the enclosing loops
            if not tasks:
                if i == n - 1:
                    # every stage before it is done: the last one runs here, no task needed
                    if shell is sh:
                        status = _stage_now(sh, cmd, stage_fds, reader, writer)
                        statuses.append(status if type(status) is int else await status)
                    else:
                        statuses.append(await _run_stage(sh, shell, cmd, stage_fds, reader, writer, True))
                    break
                if shell is sh:
                    # a stage in the shell that finishes at once (echo into an empty pipe)
                    # needs no task either; one that must wait goes on in its task
                    started = _stage_now(sh, cmd, stage_fds, reader, writer)
                    if type(started) is int:
                        statuses.append(started)
                        continue
                    tasks.append(asyncio.ensure_future(started))
                    continue
            tasks.append(asyncio.ensure_future(_run_stage(sh, shell, cmd, stage_fds, reader, writer, i == n - 1)))
        if tasks:
            statuses.extend(await asyncio.gather(*tasks))
        if not lastpipe:
            sh.last_arg = last_arg
        return statuses
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    finally:
        sh.stages_in_shell -= in_shell


def _stage_now(sh: Shell, cmd, fds: dict, reader, writer):
    """Start a stage that runs in the shell itself: its status when it finished without
    waiting (its pipe ends closed), else the awaitable that finishes it."""
    try:
        status = start(sh, cmd, fds)
    except (ExitShell, AbortCommand, ReturnFromFunction) as e:
        status = e.status
    except (BreakLoop, ContinueLoop):
        status = 0
    except BrokenPipeError:
        status = 141
    except BaseException as e:
        return _finish_stage(sh, raise_later(e), fds, reader, writer)
    if type(status) is int:
        if writer is not None:
            writer.close()
        if reader is not None:
            reader.close()
        return status
    return _finish_stage(sh, status, fds, reader, writer)


async def _finish_stage(sh: Shell, pending, fds: dict, reader, writer) -> int:
    """The rest of a stage ``_stage_now`` started, as ``run_as_child`` would finish it."""
    try:
        try:
            return await sh.finish_as_child(pending, fds)
        except BrokenPipeError:
            return 141
    finally:
        if writer is not None:
            writer.close()
        if reader is not None:
            reader.close()


def runs_in_shell(sh: Shell, name: str | None) -> bool:
    """Whether a stage ``stage_names`` names runs in the shell itself, without a copy of it:
    a registered command or an output-only builtin (no function of that name)."""
    if name is None or name in sh.functions:
        return False
    return runs_anywhere(name)


def runs_anywhere(name: str) -> bool:
    """``runs_in_shell``'s part that no shell changes: an output-only builtin, or a registered
    command no builtin shadows."""
    return name in STATELESS_BUILTINS or (name not in BUILTINS and registry.lookup(name) is not None)


async def _run_stage(sh: Shell, shell: Shell, cmd, fds: dict, reader, writer, last: bool) -> int:
    if shell is not sh:
        shell.exec_position = _execs(cmd)
    try:
        try:
            status = await shell.run_as_child(cmd, fds)
        except BrokenPipeError:
            status = 141
        if shell is not sh:
            if status and last and type(cmd) is Subshell and sh.traps.get("ERR"):
                # bash runs a ( ) last stage in the stage's own process, which still has
                # the ERR trap: it fires there, and again in the shell
                shell.traps["ERR"] = sh.traps["ERR"]
                shell.last_status = status
                await shell.run_trap("ERR")
            status = await shell.run_exit_trap(fds, status)
        return status
    finally:
        if shell is not sh:
            shell.end_process()
        if writer is not None:
            writer.close()
        if reader is not None:
            reader.close()


def start_background(sh: Shell, node, fds: dict) -> int:
    """``node &``: a job in this shell's table. Started by a run's own shell (not by a
    job), it leads a JobGroup: its own cancel token and memory net, the run's limits,
    deadline and output streams (runs.py)."""
    rt = sh.rt
    base = rt.base
    if base.live_jobs >= MAX_LIVE_JOBS:
        # what stops a fork bomb quickly (bash would fail in fork())
        raise LimitExceeded(f"fork: {MAX_LIVE_JOBS} background jobs already running (limit commands)", "commands")
    table = sh.own_jobs()
    text = format_command(node)
    number = table.next_number()
    child = sh.fork()
    pid = child.pid
    bg_fds = dict(fds)
    if not sh.options["monitor"]:
        bg_fds[0] = EmptyInput()
    if not sh.options["monitor"] and not sh.interactive:
        # without job control, an asynchronous command ignores SIGINT and SIGQUIT, and
        # cannot trap them (trap -p lists SIGINT as ignored); the notebook's and a
        # terminal's jobs are an interactive shell's, which kill -INT ends
        child.traps["INT"] = ""
        if child.parent_traps is not None:
            child.parent_traps = {**child.parent_traps, "INT": ""}
        child.fixed_signals = child.fixed_signals | {"INT", "QUIT"}
    child.exec_position = _execs(node)
    group = rt.group
    leads = group is None
    if group is None:
        group = JobGroup(rt, number, text)
        child.rt = group
        if group.sinks and rt.std_fds:
            # the run's own stdout and stderr become the group's (which `fg` can move)
            moved = dict(zip(map(id, rt.std_fds), (SinkOutput(sink) for sink in group.sinks)))
            for fd_map in (bg_fds, child.fds):
                for k, stream in fd_map.items():
                    if id(stream) in moved:
                        fd_map[k] = moved[id(stream)]
    task = asyncio.ensure_future(_job(child, node, bg_fds, group))
    base.live_jobs += 1
    job = Job(pid, number, text, task, group if leads else None)

    def ended(_task: object) -> None:
        base.job_ended(job)
        if child.killed_by and job.killed is None:
            job.killed = 128 + child.killed_by  # it died of a signal it took itself
    task.add_done_callback(ended)
    group.add(task)
    table.add(job)
    base.processes[pid] = job
    sh.last_bg_pid = pid
    return pid


async def _job(child: Shell, node, fds: dict, group: JobGroup) -> int:
    """A background job's run in its forked shell: its exit status."""
    try:
        return await _job_run(child, node, fds, group)
    finally:
        child.end_process()


async def _job_run(child: Shell, node, fds: dict, group: JobGroup) -> int:
    try:
        try:
            status = await child.run_node(node, fds)
        except (ExitShell, AbortCommand) as e:
            status = e.status
        except ShellError as e:
            await child.report(fds, e.message)
            status = e.status
        except ControlFlow:
            status = 0
        if child.traps.get("EXIT") or child.pending_signals:
            # the job's shell ends: the signals it got, its EXIT trap
            status = await child.run_exit_trap(fds, status)
        return status
    except BrokenPipeError:
        return 141
    except (CommandCancelled, asyncio.CancelledError):
        return group.status_on_stop()
    except LimitExceeded as e:
        group.fail(e.message, e.limit)  # the group ends, and says why
        return 1
    except OutputTooLarge as e:  # a process substitution's output, held as a string
        group.fail(str(e), "string_bytes")
        return 1
    except RecursionError:
        group.fail("nesting too deep (Python recursion limit; limit function_depth)", "function_depth")
        return 1
    except Exception as e:  # noqa: BLE001 - an internal error ends the job, with a message
        await child.err(fds, f"bash: internal error: {type(e).__name__}: {e}\n")
        return 1


async def wait_job(sh: Shell, pid: int, fds: dict | None = None, signals: bool = False) -> int:
    """Wait for job ``pid`` of this shell: its status (128+N when ``kill`` ended it with
    signal N), interrupted by the run's cancel token. A job waited for already keeps its
    status; an unknown pid gives 127. A script's shell reports a job ended by a signal on
    ``fds``' stderr as bash does ("PID Killed  COMMAND"); an interactive one says it
    before its next prompt (``JobTable.finished_report``). With ``signals`` (the wait
    builtin), a trapped signal's arrival ends the wait (WaitInterrupted: 128+N)."""
    table = sh.own_jobs()
    job = table.jobs.get(pid)
    if job is None:
        return table.statuses.get(pid, 127)
    task = job.task
    while not task.done():
        cancel = sh.rt.cancel
        await aio.need_loop()  # a running job's task means a loop; this says so where asyncio is used
        waiter = asyncio.ensure_future(cancel.wait()) if cancel is not None else None
        waits = [task] if waiter is None else [task, waiter]
        if signals:
            waits.append(sh.signal_future())
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiter is not None:
                waiter.cancel()
        if not task.done():
            if cancel is not None and cancel.reason is not None:
                raise CommandCancelled(cancel.reason)
            await signal_interrupts_wait(sh)
    status = job.status()
    if sh.job_notices:
        job.waited = True
    else:
        killed = job.killed
        if killed is not None and killed - 128 not in QUIET_SIGNALS:
            text = f"{pid:>5} {signal_description(killed - 128):<24}{job.text}"
            await sh.report(fds or sh.fds_for_subst(), text)
        table.remove(job)
    table.remember(pid, status)
    return status


async def wait_all_jobs(sh: Shell, fds: dict | None = None, signals: bool = False) -> int:
    status = 0
    table = sh.own_jobs()
    while True:  # the jobs may start more jobs meanwhile
        pending = [j for j in table.jobs.values() if not j.waited]
        if not pending:
            return status
        for job in pending:
            if table.jobs.get(job.pid) is job and not job.waited:
                status = await wait_job(sh, job.pid, fds, signals)


async def signal_interrupts_wait(sh: Shell) -> None:
    """A signal arrived while wait waited: one the shell dies of ends it now; a trapped
    one ends the wait with 128+N, and its trap runs next (before the next command)."""
    signum = sh.first_pending_signal()
    if not signum:
        return
    if sh.signal_action(signum) is None:
        await sh.take_signals()  # raises ProcessKilled
    raise WaitInterrupted(128 + signum)


def _execs(node) -> bool:
    """Does a forked shell that runs only ``node`` become what it runs (bash's exec of a
    background or pipeline simple command, and of ``( ... ) &``)? Then a nested shell or
    subshell it starts has its pid."""
    if type(node) is Pipeline and len(node.commands) == 1 and not node.negate and not node.timed:
        node = node.commands[0]
    return type(node) is SimpleCommand or type(node) is Subshell


#: what ``time`` reports when TIMEFORMAT is unset, and with ``time -p``
DEFAULT_TIMEFORMAT = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
POSIX_TIMEFORMAT = "real %2R\nuser %2U\nsys %2S"


def format_times(fmt: str, real: float, user: float, system: float) -> str:
    """TIMEFORMAT's ``%[p][l]R|U|S``, ``%P`` and ``%%`` as bash expands them (precision p is
    0-3, default 3; l gives MmS.FFs). A ValueError names an invalid format character."""
    values = {"R": real, "U": user, "S": system}
    out: list[str] = []
    i, n = 0, len(fmt)
    while i < n:
        c = fmt[i]
        i += 1
        if c != "%":
            out.append(c)
            continue
        if i >= n:
            out.append("%")
            break
        if fmt[i] == "%":
            out.append("%")
            i += 1
            continue
        if fmt[i] == "P":
            out.append(f"{(user + system) / real * 100 if real > 0 else 0.0:.2f}")
            i += 1
            continue
        precision = 3
        if fmt[i].isdigit() and fmt[i].isascii():
            precision = min(int(fmt[i]), 3)
            i += 1
        long_form = i < n and fmt[i] == "l"
        if long_form:
            i += 1
        if i >= n or fmt[i] not in values:
            raise ValueError(fmt[i] if i < n else "\0")
        seconds = max(values[fmt[i]], 0.0)
        i += 1
        if long_form:
            minutes, rest = divmod(seconds, 60)
            out.append(f"{int(minutes)}m{rest:.{precision}f}s")
        else:
            out.append(f"{seconds:.{precision}f}")
    return "".join(out)
