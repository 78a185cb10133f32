"""Background jobs: wait, jobs, kill, disown, fg, bg."""
from __future__ import annotations

import asyncio

from ...chars import isdigits
from .output import err, out
from .registry import builtin


@builtin("wait", usage="wait [-n] [id ...]", text="""
Wait for job completion and return exit status. Waits for each process identified by an ID
(a process ID or a job specification %N) and reports its termination status. Without IDs,
waits for all currently active child processes, and the return status is zero. With -n,
waits for the next job to terminate.""")
async def b_wait(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "-n":
        pending = list(sh.rt.job_order)
        if not pending:
            return 127
        tasks = [sh.rt.jobs[p] for p in pending if p in sh.rt.jobs]
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for pid in pending:
            if sh.rt.jobs.get(pid) in done:
                return await sh.wait_job(pid)
        return 0
    if not args:
        await sh.wait_all_jobs()
        return 0
    status = 0
    for a in args:
        pid = _job_pid(sh, a)
        if pid is None:
            await err(sh, fds, "wait", f"{a}: not a pid or valid job spec" if not a.startswith("%") else f"{a}: no such job")
            status = 127
            continue
        if pid not in sh.rt.jobs:
            await err(sh, fds, "wait", f"pid {pid} is not a child of this shell")
            status = 127
            continue
        status = await sh.wait_job(pid)
    return status


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


@builtin("jobs", usage="jobs [-lnprs] [jobspec ...]", text="Display status of jobs started with `&' in this shell.\n  -l  also list process IDs\n  -p  list process IDs only")
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


SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "PIPE": 13,
            "ALRM": 14, "TERM": 15, "CHLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20}


@builtin("kill", usage="kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]", text="Send a signal to a job. Background jobs of this shell can be terminated (they run as tasks inside the sandbox).")
async def b_kill(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "-l":
        await out(fds, " ".join(f"{n}) SIG{s}" for s, n in sorted(SIGNALS.items(), key=lambda x: x[1])) + "\n")
        return 0
    signum = 15
    if args and args[0].startswith("-") and args[0] != "--":
        spec = args[0][1:]
        if spec in ("s", "n") and len(args) > 1:
            spec = args[1]
            args = args[1:]
        spec = spec.upper().removeprefix("SIG")
        signum = int(spec) if isdigits(spec) else SIGNALS.get(spec, -1)
        if signum < 0:
            await err(sh, fds, "kill", f"{args[0][1:]}: invalid signal specification")
            return 1
        args = args[1:]
    if not args:
        await sh.err(fds, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
        return 2
    status = 0
    for a in args:
        pid = _job_pid(sh, a)
        task = sh.rt.jobs.get(pid) if pid is not None else None
        if task is None:
            if pid == sh.pid or a == "$$":
                continue
            await err(sh, fds, "kill", f"({a}) - No such process" if pid is not None else f"{a}: arguments must be process or job IDs")
            status = 1
            continue
        if signum != 0:
            task.cancel()
            sh.rt.job_status[pid] = 128 + signum
    return status


@builtin("disown", usage="disown [-h] [-ar] [jobspec ...]", text="Remove jobs from the job table.")
async def b_disown(sh, argv, fds):
    for pid in list(sh.rt.job_order):
        sh.rt.job_order.remove(pid)
    return 0


@builtin("fg", usage="fg [job_spec]", text="Move job to the foreground: waits for the job (the current one by default) and returns its status.")
async def b_fg(sh, argv, fds):
    pid = await _named_job(sh, argv, fds)
    if pid is None:
        return 1
    return await sh.wait_job(pid)


@builtin("bg", usage="bg [job_spec ...]", text="Move jobs to the background (jobs started with `&' already run in the background).")
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
