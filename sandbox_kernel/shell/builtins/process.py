"""The shell process's attributes: trap, times (umask and ulimit: ``resources``)."""
from __future__ import annotations

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


@builtin("times", usage="times", text="Display process times: the accumulated user and system times for the shell and for its children.")
async def b_times(sh, argv, fds):
    elapsed = time.monotonic() - sh.rt.start_time
    m, s = divmod(elapsed, 60)
    await out(fds, f"{int(m)}m{s:.3f}s 0m0.000s\n0m0.000s 0m0.000s\n")
    return 0
