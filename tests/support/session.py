"""A sandbox kept across runs, like a kernel, for the hostile suite and the memory-limit tests."""
from __future__ import annotations

import asyncio
import threading
import time

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox


class Recorder:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data


class Session:
    def __init__(self, **limits) -> None:
        self.loop = asyncio.new_event_loop()
        self.sandbox = Sandbox(Limits(**limits) if limits else None)

    def run(self, code: str, engine: str = "sh", cancel: CancelToken | None = None,
            wall_time: float | None = None, stdout=None, args: list[str] | None = None, stderr=None):
        """(RunResult, stdout, stderr, seconds); ``wall_time`` overrides the session's for
        this run, ``stdout`` and ``stderr`` replace the recorders (their bytes are then not
        returned; a background job may write there after the run), ``args``: the cell magic's
        options. The loop runs (and with it the background jobs of earlier runs) only during a run."""
        out, err = Recorder(), Recorder()
        limits = None if wall_time is None else self.sandbox.limits.replace(wall_time=wall_time)
        t = time.monotonic()
        streams = Streams(stdout or out, stderr or err, cancel or CancelToken())
        result = self.loop.run_until_complete(self.sandbox.run(engine, code, streams, limits, args))
        return result, bytes(out.data), bytes(err.data), time.monotonic() - t

    def close(self) -> None:
        self.loop.run_until_complete(self.sandbox.shutdown())
        self.loop.close()


class InterruptWhenBusy:
    """A run's stdout that interrupts the run once it really works on the command under test:
    after ``marker`` arrived (printed just before that command) and the process then spent
    ``cpu`` seconds of CPU. An event and work done, not a wall-clock delay: on a loaded machine
    the interrupt comes later, never before the command runs. ``cancel`` goes to the run;
    ``cpu_at``/``interrupted_at`` (process CPU time / monotonic time) say when it was set."""

    def __init__(self, marker: bytes = b"started", cpu: float = 0.2, wait_for: float = 120) -> None:
        self.cancel = CancelToken()
        self.data = bytearray()
        self.marker = marker
        self.cpu = cpu
        self.cpu_at: float | None = None
        self.interrupted_at: float | None = None
        self._seen = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, args=(wait_for,), daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        self.data += data
        if self.marker in self.data:
            self._seen.set()

    def _watch(self, wait_for: float) -> None:
        if not self._seen.wait(wait_for):
            return
        start = time.process_time()
        while time.process_time() - start < self.cpu:
            if self._done.wait(0.01):
                return  # the run ended first: interrupted_at stays None
        self.cpu_at = time.process_time()
        self.interrupted_at = time.monotonic()
        self.cancel.set("interrupt")

    def finish(self) -> None:
        """After the run: stop watching."""
        self._done.set()
        self._thread.join()
