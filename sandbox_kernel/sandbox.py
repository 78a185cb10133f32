"""Sandbox: one per kernel. Owns the VFS and the engines (shell, JS, VM)."""
from __future__ import annotations

import asyncio
import importlib
import threading
from typing import Any

from .engine import CancelToken, Engine, ErrorInfo, RunResult, Streams
from .limits import Limits
from .policy import Policy
from .vfs import VFS, make_vfs

#: Engine name -> "module:Class"; each class is constructed as ``Class(sandbox)``.
ENGINE_FACTORIES: dict[str, str] = {
    "sh": "sandbox_kernel.shell.engine:ShellEngine",
    "js": "sandbox_kernel.js.engine:JsEngine",
    "vm": "sandbox_kernel.vm.engine:VmEngine",
}


class EngineUnavailable(Exception):
    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"the {name} engine is not available: {reason}")
        self.name = name
        self.reason = reason


class LimitedSink:
    """Counts bytes written to ``sink``; past ``limit`` drops the rest with one notice
    (written to ``notice_sink``). Thread-safe."""

    def __init__(self, sink, limit: int, label: str, notice_sink=None) -> None:
        self.sink = sink
        self.limit = limit
        self.label = label
        self.notice_sink = notice_sink or sink
        self.written = 0
        self.truncated = False
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            if self.truncated:
                return
            room = self.limit - self.written
            if len(data) <= room:
                self.written += len(data)
                self.sink.write(data)
                return
            if room > 0:
                self.sink.write(data[:room])
            self.written = self.limit
            self.truncated = True
        self.notice_sink.write(
            f"\n[sandbox: {self.label} truncated at {self.limit} bytes (limit {self.label}_bytes)]\n".encode())


class Sandbox:
    """A sandboxed machine: one VFS, one shell session, lazily-started JS and VM engines."""

    def __init__(self, limits: Limits | None = None, seed: int | None = None,
                 policy: Policy | None = None) -> None:
        self.limits = limits or Limits()
        #: The admin's decisions (network, active output); nothing a cell runs changes them.
        self.policy = policy or Policy()
        self.seed = seed
        from .commands import names as command_names
        self.fs: VFS = make_vfs(self.limits.vfs_bytes, self.limits.vfs_inodes, command_names(), seed)
        self.engines: dict[str, Engine] = {}
        self._cancel: CancelToken | None = None
        self._closed = False
        #: The running run's ``Streams.display`` (None outside runs); the `display` command uses it.
        self.current_display = None

    # ----------------------------------------------------------------- engines
    def engine(self, name: str) -> Engine:
        """The engine called ``name``, created on first use; raises EngineUnavailable."""
        eng = self.engines.get(name)
        if eng is not None:
            return eng
        target = ENGINE_FACTORIES.get(name)
        if target is None:
            raise EngineUnavailable(name, "no such engine")
        module_name, _, cls_name = target.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), cls_name)
        except (ImportError, AttributeError) as e:
            raise EngineUnavailable(name, f"{e}") from None
        try:
            eng = cls(self)
        except EngineUnavailable:
            raise
        except Exception as e:  # engine construction failed: report, never crash
            raise EngineUnavailable(name, f"{type(e).__name__}: {e}") from None
        self.engines[name] = eng
        return eng

    @property
    def shell(self) -> Any:
        return self.engine("sh")

    def environment(self) -> dict[str, str]:
        """The shell's exported variables (what ``env`` prints)."""
        return self.shell.exported_env()

    def cwd(self) -> str:
        return self.shell.cwd()

    # ----------------------------------------------------------------- running
    async def run(self, engine_name: str, cell: str, streams: Streams,
                  limits: Limits | None = None, args: list[str] | None = None) -> RunResult:
        """Run ``cell`` in an engine with output limits and the wall-time limit applied.
        ``args`` (the cell magic's options) go to engines that take them. An engine's
        ``prepare`` (set-up such as building and booting a VM) runs before the clock starts."""
        limits = limits or self.limits
        cancel = streams.cancel
        self._cancel = cancel
        previous_display, self.current_display = self.current_display, streams.display
        out = LimitedSink(streams.stdout, limits.stdout_bytes, "stdout", streams.stderr)
        err = LimitedSink(streams.stderr, limits.stderr_bytes, "stderr")
        limited = Streams(out, err, cancel, streams.input, streams.display)
        timer = None
        try:
            try:
                eng = self.engine(engine_name)
            except EngineUnavailable as e:
                msg = str(e)
                err.write((msg + "\n").encode())
                return RunResult(1, ErrorInfo("EngineUnavailable", msg, [msg]))
            prepare = getattr(eng, "prepare", None)
            if prepare is not None:
                failed = await prepare(limited)
                if failed is not None:
                    return failed
            timer = asyncio.get_running_loop().call_later(limits.wall_time, cancel.set, "timeout")
            if args is not None:
                return await eng.run(cell, limited, limits, args)  # type: ignore[call-arg]
            return await eng.run(cell, limited, limits)
        finally:
            if timer is not None:
                timer.cancel()
            self.current_display = previous_display
            if self._cancel is cancel:
                self._cancel = None

    def interrupt(self) -> None:
        """Stop the current run (thread- and signal-safe)."""
        token = self._cancel
        if token is not None:
            token.set("interrupt")

    async def shutdown(self) -> None:
        if self._closed:
            return
        self._closed = True
        for eng in list(self.engines.values()):
            try:
                await eng.shutdown()
            except Exception:
                pass
        self.engines.clear()
