"""Background jobs: wait, jobs, kill, disown, fg, bg (the job table is the shell's: eval/runs.py)."""
from __future__ import annotations


from ... import aio
from ...chars import isdigits
from ...commands.registry import CommandCancelled
from ...lazy import TYPE_CHECKING, lazy_import
from ..state import WaitInterrupted
from .output import err, out
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI
    from ..eval.runs import Job, JobTable

asyncio = lazy_import("asyncio")  # jobs are tasks: it is there when they are (aio.py)
signal = lazy_import("signal")  # strsignal and SIGINT only: its enums cost ~1 ms to make


@builtin("wait", usage="wait [-n] [id ...]", text="""
Wait for job completion and return exit status. Waits for each process identified by an ID
(a process ID or a job specification %N) and reports its termination status. Without IDs,
waits for all currently active child processes, and the return status is zero. With -n,
waits for the next job to terminate. The interrupt stops the waiting; the jobs go on. A
signal with a trap ends the wait with status 128+N, then its trap runs.""")
async def b_wait(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    try:
        return await _wait(sh, argv, fds)
    except WaitInterrupted as e:
        return e.status


async def _wait(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    next_only = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        if args[0] not in ("-n", "-f"):
            await err(sh, fds, "wait", f"{args[0]}: invalid option")
            await sh.err(fds, "wait: usage: wait [-fn] [-p var] [id ...]\n")
            return 2
        next_only = next_only or args[0] == "-n"
        args = args[1:]
    if next_only:
        return await _wait_next(sh, args, fds)
    if not args:
        await sh.wait_all_jobs(fds, True)
        return 0
    status = 0
    for a in args:
        pid = await _wait_target(sh, a, fds)
        if pid is None:
            status = 127 if a.startswith("%") or isdigits(a) else 1
            continue
        status = await sh.wait_job(pid, fds, True)
    return status


async def _wait_target(sh: ShellAPI, spec: str, fds: Fds) -> int | None:
    """The job `wait SPEC` waits for (None after reporting that there is none)."""
    table = _table(sh, own=True)
    if spec.startswith("%"):
        job, why = table.find(spec)
        if job is None:
            await err(sh, fds, "wait", f"{spec}: {why}")
            return None
        return job.pid
    if not isdigits(spec):
        await err(sh, fds, "wait", f"`{spec}': not a pid or valid job spec")
        return None
    pid = int(spec)
    if pid not in table.jobs and pid not in table.statuses:
        await err(sh, fds, "wait", f"pid {pid} is not a child of this shell")
        return None
    return pid


async def _wait_next(sh: ShellAPI, specs: list[str], fds: Fds) -> int:
    """wait -n: the status of the next job to end (among SPECS when given); 127 if none runs."""
    table = _table(sh, own=True)
    if specs:
        jobs = []
        for spec in specs:
            job, _why = table.find(spec)
            if job is None:
                await err(sh, fds, "wait", f"{spec}: no such job")
                continue
            jobs.append(job)
    else:
        jobs = [j for j in table.jobs.values() if not j.waited]
    tasks = {j.task: j.pid for j in jobs}
    if not tasks:
        return 127
    done = [t for t in tasks if t.done()]
    while not done:
        cancel = sh.rt.cancel
        await aio.need_loop()  # a job's task means a loop; this says so where asyncio is used
        waiter = asyncio.ensure_future(cancel.wait()) if cancel is not None else None
        try:
            finished, _ = await asyncio.wait(list(tasks) + ([waiter] if waiter is not None else [])
                                             + [sh.signal_future()], return_when=asyncio.FIRST_COMPLETED)
        finally:
            if waiter is not None:
                waiter.cancel()
        done = [t for t in tasks if t in finished]
        if not done:
            if cancel is not None and cancel.reason is not None:
                raise CommandCancelled(cancel.reason)
            await sh.signal_interrupts_wait()
    return await sh.wait_job(tasks[done[0]], fds)


def _table(sh: ShellAPI, own: bool = False) -> JobTable:
    """The shell's job table (or, unless ``own``, in a command substitution with none of its
    own, its shell's: bash's ``$(jobs -p)``); a script's shell has reaped its ended jobs (bash
    lists only running ones there), an interactive one keeps them until reported."""
    table = sh.own_jobs()
    if not own and not table.jobs and sh.parent_jobs is not None:
        return sh.parent_jobs
    if not sh.job_notices:
        table.prune()
    return table


@builtin("jobs", usage="jobs [-lnprs] [jobspec ...]",
         text="Display status of jobs started with `&' in this shell (ended ones once, then they leave the list).\n"
              "  -l  also list process IDs\n  -p  list process IDs only\n  -r  running jobs only\n"
              "  -s  stopped jobs only (there are none)")
async def b_jobs(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    flags = ""
    specs: list[str] = []
    for a in argv[1:]:
        if a.startswith("-") and len(a) > 1 and not specs:
            if a == "--":
                continue
            bad = [c for c in a[1:] if c not in "lnprs"]
            if bad:
                await err(sh, fds, "jobs", f"-{bad[0]}: invalid option")
                await sh.err(fds, "jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n")
                return 2
            flags += a[1:]
        else:
            specs.append(a)
    table = _table(sh)
    status = 0
    if specs:
        jobs = []
        for spec in specs:
            job, why = table.find(spec)
            if job is None:
                await err(sh, fds, "jobs", f"{spec}: {why}")
                status = 1
            else:
                jobs.append(job)
    else:
        jobs = list(table.jobs.values())
    if "r" in flags:
        jobs = [j for j in jobs if not j.done()]
    elif "s" in flags:
        jobs = []
    elif "n" in flags:
        jobs = [j for j in jobs if j.done()]
    if "p" in flags:
        text = "".join(f"{j.pid}\n" for j in jobs)
    else:
        text = "".join(j.line(table.mark(j), "l" in flags) + "\n" for j in jobs)
    await out(fds, text)
    if table is sh.jobtable:
        for job in jobs:  # an ended job is reported once
            if job.done():
                table.remove(job)
    return status


def _signal_table() -> dict[int, str]:
    names = ("HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT "
             "STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS").split()
    table = dict(enumerate(names, 1))
    table[34] = "RTMIN"
    for k in range(1, 16):
        table[34 + k] = f"RTMIN+{k}"
    for k in range(14, 0, -1):
        table[64 - k] = f"RTMAX-{k}"
    table[64] = "RTMAX"
    return table


#: Linux signal numbers and names (without SIG), as bash lists them
SIGNAL_NAMES = _signal_table()
SIGNALS = {name: num for num, name in SIGNAL_NAMES.items()}
#: signals whose default action is not to end the process (nothing stops here: the job
#: control signals do nothing)
HARMLESS_SIGNALS = frozenset({SIGNALS[n] for n in ("CHLD", "CONT", "URG", "WINCH", "STOP", "TSTP", "TTIN", "TTOU")})
#: the signals bash catches to run its EXIT trap before it dies of them (its "terminating
#: signals"); the others (KILL, which nobody catches, PROF, IO, the real-time ones ...) end
#: the shell without it
EXIT_TRAP_SIGNALS = frozenset({SIGNALS[n] for n in ("HUP", "INT", "ILL", "TRAP", "ABRT", "FPE", "BUS", "SEGV", "SYS",
                                                     "PIPE", "ALRM", "TERM", "XCPU", "XFSZ", "VTALRM", "USR1", "USR2")})
#: signals bash does not report when a job ends by them
QUIET_SIGNALS = frozenset({SIGNALS["INT"], SIGNALS["TERM"], SIGNALS["PIPE"]})


def signal_number(spec: str) -> int | None:
    """A signal given by number (0 ... 64) or name (any case, SIG optional); None if invalid."""
    if isdigits(spec):
        n = int(spec)
        return n if n <= 64 and (n == 0 or n in SIGNAL_NAMES) else None
    name = spec.upper()
    return SIGNALS.get(name[3:] if name.startswith("SIG") else name)


def signal_description(num: int) -> str:
    """How bash describes a job killed by signal ``num`` ("Hangup", "Killed" ...)."""
    try:
        return signal.strsignal(num) or f"Signal {num}"
    except ValueError:
        return f"Signal {num}"


KILL_USAGE = "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n"


async def _kill_list(sh: ShellAPI, fds: Fds, specs: list[str]) -> int:
    """kill -l: the table, or each number's name / name's number (128+N names N too)."""
    if not specs:
        items = [f"{n:2d}) SIG{name}" for n, name in SIGNAL_NAMES.items()]
        text = "".join(item + ("\n" if k % 5 == 4 else "\t") for k, item in enumerate(items))
        await out(fds, text if text.endswith("\n") else text + "\n")
        return 0
    status = 0
    for spec in specs:
        if isdigits(spec):
            n = int(spec)
            name = "EXIT" if n == 0 else SIGNAL_NAMES.get(n - 128 if n > 128 else n)
        else:
            n = signal_number(spec) or 0
            name = str(n) if n else None
        if name is None:
            await err(sh, fds, "kill", f"{spec}: invalid signal specification")
            status = 1
        else:
            await out(fds, name + "\n")
    return status


@builtin("kill", usage="kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
         text="Send a signal to a job. Background jobs of this shell can be terminated (they run as tasks inside "
              "the sandbox).")
async def b_kill(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    if args and args[0] in ("-l", "-L"):
        return await _kill_list(sh, fds, args[1:])
    signum = 15
    if args and args[0].startswith("-") and args[0] not in ("-", "--"):
        spec = args[0][1:]
        if spec in ("s", "n"):
            if len(args) < 2:
                await err(sh, fds, "kill", f"-{spec}: option requires an argument")
                await sh.err(fds, KILL_USAGE)
                return 2
            spec = args[1]
            args = args[1:]
        number = signal_number(spec)
        if number is None:
            await err(sh, fds, "kill", f"{spec}: invalid signal specification")
            return 1
        signum = number
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        await sh.err(fds, KILL_USAGE)
        return 2
    status = 0
    table = _table(sh)
    for a in args:
        if a.startswith("%"):
            job, why = table.find(a)
            if job is None:
                await err(sh, fds, "kill", f"{a}: {why}")
                status = 1
                continue
            pid = job.pid
        elif isdigits(a) or a.startswith("-") and isdigits(a[1:]):
            pid = int(a)
        else:
            await err(sh, fds, "kill", f"{a}: arguments must be process or job IDs")
            status = 1
            continue
        if not sh.send_signal(pid, signum):
            await err(sh, fds, "kill", f"({pid}) - No such process")
            status = 1
    return status


@builtin("disown", usage="disown [-h] [-ar] [jobspec ... | pid ...]",
         text="Remove jobs from the table (the current one by default; -a all, -r the running ones); they go on "
              "running. With -h they stay listed.")
async def b_disown(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    flags = ""
    specs: list[str] = []
    for a in argv[1:]:
        if a.startswith("-") and len(a) > 1 and not specs:
            flags += a[1:]
        else:
            specs.append(a)
    table = _table(sh, own=True)
    if specs:
        jobs = []
        status = 0
        for spec in specs:
            job, why = table.find(spec)
            if job is None:
                await err(sh, fds, "disown", f"{spec}: {why}")
                status = 1
            else:
                jobs.append(job)
    else:
        status = 0
        if "a" in flags or "r" in flags:
            jobs = list(table.jobs.values())
        else:
            current, _why = table.find("%+")
            if current is None:
                await err(sh, fds, "disown", "current: no such job")
                return 1
            jobs = [current]
    if "r" in flags:
        jobs = [j for j in jobs if not j.done()]
    if "h" not in flags:
        for job in jobs:
            if table.jobs.get(job.pid) is job:
                del table.jobs[job.pid]
    return status


@builtin("fg", usage="fg [job_spec]",
         text="Move job to the foreground: its output goes to this cell from now on; waits for the job (the "
              "current one by default) and returns its status. The interrupt then ends the job.")
async def b_fg(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    job = await _named_job(sh, argv, fds)
    if job is None:
        return 1
    await out(fds, job.text + "\n")
    if job.group is not None:
        job.group.foreground(sh.rt)
    try:
        return await sh.wait_job(job.pid, fds)
    except CommandCancelled:
        job.kill(signal.SIGINT)  # Ctrl-C reaches the job in the foreground
        raise
    finally:
        sh.own_jobs().remove(job)  # a job in the foreground ends with no notice


@builtin("bg", usage="bg [job_spec ...]",
         text="Move jobs to the background (jobs started with `&' already run in the background).")
async def b_bg(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    for spec in argv[1:] or ["%+"]:
        job = await _named_job(sh, ["bg", spec] if argv[1:] else ["bg"], fds)
        if job is None:
            return 1
        if job.done():
            await err(sh, fds, "bg", "job has terminated")
            return 1
        await err(sh, fds, "bg", f"job {job.number} already in background")
    return 0


async def _named_job(sh: ShellAPI, argv: list[str], fds: Fds) -> Job | None:
    """The job ``fg``/``bg`` name (the current one by default); None after reporting that
    there is none."""
    spec = argv[1] if len(argv) > 1 else "%+"
    job, why = _table(sh, own=True).find(spec)
    if job is None:
        await err(sh, fds, argv[0], f"{spec if len(argv) > 1 else 'current'}: {why}")
        return None
    return job
