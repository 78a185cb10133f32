"""The sandbox's processes and their running time: ps, kill, sleep, timeout, time."""
from __future__ import annotations

import asyncio
import re
import resource
import signal as _signal
import time as _time

from ..chars import isdigits
from ..engine import CancelToken
from ._lib.programs import run_command
from ._lib.quoting import quote
from .options import UsageError, getopt
from .registry import CommandCancelled, CommandContext, command

SHELL_PID = 1

PS_HELP = """Usage: ps [-ef] [-o FORMAT]
Report the sandbox's processes: the shell, its background jobs, and ps itself.

  -e, -A, ax   every process (the same as the default here)
  -f           full format: UID PID PPID C STIME TTY TIME CMD
"""


def _shell_runtime(ctx: CommandContext):
    """(the shell, its shared runtime) behind ctx.shell, when the shell exposes them."""
    shell = getattr(ctx.shell, "shell", None)
    return shell, getattr(shell, "rt", None)


def _shell_jobs(ctx: CommandContext) -> dict:
    """pid -> job (``kill(signum)``, ``done()``) of the shell's background jobs still running:
    the notebook's, whichever cell started them, and those they started."""
    _shell, rt = _shell_runtime(ctx)
    jobs = getattr(rt, "processes", None)
    if not isinstance(jobs, dict):
        return {}
    return {pid: job for pid, job in jobs.items() if isinstance(pid, int) and not job.done()}


@command("ps", help=PS_HELP)
async def ps(ctx: CommandContext) -> int:
    args = [("-" + a) if a in ("ax", "aux", "ef", "e") else a for a in ctx.args]
    opts, operands = getopt(args, "eAfauxo:", status=1)
    if operands:
        raise UsageError(f"unsupported option (BSD syntax): '{operands[0]}'", 1)
    full = any(o in ("f", "u") for o, _ in opts)
    shell, _rt = _shell_runtime(ctx)
    shell_pid = getattr(shell, "pid", SHELL_PID)
    if not isinstance(shell_pid, int):
        shell_pid = SHELL_PID
    procs = [(shell_pid, 0, "bash")]
    # a background job is a subshell of the sandbox's shell
    procs += [(pid, shell_pid, "bash") for pid in sorted(_shell_jobs(ctx))]
    own_pid = max([p for p, _, _ in procs]) + 1
    procs.append((own_pid, shell_pid, "ps"))
    if full:
        lines = ["UID          PID    PPID  C STIME TTY          TIME CMD"]
        lines += [f"user     {pid:>7} {ppid:>7}  0 00:00 pts/0    00:00:00 {cmd}" for pid, ppid, cmd in procs]
    else:
        lines = ["    PID TTY          TIME CMD"]
        lines += [f"{pid:>7} pts/0    00:00:00 {cmd}" for pid, _, cmd in procs]
    await ctx.out("\n".join(lines) + "\n")
    return 0


KILL_HELP = """Usage: kill [-s SIGNAL | -SIGNAL] PID...
  or:  kill -l [SIGNAL]...
Send signals to processes, or list signals.

  -s, --signal=SIGNAL, -SIGNAL
                   specify the name or number of the signal to be sent
  -l, --list       list signal names, or convert signal names to/from numbers
"""


def _signal_names() -> dict[int, str]:
    names = {}
    for sig in _signal.Signals:
        if sig.name.startswith("SIG") and not sig.name.startswith("SIG_") and sig.value < 32:
            names.setdefault(int(sig.value), sig.name[3:])
    names[6] = "ABRT"
    names[17] = "CHLD"
    names[29] = "IO" if 29 not in names else names[29]
    return names


def parse_signal(spec: str) -> int | None:
    names = _signal_names()
    if isdigits(spec):
        n = int(spec)
        return n if n == 0 or n in names else None
    upper = spec.upper()
    if upper.startswith("SIG"):
        upper = upper[3:]
    for n, name in names.items():
        if name == upper:
            return n
    return None


@command("kill", help=KILL_HELP)
async def kill(ctx: CommandContext) -> int:
    args = list(ctx.args)
    names = _signal_names()
    if args and args[0] in ("-l", "--list", "-L", "--table"):
        if len(args) == 1:
            await ctx.out(" ".join(names[n] for n in sorted(names)) + "\n")
            return 0
        status = 0
        for a in args[1:]:
            if isdigits(a):
                n = int(a)
                n = n - 128 if n > 128 else n
                if n in names:
                    await ctx.out(names[n] + "\n")
                    continue
            else:
                n = parse_signal(a)
                if n is not None:
                    await ctx.out(f"{n}\n")
                    continue
            await ctx.error(f"unknown signal: {a}")
            status = 1
        return status
    sig = 15
    if args and args[0] in ("-s", "--signal", "-n"):
        if len(args) < 2:
            raise UsageError("option requires an argument -- 's'", 1)
        parsed = parse_signal(args[1])
        if parsed is None:
            await ctx.error(f"unknown signal: {args[1]}")
            return 1
        sig, args = parsed, args[2:]
    elif args and args[0].startswith("-") and args[0] != "-" and args[0] != "--" and len(args[0]) > 1:
        parsed = parse_signal(args[0][1:])
        if parsed is None:
            await ctx.error(f"unknown signal: {args[0][1:]}")
            return 1
        sig, args = parsed, args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        raise UsageError("not enough arguments", 1)
    status = 0
    send = getattr(ctx.shell, "send_signal", None)
    jobs = _shell_jobs(ctx) if send is None else {}
    for target in args:
        try:
            pid = int(target)
        except ValueError:
            await ctx.error(f"failed to parse argument: '{target}'")
            status = 1
            continue
        if send is not None:
            # the shell's processes (itself, subshells, jobs): traps, ignored signals, death
            if not send(pid, sig):
                await ctx.error(f"({pid}): No such process")
                status = 1
            continue
        job = jobs.get(pid)
        if job is None:
            await ctx.error(f"({pid}): No such process")
            status = 1
            continue
        if sig != 0:
            # jobs are tasks inside the sandbox: any terminating signal ends the task
            job.kill(sig)
    return status


_DURATION = re.compile(r"^\s*([0-9]*\.?[0-9]*(?:[eE][-+]?[0-9]+)?|inf|infinity)([smhd]?)$", re.I)
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> float | None:
    """GNU's DURATION: a non-negative float with an optional s/m/h/d suffix."""
    m = _DURATION.match(text)
    if not m or m.group(1) in ("", "."):
        return None
    try:
        value = float(m.group(1))
    except ValueError:
        return None
    if value < 0:
        return None
    return value * _UNIT[m.group(2).lower()]


def cancel_token(ctx: CommandContext) -> CancelToken | None:
    for name in ("cancel", "cancel_token", "token"):
        token = getattr(ctx.shell, name, None)
        if isinstance(token, CancelToken):
            return token
    return None


async def interruptible_sleep(ctx: CommandContext, seconds: float) -> None:
    """Sleep, returning early (by raising via ``ctx.check()``) on interrupt or time-out."""
    ctx.check()
    token = cancel_token(ctx)
    deadline = _time.monotonic() + seconds
    if token is not None:
        waiter = asyncio.ensure_future(token.wait())
        try:
            remaining = deadline - _time.monotonic()
            if remaining > 0:
                await asyncio.wait([waiter], timeout=remaining)
        finally:
            waiter.cancel()
        ctx.check()
        return
    # no token to wait on: sleep in slices and poll
    while True:
        remaining = deadline - _time.monotonic()
        if remaining <= 0:
            break
        await asyncio.sleep(min(remaining, 0.05))
        ctx.check()


SLEEP_HELP = """Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.
"""


@command("sleep", help=SLEEP_HELP)
async def sleep(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "", status=1)
    if not operands:
        raise UsageError("missing operand", 1)
    total = 0.0
    bad = False
    for arg in operands:
        value = parse_duration(arg)
        if value is None:
            await ctx.error(f"invalid time interval {quote(arg, 'locale')}")
            bad = True
            continue
        total += value
    if bad:
        await ctx.err("Try 'sleep --help' for more information.\n")
        return 1
    await interruptible_sleep(ctx, total)
    return 0


TIMEOUT_HELP = """Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

Mandatory arguments to long options are mandatory for short options too.
      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals;
                   in this mode, children of COMMAND will not be timed out
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout;
                   SIGNAL may be a name like 'HUP' or a number;
                   see 'kill -l' for a list of signals
  -v, --verbose  diagnose to stderr any signal sent upon timeout

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

If the command times out, and --preserve-status is not set, then exit with
status 124.  Otherwise, exit with the status of COMMAND.
"""

@command("timeout", help=TIMEOUT_HELP)
async def timeout(ctx: CommandContext) -> int:
    opts, rest = getopt(ctx.args, "+k:s:v", {"kill-after=": "k", "signal=": "s",
                                             "verbose": "v", "preserve-status": None,
                                             "foreground": None}, status=125)
    sig = 15
    verbose = preserve = False
    for o, v in opts:
        if o == "s":
            parsed = parse_signal(v)
            if parsed is None:
                await ctx.error(f"{quote(v, 'locale')}: invalid signal")
                await ctx.err("Try 'timeout --help' for more information.\n")
                return 125
            sig = parsed
        elif o == "k":
            if parse_duration(v) is None:
                await ctx.error(f"invalid time interval {quote(v, 'locale')}")
                await ctx.err("Try 'timeout --help' for more information.\n")
                return 125
        elif o == "v":
            verbose = True
        elif o == "preserve-status":
            preserve = True
    if len(rest) < 2:
        if rest:
            await ctx.error(f"missing operand after {quote(rest[0], 'locale')}")
        await ctx.err("Try 'timeout --help' for more information.\n")
        return 125
    seconds = parse_duration(rest[0])
    if seconds is None:
        await ctx.error(f"invalid time interval {quote(rest[0], 'locale')}")
        await ctx.err("Try 'timeout --help' for more information.\n")
        return 125
    argv = rest[1:]
    task = asyncio.ensure_future(run_command(ctx, argv, failure="failed to run command "))
    try:
        if seconds <= 0:
            return await task
        done, _ = await asyncio.wait([task], timeout=seconds)
    except BaseException:
        # interrupted ourselves: never leave the child running
        task.cancel()
        raise
    if task in done:
        return task.result()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        # our own cancellation of the child, unless we were cancelled too
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise
    except CommandCancelled:
        raise
    except Exception:
        pass  # whatever the killed command was doing no longer matters
    if verbose:
        name = _signal_names().get(sig, str(sig))
        await ctx.error(f"sending signal {name} to command {quote(argv[0], 'locale')}")
    # GNU timeout signals its own process group too: KILL, which it cannot catch, ends timeout
    # itself (137 whatever the options); any other signal it catches and exits 124, or with
    # the command's status (death by the signal) under --preserve-status
    return 128 + sig if preserve or sig == 9 else 124


TIME_HELP = """Usage: time [-apqvV] [-f FORMAT] [-o FILE] [--append] [--format=FORMAT]
            [--output=FILE] [--portability] [--quiet] [--verbose] [--version] COMMAND [ARG]...
Run COMMAND, then report the time it took on standard error (or FILE), as GNU time does.
(The shell's `time` keyword reports in bash's format; `command time` runs this one.)

  -f, --format=FORMAT   %e %E %U %S %P %x %C and the others of GNU time (sizes and
                        I/O counts are 0: the sandbox does not measure them per command)
  -p, --portability     POSIX format: real %e / user %U / sys %S
  -o, --output=FILE     write the report to FILE (-a: append)
  -q, --quiet           no "Command exited with non-zero status" line
  -v, --verbose         every field with its description
"""

GNU_TIME_FORMAT = ("%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k\n"
                   "%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps")
POSIX_TIME_FORMAT = "real %e\nuser %U\nsys %S"
VERBOSE_TIME_FORMAT = "\n".join([
    '\tCommand being timed: "%C"', "\tUser time (seconds): %U", "\tSystem time (seconds): %S",
    "\tPercent of CPU this job got: %P", "\tElapsed (wall clock) time (h:mm:ss or m:ss): %E",
    "\tAverage shared text size (kbytes): %X", "\tAverage unshared data size (kbytes): %D",
    "\tAverage stack size (kbytes): %p", "\tAverage total size (kbytes): %K",
    "\tMaximum resident set size (kbytes): %M", "\tAverage resident set size (kbytes): %t",
    "\tMajor (requiring I/O) page faults: %F", "\tMinor (reclaiming a frame) page faults: %R",
    "\tVoluntary context switches: %w", "\tInvoluntary context switches: %c", "\tSwaps: %W",
    "\tFile system inputs: %I", "\tFile system outputs: %O", "\tSocket messages sent: %s",
    "\tSocket messages received: %r", "\tSignals delivered: %k", "\tPage size (bytes): %Z",
    "\tExit status: %x"])
#: the fields a sandboxed command has no measure of
_UNMEASURED = frozenset("XDpKMtFRwcWIOsrk")


def _elapsed(seconds: float) -> str:
    """%E: [hours:]minutes:seconds, as GNU time writes it."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours >= 1:
        return f"{int(hours)}:{int(minutes):02d}:{int(secs):02d}"
    return f"{int(minutes)}:{secs:05.2f}"


def format_gnu_time(fmt: str, argv: list[str], status: int, real: float, user: float, system: float) -> str:
    """GNU time's FORMAT: % fields, backslash escapes \\n \\t \\\\; an unknown field is "?"."""
    out: list[str] = []
    i, n = 0, len(fmt)
    while i < n:
        c = fmt[i]
        i += 1
        if c == "\\" and i < n and fmt[i] in "nt\\":
            out.append({"n": "\n", "t": "\t", "\\": "\\"}[fmt[i]])
            i += 1
        elif c != "%" or i >= n:
            out.append(c)
        else:
            f = fmt[i]
            i += 1
            if f == "%":
                out.append("%")
            elif f == "e":
                out.append(f"{real:.2f}")
            elif f == "E":
                out.append(_elapsed(real))
            elif f == "U":
                out.append(f"{user:.2f}")
            elif f == "S":
                out.append(f"{system:.2f}")
            elif f == "P":
                out.append(f"{round((user + system) / real * 100)}%" if real > 0 else "?%")
            elif f == "x":
                out.append(str(status))
            elif f == "C":
                out.append(" ".join(argv))
            elif f == "Z":
                out.append(str(resource.getpagesize()))
            elif f in _UNMEASURED:
                out.append("0")
            else:
                out.append("?" + f)
    return "".join(out)


@command("time", help=TIME_HELP)
async def time_cmd(ctx: CommandContext) -> int:
    opts, argv = getopt(ctx.args, "+f:o:apqvV", {
        "format=": "f", "output=": "o", "append": "a", "portability": "p", "quiet": "q",
        "verbose": "v", "version": "V"}, status=125)
    fmt, output, append, quiet = GNU_TIME_FORMAT, None, False, False
    for opt, value in opts:
        if opt == "f":
            fmt = value or ""
        elif opt == "p":
            fmt = POSIX_TIME_FORMAT
        elif opt == "v":
            fmt = VERBOSE_TIME_FORMAT
        elif opt == "o":
            output = value
        elif opt == "a":
            append = True
        elif opt == "q":
            quiet = True
        elif opt == "V":
            await ctx.out("time (GNU Time) 1.9 (sandbox_kernel)\n")
            return 0
    if not argv:
        raise UsageError("missing program to run", 125)
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = _time.monotonic()
    status = await run_command(ctx, argv, failure="cannot run ")
    real = _time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    report = format_gnu_time(fmt, argv, status, real, after.ru_utime - before.ru_utime,
                             after.ru_stime - before.ru_stime) + "\n"
    if status and not quiet:
        report = f"Command exited with non-zero status {status}\n" + report
    if output is None:
        await ctx.err(report)
    else:
        try:
            ctx.fs.write_bytes(ctx.resolve(output), report.encode("utf-8", "surrogateescape"), append=append)
        except OSError as e:
            await ctx.error(f"cannot open output file {quote(output, 'locale')}: {e.strerror}")
            return 1
    return status
