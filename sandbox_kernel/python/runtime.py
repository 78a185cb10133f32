"""One CPython interpreter inside one wasmtime instance, driven from a single worker thread.

``PyInstance`` owns the engine, the store, the WASI host and the door: ``job(request, io)`` runs
one turn of the guest (``guest.py``'s ``main``), answers its door calls (display, input, sleep)
through ``io`` and returns the outcome the guest reports. The interpreter keeps its state
between jobs: that is the ``%%python`` cells' global scope.

Stopping: ``stop()`` (any thread) first asks nicely: every door call the guest makes from then
on is answered "interrupted" and the guest raises KeyboardInterrupt (``input()``, ``time.sleep``,
``display`` in a loop). A guest that makes no door call (``while True: pass``) is stopped by an
epoch trap HARD_STOP_AFTER later; the interpreter is then lost (``InstanceDead``).
"""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import wasmtime

from . import artifact
from .wasi import ProcessExit, PyWasi, SystemFiles, WasiIO

#: after stop(), how long a guest that makes no door call may run before the epoch trap
HARD_STOP_AFTER = 0.1
#: how long a guest that answers (it made a door call since the stop) may take to finish
SOFT_STOP_GRACE = 2.0
#: the largest frame the guest may send through the door (a display bundle: a PNG, a table)
MAX_FRAME = 64 << 20
#: JSON items in one frame (json.loads makes ~20x bigger objects out of small items)
MAX_FRAME_ITEMS = 2_000_000
GUEST_SOURCE = Path(__file__).with_name("guest.py").read_text()
INSTALL = """def __sandbox_install():
    import sys, _host
    m = type(sys)('_sandbox')
    m.__file__ = '<sandbox>'
    sys.modules['_sandbox'] = m
    exec(compile(_host.call(b'{"op": "helper"}').decode(), '<sandbox>', 'exec'), m.__dict__)
__sandbox_install(); del __sandbox_install
"""
RUN = "__import__('_sandbox').main()\n"
HOST_FAULT = -2
BASE_ENV = {"HOME": "/home/user", "TMPDIR": "/tmp", "PYTHONTZPATH": "", "TERM": "dumb", "MPLBACKEND": "agg"}


class InstanceDead(Exception):
    """The instance trapped or exited; its Python state is gone. ``reason``: "interrupt",
    "timeout", "exit", "stack", "crash"; ``code``: os._exit's status."""

    def __init__(self, message: str, reason: str, code: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code


class RunIO(WasiIO):
    """What a job's door calls reach; the engine gives one per run. Called on the worker thread."""

    def cancelled(self) -> str | None:
        return None

    def display(self, data: dict, metadata: dict, display_id: str | None, update: bool) -> None:
        pass

    def clear(self, wait: bool) -> None:
        pass

    def input(self, prompt: str, password: bool) -> str | None:
        return None

    def pause(self, seconds: float) -> bool:
        """Sleep; True when interrupted."""
        return False


class PyInstance:
    """A live interpreter. Not thread-safe: use it from one thread; only ``stop`` may be
    called from anywhere."""

    def __init__(self, fs, memory_limit: int, args: list[str] | None = None) -> None:
        found = artifact.find()
        self.engine = artifact.make_engine()
        module = artifact.load(self.engine)
        self.store = wasmtime.Store(self.engine)
        self.memory_limit = memory_limit
        self.store.set_limits(memory_size=memory_limit)
        self.store.set_epoch_deadline(1)
        self.io: RunIO = RunIO()
        self.wasi = PyWasi(fs, SystemFiles.for_zip(str(found.stdlib)), self.io,
                           args or ["python3"], BASE_ENV)
        linker = wasmtime.Linker(self.engine)
        self.wasi.define(linker)
        i32 = wasmtime.ValType.i32()
        linker.define_func("host", "call", wasmtime.FuncType([i32] * 4, [i32]), self._door, access_caller=True)
        instance = linker.instantiate(self.store, module)
        exports = instance.exports(self.store)
        self.memory = exports["memory"]
        self._turn = exports["turn"]
        self._alloc = exports["host_alloc"]
        self.wasi.attach(self.memory, self.store)
        self.dead: str | None = None
        self._job: dict | None = None
        self._outcome: dict | None = None
        self._stop_lock = threading.Lock()
        self._running = False
        self._stopping = False
        self._door_since_stop = False
        self._hard_timer: threading.Timer | None = None
        self.jobs = 0
        self._run_turn(INSTALL)

    # ------------------------------------------------------------------ jobs
    def job(self, request: dict, io: RunIO) -> dict:
        """Run one job (see guest.py) and return the guest's outcome dict. InstanceDead when
        the instance trapped or exited (it is then unusable)."""
        if self.dead:
            raise InstanceDead(self.dead, "crash")
        self.io = self.wasi.io = io
        self._job, self._outcome = request, None
        self.jobs += 1
        try:
            self._run_turn(RUN)
        finally:
            self._job = None
            self.io = self.wasi.io = RunIO()
        if self._outcome is None:
            return {"status": 1, "error": {"ename": "SystemError", "evalue": "the Python job ended without an outcome",
                                           "traceback": []}}
        return self._outcome

    def _run_turn(self, source: str) -> None:
        data = source.encode()
        with self._stop_lock:
            self._running, self._stopping, self._door_since_stop = True, False, False
        self.store.set_epoch_deadline(1)
        try:
            p = self._alloc(self.store, len(data)) & 0xFFFFFFFF
            if not p:
                raise InstanceDead("the Python instance has no memory left to take the cell", "memory")
            self.wasi.write(data, p)
            self._turn(self.store, p, len(data))
        except ProcessExit as e:
            self._die(f"Python exited (os._exit({e.code}))", "exit", e.code)
        except wasmtime.Trap as e:
            self._trapped(e)
        except wasmtime.WasmtimeError as e:
            self._die(f"Python stopped: {str(e).splitlines()[0] if str(e) else 'wasmtime error'}", "crash")
        finally:
            with self._stop_lock:
                self._running = False
                if self._hard_timer is not None:
                    self._hard_timer.cancel()
                    self._hard_timer = None

    def _trapped(self, e: wasmtime.Trap) -> None:
        code = getattr(e, "trap_code", None)
        name = code.name if code is not None else ""
        if name == "INTERRUPT" or (self._stopping and not name):
            reason = self.io.cancelled() or "interrupt"
            self._die("Python was stopped in the middle of running code", reason)
        if name == "STACK_OVERFLOW":
            self._die("Python ran out of stack (too deep a recursion in C code)", "stack")
        if name == "HEAP_MISALIGNED" or name == "MEMORY_OUT_OF_BOUNDS":
            self._die(f"Python crashed (wasm trap: {name.lower().replace('_', ' ')})", "crash")
        first = str(e).splitlines()[0] if str(e) else "trap"
        self._die(f"Python crashed (wasm trap: {first})", "crash")

    def _die(self, message: str, reason: str, code: int | None = None) -> None:
        self.dead = message
        raise InstanceDead(message, reason, code)

    # ------------------------------------------------------------------ stopping
    def stop(self) -> None:
        """Ask the running job to stop (thread-safe): KeyboardInterrupt at its next door call,
        the epoch trap if it makes none within HARD_STOP_AFTER."""
        with self._stop_lock:
            if not self._running or self._stopping:
                return
            self._stopping = True
            self._door_since_stop = False
            self._arm(HARD_STOP_AFTER, 0.0)

    def _arm(self, delay: float, waited: float) -> None:
        timer = threading.Timer(delay, self._hard_stop, (waited + delay,))
        timer.daemon = True
        self._hard_timer = timer
        timer.start()

    def _hard_stop(self, waited: float) -> None:
        with self._stop_lock:
            if not self._running:
                return
            if self._door_since_stop and waited < SOFT_STOP_GRACE:
                self._door_since_stop = False  # it answers: give it time to unwind
                self._arm(0.25, waited)
                return
            self.engine.increment_epoch()

    # ------------------------------------------------------------------ the door
    def _door(self, caller: Any, ptr: int, length: int, out_ptr_ptr: int, out_len_ptr: int) -> int:
        try:
            ptr, length = ptr & 0xFFFFFFFF, length & 0xFFFFFFFF
            if length > MAX_FRAME:
                return self._answer(caller, {"error": f"the request is larger than {MAX_FRAME >> 20} MiB"},
                                    out_ptr_ptr, out_len_ptr)
            frame = self.wasi.read(ptr, length)
            if frame.count(b",") + frame.count(b":") > MAX_FRAME_ITEMS:
                return self._answer(caller, {"error": "the request has too many items"}, out_ptr_ptr, out_len_ptr)
            try:
                request = json.loads(frame)
            except (ValueError, RecursionError):
                return self._answer(caller, {"error": "the request is not JSON"}, out_ptr_ptr, out_len_ptr)
            if not isinstance(request, dict):
                return self._answer(caller, {"error": "the request is not an object"}, out_ptr_ptr, out_len_ptr)
            answer = self._handle(request)
            if isinstance(answer, str):  # the helper's source
                return self._answer_bytes(caller, answer.encode(), out_ptr_ptr, out_len_ptr)
            return self._answer(caller, answer, out_ptr_ptr, out_len_ptr)
        except (wasmtime.Trap, ProcessExit):
            raise
        except Exception:
            return HOST_FAULT

    def _handle(self, request: dict) -> dict | str:
        op = request.get("op")
        if op == "helper":
            return GUEST_SOURCE
        if op == "job":
            return self._job or {"kind": "none"}
        if op == "done":
            request.pop("op", None)
            self._outcome = request
            return {}
        with self._stop_lock:
            if self._stopping:
                self._door_since_stop = True
        if self.io.cancelled() or self._stopping:
            return {"interrupted": True}
        if op == "display":
            data, metadata = request.get("data"), request.get("metadata")
            display_id = request.get("id")
            if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
                return {"error": "display: the data must be a MIME bundle (a dict)"}
            if not isinstance(metadata, dict):
                metadata = {}
            self.io.display(data, metadata, display_id if isinstance(display_id, str) else None,
                            bool(request.get("update")))
        elif op == "clear":
            self.io.clear(bool(request.get("wait")))
        elif op == "input":
            prompt = request.get("prompt")
            line = self.io.input(prompt if isinstance(prompt, str) else "", bool(request.get("password")))
            if self.io.cancelled():
                return {"interrupted": True}
            return {"eof": True} if line is None else {"line": line}
        elif op == "sleep":
            seconds = request.get("seconds")
            if not isinstance(seconds, (int, float)) or seconds != seconds:
                return {"error": "sleep: not a number"}
            if self.io.pause(float(seconds)):
                return {"interrupted": True}
        else:
            return {"error": f"unknown request {str(op)[:40]!r}"}
        return {}

    def _answer(self, caller: Any, answer: dict, out_ptr_ptr: int, out_len_ptr: int) -> int:
        return self._answer_bytes(caller, json.dumps(answer).encode(), out_ptr_ptr, out_len_ptr)

    def _answer_bytes(self, caller: Any, data: bytes, out_ptr_ptr: int, out_len_ptr: int) -> int:
        p = self._alloc(caller, len(data)) & 0xFFFFFFFF
        if not p:
            return HOST_FAULT
        self.wasi.write(data, p)
        self.wasi.write(p.to_bytes(4, "little"), out_ptr_ptr & 0xFFFFFFFF)
        self.wasi.write(len(data).to_bytes(4, "little"), out_len_ptr & 0xFFFFFFFF)
        return 0

    # ------------------------------------------------------------------ facts
    def memory_bytes(self) -> int:
        return self.memory.data_len(self.store)

    def close(self) -> None:
        self.wasi.close_all()
