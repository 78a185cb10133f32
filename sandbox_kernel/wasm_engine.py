"""What the two wasm engines (`%%js`, `%%python`) share: the I/O of a run between the guest on
a worker thread and the kernel's asyncio loop (``GuestIO``, with ``CellStreams`` for a cell and
``CommandStreams`` for a command in a pipeline), the engine's drivers (``WasmEngine``): a cell
on the engine's one worker, a command on a thread of its own, each stopped by an interrupt or
the wall time from the loop while the guest computes; and their compiled code's host-wide cache
and wasmtime settings."""
from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .engine import Streams
from .limits import Limits
from .workers import Worker

#: how often a waiting worker thread looks at the run's cancellation
POLL = 0.05
#: compiled code in the cache: readable by every uid (each kernel runs as its user)
SHARED_FILE_MODE = 0o644


def wasmtime_version() -> str:
    """The installed wasmtime-py version (its dist-info name: importlib.metadata takes ~25 ms),
    part of every cache key: compiled code only loads into the wasmtime that made it."""
    import wasmtime

    site = Path(wasmtime.__file__).resolve().parent.parent
    for info in site.glob("wasmtime-*.dist-info"):
        return info.name[len("wasmtime-"):-len(".dist-info")]
    from importlib.metadata import version
    return version("wasmtime")


def raise_async_stack_limit(cfg, size: int) -> bool:
    """wasmtime caps max_wasm_stack at async_stack_size, which wasmtime-py does not expose;
    the C API has the setter. False if it is missing (then the 2 MiB default applies)."""
    try:
        from wasmtime import _bindings

        setter = _bindings.dll.wasmtime_config_async_stack_size_set
        setter.restype = None
        setter.argtypes = [ctypes.POINTER(_bindings.wasm_config_t), ctypes.c_size_t]
        setter(cfg.ptr(), size)
        return True
    except Exception:
        return False


def store_compiled(path: Path, code: bytes) -> bool:
    """Put compiled code into the host-wide cache under a temporary name first, so no kernel
    ever loads half a file; False when the cache cannot be written (the caller keeps the code
    in memory)."""
    from .guest.build import make_shared_dir

    try:
        make_shared_dir(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(code)
        os.chmod(tmp, SHARED_FILE_MODE)
        os.replace(tmp, path)
        return True
    except OSError:
        return False


class GuestIO:
    """A run's I/O as the guest's host calls see it, on the worker thread: a deadline, a
    reason to stop (``stop`` from any thread), coroutines run on the kernel loop, stdin read
    through ``_read_more`` in chunks."""

    def __init__(self, loop: asyncio.AbstractEventLoop, wall_time: float) -> None:
        self.loop = loop
        self.deadline = time.monotonic() + wall_time
        self.wake = threading.Event()
        self.reason: str | None = None
        self._stdin_buf = b""

    def stop(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
        self.wake.set()

    def cancelled(self) -> str | None:
        if self.reason is None and time.monotonic() > self.deadline:
            self.reason = "timeout"
        return self.reason

    def _await(self, coro):
        """Run a coroutine on the kernel loop from the worker thread, giving up on cancel."""
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        while True:
            try:
                return future.result(timeout=POLL)
            except concurrent.futures.TimeoutError:
                if self.cancelled():
                    future.cancel()
                    return None

    def read_stdin(self, n: int) -> bytes:
        """Up to ``n`` bytes; b"" at the end (a terminal-like stdin: the next read asks again)."""
        if not self._stdin_buf:
            self._stdin_buf = self._read_more() or b""
        data, self._stdin_buf = self._stdin_buf[:n], self._stdin_buf[n:]
        return data

    def _read_more(self) -> bytes:
        return b""


class CellStreams(GuestIO):
    """A cell's I/O: the kernel's streams (thread-safe sinks), input() through the notebook,
    rich output handed to the loop one bundle at a time."""

    def __init__(self, streams: Streams, loop: asyncio.AbstractEventLoop, wall_time: float) -> None:
        super().__init__(loop, wall_time)
        self.streams = streams

    def write_stdout(self, data: bytes) -> None:
        self.streams.stdout.write(data)

    def write_stderr(self, data: bytes) -> None:
        self.streams.stderr.write(data)

    def cancelled(self) -> str | None:
        if self.reason is None and self.streams.cancel.is_set():
            self.reason = self.streams.cancel.reason
        return super().cancelled()

    def input(self, prompt: str, password: bool) -> str | None:
        if self.streams.input is None:
            return None
        return self._await(self.streams.input(prompt, password))

    def _read_more(self) -> bytes:
        line = self.input("", False)
        return b"" if line is None else (line + "\n").encode("utf-8", "surrogateescape")

    def display(self, data, metadata, display_id, update) -> None:
        """Hand the bundle to the kernel loop and wait until it is sent, so a display loop
        queues one bundle at a time in host memory."""
        self._on_loop(lambda show: show(data, metadata, display_id, update))

    def clear(self, wait: bool) -> None:
        self._on_loop(lambda show: getattr(show, "clear", lambda w: None)(wait))

    def _on_loop(self, act: Callable[[Any], None]) -> None:
        show = self.streams.display
        if show is None:
            return
        sent = threading.Event()

        def deliver() -> None:
            try:
                act(show)
            finally:
                sent.set()
        self.loop.call_soon_threadsafe(deliver)
        while not sent.wait(POLL) and not self.cancelled():
            pass


class CommandStreams(GuestIO):
    """A command's I/O: the pipeline's streams, written and read on the loop; a write that
    fails goes to ``write_failed`` (a closed pipe: ``broken``)."""

    def __init__(self, ctx, loop: asyncio.AbstractEventLoop, wall_time: float) -> None:
        super().__init__(loop, wall_time)
        self.ctx = ctx

    def _write(self, stream, data: bytes) -> None:
        try:
            self._await(stream.write(data))
        except BrokenPipeError:
            self.write_failed(True)
        except Exception:
            self.write_failed(False)

    def write_failed(self, broken: bool) -> None:
        self.stop("pipe")

    def write_stdout(self, data: bytes) -> None:
        self._write(self.ctx.stdout, data)

    def write_stderr(self, data: bytes) -> None:
        self._write(self.ctx.stderr, data)

    def _read_more(self) -> bytes:
        try:
            return self._await(self.ctx.stdin.read_some(65536)) or b""
        except Exception:
            return b""


class WasmEngine:
    """The part of the wasm engines that is not about their guest: the cell worker and its job
    count, the shell's cwd, limit hints, and the drivers that run a cell or a command while the
    loop stays free to interrupt it."""

    #: the engine as people name it in messages ("JS", "Python")
    label = "guest"

    def __init__(self, sandbox, worker: Worker) -> None:
        self.sandbox = sandbox
        self._worker = worker
        self._closed = False
        #: jobs given to the worker and not finished (a cell, a completion): completion asks
        #: nothing while one is
        self._jobs = 0

    def _cwd(self) -> str:
        """The shell's cwd; before the shell engine exists, where it will start."""
        if "sh" in self.sandbox.engines:
            try:
                return self.sandbox.cwd()
            except Exception:
                pass
        return "/workspace" if self.sandbox.fs.is_dir("/workspace") else "/"

    def _hint(self, limits: Limits, name: str) -> str:
        """How to raise limit ``name`` (within the admin's ceiling)."""
        return limits.raise_hint(name, ceilings=getattr(self.sandbox, "ceilings", None))

    def _timeout_message(self, limits: Limits) -> str:
        return (f"{self.label} run exceeded the wall-time limit ({limits.wall_time:g} s; limit wall_time; "
                f"{self._hint(limits, 'wall_time')})")

    def _submit(self, fn: Callable[[], Any]) -> asyncio.Future:
        """Give ``fn`` to the worker, counted in ``_jobs`` until it is done."""
        self._jobs += 1
        future = self._worker.submit(fn)
        future.add_done_callback(self._job_done)
        return future

    def _job_done(self, _future: asyncio.Future) -> None:
        self._jobs -= 1

    async def _run_cell_job(self, streams: Streams, work: Callable[[], tuple[Any, list[str]]],
                            poke: Callable[[str], None]) -> Any:
        """``work`` (returning an outcome and notices) on the worker; ``poke(reason)`` stops the
        guest on an interrupt; the notices go to stderr."""
        remove = streams.cancel.on_cancel(poke)
        future = self._submit(work)
        try:
            outcome, notices = await asyncio.shield(future)
        except asyncio.CancelledError:
            poke("interrupt")
            raise
        finally:
            remove()
        for line in notices:
            streams.stderr.write((line + "\n").encode())
        return outcome

    @staticmethod
    async def _run_command_job(ctx, future: asyncio.Future, stop: Callable[[str], None]) -> Any:
        """Wait for a command's ``future`` (its own thread), checking the pipeline's interrupt
        and wall time meanwhile: ``stop(reason)`` ends the guest, whose result is then waited for."""
        try:
            while not future.done():
                try:
                    await asyncio.wait_for(asyncio.shield(future), POLL)
                except asyncio.TimeoutError:
                    pass
                try:
                    ctx.check()
                except BaseException:
                    stop("interrupt")
                    await asyncio.shield(future)
                    raise
        except asyncio.CancelledError:
            stop("interrupt")
            raise
        return future.result()

    async def _answer(self, work: Callable[[], Any], wait: float) -> Any:
        """A completion's ``work`` on the worker, given up (None) after ``wait`` seconds."""
        future = self._submit(work)
        try:
            return await asyncio.wait_for(asyncio.shield(future), wait)
        except asyncio.TimeoutError:
            return None
