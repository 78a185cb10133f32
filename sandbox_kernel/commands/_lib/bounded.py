"""Regex calls that stop with their run: every match ends within about 50 ms of the run's
wall-time deadline or of an interrupt, whatever the pattern and the subject.

How: calls run in the ``regex`` module, which releases the GIL while it matches a ``str`` or
``bytes`` and polls for signals as it goes. While a call runs on the main thread (where the
kernel and the CLI run cells), a watchdog thread looks at the call's ``Bounds`` every
``POLL`` seconds; once the deadline has passed or the CancelToken is set, it sends the main
thread ``SIGNAL``, whose handler raises ``RegexStopped`` inside the match. Off the main thread no
signal can reach the call, so it runs in slices with the ``regex`` module's ``timeout=`` that
double in length, and the bounds are checked between slices.

Not the ``timeout=`` argument everywhere: it reads the process's CPU clock with a system call
once per match (a ``findall`` over 1 MB with many matches got 3-5 times slower), it counts
the CPU time of every thread, and it never sees an interrupt.

Short work goes to ``re``, which is faster per call: a pattern without alternation, nested
repetitions or back-references and with ``q`` repetitions costs at most about
``len(pattern) * n ** (q + 1)`` steps on a subject of ``n`` characters, and ``cheap_length``
is the largest ``n`` that keeps this under ``CHEAP_STEPS`` (a few milliseconds).
"""
from __future__ import annotations

import math
import re
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator

__all__ = ["Bounds", "RegexStopped", "BoundedPattern", "cheap_length", "expanded_size", "MAX_EXPANDED",
           "STOP_MESSAGES"]

#: Seconds between the watchdog's looks at the running call.
POLL = 0.02
#: Looks without a running call after which the watchdog thread ends (a call starts it again).
IDLE_POLLS = 50
#: The worst case (in steps of the matcher) a call may have to run in ``re``, unwatched.
CHEAP_STEPS = 1 << 22
#: The first slice (seconds) off the main thread; each further one is twice as long.
SLICE = 0.05
#: A run without a deadline (no shell around the command) still ends a match after this long.
DEFAULT_BUDGET = 30.0
SIGNAL = signal.SIGRTMIN + 5 if hasattr(signal, "SIGRTMIN") else signal.SIGUSR2
MAXSIZE = sys.maxsize

#: The largest pattern, in atoms with every counted repetition written out, that may be compiled:
#: the ``regex`` module unrolls counted repetitions at about 300 bytes an atom (``(a{1000}){1000}``
#: took 280 MB and ``a{99999999}`` a MemoryError). a{32767} three times still fits.
MAX_EXPANDED = 1 << 17

STOP_MESSAGES = {"timeout": "wall time limit exceeded", "interrupt": "interrupted"}


class RegexStopped(Exception):
    """A match stopped because its run ran out of wall time (``reason`` "timeout") or was
    interrupted ("interrupt"); ``pattern`` is the user's pattern when known."""

    def __init__(self, reason: str, pattern: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.pattern = pattern

    def describe(self) -> str:
        return STOP_MESSAGES.get(self.reason, self.reason)


class Bounds:
    """When the matches of a run must stop: ``deadline`` (a ``time.monotonic()`` instant)
    and ``cancel`` (a CancelToken, or None)."""

    __slots__ = ("deadline", "cancel")

    def __init__(self, deadline: float = math.inf, cancel: Any = None) -> None:
        self.deadline = deadline
        self.cancel = cancel

    @classmethod
    def budget(cls, seconds: float = DEFAULT_BUDGET) -> "Bounds":
        return cls(time.monotonic() + seconds)

    @classmethod
    def of(cls, ctx: Any) -> "Bounds":
        """The bounds of the run a command (its CommandContext) belongs to."""
        host = ctx.shell
        if host is None:
            return cls.budget()
        cancel = getattr(host, "cancel", None)
        deadline = getattr(host, "deadline", None)
        if not isinstance(deadline, (int, float)):
            return cls(time.monotonic() + DEFAULT_BUDGET, cancel)
        return cls(float(deadline), cancel)

    def reason(self) -> str | None:
        """Why matching must stop now, or None."""
        cancel = self.cancel
        if cancel is not None and cancel.reason is not None:
            return "interrupt" if cancel.reason != "timeout" else "timeout"
        if time.monotonic() > self.deadline:
            return "timeout"
        return None


class _Watch:
    """The call running on the main thread and the watchdog that stops it."""

    def __init__(self) -> None:
        self.current: Bounds | None = None
        self.running = False
        self.lock = threading.Lock()
        self.handler_installed = False
        self.main = threading.main_thread().ident

    def start(self) -> None:
        with self.lock:
            if self.running:
                return
            self.running = True
        threading.Thread(target=self.loop, name="sandbox-regex-watch", daemon=True).start()

    def loop(self) -> None:
        idle = 0
        while True:
            time.sleep(POLL)
            bounds = self.current
            if bounds is None:
                idle += 1
                if idle < IDLE_POLLS:
                    continue
                # say so first, then look again: a call that starts after the look sees
                # running False and starts a new watchdog
                self.running = False
                if self.current is None:
                    return
                self.running = True
                continue
            idle = 0
            if bounds.reason() is not None:
                try:
                    signal.pthread_kill(self.main, SIGNAL)  # type: ignore[arg-type]
                except (OSError, ValueError):
                    return

    def on_signal(self, signum, frame) -> None:
        bounds = self.current
        if bounds is not None:
            reason = bounds.reason()
            if reason is not None:
                raise RegexStopped(reason)

    def usable(self) -> bool:
        """Whether calls made by this thread can be stopped by the signal."""
        if threading.get_ident() != self.main:
            return False
        if not self.handler_installed:
            try:
                signal.signal(SIGNAL, self.on_signal)
            except (ValueError, OSError):
                return False
            self.handler_installed = True
        return True


WATCH = _Watch()


def cheap_length(pattern_length: int, repetitions: int | None) -> int:
    """The longest subject on which a pattern of ``pattern_length`` with ``repetitions``
    (None: alternation, nesting or back-references, no bound) surely matches in
    ``CHEAP_STEPS``."""
    if repetitions is None or repetitions > 6:
        return -1
    return int((CHEAP_STEPS / max(1, pattern_length)) ** (1.0 / (repetitions + 1)))


_COUNT = re.compile(r"\{(\d*)(,?)(\d*)\}")


def expanded_size(source: str) -> int:
    """How many atoms the Python-syntax regex ``source`` has once its counted repetitions
    (``{m}``, ``{m,n}``, ``{m,}``) are written out, branches of an alternation added up; at
    most a little over ``MAX_EXPANDED`` (the count stops growing there)."""
    cap = MAX_EXPANDED + 1
    frames = [[0, 0, 0]]  # per open group: alternatives so far, current branch, its last atom
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        frame = frames[-1]
        if ch == "(":
            frames.append([0, 0, 0])
            if source.startswith("(?", i):  # (?:, (?P<name>, (?i) ...: their letters are no atoms
                i = source.find(":" if source.startswith("(?:", i) else ">", i)
                i = n if i < 0 else i
        elif ch == ")" and len(frames) > 1:
            size = frame[0] + frame[1]
            frames.pop()
            frames[-1][1] = min(cap, frames[-1][1] + size)
            frames[-1][2] = size
        elif ch == "|":
            frame[0], frame[1], frame[2] = min(cap, frame[0] + frame[1]), 0, 0
        elif ch == "{" and (m := _COUNT.match(source, i)) and (m.group(1) or m.group(3)):
            low = int(m.group(1) or 0)
            count = max(low + (1 if m.group(2) and not m.group(3) else 0), int(m.group(3) or 0), 1)
            frame[1] = min(cap, frame[1] + frame[2] * (count - 1))
            frame[2] = min(cap, frame[2] * count)
            i = m.end() - 1
        elif ch not in "*+?":
            if ch == "\\":
                i += 1
            elif ch == "[":  # a bracket expression is one atom: skip to its closing ]
                j = i + 1 + (source.startswith("^", i + 1))
                j += source.startswith("]", j)
                while j < n and source[j] != "]":
                    j += 2 if source[j] == "\\" else 1
                i = j
            frame[1] = min(cap, frame[1] + 1)
            frame[2] = 1
        i += 1
    return min(cap, sum(f[0] + f[1] for f in frames))


def _bounded_call(fast: Callable | None, slow: Callable, bounds: Bounds, cheap: int, pattern: str,
                  guarded: bool) -> Callable:
    """``slow(string, pos, endpos)`` (search, match, fullmatch, findall) within ``bounds``,
    ``fast`` on short subjects (the one-argument form is the common one: kept quickest)."""
    def call(string, pos=None, endpos=None):
        if len(string) <= cheap:
            if pos is None:
                return fast(string)
            return fast(string, pos, MAXSIZE if endpos is None else endpos)
        args = (string, pos or 0, MAXSIZE if endpos is None else endpos)
        if guarded:
            return _watched(bounds, pattern, slow, args)
        return _in_slices(slow, args, bounds, pattern)
    return call


def _bounded_sub(fast: Callable | None, slow: Callable, bounds: Bounds, cheap: int, pattern: str,
                 guarded: bool) -> Callable:
    """``slow(repl, string, count)`` (sub, subn) within ``bounds``, ``fast`` on short subjects."""
    def call(repl, string, count=0):
        if len(string) <= cheap:
            return fast(repl, string, count)
        if guarded:
            return _watched(bounds, pattern, slow, (repl, string, count))
        return _in_slices(slow, (repl, string, count), bounds, pattern)
    return call


def _watched(bounds: Bounds, pattern: str, method: Callable, args: tuple) -> Any:
    """``method(*args)``, one regex-module call on the main thread, watched."""
    watch = WATCH
    outer = watch.current
    watch.current = bounds
    if not watch.running:
        watch.start()
    try:
        return method(*args)
    except RegexStopped as e:
        e.pattern = pattern
        raise
    finally:
        watch.current = outer


def _in_slices(method: Callable, args: tuple, bounds: Bounds, pattern: str):
    """Off the main thread: ``method(*args)`` in ever longer slices, the bounds checked
    between them (work is at most doubled, a stop is seen within the last slice's length)."""
    length = SLICE
    while True:
        reason = bounds.reason()
        if reason is not None:
            raise RegexStopped(reason, pattern)
        try:
            return method(*args, timeout=min(length, max(bounds.deadline - time.monotonic(), 0.001)))
        except TimeoutError:
            length *= 2


#: the calls of a BoundedPattern made per binding
_CALLS = frozenset({"search", "match", "fullmatch", "findall", "sub", "subn"})


class BoundedPattern:
    """A compiled pattern whose calls stop within ``bounds``: ``search``, ``match``,
    ``fullmatch``, ``findall`` (string, pos, endpos), ``sub``, ``subn`` (repl, string,
    count), ``split`` and ``finditer``. ``compiled`` is the ``regex`` pattern; ``quick``
    (optional) the same pattern compiled by ``re``, used on subjects up to ``cheap``
    characters."""

    __slots__ = ("compiled", "quick", "cheap", "pattern", "bounds", "guarded", "_made",
                 "search", "match", "fullmatch", "findall", "sub", "subn")

    def __init__(self, compiled: Any, bounds: Bounds | None = None, pattern: str = "",
                 quick: re.Pattern | None = None, cheap: int = -1) -> None:
        self.compiled = compiled
        self.quick = quick
        self.cheap = cheap if quick is not None else -1
        self.pattern = pattern
        self.bind(bounds or Bounds.budget())

    def bind(self, bounds: Bounds) -> None:
        """Tie the calls to ``bounds`` (a command's run: ``Bounds.of(ctx)``). Each call is
        made on first use (``__getattr__``): a command uses one or two of them."""
        self.bounds = bounds
        self.guarded = WATCH.usable()
        for name in getattr(self, "_made", ()):
            delattr(self, name)
        self._made: list[str] = []

    def __getattr__(self, name: str):
        if name not in _CALLS:
            raise AttributeError(name)
        make = _bounded_sub if name.startswith("sub") else _bounded_call
        quick = self.quick
        fast = getattr(quick, name) if quick is not None else None
        call = make(fast, getattr(self.compiled, name), self.bounds, self.cheap, self.pattern, self.guarded)
        setattr(self, name, call)
        self._made.append(name)
        return call

    def split(self, string, maxsplit: int = 0) -> list:
        if len(string) <= self.cheap:
            return self.quick.split(string, maxsplit)  # type: ignore[union-attr]
        if not self.guarded:
            return _in_slices(self.compiled.split, (string, maxsplit), self.bounds, self.pattern)
        return _watched(self.bounds, self.pattern, self.compiled.split, (string, maxsplit))

    def finditer(self, string, pos: int = 0, endpos: int = MAXSIZE) -> Iterator:
        if len(string) <= self.cheap:
            return self.quick.finditer(string, pos, endpos)  # type: ignore[union-attr]
        # all the matches in one call: C speed, one watch (the subject is at most a block or a line)
        if not self.guarded:
            def every(timeout: float) -> list:
                return list(self.compiled.finditer(string, pos, endpos, timeout=timeout))
            return iter(_in_slices(every, (), self.bounds, self.pattern))
        return iter(_watched(self.bounds, self.pattern, _all_matches, (self.compiled, string, pos, endpos)))


def _all_matches(compiled: Any, string, pos: int, endpos: int) -> list:
    return list(compiled.finditer(string, pos, endpos))
