"""Memory a run may take: ``Limits.memory_bytes``, enforced two ways.

Each command counts what it holds (``Meter``): whole inputs, lines kept for sorting, awk's and
jq's big values. The meter of the running command is a context variable (each pipeline stage is
its own task); ``need(n)`` refuses one allocation before it is made (a Python ``s + s`` of
2 GB is one C call, too late to stop once it started), ``charge(n)`` counts bytes kept. Past the
limit they raise ``MemoryLimitExceeded``; the registry reports ``CMD: memory limit exceeded
(1G; limit memory_bytes; raise it with ...)`` and the command's failure status, and the run
goes on.

What no command counts is caught by ``RunMemory``, a safety net over the whole process: while
runs execute, the kernel process's resident memory (``/proc/self/statm``, under a microsecond)
may grow over its level when no run was going on by ``memory_bytes`` plus what the other limits
let runs keep (what the VFS grew by, ``shell_memory_bytes``, ``wasm_memory_bytes``,
the linear memory Python interpreters hold now: ``hold``): once for
the kernel, the cell and the terminals' commands together (``MemoryBudget`` says who is
stopped). The checks run where the run already checks its wall time (``ctx.check()``/
``ctx.checkpoint()``, the shell's periodic yield), through ``CancelToken.check_memory``; past
the limit the cancel token of the run credited with the growth is set with reason ``"memory"``
and that run ends like a timed-out one, with ``bash: memory limit exceeded (...)`` and status 1.
"""
from __future__ import annotations

import contextvars
import gc
import os
import time
from collections.abc import Callable

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


def give_back() -> None:
    """Give memory that was freed back to the system (glibc keeps some), so that the safety net
    counts what is held, not what the allocator kept (and a closed terminal's shell leaves)."""
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


#: memory engines hold outside every limit above, bounded by a limit of their own (the Python
#: engine's linear memories, ``python_memory_bytes`` each): counted as allowed while held
_holders: dict[int, Callable[[], int]] = {}


def hold(key: int, size: Callable[[], int] | None) -> None:
    """Count ``size()`` bytes as allowed while ``key`` holds them; ``None`` stops counting."""
    if size is None:
        _holders.pop(key, None)
    else:
        _holders[key] = size


def held() -> int:
    total = 0
    for size in list(_holders.values()):
        try:
            total += size()
        except Exception:
            pass
    return total


class MemoryBudget:
    """The one memory budget of a kernel: every run going on at once (the cell and the commands
    of its terminals) shares it. The process may grow over its level when the oldest of these
    runs started (no run was going on before it) by ``memory_bytes + shell_memory_bytes +
    wasm_memory_bytes`` plus what the VFS grew by: once, not once per run.

    Who is stopped: each reading of the process's memory credits the growth since the reading
    before it (by any run) to the run that reads, so a run that allocates is the one that sees
    it at its next check; a run's end credits what it gave back to itself; what changed since
    the last reading when a run starts is no run's and moves the baseline. Past the budget the
    run credited with the most growth is stopped (its token set, reason ``"memory"``), and no
    other until it ended: a cell is not blamed for what a terminal's command took, nor the
    other way round."""

    def __init__(self) -> None:
        self.fs = None  # the VFS of the oldest run going on
        self.runs: list[RunMemory] = []
        self.start: int | None = None
        self.fs_start = 0
        self.last = 0  # the last reading, any run's
        self.next_trim = 0.0

    def join(self, run: "RunMemory") -> None:
        if not self.runs:  # a new baseline: what the kernel holds with no run going on
            self.fs = run.fs
            self.start = self.last = resident_bytes()
            self.fs_start = getattr(self.fs, "bytes_used", 0)
        else:  # what changed since the last reading is no run's: the baseline moves with it
            now = resident_bytes()
            if now is not None and self.start is not None:
                self.start += now - self.last
                self.last = now
        self.runs.append(run)

    def leave(self, run: "RunMemory") -> None:
        if run in self.runs:
            self.read(run)  # what its end gave back is its own, not the next reader's
            self.runs.remove(run)

    def read(self, run: "RunMemory") -> int | None:
        """The process's growth over the baseline now, the change since the last reading
        credited to ``run``; None where it cannot be read."""
        now = resident_bytes()
        if now is None or self.start is None:
            return None
        run.own += now - self.last
        self.last = now
        return now - self.start

    def allowance(self, limits) -> int:
        files = max(0, getattr(self.fs, "bytes_used", 0) - self.fs_start)
        return limits.memory_bytes + limits.shell_memory_bytes + limits.wasm_memory_bytes + files + held()

    def exceeded(self, run: "RunMemory") -> bool:
        grown = self.read(run)
        if grown is None or grown <= self.allowance(run.limits):
            return False
        now = time.monotonic()
        if now >= self.next_trim:  # perhaps memory ended commands freed and the allocator kept
            give_back()
            self.next_trim = time.monotonic() + TRIM_INTERVAL
            grown = self.read(run)
            if grown is None or grown <= self.allowance(run.limits):
                return False
        if any(r.grown for r in self.runs):  # one is being stopped: wait for its end
            return run.grown > 0
        culprit = max(self.runs, key=lambda r: r.own)
        culprit.grown = grown
        if culprit is not run and culprit.cancel is not None:
            culprit.cancel.set("memory")
        return culprit is run


class RunMemory:
    """The safety net of one run: see the module's docstring and ``MemoryBudget``. ``fs`` (the
    VFS) tells how much of the growth are files the run wrote; ``budget`` is the kernel's,
    shared with the runs going on at the same time (a run without one is alone); ``cancel`` is
    the run's token, set when another run's check finds this one to blame."""

    def __init__(self, limits, fs=None, budget: MemoryBudget | None = None, cancel=None) -> None:
        self.limits = limits
        self.fs = fs
        self.budget = budget if budget is not None else MemoryBudget()
        self.cancel = cancel
        #: the growth credited to this run (see MemoryBudget)
        self.own = 0
        self.next_check = 0.0
        #: the growth that stopped the run
        self.grown = 0
        self.budget.join(self)

    @property
    def start(self) -> int | None:
        return self.budget.start

    @property
    def next_trim(self) -> float:
        return self.budget.next_trim

    @next_trim.setter
    def next_trim(self, when: float) -> None:
        self.budget.next_trim = when

    def allowance(self) -> int:
        return self.budget.allowance(self.limits)

    def exceeded(self) -> bool:
        """True when the process grew past the kernel's budget and this run is the one to stop
        (rate-limited: at most one reading per CHECK_INTERVAL)."""
        if self.grown:
            return True
        now = time.monotonic()
        if now < self.next_check:
            return False
        self.next_check = now + CHECK_INTERVAL
        return self.budget.exceeded(self)

    def message(self) -> str:
        """What the run ends with (after ``bash: ``), without the hint."""
        return f"memory limit exceeded (the sandbox grew by {size_text(self.grown)} in this run; limit memory_bytes)"

    def end(self) -> None:
        """The run ended: it leaves the budget; after the net stopped it, what its commands
        held is given back."""
        if self.grown:
            give_back()
        self.budget.leave(self)
