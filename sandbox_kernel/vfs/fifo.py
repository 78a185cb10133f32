"""Named pipes (``mkfifo``): the bytes between a FIFO's open ends, and a handle on one end.

The VFS is synchronous: a handle never waits. ``FifoHandle.read`` and ``write`` raise
``BlockingIOError`` when they would wait (O_NONBLOCK's answer) and the streams layer
(``streams.FileInput``/``FileOutput``) waits for the channel's next change (``wakers``) and
tries again: readers and writers are tasks of the one process, and every wait is an await
that the interrupt (its task's cancellation) ends.

Opening never waits either; what a blocking ``open`` would wait for is waited for by the first
read or write instead, with the same outcome:
- a reader gets bytes, or end-of-file once the writers that opened since it did (or before it
  did, no reader having met them: ``: > fifo &`` then ``cat fifo``) have all closed, and
  otherwise waits (for a writer to come, or to write);
- a writer waits until a reader has opened, then writes what the buffer (``FIFO_CAPACITY``
  bytes, Linux's pipe size) holds, waiting while it is full; once the readers that came have
  all gone it gets EPIPE;
- ``<>`` (read and write) is both: it never waits to open and never sees end-of-file.
The bytes live only while an end is open (as in a kernel pipe), never in the file.
"""
from __future__ import annotations

from collections.abc import Callable

from .errors import EAGAIN, EBADF, EINVAL, ESPIPE, FSError

#: what a FIFO holds before its writers wait (Linux's default pipe buffer)
FIFO_CAPACITY = 65536
#: what all the FIFOs of a filesystem hold together before their writers wait (the inode
#: quota alone would let 100 000 full FIFOs hold 6 GB)
FIFO_POOL_BYTES = 16 << 20


class FifoPool:
    """The bytes all the FIFOs of one VFS hold, and the writers waiting for some to go."""

    __slots__ = ("limit", "used", "wakers")

    def __init__(self, limit: int = FIFO_POOL_BYTES) -> None:
        self.limit = limit
        self.used = 0
        self.wakers: set[Callable[[], None]] = set()

    def released(self, n: int) -> None:
        self.used -= n
        if n and self.wakers:
            for wake in list(self.wakers):
                wake()


class FifoChannel:
    """The open pipe of one FIFO: its buffer and open ends, and who waits for a change."""

    __slots__ = ("pool", "buf", "readers", "writers", "read_opens", "write_opens", "unmet_writers", "wakers")

    def __init__(self, pool: FifoPool) -> None:
        self.pool = pool
        self.buf = bytearray()
        self.readers = 0
        self.writers = 0
        #: how many times a read / write end was opened (generations)
        self.read_opens = 0
        self.write_opens = 0
        #: writers that opened while no reader was there and no reader came since: the next
        #: reader meets them (their open would still be waiting for it)
        self.unmet_writers = 0
        #: callbacks of the ends waiting for the next change (the streams layer's events)
        self.wakers: set[Callable[[], None]] = set()

    def changed(self) -> None:
        for wake in list(self.wakers):
            wake()

    def idle(self) -> bool:
        """Nothing open and nothing waiting for the next reader: the channel can go."""
        return not self.readers and not self.writers and not self.unmet_writers


class FifoHandle:
    """One open end of a FIFO (read, write, or both for ``<>``)."""

    fifo = True

    def __init__(self, node, path: str, readable: bool, writable: bool, pool: FifoPool) -> None:
        channel = node.channel
        if channel is None:
            channel = node.channel = FifoChannel(pool)
        self.node = node
        self.channel = channel
        self.path = path
        self.readable = readable
        self.writable = writable
        self.closed = False
        if readable:
            # the writers this reader waits for: those that open from now on, and those
            # that opened with no reader to meet them
            self.writers_from = channel.write_opens - channel.unmet_writers
            channel.unmet_writers = 0
            channel.readers += 1
            channel.read_opens += 1
        if writable:
            self.readers_from = channel.read_opens - (1 if readable else 0)
            if not channel.readers:
                channel.unmet_writers += 1
            channel.writers += 1
            channel.write_opens += 1
        channel.changed()

    def __enter__(self) -> "FifoHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check(self, readable: bool) -> None:
        if self.closed or not (self.readable if readable else self.writable):
            raise FSError(EBADF, self.path)

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes that were written (all of them when n < 0); b"" at end-of-file;
        BlockingIOError when a reader would wait."""
        self._check(True)
        channel = self.channel
        buf = channel.buf
        if buf:
            if n < 0 or n >= len(buf):
                data = bytes(buf)
                buf.clear()
            else:
                data = bytes(buf[:n])
                del buf[:n]
            channel.changed()
            channel.pool.released(len(data))
            return data
        if not channel.writers and channel.write_opens > self.writers_from:
            return b""
        raise BlockingIOError(EAGAIN, "Resource temporarily unavailable")

    def readline(self, limit: int = -1) -> bytes:
        return self.read(limit)

    def write(self, data: bytes) -> int:
        """Take as much of ``data`` as the buffer holds (its count); BlockingIOError when a
        writer would wait (no reader yet, or the buffer full); BrokenPipeError once the
        readers have gone."""
        self._check(False)
        channel = self.channel
        if not channel.readers:
            if channel.read_opens > self.readers_from:
                raise BrokenPipeError(32, "Broken pipe")
            raise BlockingIOError(EAGAIN, "Resource temporarily unavailable")
        pool = channel.pool
        room = min(FIFO_CAPACITY - len(channel.buf), pool.limit - pool.used)
        if room <= 0:
            raise BlockingIOError(EAGAIN, "Resource temporarily unavailable")
        if not data:
            return 0
        taken = data[:room]
        channel.buf += taken
        pool.used += len(taken)
        channel.changed()
        return len(taken)

    def write_now(self, data: bytes) -> bool:
        """All of ``data`` when it fits now (True), else nothing (False)."""
        self._check(False)
        channel = self.channel
        if not channel.readers:
            if channel.read_opens > self.readers_from:
                raise BrokenPipeError(32, "Broken pipe")
            return False
        pool = channel.pool
        if len(channel.buf) + len(data) > FIFO_CAPACITY or pool.used + len(data) > pool.limit:
            return False
        channel.buf += data
        pool.used += len(data)
        channel.changed()
        return True

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        channel = self.channel
        if self.readable:
            channel.readers -= 1
        if self.writable:
            channel.writers -= 1
        if not channel.readers and not channel.writers and channel.buf:
            channel.pool.released(len(channel.buf))
            channel.buf.clear()  # what nobody read is gone with the pipe, as in a kernel
        if channel.idle() and self.node.channel is channel:
            self.node.channel = None
        channel.changed()

    def __del__(self) -> None:
        # the last descriptor on this end went (``exec 8<&-``, a fork's table collected):
        # the end closes, as the kernel closes a file description nobody refers to
        if not self.closed:
            try:
                self.close()
            except Exception:  # noqa: BLE001 - (collected with its loop gone: nobody waits)
                pass

    def seek(self, offset: int, whence: int = 0) -> int:
        raise FSError(ESPIPE, self.path)

    def tell(self) -> int:
        raise FSError(ESPIPE, self.path)

    def truncate(self, size: int | None = None) -> int:
        raise FSError(EINVAL, self.path)

    def size(self) -> int:
        return 0
