"""The host-wide cap on running VMs (the admin's ``--max-vms N``).

A lock directory holds ``slot-0.lock`` .. ``slot-{N-1}.lock``; a kernel whose VM runs holds
an ``flock`` on one of them. A process that dies loses its locks with it, so a
crashed or SIGKILLed kernel frees its slot without any clean-up. A start that finds every
slot taken waits (bounded by ``--vm-queue-timeout``), then is refused with the holders named.
"""
from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import time
from pathlib import Path
from typing import Callable

POLL_FIRST, POLL_MAX = 0.05, 0.5  # seconds between tries while the host is full


class HostFull(Exception):
    """Every VM slot of the host stayed taken for the whole wait."""


class Slot:
    """One held slot; ``release()`` (or the process's end) frees it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd: int | None = fd

    @property
    def held(self) -> bool:
        return self.fd is not None

    def release(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            try:
                os.ftruncate(fd, 0)
            except OSError:
                pass  # opened read-only (a slot file another user created)
            os.close(fd)  # closing the only descriptor drops the flock


class HostSlots:
    def __init__(self, directory: Path, count: int) -> None:
        self.directory = Path(directory)
        self.count = count

    def paths(self) -> list[Path]:
        return [self.directory / f"slot-{i}.lock" for i in range(self.count)]

    def try_acquire(self, holder: str = "") -> Slot | None:
        """A free slot now, or None when all are taken; OSError when the directory is unusable."""
        self.directory.mkdir(parents=True, exist_ok=True)
        for path in self.paths():
            fd = _open_slot(path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                os.close(fd)
                if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    continue
                raise
            try:
                os.ftruncate(fd, 0)
                os.pwrite(
                    fd, f"pid {os.getpid()} since {time.strftime('%H:%M:%S')} {holder}".strip().encode() + b"\n", 0
                )
            except OSError:
                pass
            return Slot(path, fd)
        return None

    def holders(self) -> list[str]:
        """What the holders of taken slots wrote about themselves (pid, since when)."""
        found = []
        for path in self.paths():
            try:
                fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                continue  # free (a crashed holder's note may still be in it)
            except OSError:
                text = os.pread(fd, 200, 0).decode(errors="replace").strip()
                found.append(text[:120] or "?")
            finally:
                os.close(fd)
        return found

    async def acquire(self, timeout: float, waiting: Callable[[str], None], holder: str = "") -> Slot:
        """A slot, waiting at most ``timeout`` seconds for one; ``waiting`` is told once if the
        host is full. Raises HostFull (or OSError for an unusable lock directory)."""
        deadline = time.monotonic() + timeout
        pause = POLL_FIRST
        told = False
        while True:
            slot = self.try_acquire(holder)
            if slot is not None:
                return slot
            left = deadline - time.monotonic()
            if left <= 0:
                raise HostFull(self.full_message(timeout))
            if not told:
                told = True
                waiting(f"vm: all {self.count} VM slot{'s' if self.count > 1 else ''} of this host are in use; "
                        f"waiting up to {timeout:g} s for one to free up...")
            await asyncio.sleep(min(pause, left))
            pause = min(pause * 2, POLL_MAX)

    def full_message(self, waited: float) -> str:
        holders = self.holders()
        shown = "; ".join(holders[:4]) + (" ..." if len(holders) > 4 else "")
        return (f"no VM slot free on this host after {waited:g} s: the admin allows {self.count} running "
                f"VM{'s' if self.count > 1 else ''} at once (--max-vms) and all are in use"
                + (f" ({shown})" if shown else "")
                + "; stop a VM in another notebook (%vm stop) or try again later")


def _open_slot(path: Path) -> int:
    """Read-write where we may (to note who holds it), else read-only: flock needs neither."""
    flags = os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        return os.open(path, flags | os.O_RDWR, 0o644)
    except PermissionError:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
