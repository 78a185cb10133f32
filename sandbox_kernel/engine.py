"""The one small interface between the kernel (or CLI) and the engines.

The kernel knows an engine only as ``await engine.run(cell, streams, limits) -> RunResult``
and the optional methods named in ``Engine``'s docstring (looked up with ``getattr``).
Engines never import each other; they reach shared state through the ``Sandbox`` they are
given at construction (its ``fs`` above all).
"""
from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable

from . import aio
from .lazy import TYPE_CHECKING
from .limits import Limits

if TYPE_CHECKING:
    from typing import Any, Protocol
else:
    Protocol = object  # (the protocols below are for the type checker: plain classes at run time)

# ErrorInfo, RunResult and Streams are plain classes, not dataclasses: the shell's start imports
# no ``dataclasses`` (tests/test_startup.py)


class ErrorInfo:
    def __init__(self, ename: str, evalue: str, traceback: list[str] | None = None) -> None:
        self.ename = ename
        self.evalue = evalue
        self.traceback: list[str] = [] if traceback is None else traceback

    def __repr__(self) -> str:
        return f"ErrorInfo(ename={self.ename!r}, evalue={self.evalue!r}, traceback={self.traceback!r})"


class RunResult:
    def __init__(self, status: int = 0, error: ErrorInfo | None = None, value: dict[str, Any] | None = None) -> None:
        #: Exit status: 0 success, 124 wall time, 130 interrupt, 2 syntax error, ...
        self.status = status
        #: Set when the run should be reported as an error (non-zero status, exception, interrupt).
        self.error = error
        #: A MIME bundle for ``execute_result`` (e.g. a JS cell's last value); None shows nothing.
        self.value = value

    def __repr__(self) -> str:
        return f"RunResult(status={self.status!r}, error={self.error!r}, value={self.value!r})"


class CancelToken:
    """Set once (from any thread, or a signal handler) to stop the current run.

    ``reason`` is ``"interrupt"``, ``"timeout"`` or ``"memory"``. Engines poll ``is_set()`` in
    loops that never await, await ``wait()`` where they block, and may register ``on_cancel``
    callbacks (called in the thread that cancels) to poke something external (a wasm engine, a VM).
    """

    #: the run's memory safety net (``memory.RunMemory``), set by ``Sandbox.run`` while it runs
    memory: Any = None

    def __init__(self) -> None:
        self.reason: str | None = None
        self._callbacks: list[Callable[[str], None]] = []
        self._lock = threading.Lock()
        self._waiters: list[tuple[Any, Any]] = []  # (loop, asyncio.Event)

    def is_set(self) -> bool:
        return self.reason is not None

    def set(self, reason: str = "interrupt") -> None:
        with self._lock:
            if self.reason is not None:
                return
            self.reason = reason
            callbacks = list(self._callbacks)
            waiters = list(self._waiters)
        for cb in callbacks:
            try:
                cb(reason)
            except Exception:  # a callback must never break cancellation
                pass
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # loop closed
                pass

    def check_memory(self) -> None:
        """Set the token (reason ``"memory"``) when the run's process grew past its memory
        limit. Cheap: the net reads the process's memory at most every few milliseconds."""
        net = self.memory
        if net is not None and self.reason is None and net.exceeded():
            self.set("memory")

    def on_cancel(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Register a callback; returns a function that unregisters it."""
        with self._lock:
            fire_now = self.reason is not None
            if not fire_now:
                self._callbacks.append(callback)
        if fire_now:
            callback(self.reason)  # type: ignore[arg-type]

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)
        return remove

    async def wait(self) -> str:
        """Block until set; returns the reason."""
        await aio.need_loop()
        import asyncio  # with the loop (aio.py)

        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        with self._lock:
            if self.reason is not None:
                return self.reason
            entry = (loop, event)
            self._waiters.append(entry)
        try:
            await event.wait()
        finally:
            with self._lock:
                if entry in self._waiters:
                    self._waiters.remove(entry)
        return self.reason  # type: ignore[return-value]


class OutputSink(Protocol):
    """Where an engine writes stdout or stderr. Thread-safe, never blocks, never raises.
    Optional: ``screen``, "notebook" or "terminal" when a person reads what is written
    (``ls`` writes columns there; ``clear`` clears it)."""

    def write(self, data: bytes) -> None: ...


#: ``display(data, metadata, display_id, update)``
DisplayFunc = Callable[[dict, dict | None, str | None, bool], None]  # no quotes: a string here is compile()d


class Streams:
    """What an engine gets for one run."""

    def __init__(self, stdout: OutputSink, stderr: OutputSink, cancel: CancelToken,
                 input: Callable[[str, bool], Awaitable[str | None]] | None = None,
                 display: DisplayFunc | None = None,
                 keep: Callable[[], Callable[[], None]] | None = None) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.cancel = cancel
        #: ``await input(prompt, password)`` -> a line without newline, or None at end of input.
        self.input = input
        #: ``display(data, metadata, display_id, update)`` sends display_data / update_display_data.
        self.display = display
        #: For an engine that goes on writing to these streams after ``run`` returned (the
        #: shell's background jobs): ``release = keep()`` before it returns, ``release()`` once
        #: done; the kernel keeps the cell's output open (sent under that cell) until then.
        #: None: the streams need no keeping (they stay usable).
        self.keep = keep


class TerminalError(Exception):
    """A terminal could not be opened (no VM image, no QEMU, set-up failed); the message says why."""


class Terminal(Protocol):
    """A shell on a pseudo-terminal from an engine's ``open_terminal(rows, cols, on_output,
    progress)``: keys in with ``write`` (raw bytes, the guest's line discipline edits), the
    output to ``on_output(bytes)``; ``wait`` gives the exit status, ``close`` ends the shell
    and everything it started."""

    def write(self, data: bytes) -> None: ...

    async def resize(self, rows: int, cols: int) -> None: ...

    async def wait(self) -> int: ...

    async def close(self) -> None: ...


class Engine(Protocol):
    """Optional: ``async prepare(cell, streams, limits, args) -> RunResult | None``, awaited before the cell's
    wall time starts (set-up that is not the cell's: the VM's image build and boot); a
    RunResult ends the run there. Engines whose cell magic takes options accept them as
    ``run(cell, streams, limits, args)``. Engines with a real terminal (the VM) offer
    ``async open_terminal(rows, cols, on_output, progress) -> Terminal`` (TerminalError).

    For the notebook's editor, each optional, each given a cell's body (its magic lines blank)
    and a cursor in it: ``is_complete(code) -> (status, indent)`` (is_complete_request);
    ``async complete(code, cursor) -> (start, matches)`` (Tab: ``start`` is where the text the
    matches replace begins); ``async inspect(code, cursor) -> str | None`` (Shift-Tab; None:
    nothing to say). They must answer within a second or two without blocking the event loop,
    run nothing of the user's that has effects, bound their answers, and answer nothing rather
    than wait for a running cell."""

    name: str

    async def run(self, cell: str, streams: Streams, limits: Limits) -> RunResult: ...

    async def shutdown(self) -> None: ...
