"""What one run owns of the shell's runtime, and background jobs that outlive their run.

The notebook's shell keeps its state across cells in one ``Runtime`` (the files, pids, the
memory pool of its variables, every live job). What belongs to one run (a cell, a terminal
line, a CLI script) is a ``RunView`` over it: its limits, cancel token, deadline, command
count, output streams. The engine makes one per run; the shell's other attributes pass
through to the Runtime.

``cmd &`` started by a run gets a ``JobGroup``: a view of its own, shared by the job and the
jobs it starts in turn (its forks share it as they share any view). Its cancel token is its
own (the interrupt of a later cell, which sets that cell's token, does not reach it); its
limits are a copy of the starting run's (a later ``%limits`` changes nothing) and its
deadline is that run's (a job keeps the wall time of the cell that started it); it counts
its own commands and has its own memory net in the sandbox's one memory budget. Its output
goes to the starting run's streams, held open until the group ends (``Streams.keep``), or,
once ``fg`` brought it to the foreground, to that run's. When a job of the group hits a limit
the whole group ends, with one message on its stderr.

Each shell has its own ``JobTable`` (what ``jobs``, ``wait``, ``fg``, ``%N`` and ``$!`` see):
the notebook's shell keeps its table across cells; a subshell, a pipeline stage or a job
starts with an empty one, as a forked bash does.
"""
from __future__ import annotations

import time

from ...engine import CancelToken
from ...lazy import TYPE_CHECKING, lazy_import
from ...memory import RunMemory
from ..builtins.jobs import signal_description

if TYPE_CHECKING:
    from typing import Any
    from asyncio import Event, Task
    from random import Random
    from weakref import WeakValueDictionary

    from ...commands._lib.bounded import Bounds
    from ...engine import Streams
    from ...limits import Limits
    from ...vfs import VFS
    from .interp import Runtime, Shell
    from .variables import MemoryPool

asyncio = lazy_import("asyncio")  # jobs are tasks: a JobGroup is made with the loop (aio.py)

#: background jobs that may run at once, across all cells (what stops a fork bomb quickly)
MAX_LIVE_JOBS = 1000
#: exit statuses of finished jobs kept for a later `wait PID` (bash keeps its CHILD_MAX)
MAX_REMEMBERED_STATUSES = 4096
#: the longest command text a job's limit message quotes
MAX_TEXT_SHOWN = 60
#: why a group ended (its token's reason) -> its jobs' status
STOP_STATUS = {"timeout": 124, "memory": 1, "limit": 1, "ended": 1, "shutdown": 143}


#: the Runtime's attributes every run shares (a view reads and writes them on ``base``)
SHARED_FIELDS = ("next_pid", "processes", "procs", "live_groups", "random", "start_time", "start_time_epoch",
                 "procsub_counter", "live_jobs", "memory", "new_pid", "job_ended")


class RunView:
    """One run's part of a ``Runtime``; its SHARED_FIELDS are the Runtime's (properties: no
    ``__getattr__``, which would keep CPython from specialising the hot attribute reads)."""

    __slots__ = ("base", "fs", "sandbox", "limits", "cancel", "deadline", "commands", "last_yield",
                 "yield_interval", "expansion_bytes", "regex_bounds", "limit_error", "streams", "display",
                 "host", "group", "groups", "running", "std_fds")

    if TYPE_CHECKING:  # the Runtime's (SHARED_FIELDS, made properties below)
        next_pid: int
        processes: dict[int, Job]
        procs: WeakValueDictionary[int, Shell]
        live_groups: set[JobGroup]
        random: Random
        start_time: float
        start_time_epoch: int
        procsub_counter: int
        live_jobs: int
        memory: MemoryPool

        def new_pid(self) -> int: ...

        def job_ended(self, job: Job) -> None: ...

    def __init__(self, base: Runtime, limits: Limits, cancel: CancelToken | None, deadline: float,
                 streams: Streams | None = None, host: Any = None) -> None:
        self.base = base
        self.fs: VFS = base.fs
        self.sandbox: Any = base.sandbox
        self.limits = limits
        self.cancel = cancel
        self.deadline = deadline
        self.commands = 0
        self.last_yield = time.monotonic()
        self.yield_interval = base.yield_interval
        self.expansion_bytes = 0
        self.regex_bounds: Bounds | None = None
        #: a limit hit where it could not be raised (reported when the run ends)
        self.limit_error: str | None = None
        #: the engine's Streams of the run (None outside an engine's run)
        self.streams = streams
        #: where `display` sends rich output (the run's Streams.display)
        self.display: Any = getattr(streams, "display", None)
        #: the engine (messages of a job's limits: ``job_limit_text``), or None
        self.host = host
        #: the JobGroup this view is (None: a run)
        self.group: JobGroup | None = None
        #: the job groups this run started that are still going
        self.groups: list[JobGroup] = []
        #: the run has not returned yet
        self.running = True
        #: the run's own stdout and stderr (OutputStreams at fds 1 and 2 when it started)
        self.std_fds: tuple = ()



def _shared(name: str) -> property:
    def get(self):
        return getattr(self.base, name)

    def set_(self, value) -> None:
        setattr(self.base, name, value)
    return property(get, set_, doc=f"the Runtime's {name}")


for _name in SHARED_FIELDS:
    setattr(RunView, _name, _shared(_name))

class JobSink:
    """A job group's stdout or stderr: the sink of the run that started it, until ``fg`` moves
    the group to another run's (``target``)."""

    __slots__ = ("target",)

    def __init__(self, target) -> None:
        self.target = target

    def write(self, data: bytes) -> None:
        self.target.write(data)

    @property
    def screen(self):
        return getattr(self.target, "screen", None)


class JobGroup(RunView):
    """A background job started by a run, with the jobs it starts: see the module's docstring."""

    __slots__ = ("origin", "number", "text", "tasks", "sinks", "timer", "release", "finished", "said")
    cancel: CancelToken  # (its own: never None)

    def __init__(self, origin, number: int, text: str) -> None:
        cancel = CancelToken()
        super().__init__(origin.base, origin.limits.replace(), cancel, origin.deadline, None, origin.host)
        self.display = origin.display
        self.group = self
        self.origin = origin
        #: the job's number and command text in the table of the shell that started it
        self.number = number
        self.text = text
        self.tasks: set[Task] = set()
        streams = origin.streams
        self.sinks = (JobSink(streams.stdout), JobSink(streams.stderr)) if streams is not None else ()
        #: let go of the output streams the group writes to (the kernel then closes them)
        self.release: list = []
        self._keep(streams)
        budget = getattr(self.sandbox, "memory_budget", None)
        if budget is not None:  # the memory safety net: the group is a run of the budget
            cancel.memory = RunMemory(self.limits, self.fs, budget, cancel)
        self.timer = None
        delay = self.deadline - time.monotonic()
        if delay < float("inf"):
            self.timer = asyncio.get_running_loop().call_later(max(delay, 0.0), cancel.set, "timeout")
        cancel.on_cancel(self._stopped)
        self.finished: Event | None = None
        self.said = False
        origin.groups.append(self)
        self.base.live_groups.add(self)

    # ------------------------------------------------------------------ tasks
    def add(self, task: Task) -> None:
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: Task) -> None:
        self.tasks.discard(task)
        if not self.tasks:
            self.close()

    def close(self) -> None:
        """The group's last job ended: it lets go of the streams, the timer and the memory net."""
        if self not in self.base.live_groups:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        net = self.cancel.memory
        if net is not None:
            net.end()
            self.cancel.memory = None
        releases, self.release = self.release, []
        for release in releases:
            release()
        self.base.live_groups.discard(self)
        if self in self.origin.groups:
            self.origin.groups.remove(self)
        if self.finished is not None:
            self.finished.set()

    async def wait(self) -> None:
        """Until every job of the group ended."""
        if self.tasks:
            if self.finished is None:
                self.finished = asyncio.Event()
            await self.finished.wait()

    def stop(self, reason: str) -> None:
        """End every job of the group (``reason``: the token's, see STOP_STATUS)."""
        self.cancel.set(reason)
        try:
            current = asyncio.current_task()
        except RuntimeError:  # no loop running (shutdown)
            current = None
        for task in list(self.tasks):
            if task is not current:
                task.cancel()

    def fail(self, message: str, limit: str) -> None:
        """One of the group's jobs hit a limit: the group ends, saying so once."""
        if self.cancel.reason is None:
            self.limit_error = message
            self.say(self._text(message, limit))
        self.stop("limit")

    def _stopped(self, reason: str) -> None:
        """The token was set: the wall time or the memory net ends the group, saying so (the
        wall time of a run still going is the run's: it says so itself and ends its groups)."""
        if reason == "memory" or reason == "timeout" and not self.origin.running:
            if reason == "timeout":
                text = self._text("", "wall_time")
            else:
                net = self.cancel.memory
                text = self._text(net.message() if net is not None else "memory limit exceeded", "memory_bytes")
            self.say(text)
            self.stop(reason)

    def _text(self, message: str, limit: str) -> str:
        host = self.host
        if host is not None:
            return host.job_limit_text(message, limit, self.limits)
        return message or "wall time limit exceeded"

    def say(self, text: str) -> None:
        """A message on the group's stderr: ``bash: job [N] (TEXT): text``."""
        if self.said or not self.sinks:
            return
        self.said = True
        shown = self.text if len(self.text) <= MAX_TEXT_SHOWN else self.text[:MAX_TEXT_SHOWN - 3] + "..."
        self.sinks[1].write(f"bash: job [{self.number}] ({shown}): {text}\n".encode("utf-8", "surrogateescape"))

    def _keep(self, streams) -> None:
        keep = getattr(streams, "keep", None)
        if keep is not None:
            self.release.append(keep())

    def foreground(self, view) -> None:
        """``fg``: the group's output and rich output go to ``view``'s run from now on."""
        streams = view.streams
        if streams is not None and self.sinks and self in self.base.live_groups:
            self.sinks[0].target = streams.stdout
            self.sinks[1].target = streams.stderr
            self.display = view.display
            self._keep(streams)

    def status_on_stop(self) -> int:
        """The status of a job the group's end cut short."""
        return STOP_STATUS.get(self.cancel.reason or "", 130)


class Job:
    """One background job in a shell's table."""

    __slots__ = ("pid", "number", "text", "task", "group", "killed", "waited")

    def __init__(self, pid: int, number: int, text: str, task: Task, group: JobGroup | None) -> None:
        self.pid = pid
        self.number = number
        #: the command as `jobs` shows it
        self.text = text
        self.task = task
        #: the group it leads (the job a run started), None for one started inside a job
        self.group = group
        #: 128+N once `kill` sent it signal N
        self.killed: int | None = None
        #: `wait` collected its status (it stays listed until reported, in an interactive shell)
        self.waited = False

    def done(self) -> bool:
        return self.task.done()

    def status(self) -> int:
        """The exit status of an ended job (128+N when killed by signal N)."""
        if self.killed is not None:
            return self.killed
        task = self.task
        if task.cancelled():
            return 130
        return task.result()

    def kill(self, signum: int) -> None:
        """Signal ``signum`` (one that ends a process): the job ends, with the jobs it started."""
        if self.task.done():
            return
        self.killed = 128 + signum
        self.task.cancel()
        if self.group is not None:
            self.group.stop("killed")

    def state(self) -> str:
        """``Running``, ``Done``, ``Exit N`` or the signal's description, as `jobs` shows it."""
        if not self.task.done():
            return "Running"
        status = self.status()
        if status == 0:
            return "Done"
        if self.killed is not None:
            return signal_description(self.killed - 128)
        return f"Exit {status}"

    def line(self, mark: str, pid: bool = False) -> str:
        """The job's line in `jobs` and in the notices: ``[1]+  Running   sleep 5 &``."""
        running = not self.task.done()
        text = self.text + (" &" if running else "")
        if pid:
            return f"[{self.number}]{mark} {self.pid} {self.state():<24}{text}"
        return f"[{self.number}]{mark}  {self.state():<24}{text}"


class JobTable:
    """A shell's background jobs (``jobs``, ``%N``), and the statuses of ended ones."""

    __slots__ = ("jobs", "statuses", "top")

    def __init__(self) -> None:
        #: pid -> job, oldest first: the last is the current job (%+), the one before %-
        self.jobs: dict[int, Job] = {}
        self.statuses: dict[int, int] = {}
        #: the highest job number in the table (bash numbers a new job one above it)
        self.top = 0

    def next_number(self) -> int:
        return self.top + 1

    def add(self, job: Job) -> None:
        if len(self.jobs) >= MAX_REMEMBERED_STATUSES:
            self.prune()  # a loop of short jobs nobody waits for keeps bounded memory
        self.jobs[job.pid] = job
        self.top = max(self.top, job.number)
        self.statuses.pop(job.pid, None)

    def remove(self, job: Job) -> None:
        """Out of the table; an ended job's status stays for ``wait PID``."""
        if self.jobs.get(job.pid) is job:
            del self.jobs[job.pid]
            if job.number == self.top:
                self.top = max((j.number for j in self.jobs.values()), default=0)
        if job.done():
            self.remember(job.pid, job.status())
        else:  # killed, ending
            job.task.add_done_callback(lambda _task: self.remember(job.pid, job.status()))

    def remember(self, pid: int, status: int) -> None:
        self.statuses[pid] = status
        if len(self.statuses) > MAX_REMEMBERED_STATUSES:
            del self.statuses[next(iter(self.statuses))]

    def prune(self) -> None:
        """Ended jobs leave the table (a script's shell reaps them as they end)."""
        for job in [j for j in self.jobs.values() if j.done()]:
            self.remove(job)

    def mark(self, job: Job) -> str:
        """``+`` for the current job (the newest), ``-`` for the one before, else a space."""
        newest = reversed(self.jobs)
        if next(newest, None) == job.pid:
            return "+"
        if next(newest, None) == job.pid:
            return "-"
        return " "

    def find(self, spec: str) -> tuple[Job | None, str]:
        """The job ``%N``, ``%+``/``%%``/``%``, ``%-``, ``%STRING`` (its command starts so),
        ``%?STRING`` (contains it) or a pid names; else None and bash's reason
        ("no such job", "ambiguous job spec")."""
        jobs = list(self.jobs.values())
        if not spec.startswith("%"):
            job = self.jobs.get(int(spec)) if spec.isdigit() and spec.isascii() else None
            return job, "no such job"
        rest = spec[1:]
        if rest in ("", "%", "+"):
            return (jobs[-1] if jobs else None), "no such job"
        if rest == "-":
            return (jobs[-2] if len(jobs) > 1 else jobs[-1] if jobs else None), "no such job"
        if rest.isdigit() and rest.isascii():
            number = int(rest)
            return next((j for j in jobs if j.number == number), None), "no such job"
        if rest.startswith("?"):
            found = [j for j in jobs if rest[1:] in j.text]
        else:
            found = [j for j in jobs if j.text.startswith(rest)]
        if len(found) > 1:
            return None, "ambiguous job spec"
        return (found[0] if found else None), "no such job"

    def finished_report(self) -> str:
        """The notices of ended jobs, which leave the table (an interactive shell says them
        before its next prompt: ``[1]+  Done                    sleep 5``)."""
        lines = []
        for job in [j for j in self.jobs.values() if j.done()]:
            lines.append(job.line(self.mark(job)) + "\n")
        for job in [j for j in self.jobs.values() if j.done()]:
            self.remove(job)
        return "".join(lines)
