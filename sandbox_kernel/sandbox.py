"""Sandbox: one per kernel. Owns the VFS and the engines (shell, JS, VM)."""
from __future__ import annotations

import importlib
import threading
import time

from . import aio
from .engine import CancelToken, DisplayFunc, Engine, ErrorInfo, RunResult, Streams
from .lazy import TYPE_CHECKING
from .limits import DEFAULT_CEILINGS, Limits, check_ceiling, format_size
from .memory import MemoryBudget, RunMemory
from .vfs import VFS, make_vfs, normpath

if TYPE_CHECKING:
    from typing import Any

    from .policy import Policy

#: Engine name -> "module:Class"; each class is constructed as ``Class(sandbox)``.
ENGINE_FACTORIES: dict[str, str] = {
    "sh": "sandbox_kernel.shell.engine:ShellEngine",
    "js": "sandbox_kernel.js.engine:JsEngine",
    "python": "sandbox_kernel.python.engine:PythonEngine",
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

    def __init__(self, sink, limit: int, label: str, notice_sink=None, hint: str = "") -> None:
        self.sink = sink
        self.limit = limit
        self.label = label
        self.notice_sink = notice_sink or sink
        self.hint = hint
        self.written = 0
        self.truncated = False
        self._lock = threading.Lock()

    @property
    def screen(self) -> str | None:
        return getattr(self.sink, "screen", None)

    def take(self, size: int) -> bool:
        """Count ``size`` bytes of output that goes elsewhere (rich output): True when it fits,
        else the truncation notice is given once and False."""
        with self._lock:
            if self.truncated:
                return False
            if self.written + size <= self.limit:
                self.written += size
                return True
            self.written = self.limit
            self.truncated = True
        self._notice()
        return False

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
        self._notice()

    def _notice(self) -> None:
        self.notice_sink.write(
            f"\n[sandbox: {self.label} truncated at {self.limit} bytes (limit {self.label}_bytes"
            f"{'; ' + self.hint if self.hint else ''})]\n".encode())


def bundle_size(data: dict) -> int:
    """Bytes a MIME bundle adds to a notebook (what the output limit counts)."""
    import json  # for rich output only: not at start (tests/test_startup.py)

    size = 0
    for value in data.values():
        size += len(value) if isinstance(value, str) else len(json.dumps(value, default=str))
    return size


def counted_display(display: DisplayFunc | None, out: LimitedSink) -> DisplayFunc | None:
    """``display`` whose bundles count against the stdout limit like text does."""
    if display is None:
        return None

    def show(data: dict, metadata: dict | None = None, display_id: str | None = None,
             update: bool = False) -> None:
        if isinstance(data, dict) and out.take(bundle_size(data)):
            display(data, metadata, display_id, update)
    clear = getattr(display, "clear", None)
    if clear is not None:  # clear_output: the `display --clear` command needs it
        show.clear = clear  # type: ignore[attr-defined]
    return show


class Sandbox:
    """A sandboxed machine: one VFS, one shell session, lazily-started JS and VM engines."""

    def __init__(self, limits: Limits | None = None, seed: int | None = None,
                 policy: Policy | None = None) -> None:
        self.limits = limits or Limits()
        self._policy = policy
        self.seed = seed
        from .commands import names as command_names
        self.fs: VFS = make_vfs(self.limits.vfs_bytes, self.limits.vfs_inodes, command_names(), seed)
        self.engines: dict[str, Engine] = {}
        self._cancel: CancelToken | None = None
        self._closed = False
        #: The running run's ``Streams.display`` (None outside runs); the `display` command uses it.
        self.current_display: DisplayFunc | None = None
        #: The frontend's file editors (``await editors.edit(path)`` -> None once the editor was
        #: closed, else why it could not open; ``editors.available()``), set by the kernel when
        #: it has a JupyterLab panel to ask; None elsewhere. `nano FILE` uses it.
        self.editors: Any = None
        #: when the running cell's wall time started (after its engine's set-up), else None
        self.clock_started: float | None = None
        #: The one memory budget of the cell and every terminal's commands (memory.MemoryBudget).
        self.memory_budget = MemoryBudget()
        #: The pool of ``shell_memory_bytes`` all shells of this sandbox share (the notebook's and
        #: every terminal's), made by the first shell engine.
        self.shell_memory: Any = None
        #: The names of the files in the notebook's folder on the host, as the frontend told them
        #: (JupyterLab's extension, over the comm: names only, bounded, untrusted). The kernel never
        #: reads host files itself; `cat` of a missing file with one of these names says how to
        #: bring it in (``host_hint``).
        self.host_names: frozenset[str] = frozenset()

    def host_hint(self, path: str, cwd: str) -> str | None:
        """For a missing ``path``: how to bring it in when a file of that name is in the
        notebook's folder (``host_names``), else None. Only names under /workspace (the
        sandbox's counterpart of the notebook's folder) or relative names in it qualify."""
        if not self.host_names or not path:
            return None
        full = normpath(path, cwd)
        folder, _, name = full.rpartition("/")
        if folder != "/workspace" or name not in self.host_names:
            return None
        return (f"{name} is in the notebook's folder on the host, which the sandbox cannot see: copy it in "
                "from JupyterLab's file browser (drag it onto \"Sandbox files\", or right-click it: "
                "\"Copy into Sandbox\")")

    @property
    def policy(self) -> Policy:
        """The admin's decisions (network, active output); nothing a cell runs changes them.
        Without one, the defaults, made when first asked for: the CLI's runs need only the
        ceilings (``ceilings``), and policy.py's records load ``dataclasses`` (not at start)."""
        if self._policy is None:
            from .policy import Policy
            self._policy = Policy()
        return self._policy

    @policy.setter
    def policy(self, policy: Policy) -> None:
        self._policy = policy

    @property
    def ceilings(self) -> Limits:
        """The most ``%limits`` may raise each limit to: the policy's (those of Policy() without one)."""
        return DEFAULT_CEILINGS if self._policy is None else self._policy.ceilings

    # ----------------------------------------------------------------- engines
    def engine(self, name: str) -> Engine:
        """The engine called ``name``, created on first use; raises EngineUnavailable."""
        eng = self.engines.get(name)
        if eng is None:
            eng = self.engines[name] = self.new_engine(name)
        return eng

    def new_engine(self, name: str) -> Engine:
        """A new engine ``name`` over this sandbox, not the sandbox's own (a terminal's shell:
        the same files, its own variables); raises EngineUnavailable."""
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
        return eng

    @property
    def shell(self) -> Any:
        return self.engine("sh")

    def environment(self) -> dict[str, str]:
        """The shell's exported variables (what ``env`` prints)."""
        return self.shell.exported_env()

    def cwd(self) -> str:
        return self.shell.cwd()

    def update_limits(self, limits: Limits, names: list[str]) -> None:
        """Make ``limits`` this sandbox's (all or nothing): each changed limit within the admin's
        ceiling, VFS quotas applied at once and never below what the VFS already holds.
        Raises ValueError with the reason."""
        for name in names:
            check_ceiling(limits, self.ceilings, name)
        usage = self.fs.usage()
        if limits.vfs_bytes < usage["bytes_used"]:
            raise ValueError(f"vfs_bytes={limits.shown('vfs_bytes')} is below what the VFS holds "
                             f"({format_size(usage['bytes_used'])}B); remove files first")
        if limits.vfs_inodes < usage["inodes_used"]:
            raise ValueError(f"vfs_inodes={limits.vfs_inodes} is below the {usage['inodes_used']} "
                             "files and directories the VFS holds; remove some first")
        self.fs.max_bytes, self.fs.max_inodes = limits.vfs_bytes, limits.vfs_inodes
        for name in names:
            setattr(self.limits, name, getattr(limits, name))

    # ----------------------------------------------------------------- running
    async def run(self, engine_name: str, cell: str, streams: Streams,
                  limits: Limits | None = None, args: list[str] | None = None,
                  engine: Engine | None = None) -> RunResult:
        """Run ``cell`` in an engine with output limits and the wall-time limit applied.
        ``args`` (the cell magic's options) go to engines that take them. An engine's
        ``prepare`` (set-up such as building and booting a VM) runs before the clock starts.
        ``engine``: one from ``new_engine`` instead of the sandbox's own (its runs are not the
        sandbox's current run: ``interrupt`` and ``display`` stay with the notebook's)."""
        limits = limits or self.limits
        cancel = streams.cancel
        own = engine is None
        if own:
            self._cancel = cancel
        ceilings = self.ceilings
        out = LimitedSink(streams.stdout, limits.stdout_bytes, "stdout", streams.stderr,
                          limits.raise_hint("stdout_bytes", ceilings=ceilings))
        err = LimitedSink(streams.stderr, limits.stderr_bytes, "stderr",
                          hint=limits.raise_hint("stderr_bytes", ceilings=ceilings))
        display = counted_display(streams.display, out)
        previous_display = self.current_display
        if own:
            self.current_display = display
        limited = Streams(out, err, cancel, streams.input, display, streams.keep)
        timer = None
        try:
            try:
                eng = self.engine(engine_name) if engine is None else engine
            except EngineUnavailable as e:
                msg = str(e)
                err.write((msg + "\n").encode())
                return RunResult(1, ErrorInfo("EngineUnavailable", msg, [msg]))
            prepare = getattr(eng, "prepare", None)
            if prepare is not None:
                failed = await prepare(cell, limited, limits, args)
                if failed is not None:
                    return failed
            timer = aio.call_later(limits.wall_time, cancel.set, "timeout")
            # the memory safety net (memory.py): commands and the shell check it with the time
            outer_net, cancel.memory = cancel.memory, RunMemory(limits, self.fs, self.memory_budget, cancel)
            if own:
                self.clock_started = time.monotonic()
            refused = dict(self.fs.quota_refusals)
            if args is not None:
                result = await eng.run(cell, limited, limits, args)  # type: ignore[call-arg]
            else:
                result = await eng.run(cell, limited, limits)
            self._quota_notice(refused, limits, streams.stderr)
            return result
        finally:
            if timer is not None:
                timer.cancel()
                cancel.memory.end()
                cancel.memory = outer_net
            if own:
                self.clock_started = None
                self.current_display = previous_display
            if self._cancel is cancel:
                self._cancel = None

    def _quota_notice(self, before: dict[str, int], limits: Limits, stderr) -> None:
        """Once per run that met a full VFS quota: which limit, and how to raise it. The
        commands' own messages stay as GNU writes them (``No space left on device``)."""
        full = [name for name, count in self.fs.quota_refusals.items() if count > before.get(name, 0)]
        if not full:
            return
        size = format_size(self.fs.max_bytes)
        held = " and ".join((size + " bytes" if size.isdigit() else size) if name == "vfs_bytes" else
                            f"{self.fs.max_inodes} files and directories" for name in full)
        quotas = limits.replace(vfs_bytes=self.fs.max_bytes, vfs_inodes=self.fs.max_inodes)
        stderr.write(f"[sandbox: no space left: the sandbox's files may take {held} (limit "
                     f"{' and '.join(full)}; {quotas.raise_hint(*full, ceilings=self.ceilings)})]\n"
                     .encode())

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
