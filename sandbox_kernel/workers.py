"""Threads that run wasm guests for asyncio: a stack big enough for deep wasm recursion, a
worker that runs one guest's calls in order, and a fresh thread per command. Results and
exceptions come back as asyncio futures. Used by the JS and Python engines."""
from __future__ import annotations

import asyncio
import queue
import threading
from typing import Any, Callable

_STACK_LOCK = threading.Lock()  # threading.stack_size is the process's, not the thread's


def start_thread(target: Callable[[], None], name: str, stack_size: int) -> threading.Thread:
    """A daemon thread with a ``stack_size``-byte stack (where the platform allows)."""
    with _STACK_LOCK:
        previous = threading.stack_size()
        try:
            threading.stack_size(stack_size)
        except (ValueError, RuntimeError):
            pass
        try:
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    return thread


def _settle(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _deliver(loop: asyncio.AbstractEventLoop, future: asyncio.Future, fn: Callable[[], Any]) -> None:
    """Run ``fn`` here and hand its result or exception to the awaiting coroutine."""
    try:
        result = fn()
    except BaseException as e:  # delivered to the awaiting coroutine
        loop.call_soon_threadsafe(_settle, future, None, e)
    else:
        loop.call_soon_threadsafe(_settle, future, result, None)


class Worker:
    """One thread that runs a guest's calls in order; results come back as asyncio futures."""

    def __init__(self, name: str, stack_size: int) -> None:
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = start_thread(self._loop, name, stack_size)

    def _loop(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            _deliver(*job)

    def submit(self, fn: Callable[[], Any]) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put((loop, future, fn))
        return future

    def stop(self) -> None:
        self.jobs.put(None)


def spawn(work: Callable[[], Any], name: str, stack_size: int) -> asyncio.Future:
    """Run ``work`` on a fresh big-stack thread (one per command, so pipelines of several
    commands run concurrently)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    start_thread(lambda: _deliver(loop, future, work), name, stack_size)
    return future
