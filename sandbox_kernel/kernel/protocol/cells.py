"""A cell from its text to its outcome: line magics first, then the body in its engine,
supervised so that an interrupt or a time-out always ends it with a reply."""
from __future__ import annotations

import asyncio
import inspect
import logging
import textwrap
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from ...commands import registry
from ...engine import CancelToken, ErrorInfo, RunResult, Streams
from ...sandbox import EngineUnavailable, Sandbox
from ...shell.histexpand import HistoryError
from . import magics

#: Seconds an engine gets to stop by itself after an interrupt or time-out before the kernel
#: cancels the cell's task.
STOP_GRACE = 2.0


@dataclass
class CellOutcome:
    result: RunResult
    payload: list[dict] = field(default_factory=list)


class CellRunner:
    """Runs cells in one sandbox; also answers the help and cwd questions the kernel's other
    handlers ask of the shell."""

    def __init__(self, sandbox: Sandbox, log: logging.Logger) -> None:
        self.sandbox = sandbox
        self.log = log
        #: ``%workspace ARGS`` (``HostFiles.workspace_magic(argv, ask)``; None: no host files, as in tests)
        self.workspace: Callable[[list[str], Callable[[str], Awaitable[str | None]] | None],
                                 Awaitable[str]] | None = None

    async def run(self, code: str, streams: Streams) -> CellOutcome:
        """The cell's outcome; always returns, also when the engine ignores cancellation."""
        return await self._supervise(self._run_cell(code, streams), streams.cancel)

    async def _supervise(self, coro, cancel: CancelToken) -> CellOutcome:
        """Await the cell; once it is cancelled (interrupt or time-out) give the engine
        STOP_GRACE seconds to stop, then cancel its task. Always returns an outcome."""
        task = asyncio.ensure_future(coro)
        limits = self.sandbox.limits
        cancelled_at: float | None = None
        while True:
            done, _ = await asyncio.wait({task}, timeout=0.1)
            if done:
                break
            now = time.monotonic()
            started = self.sandbox.clock_started  # None during magics and an engine's set-up
            if not cancel.is_set() and started is not None and now - started > limits.wall_time + STOP_GRACE:
                cancel.set("timeout")  # backstop if the engine's own timer could not fire
            if cancel.is_set():
                if cancelled_at is None:
                    cancelled_at = now
                elif now - cancelled_at > STOP_GRACE:
                    task.cancel()
                    done, _ = await asyncio.wait({task}, timeout=STOP_GRACE)
                    if not done:
                        self.log.error("engine did not stop after cancellation")
                        return CellOutcome(cancelled_result(cancel, limits, stuck=True,
                                                            ceilings=self.sandbox.policy.ceilings))
                    break
        try:
            return task.result()
        except asyncio.CancelledError:
            return CellOutcome(cancelled_result(cancel, limits, ceilings=self.sandbox.policy.ceilings))

    async def _run_cell(self, code: str, streams: Streams) -> CellOutcome:
        try:
            cell = magics.parse_cell(code)
        except magics.MagicError as e:
            return CellOutcome(usage_error(str(e)))
        outcome = CellOutcome(RunResult())
        for name, args in cell.line_magics:
            if streams.cancel.is_set():
                return CellOutcome(cancelled_result(streams.cancel, self.sandbox.limits,
                                                    ceilings=self.sandbox.policy.ceilings))
            try:
                await self._line_magic(name, args, streams, outcome)
            except magics.MagicError as e:
                return CellOutcome(usage_error(f"%{name}: {e}"))
            except OSError as e:  # VFS errors of %save / %load
                where = f"{e.filename}: " if getattr(e, "filename", None) else ""
                return CellOutcome(usage_error(f"%{name}: {where}{e.strerror or e}", "FileError"))
        if cell.has_code:
            body, print_only = cell.body, False
            if cell.engine == "sh":
                shell = self.sandbox.engine("sh")
                # after `set -H`, !! and the rest of bash's history expansion (the terminal's too)
                expand = getattr(shell, "expand_history", None)
                if expand is not None:
                    try:
                        expanded, print_only = expand(body)
                    except HistoryError as e:
                        streams.stderr.write(f"bash: {e.message}\n".encode("utf-8", "replace"))
                        return CellOutcome(RunResult(1, ErrorInfo("HistoryExpansion", e.message,
                                                                  [f"HistoryExpansion: {e.message}"])))
                    if expanded != body:
                        streams.stderr.write((expanded + "\n").encode("utf-8", "replace"))
                        body = expanded
                # the shell's `history` lists the cells run, as bash lists the lines typed
                add_history = getattr(shell, "add_history", None)
                if print_only and add_history is not None:  # !!:p - shown and recorded, not run
                    add_history(body)
                    return outcome
                if add_history is not None:
                    add_history(body)
            value = outcome.result.value
            outcome.result = await self.sandbox.run(cell.engine, body, streams, self.sandbox.limits, cell.args)
            outcome.result.value = outcome.result.value or value
        return outcome

    async def _line_magic(self, name: str, args: str, streams: Streams, outcome: CellOutcome) -> None:
        sandbox = self.sandbox
        if name == "limits":
            trial, changed = magics.parse_limits(sandbox.limits, magics.split_args(args))
            try:
                sandbox.update_limits(trial, changed)
            except ValueError as e:
                raise magics.MagicError(str(e)) from None
            if changed:
                streams.stdout.write("".join(f"{n} = {sandbox.limits.shown(n)}\n" for n in changed).encode())
            else:
                outcome.result.value = magics.limits_bundle(sandbox.limits, sandbox.policy.ceilings)
        elif name in ("save", "load"):
            argv = magics.split_args(args)
            if len(argv) != 1:
                raise magics.MagicError(f"usage: %{name} PATH.tar")
            cwd = self.cwd()
            check = self._magic_check(streams.cancel)
            if name == "save":
                count = magics.save_snapshot(sandbox.fs, argv[0], cwd, check)
                streams.stdout.write(f"saved {count} entries to {argv[0]}\n".encode())
            else:
                notes: list[str] = []
                count = magics.load_snapshot(sandbox.fs, argv[0], cwd, check, notes)
                streams.stdout.write(f"restored {count} entries from {argv[0]}\n".encode())
                streams.stderr.write("".join(f"[sandbox: {note}]\n" for note in notes).encode())
        elif name == "workspace":
            if self.workspace is None:
                raise magics.MagicError("this kernel has no persistent workspace")
            ask = None
            if streams.input is not None:
                read = streams.input

                async def ask(prompt: str) -> str | None:
                    return await read(prompt, False)
            try:
                listing = await self.workspace(magics.split_args(args), ask)
            except ValueError as e:  # workspaces.WorkspaceUsage
                raise magics.MagicError(str(e)) from None
            streams.stdout.write(listing.encode())
        elif name == "lsmagic":
            streams.stdout.write(magics.magic_list().encode())
        elif name == "magic":
            overview = magics.MAGIC_OVERVIEW + magics.magic_list()
            outcome.payload.append({"source": "page", "data": {"text/plain": overview}, "start": 0})
        elif name == "help":
            argv = magics.split_args(args)
            if len(argv) > 1:
                raise magics.MagicError("usage: %help [NAME]")
            text = self.help_text(argv[0]) if argv else self.help_overview()
            if text is None:
                raise magics.MagicError(f"no help for '{argv[0]}'")
            outcome.payload.append({"source": "page", "data": {"text/plain": text}, "start": 0})
        elif name in ("js", "python", "vm"):
            try:
                engine = sandbox.engine(name)
            except EngineUnavailable as e:
                raise magics.MagicError(str(e)) from None
            handler = getattr(engine, "magic", None)
            if handler is None:
                raise magics.MagicError(f"the {name} engine has no line magics")
            try:  # engines report bad magic arguments as ValueError (they can't import ours)
                text = handler(args)
                if inspect.isawaitable(text):
                    text = await text
            except ValueError as e:
                raise magics.MagicError(str(e)) from None
            if isinstance(text, dict):  # a MIME bundle (e.g. %vm egress's table)
                outcome.result.value = text
            elif text:
                streams.stdout.write((str(text).rstrip("\n") + "\n").encode())

    def _magic_check(self, cancel: CancelToken):
        """For magics that work without awaiting (%save, %load): they obey the interrupt and the
        wall time like a cell; ``check()`` raises MagicError once either has come."""
        limits, ceilings = self.sandbox.limits, self.sandbox.policy.ceilings
        deadline = time.monotonic() + limits.wall_time

        def check() -> None:
            if cancel.is_set():
                raise magics.MagicError("interrupted; nothing was changed")
            if time.monotonic() > deadline:
                raise magics.MagicError(f"wall time limit of {limits.wall_time:g} s exceeded; nothing was "
                                        f"changed; {limits.raise_hint('wall_time', ceilings=ceilings)}")
        return check

    # ------------------------------------------------------------------ shell helpers
    def shell(self):
        """The shell engine, or None when it cannot be created."""
        try:
            return self.sandbox.engine("sh")
        except EngineUnavailable:
            return None

    def cwd(self) -> str:
        shell = self.shell()
        try:
            return shell.cwd() if shell is not None else "/workspace"
        except Exception:
            return "/workspace"

    def help_text(self, name: str) -> str | None:
        """A magic's help and the command's or builtin's of the same name (``vm`` is both)."""
        if name.startswith("%"):
            return magics.magic_help(name.lstrip("%"))
        parts = []
        magic = magics.magic_help(name)
        if magic:
            parts.append(magic)
        shell = self.shell()
        text = shell.builtin_help(name) if shell is not None else None
        if not text:
            spec = registry.lookup(name)
            text = spec.help if spec is not None and spec.help else None
        if text:
            parts.append((f"The shell command {name}:\n" if magic else "") + text)
        return "\n\n".join(parts) or None

    def help_overview(self) -> str:
        """%help with no name: where help is, and every name it knows."""
        commands = " ".join(registry.names())
        return ("%help NAME shows the help of a command, a shell builtin or a magic; so do\n"
                "`help NAME` (builtins) and `NAME --help` (commands) in a shell cell.\n\n"
                + magics.magic_list()
                + "\nCommands:\n" + textwrap.fill(commands, 88, initial_indent="  ", subsequent_indent="  ")
                + "\n\nShell builtins: `help` in a shell cell lists them.\n")


def usage_error(message: str, ename: str = "UsageError") -> RunResult:
    return RunResult(2, ErrorInfo(ename, message, [f"{ename}: {message}"]))


def cancelled_result(cancel: CancelToken, limits, stuck: bool = False, ceilings=None) -> RunResult:
    note = " (the engine did not stop; state may be inconsistent)" if stuck else ""
    if cancel.reason == "timeout":
        hint = limits.raise_hint("wall_time", ceilings=ceilings)
        msg = f"wall time limit of {limits.wall_time:g} s exceeded{note}; {hint}"
        return RunResult(124, ErrorInfo("Timeout", msg, [f"Timeout: {msg}"]))
    if cancel.reason == "memory":
        msg = f"memory limit of {limits.shown('memory_bytes')} exceeded{note}; " + limits.raise_hint(
            "memory_bytes", ceilings=ceilings)
        return RunResult(1, ErrorInfo("LimitExceeded", msg, [f"LimitExceeded: {msg}"]))
    msg = f"interrupted{note}"
    return RunResult(130, ErrorInfo("Interrupted", msg, [f"Interrupted: {msg}"]))
