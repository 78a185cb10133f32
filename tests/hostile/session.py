"""A sandbox kept across runs, like a kernel, for the hostile suite."""
from __future__ import annotations

import asyncio
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
            wall_time: float | None = None, stdout=None, args: list[str] | None = None):
        """(RunResult, stdout, stderr, seconds); ``wall_time`` overrides the session's for
        this run, ``stdout`` replaces the recorder (its bytes are then not returned), ``args``:
        the cell magic's options."""
        out, err = Recorder(), Recorder()
        limits = None if wall_time is None else self.sandbox.limits.replace(wall_time=wall_time)
        t = time.monotonic()
        result = self.loop.run_until_complete(
            self.sandbox.run(engine, code, Streams(stdout or out, err, cancel or CancelToken()), limits, args))
        return result, bytes(out.data), bytes(err.data), time.monotonic() - t

    def close(self) -> None:
        self.loop.run_until_complete(self.sandbox.shutdown())
        self.loop.close()
