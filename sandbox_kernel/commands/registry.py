"""The command registry and what a command gets when it runs.

A command is ``async def cmd(ctx: CommandContext) -> int`` registered by name::

    @command("rev", help=REV_HELP)
    async def rev(ctx):
        async for line in ctx.stdin.lines(): ...
        return 0

``--help`` is answered by the registry from ``help`` (unless ``own_help=True``).
"""
from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable

from .. import aio, memory
from ..lazy import TYPE_CHECKING
from ..limits import Limits
from ..streams import FileInput, InputStream, OutputStream
from ..vfs import FSError, normpath
from ._lib.quoting import quote, strerror
from .index import COMMAND_MODULES
from .options import UsageError

if TYPE_CHECKING:
    from typing import Any, Protocol

    from ..engine import CancelToken
    from ..vfs import VFS

    class ShellHost(Protocol):
        """What a command may use of the shell running it (``ctx.shell``: the interpreter's
        ``CommandHost``, eval/interp.py; a test's stand-in has the methods). The properties are
        read with ``getattr`` and a default, since a stand-in may lack them."""

        def check_cancel(self) -> None: ...

        async def checkpoint(self) -> None: ...

        async def run_argv(self, argv: list[str], stdin: InputStream, stdout: OutputStream, stderr: OutputStream,
                           env: dict[str, str] | None = None, cwd: str | None = None) -> int: ...

        @property
        def limits(self) -> Limits: ...

        @property
        def cancel(self) -> CancelToken | None: ...

        @property
        def display(self) -> Any: ...

        @property
        def deadline(self) -> float: ...

        @property
        def pid(self) -> int: ...

        @property
        def processes(self) -> dict[int, Any]: ...

        def send_signal(self, pid: int, signum: int) -> bool: ...

#: ``async def cmd(ctx: CommandContext) -> int`` (not quoted: a string in a type alias is compile()d at import)
CommandFunc = Callable[["CommandContext"], Awaitable[int]]


class CommandSpec:
    """A registered command (a plain class: the shell's start imports no ``dataclasses``)."""

    __slots__ = ("name", "func", "help", "own_help")

    def __init__(self, name: str, func: CommandFunc, help: str = "", own_help: bool = False) -> None:
        self.name = name
        self.func = func
        self.help = help
        self.own_help = own_help  # the command handles --help itself (or treats it as data)

    def __repr__(self) -> str:
        return f"CommandSpec({self.name!r})"


COMMANDS: dict[str, CommandSpec] = {}


def command(*names: str, help: str = "", own_help: bool = False) -> Callable[[CommandFunc], CommandFunc]:
    """Register ``func`` under each of ``names``."""

    def register(func: CommandFunc) -> CommandFunc:
        for name in names:
            COMMANDS[name] = CommandSpec(name, func, help.strip("\n"), own_help)
        return func

    return register


def lookup(name: str) -> CommandSpec | None:
    spec = COMMANDS.get(name)
    if spec is None:
        module = _defining_module().get(name)
        if module is not None:  # first use: its module registers it on import
            importlib.import_module(f"sandbox_kernel.{module}")
            spec = COMMANDS.get(name)
    return spec


def names() -> list[str]:
    return sorted(_defining_module().keys() | COMMANDS.keys())


_by_name: dict[str, str] = {}


def _defining_module() -> dict[str, str]:
    if not _by_name:
        _by_name.update({cmd: module for module, cmds in COMMAND_MODULES.items() for cmd in cmds.split()})
    return _by_name


class CommandCancelled(Exception):
    """Raised by ``ctx.check()`` when the run is interrupted or out of time."""


class CommandExit(Exception):
    """Raise to end a command with a status (e.g. from a helper deep in the call stack)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


_STDIN_NAMES = frozenset(("-", "/dev/stdin", "/dev/fd/0"))


class CommandContext:
    """What a command runs with. ``env`` is a dict, or a function that makes it when the
    command first reads it (the shell's exported variables: most commands never read them).
    ``shell``: the interpreter/session running this command (``ShellHost``: cancellation, running
    other commands, limits, cancel token, display, deadline, the shell's pid, live jobs, signals);
    ``sandbox``: the Sandbox (engines by name, limits), when there is one."""

    def __init__(self, name: str, args: list[str], stdin: InputStream, stdout: OutputStream, stderr: OutputStream,
                 fs: "VFS", cwd: str, env: "dict[str, str] | Callable[[], dict[str, str]]",
                 shell: ShellHost | None = None, sandbox: Any = None, extra: dict | None = None) -> None:
        self.name = name
        self.args = args
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.fs = fs
        self.cwd = cwd
        self._env = env
        self.shell = shell
        self.sandbox = sandbox
        self.extra = {} if extra is None else extra

    @property
    def env(self) -> dict[str, str]:
        env = self._env
        if callable(env):
            env = self._env = env()
        return env

    @env.setter
    def env(self, value: dict[str, str]) -> None:
        self._env = value

    # --- paths and files
    def resolve(self, path: str) -> str:
        """Absolute, lexically normalised path of ``path`` relative to cwd."""
        return normpath(path, self.cwd)

    @staticmethod
    def is_stdin_operand(path: str) -> bool:
        """``-``, /dev/stdin or /dev/fd/0: operands that name the command's stdin."""
        return path in _STDIN_NAMES

    def open_input(self, path: str) -> InputStream:
        """A stream for a file operand; ``-`` and /dev/stdin are the command's stdin.
        Raises FSError (ENOENT, EISDIR, EACCES...)."""
        if path in _STDIN_NAMES:
            return self.stdin
        handle = self.fs.open(path, "rb", cwd=self.cwd)
        return FileInput(handle)

    def read_file(self, path: str) -> bytes:
        return self.fs.read_bytes(path, cwd=self.cwd)

    async def read_input(self, path: str) -> bytes:
        """All of a file operand (``open_input``'s names: ``-`` and /dev/stdin read the
        command's stdin). Raises FSError."""
        if path in _STDIN_NAMES:
            return await self.stdin.read()
        return self.read_file(path)

    # --- output helpers
    async def out(self, text: str | bytes) -> None:
        await self.stdout.write(text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape"))

    async def err(self, text: str | bytes) -> None:
        await self.stderr.write(text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape"))

    async def error(self, message: str) -> None:
        """``name: message`` on stderr, GNU style."""
        await self.err(f"{self.name}: {message}\n")

    async def file_error(self, path: str, exc: OSError) -> None:
        """GNU message for an OSError about ``path`` (e.g. ``cat: x: No such file or directory``)."""
        await self.error(f"{quote(path, 'shell-escape', colon=True)}: {strerror(exc)}")

    # --- cancellation and limits
    def check(self) -> None:
        """Call in loops that don't await: raises CommandCancelled on interrupt/time-out (and
        when the run's memory safety net, memory.py, finds the process grown too much)."""
        if self.shell is not None:
            cancel = getattr(self.shell, "cancel", None)
            if cancel is not None:
                cancel.check_memory()
            self.shell.check_cancel()

    async def checkpoint(self) -> None:
        """``check()`` plus a chance for other tasks (pipeline stages, the kernel) to run."""
        if self.shell is not None:
            await self.shell.checkpoint()

    # --- running other commands (xargs, find -exec, timeout, env, nice ...)
    async def run(self, argv: list[str], stdin: InputStream | None = None,
                  stdout: OutputStream | None = None, stderr: OutputStream | None = None,
                  env: dict[str, str] | None = None) -> int:
        """Run ``argv`` as the shell would (functions excluded), with these streams; returns
        the status (127 when not found)."""
        return await self.shell.run_argv(argv, stdin or self.stdin, stdout or self.stdout,
                                         stderr or self.stderr, env=env, cwd=self.cwd)


__all__ = ["command", "lookup", "names", "CommandContext", "CommandSpec", "CommandCancelled",
           "CommandExit", "COMMANDS", "FSError"]


async def invoke(spec: CommandSpec, ctx: CommandContext) -> int:
    """Run a registered command: ``--help``, usage errors and stray FSErrors are handled here
    so every command reports GNU-style and returns a status. BrokenPipeError and
    CommandCancelled propagate (the shell maps them to 141 and to the cancel status)."""
    await aio.need_loop()  # commands use asyncio freely (sleep, tasks, timers)
    if not spec.own_help and spec.help and "--help" in ctx.args:
        for a in ctx.args:
            if a == "--":
                break
            if a == "--help":
                await ctx.out(spec.help + "\n")
                return 0
    limits = getattr(ctx.shell, "limits", None) or Limits()
    token = memory.CURRENT.set(memory.Meter(limits.memory_bytes))
    try:
        return await spec.func(ctx)
    except (memory.MemoryLimitExceeded, MemoryError) as e:
        return await _out_of_memory(ctx, limits, e)
    except UsageError as e:
        await ctx.error(e.message)
        await ctx.err(f"Try '{ctx.name} --help' for more information.\n")
        return e.status
    except CommandExit as e:
        return e.status
    except FSError as e:
        await ctx.file_error(e.filename, e) if e.filename else await ctx.error(strerror(e))
        return 1
    finally:
        memory.CURRENT.reset(token)


#: The status GNU's tools end with when memory runs out (xalloc_die), where it is not 1.
OUT_OF_MEMORY_STATUS = {"sort": 2, "diff": 2, "cmp": 2, "grep": 2, "egrep": 2, "fgrep": 2, "awk": 2,
                        "gawk": 2, "patch": 2, "sed": 4, "jq": 5}


async def _out_of_memory(ctx: CommandContext, limits: "Limits", e: BaseException) -> int:
    """``CMD: memory limit exceeded (1G; limit memory_bytes; raise it with ...)``; a MemoryError
    (the host refused an allocation) reads as GNU's ``memory exhausted``."""
    if isinstance(e, memory.MemoryLimitExceeded):
        ceilings = getattr(ctx.sandbox, "ceilings", None)
        hint = limits.raise_hint("memory_bytes", ceilings=ceilings)
        await ctx.error(f"memory limit exceeded ({memory.size_text(e.limit)}; limit memory_bytes; {hint})")
    else:
        await ctx.error("memory exhausted")
    return OUT_OF_MEMORY_STATUS.get(ctx.name, 1)
