"""Background jobs: wait, jobs, kill, disown, fg, bg."""
from __future__ import annotations

from ...chars import isdigits
from ...lazy import lazy_import
from .output import err, out
from .registry import builtin

asyncio = lazy_import("asyncio")  # jobs are tasks: it is there when they are (aio.py)
signal = lazy_import("signal")  # strsignal only: its enums cost ~1 ms to make


@builtin("wait", usage="wait [-n] [id ...]", text="""
Wait for job completion and return exit status. Waits for each process identified by an ID
(a process ID or a job specification %N) and reports its termination status. Without IDs,
waits for all currently active child processes, and the return status is zero. With -n,
waits for the next job to terminate.""")
async def b_wait(sh, argv, fds):
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
        await sh.wait_all_jobs(fds)
        return 0
    status = 0
    for a in args:
        pid = await _wait_target(sh, a, fds)
        if pid is None:
            status = 127 if a.startswith("%") or isdigits(a) else 1
            continue
        status = await sh.wait_job(pid, fds)
    return status


async def _wait_target(sh, spec: str, fds) -> int | None:
    """The job `wait SPEC` waits for (None after reporting that there is none)."""
    pid = _job_pid(sh, spec)
    if pid is None:
        await err(sh, fds, "wait",
                  f"{spec}: no such job" if spec.startswith("%") else f"`{spec}': not a pid or valid job spec")
        return None
    if pid not in sh.rt.jobs and pid not in sh.rt.job_status:
        await err(sh, fds, "wait", f"pid {pid} is not a child of this shell")
        return None
    return pid


async def _wait_next(sh, specs: list[str], fds) -> int:
    """wait -n: the status of the next job to end (among SPECS when given); 127 if none runs."""
    if specs:
        pids = []
        for spec in specs:
            pid = _job_pid(sh, spec)
            if pid is None or pid not in sh.rt.jobs:
                await err(sh, fds, "wait", f"{spec}: no such job")
                continue
            pids.append(pid)
    else:
        pids = list(sh.rt.job_order)
    tasks = {sh.rt.jobs[p]: p for p in pids if p in sh.rt.jobs}
    if not tasks:
        return 127
    done, _ = await asyncio.wait(list(tasks), return_when=asyncio.FIRST_COMPLETED)
    for task, pid in tasks.items():
        if task in done:
            return await sh.wait_job(pid, fds)
    return 127


def _job_pid(sh, spec: str) -> int | None:
    if spec.startswith("%"):
        rest = spec[1:]
        order = sh.rt.job_order
        if rest in ("", "%", "+"):
            return order[-1] if order else None
        if rest == "-":
            return order[-2] if len(order) > 1 else None
        if isdigits(rest):
            k = int(rest)
            return order[k - 1] if 0 < k <= len(order) else None
        return None
    if isdigits(spec):
        return int(spec)
    return None


@builtin("jobs", usage="jobs [-lnprs] [jobspec ...]",
         text="Display status of jobs started with `&' in this shell.\n  -l  also list process IDs\n"
              "  -p  list process IDs only")
async def b_jobs(sh, argv, fds):
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    lines = []
    order = sh.rt.job_order
    for k, pid in enumerate(order, 1):
        task = sh.rt.jobs.get(pid)
        state = "Done" if task is None or task.done() else "Running"
        mark = "+" if k == len(order) else "-" if k == len(order) - 1 else " "
        if "p" in flags:
            lines.append(str(pid))
        elif "l" in flags:
            lines.append(f"[{k}]{mark} {pid} {state:<24}job")
        else:
            lines.append(f"[{k}]{mark}  {state:<24}job")
    await out(fds, "".join(l + "\n" for l in lines))
    return 0


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
#: signals whose default action is not to end the process
HARMLESS_SIGNALS = frozenset({SIGNALS[n] for n in ("CHLD", "CONT", "URG", "WINCH", "STOP", "TSTP", "TTIN", "TTOU")})
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


async def _kill_list(sh, fds, specs: list[str]) -> int:
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
async def b_kill(sh, argv, fds):
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
    for a in args:
        pid = _job_pid(sh, a)
        task = sh.rt.jobs.get(pid) if pid is not None else None
        if task is None:
            if pid == sh.pid or a == "$$":
                continue
            await err(sh, fds, "kill",
                      f"({a}) - No such process" if pid is not None else f"{a}: arguments must be process or job IDs")
            status = 1
            continue
        if signum != 0 and signum not in HARMLESS_SIGNALS and not task.done():
            task.cancel()
            sh.rt.job_status[pid] = 128 + signum
    return status


@builtin("disown", usage="disown [-h] [-ar] [jobspec ...]", text="Remove jobs from the job table.")
async def b_disown(sh, argv, fds):
    for pid in list(sh.rt.job_order):
        sh.rt.job_order.remove(pid)
    return 0


@builtin("fg", usage="fg [job_spec]",
         text="Move job to the foreground: waits for the job (the current one by default) and returns its status.")
async def b_fg(sh, argv, fds):
    pid = await _named_job(sh, argv, fds)
    if pid is None:
        return 1
    return await sh.wait_job(pid)


@builtin("bg", usage="bg [job_spec ...]",
         text="Move jobs to the background (jobs started with `&' already run in the background).")
async def b_bg(sh, argv, fds):
    return 0 if await _named_job(sh, argv, fds) is not None else 1


async def _named_job(sh, argv, fds) -> int | None:
    """The running job ``fg``/``bg`` name (the current one by default); None after
    reporting that there is none."""
    spec = argv[1] if len(argv) > 1 else "%+"
    pid = _job_pid(sh, spec)
    if pid is None or pid not in sh.rt.jobs:
        await err(sh, fds, argv[0], f"{spec if len(argv) > 1 else 'current'}: no such job")
        return None
    return pid
