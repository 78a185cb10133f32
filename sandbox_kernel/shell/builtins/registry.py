"""The builtin registry: ``builtin`` registers a function under its names with its help.

Each builtin is ``async def name(sh: ShellAPI, argv, fds: Fds) -> int`` (``shell/api.py``: what
a builtin may use of the shell); output goes to ``fds[1]``. ``HELP`` holds each one's synopsis
and description, used by ``help NAME`` and ``NAME --help``.

A builtin registered with ``sync=True`` is a plain function that returns its status, or an
awaitable of it when it must wait (to report an error, say); it never raises ShellError.
``SYNC_BUILTINS`` holds those for the interpreter's compiled commands, which call them
without a coroutine; ``BUILTINS`` holds a coroutine version of every builtin.
"""
from __future__ import annotations

from ...lazy import TYPE_CHECKING
from .output import out

if TYPE_CHECKING:  # (what the annotations name: typing is no import of the shell's start)
    from collections.abc import Awaitable, Callable
    from typing import Any, TypeVar

    from ..api import Fds, ShellAPI

    #: a builtin: (the shell, argv, its fds) -> the status. The words of argv are strings; a
    #: declaration builtin (declare, local, export, readonly) also gets NAME=(...) operands as
    #: the parser's Assign nodes
    Builtin = Callable[[ShellAPI, list[Any], Fds], Awaitable[int]]
    #: a ``sync=True`` builtin: the status, or an awaitable of it when it must wait
    SyncBuiltin = Callable[[ShellAPI, list[Any], Fds], int | Awaitable[int]]
    _Registered = TypeVar("_Registered", bound=Callable[..., Any])

BUILTINS: dict[str, Builtin] = {}
SYNC_BUILTINS: dict[str, SyncBuiltin] = {}
HELP: dict[str, tuple[str, str]] = {}
SPECIAL_BUILTINS = frozenset({":", ".", "break", "continue", "eval", "exec", "exit", "export",
                              "readonly", "return", "set", "shift", "source", "times", "trap", "unset"})
NO_HELP_OPTION = frozenset({"echo", "true", "false", ":", "test", "[", "bash", "sh"})


def builtin(*names: str, usage: str = "", text: str = "",
            sync: bool = False) -> Callable[[_Registered], _Registered]:
    def register(fn: _Registered) -> _Registered:
        for name in names:
            if sync:
                SYNC_BUILTINS[name] = _sync_with_help(name, fn)
                BUILTINS[name] = _with_help(name, _awaiting(fn))
            else:
                BUILTINS[name] = _with_help(name, fn)
            HELP[name] = (usage or name, text.strip())
        return fn
    return register


def _awaiting(fn: SyncBuiltin) -> Builtin:
    """A sync builtin as a coroutine function."""
    async def run(sh: ShellAPI, argv: list[Any], fds: Fds) -> int:
        status = fn(sh, argv, fds)
        return status if isinstance(status, int) else await status
    run.__name__ = fn.__name__
    return run


def _sync_with_help(name: str, fn: SyncBuiltin) -> SyncBuiltin:
    if name in NO_HELP_OPTION:
        return fn

    def run(sh: ShellAPI, argv: list[Any], fds: Fds) -> int | Awaitable[int]:
        if len(argv) > 1 and argv[1] == "--help":
            return _print_help(name, fds)
        return fn(sh, argv, fds)
    return run


async def _print_help(name: str, fds: Fds) -> int:
    await out(fds, f"{help_text(name)}\n")
    return 0


def _with_help(name: str, fn: Builtin) -> Builtin:
    if name in NO_HELP_OPTION:
        return fn

    async def wrapper(sh: ShellAPI, argv: list[Any], fds: Fds) -> int:
        if len(argv) > 1 and argv[1] == "--help":
            return await _print_help(name, fds)
        return await fn(sh, argv, fds)
    wrapper.__name__ = fn.__name__
    return wrapper


def help_text(name: str) -> str | None:
    entry = HELP.get(name)
    if entry is None:
        return None
    usage, text = entry
    body = "\n".join("    " + line if line else "" for line in text.splitlines())
    return f"{name}: {usage}\n{body}" if body else f"{name}: {usage}"
