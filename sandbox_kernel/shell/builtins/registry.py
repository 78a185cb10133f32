"""The builtin registry: ``builtin`` registers a function under its names with its help.

Each builtin is ``async def name(sh, argv, fds) -> int``; output goes to ``fds[1]``. ``HELP``
holds each one's synopsis and description, used by ``help NAME`` and ``NAME --help``.
"""
from __future__ import annotations

from .output import out

BUILTINS: dict = {}
HELP: dict[str, tuple[str, str]] = {}
SPECIAL_BUILTINS = frozenset({":", ".", "break", "continue", "eval", "exec", "exit", "export",
                              "readonly", "return", "set", "shift", "source", "times", "trap", "unset"})
NO_HELP_OPTION = frozenset({"echo", "true", "false", ":", "test", "[", "bash", "sh"})


def builtin(*names: str, usage: str = "", text: str = ""):
    def register(fn):
        for name in names:
            BUILTINS[name] = _with_help(name, fn)
            HELP[name] = (usage or name, text.strip())
        return fn
    return register


def _with_help(name: str, fn):
    if name in NO_HELP_OPTION:
        return fn

    async def wrapper(sh, argv, fds):
        if len(argv) > 1 and argv[1] == "--help":
            await out(fds, help_text(name) + "\n")
            return 0
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
