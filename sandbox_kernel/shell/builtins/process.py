"""The shell process's attributes: trap, times (umask and ulimit: ``resources``)."""
from __future__ import annotations

import time

from ...lazy import TYPE_CHECKING
from ...chars import isdigits
from ..quoting import single_quote
from .jobs import SIGNAL_NAMES, SIGNALS, signal_number
from .registry import BUILTINS
from .output import err, out
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI


#: the traps that are not signals, listed after the signals in this order
PSEUDO_SIGNALS = ("DEBUG", "ERR", "RETURN")
TRAP_USAGE = "trap: usage: trap [-lp] [[arg] signal_spec ...]\n"


def trap_name(spec: str) -> str | None:
    """The name a trap is stored under (EXIT, INT, ERR ...) for a signal number or name in
    any case, with or without SIG; None if it names no signal."""
    upper = spec.upper()
    if upper in ("EXIT", "SIGEXIT") or spec == "0":
        return "EXIT"
    if upper in PSEUDO_SIGNALS:
        return upper
    number = signal_number(spec)
    return SIGNAL_NAMES.get(number) if number else None


def _trap_order(name: str) -> int:
    if name == "EXIT":
        return 0
    if name in PSEUDO_SIGNALS:
        return 100 + PSEUDO_SIGNALS.index(name)
    return SIGNALS.get(name, 99)


def _trap_listing(traps: dict[str, str], only: list[str] | None) -> str:
    """``trap -p`` lines: every trap by signal number, or those of ``only`` in that order."""
    lines = []
    names = sorted(traps, key=_trap_order) if only is None else [n for n in only if n in traps]
    for name in names:
        action = traps[name]
        shown = name if name == "EXIT" or name in PSEUDO_SIGNALS else "SIG" + name
        lines.append(f"trap -- {single_quote(action)} {shown}\n")
    return "".join(lines)


@builtin("trap", usage="trap [-lp] [[arg] signal_spec ...]", text="""
Trap signals and other events: ARG is a command to be read and executed when the shell
receives the signal(s) SIGNAL_SPEC. If ARG is absent (and a single SIGNAL_SPEC is supplied)
or `-', each specified signal is reset to its original value. If ARG is the null string each
SIGNAL_SPEC is ignored. EXIT (0) runs when the shell exits, ERR when a command fails, DEBUG
before each command, RETURN when a function or sourced file returns, INT on an interrupt
(the kernel's interrupt button).
  -l  print a list of signal names
  -p  display the trap commands associated with each SIGNAL_SPEC""")
async def b_trap(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    listing = False
    while args and args[0].startswith("-") and args[0] != "-":
        flag = args[0]
        if flag == "--":
            args = args[1:]
            break
        if flag == "-l":
            return await BUILTINS["kill"](sh, ["kill", "-l"], fds)
        if flag != "-p":
            await err(sh, fds, "trap", f"{flag}: invalid option")
            await sh.err(fds, TRAP_USAGE)
            return 2
        listing = True
        args = args[1:]
    if listing or not args:
        # a subshell lists its parent's traps until it sets one of its own
        traps = sh.parent_traps if sh.parent_traps is not None else sh.traps
        only = None
        status = 0
        if args:
            only = []
            for spec in args:
                name = trap_name(spec)
                if name is None:
                    await err(sh, fds, "trap", f"{spec}: invalid signal specification")
                    status = 1
                else:
                    only.append(name)
        await out(fds, _trap_listing(traps, only))
        return status
    # one argument, `-`, or a number first: the arguments are signals to reset
    if len(args) == 1 or args[0] == "-" or isdigits(args[0]):
        action, specs = None, args[1:] if args[0] == "-" else args
    else:
        action, specs = args[0], args[1:]
    status = 0
    for spec in specs:
        name = trap_name(spec)
        if name is None:
            await err(sh, fds, "trap", f"{spec}: invalid signal specification")
            status = 1
            continue
        if name in sh.fixed_signals and not sh.interactive:
            continue  # ignored since the shell started: it stays so, silently
        if action is None:
            sh.traps.pop(name, None)
        else:
            sh.traps[name] = action
    sh.parent_traps = None
    sh.sync_debug_trap()
    return status


@builtin("times", usage="times",
         text="Display process times: the accumulated user and system times for the shell and for its children.")
async def b_times(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    elapsed = time.monotonic() - sh.rt.start_time
    m, s = divmod(elapsed, 60)
    await out(fds, f"{int(m)}m{s:.3f}s 0m0.000s\n0m0.000s 0m0.000s\n")
    return 0
