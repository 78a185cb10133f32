"""The shell process's attributes: trap, umask, ulimit, times."""
from __future__ import annotations

import re
import time

from ...chars import isdigits
from ..eval.word import single_quote
from .jobs import SIGNALS
from .output import err, out
from .registry import builtin


_TRAP_NAMES = {"0": "EXIT", "1": "HUP", "2": "INT", "3": "QUIT", "9": "KILL", "13": "PIPE", "14": "ALRM", "15": "TERM"}


def _trap_name(spec: str) -> str | None:
    s = spec.upper()
    if s in _TRAP_NAMES:
        return _TRAP_NAMES[s]
    s = s.removeprefix("SIG")
    if s in ("EXIT", "ERR", "DEBUG", "RETURN") or s in SIGNALS:
        return s
    return None


@builtin("trap", usage="trap [-lp] [[arg] signal_spec ...]", text="""
Trap signals and other events: ARG is a command to be read and executed when the shell
receives the signal(s) SIGNAL_SPEC. If ARG is absent (and a single SIGNAL_SPEC is supplied)
or `-', each specified signal is reset to its original value. If ARG is the null string each
SIGNAL_SPEC is ignored. EXIT (0) runs when the shell exits, ERR when a command fails, INT on
an interrupt (the kernel's interrupt button).
  -l  print a list of signal names
  -p  display the trap commands associated with each SIGNAL_SPEC""")
async def b_trap(sh, argv, fds):
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args or args[0] == "-p":
        names = args[1:] if args else []
        lines = []
        for name, action in sh.traps.items():
            if names and name not in [_trap_name(n) for n in names]:
                continue
            lines.append(f"trap -- {single_quote(action)} {name}")
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    if args[0] == "-l":
        await out(fds, " ".join(f"{n}) SIG{s}" for s, n in sorted(SIGNALS.items(), key=lambda x: x[1])) + "\n")
        return 0
    if len(args) == 1 or args[0] == "-" or (isdigits(args[0]) and _trap_name(args[0])):
        specs = args[1:] if args[0] == "-" else args
        for spec in specs:
            name = _trap_name(spec)
            if name is None:
                await err(sh, fds, "trap", f"{spec}: invalid signal specification")
                return 1
            sh.traps.pop(name, None)
        return 0
    action = args[0]
    status = 0
    for spec in args[1:]:
        name = _trap_name(spec)
        if name is None:
            await err(sh, fds, "trap", f"{spec}: invalid signal specification")
            status = 1
            continue
        sh.traps[name] = action
    return status


@builtin("umask", usage="umask [-p] [-S] [mode]", text="Display or set file mode mask.\n  -S  makes the output symbolic\n  -p  output in a form that may be reused as input")
async def b_umask(sh, argv, fds):
    args = argv[1:]
    symbolic = "-S" in args
    reuse = "-p" in args
    args = [a for a in args if a not in ("-S", "-p")]
    if not args:
        if symbolic:
            perms = []
            for who, shift in (("u", 6), ("g", 3), ("o", 0)):
                bits = (~sh.umask >> shift) & 7
                perms.append(who + "=" + ("r" if bits & 4 else "") + ("w" if bits & 2 else "") + ("x" if bits & 1 else ""))
            await out(fds, ("umask -S " if reuse else "") + ",".join(perms) + "\n")
        else:
            await out(fds, ("umask " if reuse else "") + f"{sh.umask:04o}\n")
        return 0
    mode = args[0]
    if re.fullmatch(r"[0-7]{1,4}", mode):
        sh.umask = int(mode, 8)
        return 0
    m = re.fullmatch(r"((?:[ugoa]*[=+-][rwx]*,?)+)", mode)
    if not m:
        await err(sh, fds, "umask", f"{mode}: invalid symbolic mode operator")
        return 1
    allowed = ~sh.umask & 0o777
    for clause in mode.split(","):
        cm = re.fullmatch(r"([ugoa]*)([=+-])([rwx]*)", clause)
        if not cm:
            continue
        who = cm.group(1) or "a"
        bits = (4 if "r" in cm.group(3) else 0) | (2 if "w" in cm.group(3) else 0) | (1 if "x" in cm.group(3) else 0)
        for w, shift in (("u", 6), ("g", 3), ("o", 0)):
            if w in who or "a" in who:
                if cm.group(2) == "=":
                    allowed = (allowed & ~(7 << shift)) | (bits << shift)
                elif cm.group(2) == "+":
                    allowed |= bits << shift
                else:
                    allowed &= ~(bits << shift)
    sh.umask = ~allowed & 0o777
    return 0


@builtin("times", usage="times", text="Display process times: the accumulated user and system times for the shell and for its children.")
async def b_times(sh, argv, fds):
    elapsed = time.monotonic() - sh.rt.start_time
    m, s = divmod(elapsed, 60)
    await out(fds, f"{int(m)}m{s:.3f}s 0m0.000s\n0m0.000s 0m0.000s\n")
    return 0


@builtin("ulimit", usage="ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]", text="""
Modify shell resource limits (display only in the sandbox: the sandbox's own limits are set
with %limits in the notebook). -a shows all limits; -n open files; -s stack size.""")
async def b_ulimit(sh, argv, fds):
    table = {"c": ("core file size", "(blocks, -c)", "0"), "d": ("data seg size", "(kbytes, -d)", "unlimited"),
             "f": ("file size", "(blocks, -f)", "unlimited"), "n": ("open files", "(-n)", "1024"),
             "s": ("stack size", "(kbytes, -s)", "8192"), "t": ("cpu time", "(seconds, -t)", "unlimited"),
             "u": ("max user processes", "(-u)", "unlimited"), "v": ("virtual memory", "(kbytes, -v)", "unlimited")}
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    values = [a for a in argv[1:] if not a.startswith("-")]
    if values:
        return 0  # accepted and ignored: limits are the sandbox's
    if "a" in flags:
        await out(fds, "".join(f"{d:<25}{u:>15} {v}\n" for d, u, v in table.values()))
        return 0
    letter = next((c for c in flags if c in table), "f")
    await out(fds, table[letter][2] + "\n")
    return 0
