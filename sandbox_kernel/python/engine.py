"""PythonEngine: `%%python` cells and the `python3`/`python` commands, CPython in wasmtime on the VFS.

Cells share one persistent interpreter, driven by a dedicated worker thread so that a long
computation never blocks the kernel's asyncio loop; stdout and stderr go straight from that
thread to the thread-safe sinks while the cell runs. Each `python3` command gets a fresh
interpreter on its own thread (like a process), so pipelines of several Python commands work.

The interpreter reads and writes the VFS itself (``wasi.py``): no copy in or out per cell.
Compiling the module to native code is set-up (``prepare``, before the cell's clock), shown in
place as the VM's image build is; the code is cached for every kernel of the host
(``artifact.py``).
"""
from __future__ import annotations

import asyncio
import threading
import time

from .. import memory
from ..engine import ErrorInfo, RunResult, Streams
from ..limits import Limits, format_size
from ..wasm_engine import CellStreams, CommandStreams, GuestIO, WasmEngine
from ..workers import Worker, spawn
from . import artifact
from .runtime import InstanceDead, PyInstance, RunIO

#: completion and inspection: the kernel waits at most INTROSPECT_WAIT for an answer; the guest
#: is stopped after INTROSPECT_DEADLINE; at most MAX_MATCHES names, MAX_INSPECTION characters
INTROSPECT_DEADLINE = 1.0
INTROSPECT_WAIT = 3.0
MAX_MATCHES = 1000
MAX_INSPECTION = 4000
#: how often the set-up progress is re-rendered with the elapsed time
SETUP_TICK = 1.0
#: the compiled code's pages the process may touch, counted as allowed while an instance lives
CODE_ALLOWANCE = 320 << 20
LOST = ("the variables, functions, classes and imports of earlier %%python cells are gone "
        "(files written to the workspace are kept)")

_COMPILE_LOCK = threading.Lock()


class _BaseIO(GuestIO, RunIO):
    def pause(self, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while not self.cancelled():
            left = min(end, self.deadline + 0.01) - time.monotonic()
            if left <= 0:
                break
            self.wake.wait(min(left, 0.25))
        return self.cancelled() is not None

    def sleep(self, seconds: float) -> None:  # WASI poll_oneoff (select() with a timeout)
        self.pause(min(seconds, 3600.0))


class CellIO(CellStreams, _BaseIO):
    """I/O of a `%%python` cell: the kernel's streams."""


class CommandIO(CommandStreams, _BaseIO):
    """I/O of a `python3` command: the pipeline's streams."""

    def __init__(self, ctx, loop, wall_time: float) -> None:
        super().__init__(ctx, loop, wall_time)
        self.broken_pipe = False
        self.ttys = frozenset(fd for fd, stream in ((0, ctx.stdin), (1, ctx.stdout), (2, ctx.stderr))
                              if _isatty(stream))

    def write_failed(self, broken: bool) -> None:
        self.broken_pipe = self.broken_pipe or broken
        self.stop("pipe")

    def read_all_stdin(self) -> bytes:
        chunks = []
        while True:
            more = self._read_more()
            if not more:
                return b"".join(chunks)
            chunks.append(more)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except Exception:
        return False


def _env_for(env: dict | None, home: str = "/home/user") -> dict[str, str]:
    out = {"HOME": home, "USER": "user", "LANG": "C.UTF-8", "PATH": "/usr/local/bin:/usr/bin:/bin"}
    for k, v in (env or {}).items():
        if isinstance(k, str) and isinstance(v, str) and "=" not in k and "\0" not in k + v:
            out[k] = v
    return out


class PythonEngine(WasmEngine):
    name = "python"
    label = "Python"

    def __init__(self, sandbox) -> None:
        super().__init__(sandbox, Worker("sandbox-python", artifact.THREAD_STACK))
        self.instance: PyInstance | None = None
        self._cells = 0
        #: why the interpreter was lost outside a cell (told by the next cell)
        self._lost: str | None = None
        self._memory_limit = getattr(sandbox.limits, "python_memory_bytes", 1 << 30)

    # ------------------------------------------------------------------ set-up
    async def prepare(self, cell: str, streams: Streams, limits: Limits, args=None) -> RunResult | None:
        """Set-up before the cell's wall time starts: the module's native code, compiled once
        per host (minutes) with progress shown in place; None when ready."""
        try:
            artifact.find()
        except artifact.ArtefactMissing as e:
            streams.stderr.write(f"python: {e}\n".encode())
            return RunResult(1, ErrorInfo("EngineUnavailable", str(e), [str(e)]))
        if artifact.is_compiled():
            return None
        return await compile_with_progress(streams)

    def _env(self) -> dict[str, str]:
        try:
            return _env_for(dict(self.sandbox.environment()) if "sh" in self.sandbox.engines else None)
        except Exception:
            return _env_for(None)

    def _new_instance(self, memory_limit: int, args: list[str] | None = None) -> PyInstance:
        instance = PyInstance(self.sandbox.fs, memory_limit, args)
        memory.hold(id(instance), lambda: instance.memory_bytes() + CODE_ALLOWANCE)
        return instance

    def _drop(self, instance: PyInstance | None) -> None:
        if instance is not None:
            memory.hold(id(instance), None)
            instance.close()

    # ------------------------------------------------------------------ cells
    async def run(self, cell: str, streams: Streams, limits: Limits) -> RunResult:
        if self._closed:
            return RunResult(1, ErrorInfo("EngineClosed", "the Python engine has been shut down"))
        loop = asyncio.get_running_loop()
        io = CellIO(streams, loop, limits.wall_time)
        self._cells += 1
        job = {"kind": "cell", "code": cell, "filename": f"<cell {self._cells}>", "cwd": self._cwd(),
               "env": self._env()}

        def poke(reason: str) -> None:
            io.stop(reason)
            inst = self.instance
            if inst is not None:
                inst.stop()

        outcome = await self._run_cell_job(streams, lambda: self._run_cell(job, io, limits), poke)
        return self._result(outcome, limits)

    def _run_cell(self, job: dict, io: CellIO, limits: Limits):
        notices: list[str] = []
        if self._lost:
            notices.append(self._lost)
            self._lost = None
        limit = getattr(limits, "python_memory_bytes", self._memory_limit)
        self._memory_limit = limit
        try:
            if self.instance is None or self.instance.dead:
                self.instance = self._new_instance(limit)
            elif self.instance.memory_limit != limit:
                self.instance.memory_limit = limit
                self.instance.store.set_limits(memory_size=limit)
            if io.cancelled():
                return {"interrupted": io.cancelled()}, notices
            outcome = self.instance.job(job, io)
            if io.reason is not None:
                outcome["reason"] = io.reason  # a KeyboardInterrupt the interrupt or the wall time caused
        except InstanceDead as e:
            dead, self.instance = self.instance, None
            self._drop(dead)
            outcome = {"status": 1, "dead": e.reason, "message": str(e), "code": e.code}
            if e.reason in ("interrupt", "timeout", "memory"):
                outcome["interrupted"] = io.cancelled() or e.reason
            notices.append(f"[python: {e}; the interpreter was restarted: {LOST}]")
        except artifact.ArtefactMissing as e:
            outcome = {"status": 1, "error": {"ename": "EngineUnavailable", "evalue": str(e), "traceback": []}}
        except Exception as e:  # a host bug: report it, and don't trust the interpreter any more
            dead, self.instance = self.instance, None
            self._drop(dead)
            outcome = {"status": 1, "error": {"ename": "InternalError", "traceback": [],
                                              "evalue": f"Python host error: {type(e).__name__}: {e}"}}
            notices.append(f"[python: the interpreter was restarted after an internal error: {LOST}]")
        return outcome, notices

    def _result(self, outcome: dict, limits: Limits) -> RunResult:
        value = outcome.get("value")
        value = value if isinstance(value, dict) and value else None
        interrupted = outcome.get("interrupted")
        error = outcome.get("error")
        if interrupted == "timeout":
            msg = self._timeout_message(limits)
            return RunResult(124, ErrorInfo("Timeout", msg, [f"Timeout: {msg}"]))
        if interrupted:
            return RunResult(130, ErrorInfo("KeyboardInterrupt", "interrupted", ["KeyboardInterrupt"]))
        if outcome.get("dead"):
            reason, message = outcome["dead"], outcome.get("message", "")
            if reason == "exit":
                return RunResult(outcome.get("code") or 0, ErrorInfo("SystemExit", message, [message]))
            if reason == "stack":
                return RunResult(1, ErrorInfo("RecursionError", message, [f"RecursionError: {message}"]))
            return RunResult(1, ErrorInfo("SystemError", message, [f"SystemError: {message}"]))
        if isinstance(error, dict):
            ename = str(error.get("ename", "Error"))
            evalue = str(error.get("evalue", ""))
            tb = error.get("traceback")
            lines = [str(x) for x in tb] if isinstance(tb, list) else []
            if ename == "MemoryError":
                note = self._memory_note(limits)
                evalue = f"{evalue} ({note})" if evalue else note
                lines.append(f"(MemoryError: {note})")
            status = outcome.get("status")
            if ename == "KeyboardInterrupt":
                if outcome.get("reason") == "timeout":
                    msg = self._timeout_message(limits)
                    return RunResult(124, ErrorInfo("Timeout", msg, lines + [f"Timeout: {msg}"]))
                return RunResult(130, ErrorInfo(ename, evalue, lines), value)
            return RunResult(status if isinstance(status, int) and 0 < status < 256 else 1,
                             ErrorInfo(ename, evalue, lines), value)
        return RunResult(0, None, value)

    def _memory_note(self, limits: Limits) -> str:
        limit = getattr(limits, "python_memory_bytes", self._memory_limit)
        return (f"the Python memory limit is {format_size(limit)}: python_memory_bytes; "
                f"{self._hint(limits, 'python_memory_bytes')}")

    # ------------------------------------------------------------------ commands
    async def run_command(self, ctx) -> int:
        from .cmdline import Exit, parse

        if ctx.name in ("pip", "pip3"):
            from .cmdline import pip
            done = pip(list(ctx.args), artifact.packages())
            if done.stdout:
                await ctx.out(done.stdout)
            if done.stderr:
                await ctx.err(done.stderr)
            return done.status
        plan = parse(list(ctx.args))
        if isinstance(plan, Exit):
            if plan.stdout:
                await ctx.out(plan.stdout)
            if plan.stderr:
                await ctx.err(plan.stderr)
            return plan.status
        if plan.mode == "file":
            path = ctx.resolve(plan.target)
            if not ctx.fs.exists(path):
                await ctx.err(f"{ctx.name}: can't open file {path!r}: [Errno 2] No such file or directory\n")
                return 2
            if ctx.fs.is_dir(path):
                await ctx.err(f"{ctx.name}: can't find '__main__' module in {plan.target!r}\n")
                return 1
        try:
            artifact.find()
        except artifact.ArtefactMissing as e:
            await ctx.error(str(e))
            return 1
        if not artifact.is_compiled():
            await ctx.err("python: compiling CPython for wasmtime (once per host; a few minutes)...\n")
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, _compile_locked, None)
        loop = asyncio.get_running_loop()
        limits: Limits = getattr(ctx.sandbox, "limits", None) or Limits()
        io = CommandIO(ctx, loop, limits.wall_time)
        code = None
        if plan.mode == "stdin":
            code = (await ctx.stdin.read()).decode("utf-8", "replace")
        job = {"kind": "main", "mode": plan.mode, "target": plan.target, "argv": plan.argv, "code": code,
               "cwd": ctx.cwd, "env": _env_for(dict(ctx.env))}
        holder: dict = {}
        limit = getattr(limits, "python_memory_bytes", self._memory_limit)

        def work():
            instance = None
            try:
                instance = self._new_instance(limit, [ctx.name, *ctx.args])
                holder["instance"] = instance
                if io.cancelled():
                    return {"status": 130, "interrupted": io.cancelled()}
                return instance.job(job, io)
            except InstanceDead as e:
                if e.reason == "exit":
                    return {"status": (e.code or 0) & 0xFF}
                if e.reason in ("interrupt", "timeout"):
                    return {"status": 130, "interrupted": io.cancelled() or e.reason}
                return {"status": 1, "message": str(e)}
            except Exception as e:  # a host bug: an error message, never a traceback
                return {"status": 1, "message": f"Python host error: {type(e).__name__}: {e}"}
            finally:
                holder.pop("instance", None)
                self._drop(instance)

        def stop(reason: str) -> None:
            io.stop(reason)
            inst = holder.get("instance")
            if inst is not None:
                inst.stop()

        outcome: dict = await self._run_command_job(ctx, _spawn(work), stop)
        if io.broken_pipe:
            return 141
        if outcome.get("interrupted") == "timeout" or io.reason == "timeout":
            await ctx.error(f"wall-time limit ({limits.wall_time:g} s) exceeded")
            return 124
        if outcome.get("message"):
            await ctx.err(f"{ctx.name}: {outcome['message']}\n")
        status = outcome.get("status", 1)
        return status if isinstance(status, int) else 1

    # ------------------------------------------------------------------ completion
    async def complete(self, code: str, cursor: int) -> tuple[int, list[str]]:
        """Tab: names from the live interpreter (rlcompleter over the cell's globals; after a
        dot, attributes of a chain of plain names, no call evaluated). Nothing while a cell runs."""
        answer = await self._introspect({"kind": "complete", "code": code, "cursor": cursor})
        if not answer:
            return cursor, []
        matches = [m for m in answer.get("matches", []) if isinstance(m, str)][:MAX_MATCHES]
        start = answer.get("start", cursor)
        return (start if isinstance(start, int) and 0 <= start <= cursor else cursor), matches

    async def inspect(self, code: str, cursor: int) -> str | None:
        answer = await self._introspect({"kind": "inspect", "code": code, "cursor": cursor})
        text = answer.get("text") if answer else None
        if not isinstance(text, str) or not text:
            return None
        return text if len(text) <= MAX_INSPECTION else text[:MAX_INSPECTION] + "…"

    async def _introspect(self, job: dict) -> dict | None:
        if self._closed or self._jobs or not artifact.is_compiled():
            return None
        loop = asyncio.get_running_loop()
        io = _BaseIO(loop, INTROSPECT_DEADLINE)

        def work():
            try:
                if self.instance is None or self.instance.dead:
                    self.instance = self._new_instance(self._memory_limit)
                inst = self.instance
                timer = threading.Timer(INTROSPECT_DEADLINE, lambda: (io.stop("timeout"), inst.stop()))
                timer.daemon = True
                timer.start()
                try:
                    outcome = inst.job(job, io)
                finally:
                    timer.cancel()
                return outcome if not outcome.get("error") else None
            except InstanceDead as e:
                dead, self.instance = self.instance, None
                self._drop(dead)
                self._lost = f"[python: {e} (during a completion); the interpreter was restarted: {LOST}]"
                return None
            except Exception:
                return None

        return await self._answer(work, INTROSPECT_WAIT)

    @staticmethod
    def is_complete(code: str) -> tuple[str, str]:
        """(status, indent) for is_complete_request, by the kernel's own CPython's codeop
        (the code is compiled, never run)."""
        import codeop
        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiled = codeop.compile_command(code, "<cell>", "exec")
        except (SyntaxError, ValueError, OverflowError):
            return "invalid", ""
        if compiled is None:
            last = code.rstrip("\n").split("\n")[-1] if code.strip() else ""
            indent = last[:len(last) - len(last.lstrip())]
            if last.rstrip().endswith(":"):
                indent += "    "
            return "incomplete", indent
        return "complete", ""

    # ------------------------------------------------------------------ control
    def magic(self, args: str) -> str:
        """`%python reset` drops the interpreter; `%python` (or `%python info`) describes it."""
        words = args.split()
        if words[:1] == ["reset"]:
            dead, self.instance = self.instance, None
            self._drop(dead)
            return "Python state was reset: " + LOST.replace("are gone", "were dropped")
        if not words or words[:1] == ["info"]:
            inst = self.instance
            if inst is None or inst.dead:
                return f"Python: no interpreter yet ({artifact.WHEEL}: CPython 3.15 in wasmtime)"
            return (f"Python: CPython 3.15 ({artifact.WHEEL}) in wasmtime, memory {format_size(inst.memory_bytes())} "
                    f"of {format_size(self._memory_limit)}, {self._cells} cells run")
        raise ValueError(f"unknown %python subcommand '{words[0]}' (try: reset, info)")

    async def shutdown(self) -> None:
        self._closed = True
        inst = self.instance
        if inst is not None:
            inst.stop()
        self.instance = None
        self._drop(inst)
        self._worker.stop()


def _spawn(work) -> asyncio.Future:
    """Run ``work`` on a fresh big-stack thread (one per command: pipelines run concurrently)."""
    return spawn(work, "sandbox-python-cmd", artifact.THREAD_STACK)


def _compile_locked(progress) -> None:
    with _COMPILE_LOCK:
        artifact.compile_module(progress)


async def compile_with_progress(streams: Streams) -> RunResult | None:
    """The one-time compile, off the event loop, with its progress as one output updated in
    place (elapsed seconds); an interrupt stops waiting (the compile goes on for the next cell)."""
    display = streams.display
    display_id = f"python-setup-{time.monotonic_ns()}"
    started = time.monotonic()
    line = "python: compiling CPython for wasmtime (once per host: a few minutes; later kernels start at once)"
    shown = False

    def render(text: str) -> None:
        nonlocal shown
        if display is None:
            if not shown:
                streams.stderr.write((text + "\n").encode())
                shown = True
            return
        display({"text/plain": text}, {}, display_id, shown)
        shown = True

    render(line)
    loop = asyncio.get_running_loop()
    compiling = loop.run_in_executor(None, _compile_locked, None)
    cancelled = asyncio.ensure_future(streams.cancel.wait())
    try:
        while True:
            done, _ = await asyncio.wait({compiling, cancelled}, timeout=SETUP_TICK,
                                         return_when=asyncio.FIRST_COMPLETED)
            if compiling in done:
                break
            if cancelled in done:
                render(f"{line}: interrupted (the compile goes on in the background)")
                return RunResult(130, ErrorInfo("KeyboardInterrupt", "interrupted while Python was being set up", []))
            if display is not None:
                render(f"{line} ({time.monotonic() - started:.0f} s)")
        try:
            compiling.result()
        except Exception as e:
            render(f"{line}: failed")
            msg = f"the Python engine could not be set up: {type(e).__name__}: {e}"
            streams.stderr.write(f"python: {msg}\n".encode())
            return RunResult(1, ErrorInfo("EngineUnavailable", msg, [msg]))
        render(f"python: CPython compiled in {time.monotonic() - started:.0f} s (cached for every kernel of this host)")
        return None
    finally:
        cancelled.cancel()
