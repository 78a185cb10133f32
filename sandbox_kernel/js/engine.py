"""JsEngine: `%%js` cells and the `js`/`node` commands, QuickJS-NG in wasmtime on the VFS.

Cells share one persistent JS context, driven by a dedicated worker thread so that a long
computation never blocks the kernel's asyncio loop; console output goes straight from that
thread to the thread-safe sinks while the cell runs. Each `js`/`node` command gets a fresh
context on its own thread (like a node process), so pipelines of several JS commands work.

Pending timers: a cell runs until its promises and timers are all done (a `setInterval` that
is never cleared therefore runs until the wall-time limit); timers still pending when a run
is interrupted or times out are cancelled, with a notice on stderr.
"""
from __future__ import annotations

import asyncio
import threading
import time

from ..engine import ErrorInfo, RunResult, Streams
from ..limits import Limits, format_size
from ..wasm_engine import CellStreams, CommandStreams, GuestIO, WasmEngine
from ..workers import Worker, spawn
from . import binary
from .completeness import is_complete
from .completion import KEYWORDS, completion_target, inspection_target
from .hostapi import HostApi, RunIO
from .introspect import Introspector
from .runtime import THREAD_STACK, CompiledModule, InstanceDead, JsInstance, Outcome, make_wasmtime_engine
from .transform import prepare_cell

#: completion and inspection: the JS they run is interrupted after INTROSPECT_DEADLINE seconds;
#: the kernel waits at most INTROSPECT_WAIT for an answer (which includes making the context
#: when no cell has yet); at most MAX_MATCHES names and MAX_INSPECTION characters are answered
INTROSPECT_DEADLINE = 0.5
INTROSPECT_WAIT = 3.0
MAX_MATCHES = 1000
MAX_INSPECTION = 4000

_COMPILED: CompiledModule | None = None
_COMPILED_LOCK = threading.Lock()


def compiled_module() -> CompiledModule:
    """The QuickJS module, compiled (or loaded from the cache) once per process."""
    global _COMPILED
    with _COMPILED_LOCK:
        if _COMPILED is None:
            _COMPILED = CompiledModule(binary.load())
        return _COMPILED


class _BaseIO(GuestIO, RunIO):
    def wait(self, seconds: float) -> None:
        self.wake.wait(max(0.0, min(seconds, self.deadline - time.monotonic() + 0.01)))


class CellIO(CellStreams, _BaseIO):
    """I/O of a `%%js` cell: the kernel's streams."""

    def __init__(self, streams: Streams, loop, cwd, sandbox, wall_time) -> None:
        super().__init__(streams, loop, wall_time)
        self.cwd, self.env, self.argv = cwd, None, ["/usr/bin/node"]
        self.sandbox = sandbox

    def load_env(self) -> dict[str, str]:
        """The shell's exported variables; read on the kernel loop (it may start the shell)."""
        async def exported() -> dict[str, str]:
            try:
                return dict(self.sandbox.environment())
            except Exception:  # no shell engine (yet): an empty environment
                return {}
        return self._await(exported()) or {}


class CommandIO(CommandStreams, _BaseIO):
    """I/O of a `js`/`node` command: the pipeline's streams."""

    def __init__(self, ctx, loop, argv, wall_time, api: HostApi) -> None:
        super().__init__(ctx, loop, wall_time)
        self.cwd, self.env, self.argv = ctx.cwd, dict(ctx.env), argv
        self.api = api

    def write_failed(self, broken: bool) -> None:
        self.api.request_exit(141 if broken else 1)


def _error_lines(err: dict) -> list[str]:
    head = f"{err.get('name', 'Error')}: {err.get('message', '')}"
    # frames of the prelude (fs, console...) are the sandbox's plumbing, not the user's code
    stack = [line for line in str(err.get("stack") or "").split("\n")
             if line.strip() and "(<prelude>" not in line]
    return [head, *stack]


class JsEngine(WasmEngine):
    name = "js"
    label = "JS"

    def __init__(self, sandbox) -> None:
        super().__init__(sandbox, Worker("sandbox-js", THREAD_STACK))
        self._compiled = compiled_module()
        self._facts = binary.load()
        self._memory_limit = sandbox.limits.wasm_memory_bytes
        self.api = HostApi(sandbox.fs, lambda: self._memory_limit)
        self.instance: JsInstance | None = None
        self._cells = 0
        #: why the context was lost outside a cell (told by the next cell)
        self._lost: str | None = None

    # ------------------------------------------------------------------ instances
    def _new_instance(self, api: HostApi, memory_limit: int) -> JsInstance:
        engine = make_wasmtime_engine()
        instance = JsInstance(engine, self._compiled.load(engine), self._facts, self.sandbox.fs,
                              api, memory_limit)
        api.instance = instance
        return instance

    # ------------------------------------------------------------------ cells
    async def run(self, cell: str, streams: Streams, limits: Limits) -> RunResult:
        if self._closed:
            return RunResult(1, ErrorInfo("EngineClosed", "the JS engine has been shut down"))
        loop = asyncio.get_running_loop()
        io = CellIO(streams, loop, self._cwd(), self.sandbox, limits.wall_time)
        self._cells += 1
        filename = f"<cell {self._cells}>"

        def poke(reason: str) -> None:
            io.stop(reason)
            inst = self.instance
            if inst is not None:
                inst.request_interrupt()

        outcome = await self._run_cell_job(streams, lambda: self._run_cell(cell, filename, io, limits), poke)
        return self._result(outcome, limits)

    def _run_cell(self, cell: str, filename: str, io: CellIO, limits: Limits):
        notices: list[str] = []
        if self._lost:
            notices.append(self._lost)
            self._lost = None
        self._memory_limit = limits.wasm_memory_bytes
        try:
            if self.instance is None or self.instance.dead:
                self.instance = self._new_instance(self.api, limits.wasm_memory_bytes)
            self.instance.memory_limit = limits.wasm_memory_bytes
            self.api.run = io
            self.api.exit_requested = None
            prepared = prepare_cell(cell)
            io.consts, io.declared = prepared.consts, prepared.declared
            outcome = self.instance.run(prepared.source, filename, cancelled=io.cancelled, wait=io.wait)
            if self.instance.dead:  # given up after running out of memory (the notice says so)
                self.instance = None
        except InstanceDead as e:
            dead, self.instance = self.instance, None
            outcome = Outcome(status=1)
            reason = io.cancelled()
            if dead is not None and dead.exit_status is not None:  # std.exit()
                outcome.status = outcome.exit_code = dead.exit_status
            elif reason:
                outcome.interrupted = reason
            else:
                outcome.error = {"name": "InternalError", "message": str(e), "stack": ""}
            notices.append(f"JS state was reset: {e}")
        except MemoryError:  # the host could not pass the cell in
            if self.instance is None:
                why = (f"the JS memory limit wasm_memory_bytes={format_size(limits.wasm_memory_bytes)} "
                       f"is too small to start the engine; {self._hint(limits, 'wasm_memory_bytes')}")
                outcome = Outcome(
                    status=1, error={"name": "RangeError", "message": f"out of memory ({why})", "stack": ""}
                )
            else:
                outcome = Outcome(status=1, error={"name": "InternalError", "message": "out of memory", "stack": ""})
                if not self._usable_after_oom():
                    notices.append(self.instance.reset_notice())
                    self.instance = None
        except Exception as e:  # a host bug: report it, and don't trust the context any more
            self.instance = None
            outcome = Outcome(status=1, error={"name": "InternalError", "stack": "",
                                               "message": f"JS host error: {type(e).__name__}: {e}"})
            notices.append("JS state was reset after an internal error")
        finally:
            self.api.run = RunIO()
        notices[:0] = outcome.notices
        return outcome, notices

    def _usable_after_oom(self) -> bool:
        try:
            return self.instance.usable_after_oom()
        except InstanceDead:
            return False

    def _result(self, outcome: Outcome, limits: Limits) -> RunResult:
        value = {"text/plain": outcome.value} if outcome.value is not None else None
        if outcome.interrupted == "timeout":
            msg = self._timeout_message(limits)
            return RunResult(124, ErrorInfo("Timeout", msg, [f"Timeout: {msg}"]))
        if outcome.interrupted:
            return RunResult(130, ErrorInfo("Interrupted", "JS execution interrupted", ["Interrupted"]))
        if outcome.error is not None:
            err = dict(outcome.error)
            if err.get("message") == "out of memory":
                err["message"] = f"out of memory ({self._memory_note(limits)})"
            return RunResult(outcome.status or 1, ErrorInfo(err.get("name", "Error"), err.get("message", ""),
                                                            _error_lines(err)), value)
        if outcome.status:
            msg = (
                f"process.exit({outcome.status})" if outcome.exit_code is not None else f"exit status {outcome.status}"
            )
            return RunResult(outcome.status, ErrorInfo("ExitStatus", msg, [msg]), value)
        return RunResult(0, None, value)

    def _memory_note(self, limits: Limits) -> str:
        return (f"the JS memory limit is {format_size(limits.wasm_memory_bytes)}: wasm_memory_bytes; "
                f"{self._hint(limits, 'wasm_memory_bytes')}")

    # ------------------------------------------------------------------ commands
    async def run_command(self, ctx) -> int:
        from .cmdline import Exit, parse_command_line, script_source

        plan = parse_command_line(ctx)
        if isinstance(plan, Exit):
            if plan.stdout:
                await ctx.out(plan.stdout)
            if plan.stderr:
                await ctx.err(plan.stderr)
            return plan.status
        loop = asyncio.get_running_loop()
        limits: Limits = getattr(ctx.sandbox, "limits", None) or Limits()
        api = HostApi(ctx.fs, lambda: limits.wasm_memory_bytes)
        io = CommandIO(ctx, loop, plan.argv, limits.wall_time, api)
        if plan.stdin_script:
            data = await ctx.stdin.read()
            plan.code = data.decode("utf-8", "replace")
        holder: dict = {}

        def work():
            instance = None
            try:
                instance = self._new_instance(api, limits.wasm_memory_bytes)
                holder["instance"] = instance
                if io.cancelled():
                    return Outcome(interrupted=io.cancelled())
                api.run = io
                instance.print_raw_strings = plan.print_result
                script, filename = script_source(plan)
                io.consts, io.declared = script.consts, script.declared
                return instance.run(script.source, filename, cancelled=io.cancelled, wait=io.wait)
            except InstanceDead as e:
                if instance is not None and instance.exit_status is not None:
                    return Outcome(status=instance.exit_status, exit_code=instance.exit_status)
                return Outcome(
                    status=1,
                    interrupted=io.cancelled(),
                    error={"name": "InternalError", "message": str(e), "stack": "", "text": ""},
                )
            except MemoryError as e:
                return Outcome(
                    status=1, error={"name": "RangeError", "message": f"out of memory ({e})", "stack": "", "text": ""}
                )
            except Exception as e:  # a host bug: an error message, never a traceback
                return Outcome(
                    status=1,
                    error={
                        "name": "InternalError",
                        "stack": "",
                        "text": "",
                        "message": f"JS host error: {type(e).__name__}: {e}",
                    },
                )
            finally:
                api.close_handles()

        def stop(reason: str) -> None:
            io.stop(reason)
            inst = holder.get("instance")
            if inst is not None:
                inst.request_interrupt()

        outcome: Outcome = await self._run_command_job(ctx, self._spawn(work), stop)
        return await self._command_status(ctx, plan, outcome, limits)

    @staticmethod
    def _spawn(work) -> asyncio.Future:
        """Run ``work`` on a fresh big-stack thread (one per command, so pipelines of several
        JS commands run concurrently)."""
        return spawn(work, "sandbox-js-cmd", THREAD_STACK)

    async def _command_status(self, ctx, plan, outcome: Outcome, limits: Limits) -> int:
        if outcome.exit_code is not None:
            return outcome.exit_code
        if outcome.interrupted:
            if outcome.interrupted == "timeout":
                await ctx.error(f"wall-time limit ({limits.wall_time:g} s) exceeded")
                return 124
            return 130
        if outcome.error is not None:
            err = outcome.error
            text = err.get("text") or "\n".join(_error_lines(err))
            if err.get("message") == "out of memory":
                text += f"\n({self._memory_note(limits)})"
            await ctx.err(f"{plan.error_prefix}{text.rstrip()}\n")
            return outcome.status or 1
        if plan.print_result and outcome.value is not None:
            await ctx.out(outcome.value + "\n")
        return outcome.status

    # ------------------------------------------------------------------ completion
    async def complete(self, code: str, cursor: int) -> tuple[int, list[str]]:
        """Tab: names for the chain before the cursor from the live context (globals and
        keywords for a bare name; a value's own and inherited properties after ``a.b.``),
        found without running the cell's code (``introspect.py``). Nothing while a cell runs."""
        target = completion_target(code, cursor)
        if target is None:
            return cursor, []
        found = await self._introspect(lambda inspector: inspector.completions(target, MAX_MATCHES))
        names = set(found or ())
        if target.base == "global" and not target.chain:
            names.update(k for k in KEYWORDS if k.startswith(target.name))
        matches = sorted(names, key=lambda n: (n.startswith("_"), n.lower(), n))[:MAX_MATCHES]
        return target.start, matches

    async def inspect(self, code: str, cursor: int) -> str | None:
        """Shift-Tab: what the name at the cursor (or the function whose call the cursor is in)
        is: a function's ``name(n args)`` and first source line, a value's type and a short
        preview; resolved as ``complete`` resolves."""
        target = inspection_target(code, cursor)
        if target is None:
            return None
        text = await self._introspect(lambda inspector: inspector.describe(target))
        if text is None:
            return None
        return text if len(text) <= MAX_INSPECTION else text[:MAX_INSPECTION] + "…"

    async def _introspect(self, ask):
        """``ask(Introspector)`` on the worker, under INTROSPECT_DEADLINE; None when a cell (or
        another completion) is running, the engine is closed, or no answer came in time."""
        if self._closed or self._jobs:
            return None

        def work():
            try:
                if self.instance is None or self.instance.dead:
                    self.instance = self._new_instance(self.api, self._memory_limit)
                inst = self.instance
                return inst.guarded(lambda: ask(Introspector(inst)), INTROSPECT_DEADLINE)
            except InstanceDead as e:
                if self.instance is not None and self.instance.dead:
                    self.instance = None
                    self._lost = f"JS state was reset: {e} (during a completion)"
                return None
            except Exception:  # no answer (a helper threw, was interrupted, or memory ran out)
                return None

        return await self._answer(work, INTROSPECT_WAIT)

    # ------------------------------------------------------------------ control
    @staticmethod
    def is_complete(code: str) -> tuple[str, str]:
        """(status, indent) for Jupyter's is_complete_request: "incomplete" while brackets,
        strings, template literals or comments are open, "invalid" for a closer that matches
        nothing; the code is tokenized, never run (no context is needed)."""
        return is_complete(code)

    def magic(self, args: str) -> str:
        """`%js reset` drops the context; `%js` (or `%js info`) describes it."""
        words = args.split()
        if words[:1] == ["reset"]:
            self.instance = None
            return "JS state was reset"
        if not words or words[:1] == ["info"]:
            inst = self.instance
            if inst is None or inst.dead:
                return f"JS: no context yet ({binary.WHEEL})"
            return (f"JS: QuickJS-NG ({binary.WHEEL}), memory {format_size(inst.memory_bytes())} "
                    f"of {format_size(self._memory_limit)}, {self._cells} cells run")
        raise ValueError(f"unknown %js subcommand '{words[0]}' (try: reset, info)")

    async def shutdown(self) -> None:
        self._closed = True
        inst = self.instance
        if inst is not None:
            inst.request_interrupt()
        self.instance = None
        self._worker.stop()
