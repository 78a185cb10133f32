"""Helpers of the VM tests: recording sinks, running cells, a sandbox per test."""
from __future__ import annotations

import asyncio
import time

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.sandbox import Sandbox


class Recorder:
    """A thread-safe sink that remembers when each chunk arrived."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, bytes]] = []

    def write(self, data: bytes) -> None:
        self.chunks.append((time.monotonic(), bytes(data)))

    @property
    def data(self) -> bytes:
        return b"".join(c for _, c in self.chunks)

    @property
    def text(self) -> str:
        return self.data.decode(errors="replace")


class CellRun:
    def __init__(self, result, out: Recorder, err: Recorder, started: float, ended: float) -> None:
        self.result, self.out, self.err, self.started, self.ended = result, out, err, started, ended

    @property
    def status(self) -> int:
        return self.result.status


async def run_cell(sandbox: Sandbox, code: str, cancel: CancelToken | None = None,
                   out: Recorder | None = None, err: Recorder | None = None, args: list[str] | None = None,
                   display=None, **limits) -> CellRun:
    """A %%vm cell (``args``: its options, e.g. ["--root"])."""
    out, err = out or Recorder(), err or Recorder()
    started = time.monotonic()
    result = await sandbox.run("vm", code, Streams(out, err, cancel or CancelToken(), display=display),
                               sandbox.limits.replace(**limits) if limits else None, args)
    return CellRun(result, out, err, started, time.monotonic())


def with_sandbox(body, **sandbox_kw):
    """Run ``await body(sandbox)`` in a fresh event loop with a fresh Sandbox, then shut it
    down (the VM resumes from the image's saved state, ~0.3 s)."""
    async def main():
        sandbox = Sandbox(**sandbox_kw)
        try:
            return await body(sandbox)
        finally:
            await sandbox.shutdown()
    return asyncio.run(main())
