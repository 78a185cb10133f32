"""asyncio's event loop, started when a run first needs it.

Importing asyncio costs ~40 ms (it loads ssl, concurrent.futures, logging ...): more than
Python's own start. A script of builtins that never waits (``sh -c true``, most short
scripts) needs no event loop. ``run(main)`` is ``asyncio.run(main)`` that steps ``main``
without a loop first; code about to use asyncio (a task, a pipe's wait, a command, a timed
read) first awaits ``need_loop()``, which makes ``run`` start the loop and go on there from
that point. Inside a loop (the kernel, ``asyncio.run``) ``need_loop()`` does nothing; before
it, the shell's periodic yield has nothing to yield to (``loopless()``) and the wall time is
the shell's own check. ``call_later`` keeps the timers made before the loop, which arms them;
code that wants a task once the loop is there (``ShellEngine.run``'s race with the cancel
token) runs its coroutine with ``step`` and goes on with ``resumed``. A context variable's
token must not span a ``need_loop()``: the loop's task runs in a copy of the context."""
from __future__ import annotations

import sys
import threading
import time
import types
from collections.abc import Callable, Coroutine

from .lazy import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

#: what ``need_loop()`` yields while there is no loop: ``run`` (or ``step``) sees it
_START_LOOP = object()


class _State(threading.local):
    def __init__(self) -> None:
        #: ``run`` is stepping its coroutine in this thread, with no loop yet
        self.loopless = False
        #: ``call_later``'s timers made meanwhile, armed when the loop starts
        self.timers: list[_Timer] = []


_state = _State()


def loopless() -> bool:
    """True while ``run``'s coroutine goes on without a loop (in this thread)."""
    return _state.loopless


@types.coroutine
def need_loop():
    """Await before using asyncio: with no loop yet (``run``'s first steps) this starts it."""
    if _state.loopless:
        yield _START_LOOP


def run(main: Coroutine[Any, Any, Any]) -> Any:
    """``asyncio.run(main)``; asyncio is imported only when ``main`` awaits ``need_loop()``."""
    if _loop_running():
        import asyncio
        return asyncio.run(main)  # refuses, as it always did
    _state.loopless, _state.timers = True, []
    try:
        finished, result = step(main)
        if finished:
            return result
        import asyncio
        return asyncio.run(_go_on(main))
    finally:
        _state.loopless, _state.timers = False, []


def _loop_running() -> bool:
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:
        return False
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def step(coro: Coroutine[Any, Any, Any]) -> tuple[bool, Any]:
    """Without a loop: run ``coro`` until it ends, ``(True, its result)``, or until it needs
    the loop, ``(False, None)``; then ``resumed(coro)``, inside the loop, goes on."""
    try:
        request = coro.send(None)
    except StopIteration as done:
        return True, done.value
    if request is not _START_LOOP:
        coro.close()
        raise RuntimeError(f"{request!r} awaited with no event loop (await aio.need_loop() first)")
    return False, None


async def _go_on(main: Coroutine[Any, Any, Any]) -> Any:
    _state.loopless = False
    timers, _state.timers = _state.timers, []
    for timer in timers:
        timer.arm()
    return await resumed(main)


class _Resume:
    """Awaits a coroutine that stopped at ``need_loop()`` (``await coro`` itself would refuse:
    it is suspended inside an await)."""

    __slots__ = ("coro",)

    def __init__(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.coro = coro

    def __await__(self):
        return self.coro.__await__()


async def resumed(coro: Coroutine[Any, Any, Any]) -> Any:
    """``coro``, which ``step`` left at its ``need_loop()``, going on from there (in the loop)."""
    return await _Resume(coro)


class _Timer:
    """``call_later``'s timer: ``cancel()`` before or after the loop armed it."""

    __slots__ = ("when", "callback", "args", "handle", "cancelled")

    def __init__(self, when: float, callback: Callable[..., object], args: tuple) -> None:
        self.when = when
        self.callback = callback
        self.args = args
        self.handle: Any = None
        self.cancelled = False

    def arm(self) -> None:
        if not self.cancelled:
            import asyncio
            delay = max(0.0, self.when - time.monotonic())
            self.handle = asyncio.get_running_loop().call_later(delay, self.callback, *self.args)

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()


def call_later(delay: float, callback: Callable[..., object], *args: Any) -> _Timer:
    """``loop.call_later(delay, callback, *args)``; before the loop, armed when it starts
    (with what is left of ``delay``). ``.cancel()`` stops it."""
    timer = _Timer(time.monotonic() + delay, callback, args)
    if _state.loopless:
        _state.timers.append(timer)
    else:
        timer.arm()
    return timer
