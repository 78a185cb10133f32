"""Drive the JS engine directly: ``run_js(sandbox, code)`` with recording sinks."""
from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.limits import Limits


class RecordingSink:
    """Thread-safe sink that remembers each write and when it happened."""

    def __init__(self) -> None:
        self.chunks: list[tuple[float, bytes]] = []
        self._lock = threading.Lock()
        self.written = threading.Event()  # set at the first write

    def write(self, data: bytes) -> None:
        with self._lock:
            self.chunks.append((time.monotonic(), bytes(data)))
        self.written.set()

    @property
    def text(self) -> str:
        return b"".join(c for _, c in self.chunks).decode("utf-8", "replace")


@dataclass
class Ran:
    result: object
    out: RecordingSink
    err: RecordingSink
    displays: list = field(default_factory=list)
    finished: float = 0.0

    @property
    def value(self):
        v = self.result.value
        return None if v is None else v["text/plain"]

    @property
    def status(self):
        return self.result.status

    @property
    def error(self):
        return self.result.error


def interrupt_when_printed(token: CancelToken) -> RecordingSink:
    """A stdout sink; its first write makes another thread interrupt the run (so the
    interrupt comes while the cell runs, never before it started, however slow the machine)."""
    out = RecordingSink()

    def interrupt() -> None:
        if out.written.wait(60):
            token.set("interrupt")
    threading.Thread(target=interrupt, daemon=True).start()
    return out


async def run_js_async(sandbox, code: str, limits: Limits | None = None, cancel: CancelToken | None = None,
                       display=True, stdin_lines: list[str] | None = None,
                       out: RecordingSink | None = None) -> Ran:
    out, err = out or RecordingSink(), RecordingSink()
    displays: list = []
    lines = list(stdin_lines or [])

    async def read_input(prompt: str, password: bool):
        return lines.pop(0) if lines else None

    def record(*bundle) -> None:
        displays.append(bundle)
        if callable(display):
            display(*bundle)

    streams = Streams(out, err, cancel or CancelToken(), read_input if stdin_lines is not None else None,
                      record if display else None)
    result = await sandbox.run("js", code, streams, limits)
    ran = Ran(result, out, err, displays, time.monotonic())
    await asyncio.sleep(0)  # let call_soon_threadsafe display callbacks land
    return ran


def run_js(sandbox, code: str, **kw) -> Ran:
    loop = _loop_for(sandbox)
    return loop.run_until_complete(run_js_async(sandbox, code, **kw))


def _loop_for(sandbox) -> asyncio.AbstractEventLoop:
    loop = getattr(sandbox, "_test_loop", None)
    if loop is None:
        loop = sandbox._test_loop = asyncio.new_event_loop()
    return loop


def close_sandbox(sandbox) -> None:
    loop = _loop_for(sandbox)
    loop.run_until_complete(sandbox.shutdown())
    loop.close()
