"""Validation at the host/guest boundary: everything a command needs, checked before the agent
is sent a byte of it. One error type, ``GuestInputError``, whose message says which input is
wrong and what the guest accepts; the agent checks again on its side.

Paths are checked by ``protocol.check_path`` (absolute, no NUL, no ``..``, <= 4096 bytes),
which every request carrying a path goes through.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from . import protocol as P
from .protocol import GuestInputError

#: Linux's MAX_ARG_STRLEN: one argument, or one NAME=VALUE, may be at most 32 pages.
MAX_WORD_BYTES = 32 * 4096
#: Everything an exec carries travels in one frame (the agent's limit).
MAX_EXEC_BYTES = 1 << 20
MAX_TIMEOUT = 7 * 24 * 3600.0       # seconds: a week; the agent counts milliseconds in 64 bits
MAX_OUTPUT_LIMIT = 1 << 50
MAX_PIDS = 4 * 1024 * 1024          # the kernel's PID_MAX_LIMIT
MIN_MEMORY = 1 << 20                # below this nothing starts (ld.so alone needs more)
MAX_MEMORY = 1 << 50

__all__ = ["GuestInputError", "ExecRequest", "check_exec", "check_argv", "check_env", "check_limits"]


@dataclass(frozen=True)
class ExecRequest:
    """An exec as it may be sent: argv, environment, working directory and limits, checked."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    timeout: float | None = None
    output_limit: int | None = None
    pids_max: int | None = None
    memory_max: int | None = None


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _kib(n: int) -> str:
    return f"{n / 1024:.0f} KiB" if n >= 1024 else f"{n} bytes"


def check_argv(argv: list[str]) -> list[str]:
    if not isinstance(argv, (list, tuple)) or not argv:
        raise GuestInputError("a guest command needs a program (argv is empty)")
    P.check_words(list(argv), "arguments")
    if not argv[0]:
        raise GuestInputError("the program name (argv[0]) is empty")
    for i, word in enumerate(argv):
        n = _size(word)
        if n >= MAX_WORD_BYTES:
            what = "the program name" if i == 0 else f"argument {i}"
            raise GuestInputError(
                f"{what} is {_kib(n)}; Linux takes at most {_kib(MAX_WORD_BYTES - 1)} in one argument "
                "(MAX_ARG_STRLEN): put long text in a file under /workspace and pass its name")
    return list(argv)


def check_env(env: Mapping[str, str]) -> dict[str, str]:
    for name, value in env.items():
        if not isinstance(name, str) or not isinstance(value, str):
            raise GuestInputError("environment names and values must be strings")
        if not name:
            raise GuestInputError("an environment variable has an empty name")
        if "=" in name or "\0" in name:
            raise GuestInputError(f"environment variable name {name[:40]!r} contains '=' or NUL")
        if "\0" in value:
            raise GuestInputError(f"environment variable {name[:40]} contains a NUL byte")
        n = _size(name) + 1 + _size(value)
        if n >= MAX_WORD_BYTES:
            raise GuestInputError(f"environment variable {name[:40]} is {_kib(n)}; Linux takes at most "
                                  f"{_kib(MAX_WORD_BYTES - 1)} per variable (MAX_ARG_STRLEN)")
    P.check_words([f"{k}={v}" for k, v in env.items()], "environment entries")
    return dict(env)


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GuestInputError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise GuestInputError(f"{name} must be {low}..{high}, not {value}")
    return value


def check_limits(timeout: float | None = None, output_limit: int | None = None,
                 pids_max: int | None = None, memory_max: int | None = None) -> None:
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or math.isnan(timeout) \
                or not 0 < timeout <= MAX_TIMEOUT:
            raise GuestInputError(f"the time limit must be more than 0 and at most {MAX_TIMEOUT:g} s "
                                  f"(a week), not {timeout!r}: set a finite wall_time with %limits")
    if output_limit is not None:
        _check_int("the output limit", output_limit, 0, MAX_OUTPUT_LIMIT)
    if pids_max is not None:
        _check_int("vm_processes", pids_max, 1, MAX_PIDS)
    if memory_max is not None:
        _check_int("vm_memory_bytes", memory_max, MIN_MEMORY, MAX_MEMORY)


def check_exec(argv: list[str], env: Mapping[str, str], cwd: str, *, timeout: float | None = None,
               output_limit: int | None = None, pids_max: int | None = None,
               memory_max: int | None = None) -> ExecRequest:
    """The whole exec, checked: raises GuestInputError for the first thing that is wrong."""
    argv = check_argv(argv)
    env = check_env(env)
    P.check_path(cwd)
    check_limits(timeout, output_limit, pids_max, memory_max)
    total = sum(_size(w) for w in argv) + sum(_size(k) + _size(v) + 1 for k, v in env.items())
    if total > MAX_EXEC_BYTES:
        raise GuestInputError(f"the command line and environment are {_kib(total)} together; the guest "
                              f"takes at most {_kib(MAX_EXEC_BYTES)}")
    return ExecRequest(argv, env, cwd, timeout, output_limit, pids_max, memory_max)

