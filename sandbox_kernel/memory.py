"""Memory a run may take: ``Limits.memory_bytes``, enforced two ways.

Each command counts what it holds (``Meter``): whole inputs, lines kept for sorting, awk's and
jq's big values. The meter of the running command is a context variable (each pipeline stage is
its own task); ``need(n)`` refuses one allocation before it is made (a Python ``s + s`` of
2 GB is one C call, too late to stop once it started), ``charge(n)`` counts bytes kept. Past the
limit they raise ``MemoryLimitExceeded``; the registry reports ``CMD: memory limit exceeded
(1G; limit memory_bytes; raise it with ...)`` and the command's failure status, and the run
goes on.

What no command counts is caught by ``RunMemory``, a safety net over the whole process: while a
run executes, the kernel process's resident memory (``/proc/self/statm``, under a microsecond)
may grow over its level at the run's start by ``memory_bytes`` plus what the other limits let
a run keep (what the VFS grew by, ``shell_memory_bytes``, ``wasm_memory_bytes``). The checks run
where the run already checks its wall time (``ctx.check()``/``ctx.checkpoint()``, the shell's
periodic yield), through ``CancelToken.check_memory``; past the limit the run's cancel token is
set with reason ``"memory"`` and the run ends like a timed-out one, with ``bash: memory limit
exceeded (...)`` and status 1.
"""
from __future__ import annotations

import contextvars
import gc
import os
import time

#: What one kept line costs beyond its bytes: a bytes object's header (33) and the pointers
#: to it in a list or two.
LINE_COST = 64
#: What ``sep.join(parts)`` takes per part while it runs, beyond the result: CPython holds a
#: buffer view (80 bytes) of every part (measured with tracemalloc).
JOIN_PART_COST = 88
#: How often (seconds) the safety net reads the process's memory.
CHECK_INTERVAL = 0.005
#: After memory was given back to the system below the limit, how long before trying again.
TRIM_INTERVAL = 1.0


class MemoryLimitExceeded(Exception):
    """A command would hold more than ``limit`` bytes (``Limits.memory_bytes``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"memory limit exceeded ({size_text(limit)}; limit memory_bytes)")
        self.limit = limit


def size_text(n: int) -> str:
    """``1G``, ``64M``, ``1.4G``: a size as the limits are written, rounded to what reads well."""
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f}".removesuffix(".0") + unit
    return f"{n} bytes"


class Meter:
    """The bytes one command holds, against ``limit``."""

    __slots__ = ("limit", "held")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def need(self, n: int) -> None:
        """Refuse (raise) an allocation of ``n`` more bytes that would not fit; counts nothing."""
        if self.held + n > self.limit:
            raise MemoryLimitExceeded(self.limit)

    def charge(self, n: int) -> None:
        """Count ``n`` more bytes held (raise, counting nothing, when they do not fit)."""
        held = self.held + n
        if held > self.limit:
            raise MemoryLimitExceeded(self.limit)
        self.held = held

    def release(self, n: int) -> None:
        self.held = max(0, self.held - n)


#: The running command's meter (None outside commands: the shell has its own limits).
CURRENT: contextvars.ContextVar[Meter | None] = contextvars.ContextVar("command_meter", default=None)


def meter() -> Meter | None:
    return CURRENT.get()


def need(n: int) -> None:
    """``Meter.need`` of the running command, if any."""
    m = CURRENT.get()
    if m is not None and m.held + n > m.limit:
        raise MemoryLimitExceeded(m.limit)


def charge(n: int) -> None:
    """``Meter.charge`` of the running command, if any."""
    m = CURRENT.get()
    if m is not None:
        m.charge(n)


#: Values built smaller than this are not checked (``room``): a check costs a lookup.
BIG = 1 << 20


def room(size: int) -> None:
    """Before building a string (or list) of ``size`` bytes from parts: refuse it when it and
    its parts, alive while it is made, would not fit (``s = s s`` doubling to gigabytes is one
    allocation, refused before it is made). So one value may be at most half the limit."""
    if size > BIG:
        need(2 * size)


def joined(parts: list[str]) -> str:
    """``"".join(parts)`` after ``room``."""
    if sum(map(len, parts)) > BIG:
        room(sum(map(len, parts)))
    return "".join(parts)


# ---------------------------------------------------------------- the process-level safety net
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_statm: tuple[int, int] | None = None  # (pid, fd)


def resident_bytes() -> int | None:
    """The process's resident memory now, None where /proc/self/statm is missing."""
    global _statm
    pid = os.getpid()
    if _statm is None or _statm[0] != pid:
        try:
            _statm = (pid, os.open(f"/proc/{pid}/statm", os.O_RDONLY))
        except OSError:
            _statm = (pid, -1)
    fd = _statm[1]
    if fd < 0:
        return None
    try:
        return int(os.pread(fd, 128, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_malloc_trim = None


def _trim() -> None:
    """Give memory that was freed back to the system (glibc keeps some), so that the safety net
    counts what is held, not what the allocator kept."""
    global _malloc_trim
    gc.collect()
    if _malloc_trim is None:
        try:
            import ctypes
            _malloc_trim = ctypes.CDLL(None).malloc_trim  # glibc; elsewhere there is none
        except (OSError, AttributeError):
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


class RunMemory:
    """The safety net of one run: see the module's docstring. ``fs`` (the VFS) tells how much
    of the growth are files the run wrote."""

    def __init__(self, limits, fs=None) -> None:
        self.limits = limits
        self.fs = fs
        self.start = resident_bytes()
        self.fs_start = getattr(fs, "bytes_used", 0)
        self.next_check = 0.0
        self.next_trim = 0.0
        #: the growth that stopped the run
        self.grown = 0

    def allowance(self) -> int:
        limits = self.limits
        files = max(0, getattr(self.fs, "bytes_used", 0) - self.fs_start)
        return limits.memory_bytes + limits.shell_memory_bytes + limits.wasm_memory_bytes + files

    def exceeded(self) -> bool:
        """True when the process grew past the allowance (rate-limited: at most one reading
        per CHECK_INTERVAL)."""
        now = time.monotonic()
        if now < self.next_check or self.start is None:
            return False
        self.next_check = now + CHECK_INTERVAL
        grown = (resident_bytes() or 0) - self.start
        if grown <= self.allowance():
            return False
        if now >= self.next_trim:  # perhaps memory ended commands freed and the allocator kept
            _trim()
            self.next_trim = time.monotonic() + TRIM_INTERVAL
            grown = (resident_bytes() or 0) - self.start
            if grown <= self.allowance():
                return False
        self.grown = grown
        return True

    def message(self) -> str:
        """What the run ends with (after ``bash: ``), without the hint."""
        return f"memory limit exceeded (the sandbox grew by {size_text(self.grown)} in this run; limit memory_bytes)"

    def end(self) -> None:
        """After a run the net stopped: give back what its commands held."""
        if self.grown:
            _trim()
