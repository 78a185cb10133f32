"""One QuickJS context inside one wasmtime instance, driven from a single worker thread.

``JsInstance`` owns the store, the WASI host and the JS context; ``run`` evaluates one cell or
script in the persistent global scope, pumps promises and timers until idle, and returns an
``Outcome``. The JS side of the host API lives in ``prelude.js``; its calls arrive in
``rpc`` (see ``hostapi.py`` for the operations).
"""
from __future__ import annotations

import ctypes
import json
import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path

import wasmtime

from ..guest.build import cache_root
from ..limits import format_size
from ..wasm_engine import raise_async_stack_limit, store_compiled, wasmtime_version
from . import binary
from .binary import BinaryFacts
from .wasi import ProcessExit, WasiHost

WASM_NATIVE_STACK = 96 << 20   # native stack for wasm frames (see THREAD_STACK)
DEFAULT_NATIVE_STACK = 2 << 20 # what wasmtime allows when async_stack_size cannot be raised
# Shadow stack given to QuickJS (the stock one is 64 KiB), which checks only that one. Each C
# frame uses both stacks, in a proportion that depends on the code: measured native bytes per
# shadow byte, ~2.3 for plain JS recursion, up to 14.5 in the parser (nested brackets), 17 in
# JSON.parse/stringify and 18 through Proxy chains (tests/js/test_deep.py). 1/28 keeps QuickJS's
# RangeError ahead of a native stack overflow (a trap, which would lose the context).
C_STACK_RATIO = 28
C_STACK_MARGIN = 128 << 10     # QuickJS raises RangeError this far before the end
THREAD_STACK = 128 << 20       # threads that run wasm: the wasm stack plus host (Python) frames
OOM_RESERVE = 4 << 20          # heap kept back so an out-of-memory error can still be reported
# A heap that cannot give OOM_RESERVE plus this much after a GC is nearly full: the reserve is
# then left to the next run (so it can free what fills the heap) instead of being kept back.
OOM_HEADROOM = 4 << 20
OOM_MIN_ROOM = 1 << 20         # less than this free after an out-of-memory: the context is given up
HARD_STOP_AFTER = 2.0          # seconds between a soft interrupt and the epoch trap
# JS evaluated from inside a host call (require compiles a file; formatting its SyntaxError can
# run user getters that require again...) nests Python frames per level: stop it well before
# Python's recursion limit, with the RangeError JS code expects from deep recursion.
MAX_NESTED_EVALS = 16

_PRELUDE = (Path(__file__).with_name("prelude.js")).read_text()
OUT_OF_MEMORY = {"name": "InternalError", "message": "out of memory", "stack": "", "text": ""}
_errno_addr: int | None = None  # libc's errno: a static word, the same in every instance


class InstanceDead(Exception):
    """The wasm instance trapped or exited; its JS state is gone."""


@dataclass
class Outcome:
    status: int = 0
    value: str | None = None            # inspected last value (None: undefined)
    error: dict | None = None           # {name, message, stack, text}
    interrupted: str | None = None      # "interrupt" | "timeout" when stopped
    exit_code: int | None = None        # process.exit(code)
    notices: list[str] = field(default_factory=list)


_native_stack = DEFAULT_NATIVE_STACK


def make_wasmtime_engine() -> wasmtime.Engine:
    global _native_stack
    cfg = wasmtime.Config()
    cfg.epoch_interruption = True   # last-resort stop of a run that ignores the soft interrupt
    if raise_async_stack_limit(cfg, WASM_NATIVE_STACK):
        cfg.max_wasm_stack = _native_stack = WASM_NATIVE_STACK
    else:
        cfg.max_wasm_stack = _native_stack = DEFAULT_NATIVE_STACK  # wasmtime's own default is smaller
    cfg.memory_may_move = False     # so another thread can poke the interrupt word
    return wasmtime.Engine(cfg)


def cache_dir() -> Path:
    return cache_root() / "js"


class CompiledModule:
    """QuickJS compiled to native code once per process, loadable into any wasmtime Engine
    made by ``make_wasmtime_engine`` (each JS context has its own Engine, so an epoch trap
    that stops one context cannot touch another). The native code is cached for the host in
    ``$SANDBOX_KERNEL_CACHE/js/<wasmtime-version>-<module-hash>.cwasm`` (default under
    ``~/.cache/sandbox-kernel``); when the cache is unwritable it is kept in memory."""

    def __init__(self, facts: BinaryFacts) -> None:
        self.facts = facts
        # the original binary's hash (verified by binary.load) plus the version of our patch
        key = f"{wasmtime_version()}-{binary.WASM_SHA256[:24]}-p{binary.PATCH_VERSION}"
        self.path: Path | None = cache_dir() / f"{key}.cwasm"
        self.serialized: bytes | None = None
        try:
            cached = self.path.is_file()
        except OSError:  # a cache under a home that is not ours (EG's launchers pass on their HOME)
            cached = False
        if not cached:
            self._compile()

    def _compile(self) -> None:
        self.serialized = wasmtime.Module(make_wasmtime_engine(), self.facts.wasm).serialize()
        if self.path is None or not store_compiled(self.path, self.serialized):
            self.path = None  # unwritable cache: load from memory

    def load(self, engine: wasmtime.Engine) -> wasmtime.Module:
        if self.path is not None:
            try:
                return wasmtime.Module.deserialize_file(engine, str(self.path))
            except Exception:  # stale, truncated, or another engine configuration
                if self.serialized is None:
                    self._compile()
                    return self.load(engine)
        return wasmtime.Module.deserialize(engine, self.serialized)


class JsInstance:
    """A live QuickJS context. Not thread-safe: use it from one thread; only
    ``request_interrupt`` may be called from anywhere."""

    def __init__(self, engine: wasmtime.Engine, module: wasmtime.Module, facts: BinaryFacts,
                 fs, api, memory_limit: int) -> None:
        self.engine = engine
        self.api = api              # hostapi.HostApi: RPC operations and the current run's I/O
        self.dead: str | None = None
        self.exit_status: int | None = None  # set when the program called exit()
        self.store = wasmtime.Store(engine)
        self.memory_limit = memory_limit
        self.store.set_limits(memory_size=memory_limit)
        self.store.set_epoch_deadline(1)
        self.wasi = WasiHost(fs, api)
        linker = wasmtime.Linker(engine)
        self.wasi.define(linker)
        exports = linker.instantiate(self.store, module).exports(self.store)
        self.memory = exports["memory"]
        self.wasi.attach(self.memory, self.store)
        self._stack_pointer = exports["__stack_pointer"]
        self.f = {name: exports[name] for name in binary.REQUIRED_EXPORTS
                  if name not in ("memory", "__stack_pointer", binary.TABLE_EXPORT)}
        # promises rejected with no handler yet (each holds a reference), oldest first
        self._rejected: dict[int, None] = {}
        i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
        tracker = wasmtime.Func(self.store, wasmtime.FuncType([i32, i64, i64, i32, i32], []),
                                self._track_rejection)
        exports[binary.TABLE_EXPORT].set(self.store, facts.tracker_table_index, tracker)
        base = self._memory_base = ctypes.addressof(self.memory.data_ptr(self.store).contents)
        self._signal_word = ctypes.c_uint32.from_address(base + facts.pending_signals_addr)
        self._stop_lock = threading.Lock()
        self._running = False
        self._hard_timer: threading.Timer | None = None
        self.print_raw_strings = False  # `node -p` prints a string result as is
        self._nested_evals = 0

        self._call("_initialize")
        if self._call("qjs_init") != 0:
            raise InstanceDead("qjs_init failed")
        self.ctx = self._call("qjs_get_context")
        self.rt = self._call("JS_GetRuntime", self.ctx)
        # ours, not quickjs-libc's (which exit(1)s from js_std_await and cannot be asked)
        self._call("JS_SetHostPromiseRejectionTracker", self.rt, facts.tracker_table_index, 0)
        self._call("JS_SetInterruptHandler", self.rt, facts.interrupt_table_index, 0)
        self._scratch = self._malloc(16)
        self._reserve = self._malloc(OOM_RESERVE)
        self._stack_limit_offset = self._find_stack_limit_offset()
        self._errno = ctypes.c_uint32.from_address(base + self._find_errno_addr())
        c_stack = _native_stack // C_STACK_RATIO
        block = self._malloc(c_stack + 16)
        self._stack_top = (block + c_stack) & ~15
        self._stack_limit = block + C_STACK_MARGIN
        self._reset_stack()
        self._eval_checked(_PRELUDE, "<prelude>", binary.EVAL_TYPE_MODULE)
        self._host = self._global_property("__sandbox")
        self._host_fns = {}
        self.builtin_exports: dict[str, list[str]] = {}
        table = self._call_host_str("builtinTable")
        self.builtin_exports = json.loads(table)

    # ------------------------------------------------------------------ low level
    def _call(self, name: str, *args):
        if self.dead:
            raise InstanceDead(self.dead)
        try:
            return self.f[name](self.store, *args)
        except ProcessExit as e:  # std.exit(): like a process exiting, the context is gone
            self.exit_status = e.code & 0xFF
            self.dead = f"the JS runtime exited (status {e.code})"
        except wasmtime.Trap as e:
            code = e.trap_code.name if e.trap_code is not None else str(e).splitlines()[0]
            self.dead = f"the JS runtime trapped ({code})"
        except wasmtime.WasmtimeError as e:
            self.dead = f"the JS runtime failed ({str(e).splitlines()[0]})"
        except BaseException as e:
            self.dead = f"the JS runtime was torn down ({type(e).__name__}: {e})"
        raise InstanceDead(self.dead)

    def _malloc(self, n: int) -> int:
        ptr = self._call("malloc", n) & 0xFFFFFFFF
        if not ptr and self._release_reserve():
            ptr = self._call("malloc", n) & 0xFFFFFFFF
        if not ptr:
            raise MemoryError("the JS heap is full")
        return ptr

    def _find_errno_addr(self) -> int:
        """errno is the only static word a failing malloc changes: find it by diffing the
        memory below the heap (where the first host block lies) around one."""
        global _errno_addr
        if _errno_addr is None:
            end = self._scratch
            before = bytes(self.memory.read(self.store, 0, end))
            if self._call("malloc", 0xFFFFFFF0) != 0:
                raise binary.BinaryMismatch("malloc of 4 GiB succeeded")
            after = bytes(self.memory.read(self.store, 0, end))
            chunk = 4096
            changed = [o for c in range(0, end, chunk) if before[c:c + chunk] != after[c:c + chunk]
                       for o in range(c, min(c + chunk, end) & ~3, 4) if before[o:o + 4] != after[o:o + 4]]
            if len(changed) != 1 or after[changed[0]:changed[0] + 4] != struct.pack("<I", binary.ENOMEM):
                raise binary.BinaryMismatch(f"errno not found (changed words: {changed[:8]})")
            _errno_addr = changed[0]
        return _errno_addr

    def out_of_memory(self) -> bool:
        """Whether an allocation failed since the run began."""
        return self._errno.value == binary.ENOMEM

    def _release_reserve(self) -> bool:
        if getattr(self, "_reserve", 0):
            self._call("free", self._reserve)
            self._reserve = 0
            return True
        return False

    def _rearm_reserve(self, check: bool) -> bool:
        """Hold OOM_RESERVE back for the next run if the heap (after a GC) has that much and
        OOM_HEADROOM more; otherwise leave it all to the next run. True when there was room."""
        if self._reserve and not check:
            return True
        self._call("JS_RunGC", self.rt)
        if not self._reserve:
            self._reserve = self._call("malloc", OOM_RESERVE) & 0xFFFFFFFF
        if self._reserve:
            room = self._call("malloc", OOM_HEADROOM) & 0xFFFFFFFF
            if room:
                self._call("free", room)
                return True
            self._release_reserve()
        return False

    def _runs_code(self) -> bool:
        """Whether the context has room for a small cell and still runs a small script (an
        allocation failing in the middle of an operation may have left QuickJS broken)."""
        room = self._call("malloc", OOM_MIN_ROOM) & 0xFFFFFFFF
        if not room:
            return False
        self._call("free", room)
        try:
            value = self._eval("[1, 2, 3].map(String).join()", "<probe>", binary.EVAL_TYPE_GLOBAL)
        except MemoryError:
            return False
        if binary.tag_of(value) == binary.TAG_EXCEPTION:
            self._free_value(self._call("JS_GetException", self.ctx))
            return False
        try:
            return self._to_str(value) == "1,2,3"
        finally:
            self._free_value(value)

    def usable_after_oom(self) -> bool:
        """After the heap ran out: False (and the instance is marked dead) when the context is
        not worth keeping: it cannot run a small script, or queued jobs (which only running
        them could free) hold a heap that is still nearly full."""
        if self.dead:
            return False
        roomy = self._rearm_reserve(check=True)
        if (not roomy and self._call("JS_IsJobPending", self.rt)) or not self._runs_code():
            self.dead = "the JS context ran out of memory"
            return False
        return True

    def reset_notice(self) -> str:
        return (f"JS state was reset after running out of memory (wasm_memory_bytes="
                f"{format_size(self.memory_limit)}): globals are gone")

    def _cstring(self, text: str) -> tuple[int, int]:
        raw = text.encode("utf-8", "surrogatepass")
        ptr = self._malloc(len(raw) + 1)
        self.memory.write(self.store, raw + b"\0", ptr)
        return ptr, len(raw)

    def _free_value(self, value: int) -> None:
        if binary.is_refcounted(value) and not self.dead:
            self._call("JS_FreeValue", self.ctx, value)

    def _to_str(self, value: int) -> str:
        ptr = self._call("JS_ToCStringLen2", self.ctx, self._scratch, value, 0) & 0xFFFFFFFF
        if not ptr:
            self._free_value(self._call("JS_GetException", self.ctx))
            return ""
        n = struct.unpack("<I", self.memory.read(self.store, self._scratch, self._scratch + 4))[0]
        text = bytes(self.memory.read(self.store, ptr, ptr + n)).decode("utf-8", "replace")
        self._call("JS_FreeCString", self.ctx, ptr)
        return text

    def _get_property(self, obj: int, name: str) -> int:
        ptr, _ = self._cstring(name)
        try:
            return self._call("JS_GetPropertyStr", self.ctx, obj, ptr)
        finally:
            self._call("free", ptr)

    def _global_property(self, name: str) -> int:
        glob = self._call("JS_GetGlobalObject", self.ctx)
        try:
            return self._get_property(glob, name)
        finally:
            self._free_value(glob)

    def _host_fn(self, name: str) -> int:
        fn = self._host_fns.get(name)
        if fn is None:
            fn = self._host_fns[name] = self._get_property(self._host, name)
        return fn

    def call_host(self, name: str, *args: int) -> int:
        """Call ``__sandbox[name](...args)``; returns the JSValue (may be an exception)."""
        argv = 0
        if args:
            argv = self._malloc(8 * len(args))
            self.memory.write(self.store, struct.pack(f"<{len(args)}q", *args), argv)
        try:
            return self._call("JS_Call", self.ctx, self._host_fn(name), self._host, len(args), argv)
        finally:
            if argv and not self.dead:
                self._call("free", argv)

    def _call_host_str(self, name: str, *args: int) -> str:
        value = self.call_host(name, *args)
        if binary.tag_of(value) == binary.TAG_EXCEPTION:
            error = self._take_exception()
            raise RuntimeError(f"sandbox prelude failed in {name}: {error['text']}")
        try:
            return self._to_str(value)
        finally:
            self._free_value(value)

    def _eval(self, source: str, filename: str, flags: int) -> int:
        code, n = self._cstring(source)
        name, _ = self._cstring(filename)
        try:
            return self._call("JS_Eval", self.ctx, code, n, name, flags)
        finally:
            if not self.dead:
                self._call("free", code)
                self._call("free", name)

    def _eval_checked(self, source: str, filename: str, flags: int) -> None:
        value = self._eval(source, filename, flags)
        if binary.tag_of(value) == binary.TAG_EXCEPTION:
            e = self._call("JS_GetException", self.ctx)
            text = self._to_str(e)
            self._free_value(e)
            raise RuntimeError(f"{filename} failed: {text}")
        self._free_value(value)

    def _find_stack_limit_offset(self) -> int:
        # JSRuntime holds stack_size, stack_top, stack_limit as consecutive words: find
        # stack_size by writing two markers through the API.
        marks = (0x13572468, 0x0ACE1357)
        snaps = []
        for mark in marks:
            self._call("JS_SetMaxStackSize", self.rt, mark)
            snaps.append(bytes(self.memory.read(self.store, self.rt, self.rt + 1024)))
        self._call("JS_SetMaxStackSize", self.rt, 0)
        offsets = [o for o in range(0, 1024, 4)
                   if all(s[o:o + 4] == struct.pack("<I", m) for s, m in zip(snaps, marks))]
        if len(offsets) != 1:
            raise binary.BinaryMismatch("JSRuntime.stack_size not found")
        return offsets[0] + 8

    def _reset_stack(self) -> None:
        self._stack_pointer.set_value(self.store, wasmtime.Val.i32(self._stack_top))
        self.memory.write(self.store, struct.pack("<I", self._stack_limit),
                          self.rt + self._stack_limit_offset)

    # ------------------------------------------------------------------ rejections
    def _track_rejection(self, ctx: int, promise: int, reason: int, is_handled: int, opaque: int) -> None:
        """QuickJS calls this (from inside wasm) when a promise is rejected with no handler and
        when such a promise gets its first handler. It runs for every rejection, so the
        reference is counted by hand: a JS_DupValue call would cost ~3x the callback itself."""
        if not is_handled:
            if promise not in self._rejected:
                self._ref_count(promise).value += 1
                self._rejected[promise] = None
        elif promise in self._rejected:
            del self._rejected[promise]
            self._ref_count(promise).value -= 1  # never reaches 0: QuickJS's caller holds the promise

    def _ref_count(self, obj: int) -> ctypes.c_int32:
        return ctypes.c_int32.from_address(self._memory_base + (obj & 0xFFFFFFFF) + binary.REF_COUNT_OFFSET)

    def _drop_rejections(self) -> None:
        rejected, self._rejected = list(self._rejected), {}
        for promise in rejected:
            self._free_value(promise)

    def _report_rejections(self, outcome, cancelled, wait) -> bool:
        """Like node: a rejection still unhandled once the run has drained ends it with that
        error, unless process.on('unhandledRejection') listeners take it. False when it ends."""
        while self._rejected:
            promise = next(iter(self._rejected))
            del self._rejected[promise]
            reason = self._call("JS_PromiseResult", self.ctx, promise)
            if self._is_oom_null(reason):
                self._free_value(promise)
                outcome.status, outcome.error = 1, dict(OUT_OF_MEMORY)
                return False
            try:
                taken = self.call_host("unhandledRejection", reason, promise)
                if binary.tag_of(taken) == binary.TAG_EXCEPTION:  # a listener threw
                    self._record_exception(outcome, cancelled)
                    return False
                if taken != (binary.TAG_BOOL << 32) | 1:
                    error = self.call_host("rejectionError", reason)
                    if binary.tag_of(error) == binary.TAG_EXCEPTION:
                        self._record_exception(outcome, cancelled)
                    else:
                        self._record_value_error(outcome, error, cancelled)
                    return False
            finally:
                self._free_value(reason)
                self._free_value(promise)
            if not self._pump(outcome, cancelled, wait, until=None):  # the listeners' own work
                return False
        return True

    # ------------------------------------------------------------------ interrupt
    def _set_interrupt(self, on: bool) -> None:
        word = self._signal_word
        word.value = (word.value | binary.SIGINT_BIT) if on else (word.value & ~binary.SIGINT_BIT)

    def request_interrupt(self) -> None:
        """Thread-safe: QuickJS throws an uncatchable 'interrupted' at its next check; if the
        run has not stopped after HARD_STOP_AFTER seconds, trap it (the state is then lost)."""
        with self._stop_lock:
            if not self._running or self.dead:
                return
            self._set_interrupt(True)
            if self._hard_timer is None:
                self._hard_timer = threading.Timer(HARD_STOP_AFTER, self._hard_stop)
                self._hard_timer.daemon = True
                self._hard_timer.start()

    def _hard_stop(self) -> None:
        with self._stop_lock:
            if self._running:
                self.engine.increment_epoch()

    # ------------------------------------------------------------------ running
    def run(self, source: str, filename: str, *, cancelled, wait) -> Outcome:
        """Evaluate ``source`` as an async script; pump jobs and timers until idle.

        ``cancelled()`` -> reason or None; ``wait(seconds)`` sleeps until a timer is due or
        the run is cancelled."""
        with self._stop_lock:
            self._running = True
            self._set_interrupt(False)
        if cancelled():  # cancelled before this thread got here: request_interrupt was a no-op
            self.request_interrupt()
        self.store.set_epoch_deadline(1)
        self.store.set_limits(memory_size=max(self.memory_limit, self.memory.size(self.store) * 65536))
        self._reset_stack()
        self._errno.value = 0
        self.wasi.reset_calls()  # a half-written call of the last run must not poison this one
        outcome = Outcome()
        try:
            self._drop_rejections()  # the prelude's, or left by a run that failed
            self._free_value(self._check(self.call_host("begin"), outcome))
            if outcome.error is None:
                self._run_body(source, filename, outcome, cancelled, wait)
        finally:
            with self._stop_lock:
                self._running = False
                if self._hard_timer is not None:
                    self._hard_timer.cancel()
                    self._hard_timer = None
            if not self.dead:
                self._set_interrupt(False)
            self.wasi.reset_calls()  # unread answers hold host memory
        if not self.dead:
            self._after_run(outcome)
        return outcome

    def _after_run(self, outcome: Outcome) -> None:
        oom = self.out_of_memory()  # read first: the host's own probing below may set errno
        failed = oom and outcome.error is not None and outcome.error.get("message") == "out of memory"
        try:
            self._drop_rejections()
            if outcome.interrupted or outcome.exit_code is not None or failed:
                n = self._cancel_timers()  # an out-of-memory error ends the run like an interrupt
                if n and (outcome.interrupted or failed):
                    outcome.notices.append(f"[js: {n} pending timer{'s' if n > 1 else ''} cancelled]")
            if not oom:
                self._rearm_reserve(check=False)
            elif not self.usable_after_oom():
                outcome.notices.append(self.reset_notice())
            elif not self._reserve:
                outcome.notices.append("[js: the JS heap is still nearly full after garbage collection: "
                                       "drop what big globals hold (x = null) or run %js reset]")
        except InstanceDead:  # e.g. a trap in the GC: the state is gone either way
            outcome.notices.append(self.reset_notice() if oom else f"JS state was reset: {self.dead}")

    def _run_body(self, source, filename, outcome, cancelled, wait) -> None:
        promise = self._eval(source, filename, binary.EVAL_FLAG_ASYNC)
        if binary.tag_of(promise) == binary.TAG_EXCEPTION:
            self._record_exception(outcome, cancelled)
            return
        try:
            if not self._settle(promise, outcome, cancelled, wait):
                return
            completion = self._call("JS_PromiseResult", self.ctx, promise)
        finally:
            self._free_value(promise)
        value = self._get_property(completion, "value")
        self._free_value(completion)
        if self._call("JS_PromiseState", self.ctx, value) >= 0:  # the cell's value is awaited
            if not self._settle(value, outcome, cancelled, wait):
                self._free_value(value)
                return
            settled = self._call("JS_PromiseResult", self.ctx, value)
            self._free_value(value)
            value = settled
        try:
            if not self._pump(outcome, cancelled, wait, until=None):
                return
            if not self._report_rejections(outcome, cancelled, wait):
                return
            raw = (binary.TAG_BOOL << 32) | int(self.print_raw_strings)
            shown = self.call_host("result", value, raw)
            if binary.tag_of(shown) == binary.TAG_EXCEPTION:
                self._record_exception(outcome, cancelled)
                return
            text = self._to_str(shown)
            self._free_value(shown)
            outcome.value = text[1:] if text else None
        finally:
            self._free_value(value)
        if self.api.exit_requested is None:
            code = self.call_host("exitCode")
            outcome.status = code & 0xFF if binary.tag_of(code) == binary.TAG_INT else 0
            self._free_value(self.call_host("emitExit", code))

    def _settle(self, promise, outcome, cancelled, wait) -> bool:
        """Pump until ``promise`` settles; False (with outcome filled in) on failure."""
        if not self._pump(outcome, cancelled, wait, until=promise):
            return False
        state = self._call("JS_PromiseState", self.ctx, promise)
        if state == binary.PROMISE_FULFILLED:
            return True
        if state == binary.PROMISE_REJECTED:
            reason = self._call("JS_PromiseResult", self.ctx, promise)
            self._record_value_error(outcome, reason, cancelled)
            return False
        if self.out_of_memory():
            # a chain broken by an allocation that failed (its rejection could not be queued):
            # what stopped it is the memory limit, not a promise nothing resolves
            outcome.status, outcome.error = 1, dict(OUT_OF_MEMORY)
            return False
        outcome.status = 13
        outcome.error = {"name": "Error", "message": "the cell awaits a promise that can never settle "
                         "(nothing is left that could resolve it)", "stack": "", "text": ""}
        return False

    def _pump(self, outcome, cancelled, wait, until) -> bool:
        """Run jobs and timers until idle (or ``until`` settles). False when stopped."""
        while True:
            if until is not None and self._call("JS_PromiseState", self.ctx, until) != binary.PROMISE_PENDING:
                return True
            reason = cancelled()
            if reason or self.api.exit_requested is not None:
                self._set_interrupt(True)
            r = self._call("js_std_loop_once", self.ctx)
            if r == binary.LOOP_ERROR:
                self._record_exception(outcome, cancelled)
                return False
            if r == binary.LOOP_IDLE:
                return True
            if reason:  # nothing threw, but the run is over
                outcome.interrupted = reason
                return False
            if r > 0:
                if until is None and self._ref_timers() == 0:
                    return True  # only unref()'d timers are left: they don't keep a run alive
                wait(min(r, 100) / 1000)

    def _check(self, value: int, outcome: Outcome) -> int:
        if binary.tag_of(value) == binary.TAG_EXCEPTION:
            self._record_exception(outcome, lambda: None)
        return value

    def _take_exception(self) -> dict:
        self._set_interrupt(False)  # do not interrupt the formatter itself
        exc = self._call("JS_GetException", self.ctx)
        return self._describe(exc)

    def _is_oom_null(self, value: int) -> bool:
        """QuickJS throws null when it cannot allocate its "out of memory" error."""
        return binary.tag_of(value) == binary.TAG_NULL and self.out_of_memory()

    def _describe(self, exc: int) -> dict:
        self._release_reserve()  # formatting may need memory after an out-of-memory error
        if self._is_oom_null(exc):
            return dict(OUT_OF_MEMORY)
        info = self.call_host("error", exc)
        self._free_value(exc)
        if binary.tag_of(info) == binary.TAG_EXCEPTION:
            self._free_value(self._call("JS_GetException", self.ctx))
            return dict(OUT_OF_MEMORY)
        try:
            return json.loads(self._to_str(info))
        except ValueError:
            return dict(OUT_OF_MEMORY)
        finally:
            self._free_value(info)

    def _record_exception(self, outcome: Outcome, cancelled) -> None:
        self._classify(outcome, self._take_exception(), cancelled)

    def _record_value_error(self, outcome: Outcome, reason: int, cancelled) -> None:
        self._set_interrupt(False)
        self._classify(outcome, self._describe(reason), cancelled)

    def _classify(self, outcome: Outcome, error: dict, cancelled) -> None:
        stopped = error.get("name") == "InternalError" and error.get("message") == "interrupted"
        if stopped and self.api.exit_requested is not None:
            outcome.exit_code = self.api.exit_requested
            outcome.status = outcome.exit_code
            return
        reason = cancelled()
        if stopped and reason:
            outcome.interrupted = reason
            return
        outcome.error = error
        outcome.status = 1

    def _ref_timers(self) -> int:
        value = self.call_host("refTimers")
        if binary.tag_of(value) == binary.TAG_INT:
            return value & 0xFFFFFFFF
        self._free_value(value)
        return 1

    def _cancel_timers(self) -> int:
        value = self.call_host("cancelTimers")
        if binary.tag_of(value) == binary.TAG_INT:
            return value & 0xFFFFFFFF
        self._free_value(value)
        return 0

    def compile_commonjs(self, path: str, source: str) -> str | None:
        """Evaluate a CommonJS file wrapped in a function (re-entrantly, from a host call) and
        hand the function to the prelude. Returns an error text, or None."""
        if self._nested_evals >= MAX_NESTED_EVALS:
            return json.dumps({"name": "RangeError", "message": "Maximum call stack size exceeded "
                               f"(require nested {MAX_NESTED_EVALS} deep inside host calls)"})
        self._nested_evals += 1
        try:
            return self._compile_commonjs(path, source)
        finally:
            self._nested_evals -= 1

    def _compile_commonjs(self, path: str, source: str) -> str | None:
        wrapped = ("__sandbox.cjsDefine(function (exports, require, module, __filename, __dirname) {"
                   + source + "\n})")
        value = self._eval(wrapped, path, binary.EVAL_TYPE_GLOBAL)
        if binary.tag_of(value) == binary.TAG_EXCEPTION:
            exc = self._call("JS_GetException", self.ctx)
            info = self.call_host("error", exc)
            self._free_value(exc)
            text = self._to_str(info)
            self._free_value(info)
            return text
        self._free_value(value)
        return None

    # ------------------------------------------------------------------ introspection
    # What completion and inspection (``introspect.py``) use: values are JSValues (ints) the
    # caller owns unless said otherwise; every call may raise InstanceDead.
    def guarded(self, work, timeout: float):
        """``work()`` outside any run, with the soft interrupt armed after ``timeout`` seconds
        (and, as for a run, the epoch trap HARD_STOP_AFTER later): JS that runs too long
        throws QuickJS's uncatchable 'interrupted' and the context stays as it was."""
        with self._stop_lock:
            self._running = True
            self._set_interrupt(False)
        self.store.set_epoch_deadline(1)
        self._reset_stack()
        timer = threading.Timer(timeout, self.request_interrupt)
        timer.daemon = True
        timer.start()
        try:
            return work()
        finally:
            timer.cancel()
            with self._stop_lock:
                self._running = False
                if self._hard_timer is not None:
                    self._hard_timer.cancel()
                    self._hard_timer = None
            if not self.dead:
                self._set_interrupt(False)

    def is_proxy(self, value: int) -> bool:
        """Whether ``value`` is a Proxy (asked of QuickJS: no trap runs)."""
        return binary.tag_of(value) == binary.TAG_OBJECT and self._call("JS_IsProxy", value) != 0

    def is_function(self, value: int) -> bool:
        return binary.tag_of(value) == binary.TAG_OBJECT and self._call("JS_IsFunction", self.ctx, value) != 0

    def new_string(self, text: str) -> int:
        ptr, n = self._cstring(text)
        try:
            return self._call("JS_NewStringLen", self.ctx, ptr, n)
        finally:
            if not self.dead:
                self._call("free", ptr)

    def dup_value(self, value: int) -> int:
        return self._call("JS_DupValue", self.ctx, value) if binary.is_refcounted(value) else value

    def free_value(self, value: int) -> None:
        self._free_value(value)

    def string_text(self, value: int) -> str | None:
        """A JS string's text (None for any other value: converting those could run code)."""
        return self._to_str(value) if binary.tag_of(value) == binary.TAG_STRING else None

    def host_value(self, name: str) -> int:
        """A property of the prelude's host object, borrowed (the host object keeps it)."""
        return self._host_fn(name)

    def drop_exception(self) -> None:
        """Clear the pending exception (after a call returned TAG_EXCEPTION)."""
        self._free_value(self._call("JS_GetException", self.ctx))

    def memory_bytes(self) -> int:
        return self.memory.size(self.store) * 65536

    def gc(self) -> None:
        self._call("JS_RunGC", self.rt)

    @property
    def running(self) -> bool:
        return self._running
