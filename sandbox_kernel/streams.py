"""Byte streams between commands: pipes, VFS files, sinks, buffers.

Commands read ``InputStream`` and write ``OutputStream`` (both async, bytes). A writer whose
reader has gone gets ``BrokenPipeError`` (the shell turns it into status 141). Commands never
close the streams they are given: the shell closes what it opened.
"""
from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator

from . import aio, memory
from .lazy import lazy_import

asyncio = lazy_import("asyncio")  # with the loop (aio.py)

# Files are read 64 KiB at a time (grep's binary-file verdict per block, like GNU's, depends
# on it); a pipe holds up to 1 MiB, so a fast writer hands on many chunks per switch to the
# reader, and chunks pass through uncopied.
CHUNK = 65536
PIPE_CAPACITY = 1 << 20


class InputStream:
    """Base input: subclasses implement ``read_chunk``.

    ``_buf`` is a bytearray so taking data off its front is cheap (CPython trims a bytearray's
    head in O(1)); reading a large buffered input in small pieces stays linear."""

    _buf: bytes | bytearray = b""
    _eof: bool = False

    async def read_chunk(self) -> bytes:
        """Next available bytes (any size), b'' at end of input."""
        raise NotImplementedError

    def _take(self, n: int) -> bytes:
        buf = self._buf
        if n >= len(buf):
            self._buf = bytearray()
            return bytes(buf)
        data = bytes(buf[:n])
        if not isinstance(buf, bytearray):
            buf = self._buf = bytearray(buf)
        del buf[:n]
        return data

    async def _fill(self) -> bool:
        if self._eof:
            return False
        chunk = await self.read_chunk()
        if not chunk:
            self._eof = True
            return False
        self._append(chunk)
        return True

    def _append(self, chunk: bytes) -> None:
        if not self._buf:
            self._buf = chunk  # kept as is: read_some hands it on uncopied (_take converts)
        else:
            if not isinstance(self._buf, bytearray):
                self._buf = bytearray(self._buf)
            self._buf += chunk

    async def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes (fewer only at end of input); all remaining input when n < 0
        (``read_all``)."""
        if n is None or n < 0:
            return await self.read_all()
        while len(self._buf) < n and await self._fill():
            pass
        return self._take(n)

    async def read_all(self, sep: bytes | None = None) -> bytes:
        """All remaining input. A command holds it: it counts against the running command's
        memory limit as it comes (``memory.charge``), so an endless input ends with the limit's
        error, not the host's memory; with ``sep``, so does each line the command will keep
        (``memory.LINE_COST``: sort, tac, shuf split the input into lines)."""
        meter = memory.meter()
        parts = [bytes(self._buf)]
        self._buf = bytearray()
        size = len(parts[0])
        if meter is not None:
            meter.charge(size + (parts[0].count(sep) * memory.LINE_COST if sep else 0))
        while not self._eof:
            chunk = await self.read_chunk()
            if not chunk:
                self._eof = True
                break
            if meter is not None:
                meter.charge(len(chunk) + (chunk.count(sep) * memory.LINE_COST if sep else 0))
            parts.append(chunk)
            size += len(chunk)
        if len(parts) == 1:
            return parts[0]
        if meter is not None:
            meter.need(size)  # the joined copy, while the parts still live
        return b"".join(parts)

    async def read_some(self, n: int = CHUNK) -> bytes:
        """Whatever is buffered or the next chunk, at most n bytes; b'' at end of input."""
        if not self._buf:
            if self._eof:
                return b""
            chunk = self.chunk_now()  # (most chunks are at hand: no coroutine for them)
            if chunk is None:
                chunk = await self.read_chunk()
            if not chunk:
                self._eof = True
                return b""
            self._append(chunk)
        return self._take(n)

    async def readline(self, sep: bytes = b"\n", limit: int | None = None) -> bytes:
        """One line including ``sep``; the last line may lack it; b'' at end of input. With
        ``limit``, at most that many bytes: a longer line comes back cut, without ``sep``."""
        start = 0
        while True:
            line, start = self._buffered_line(sep, limit, start)
            if line is not None:
                return line
            if not await self._fill():
                return self._take(len(self._buf))

    def _buffered_line(self, sep: bytes, limit: int | None, start: int) -> tuple[bytes | None, int]:
        """The next line if the buffer holds it (or ``limit`` bytes of it), else None and
        where to search again once more is buffered."""
        i = self._buf.find(sep, start)
        if i >= 0:
            n = i + len(sep)
            return self._take(n if limit is None or n <= limit else limit), 0
        if limit is not None and len(self._buf) >= limit:
            return self._take(limit), 0
        return None, max(0, len(self._buf) - len(sep) + 1)

    def chunk_now(self) -> bytes | None:
        """``read_chunk`` when it needs no wait (a file, bytes), else None."""
        return None

    def readline_now(self, sep: bytes = b"\n", limit: int | None = None) -> bytes | None:
        """``readline`` when the line is at hand without waiting; else None, and nothing is
        taken (the interpreter's compiled commands read this way without a coroutine)."""
        start = 0
        while True:
            line, start = self._buffered_line(sep, limit, start)
            if line is not None:
                return line
            if self._eof:
                return self._take(len(self._buf))
            chunk = self.chunk_now()
            if chunk is None:
                return None
            if not chunk:
                self._eof = True
                return self._take(len(self._buf))
            self._append(chunk)

    async def lines(self, sep: bytes = b"\n") -> AsyncIterator[bytes]:
        """Iterate lines (each including its separator when present)."""
        while True:
            # fast path: split everything buffered at once
            if sep in self._buf:
                parts = bytes(self._buf).split(sep)
                self._buf = bytearray(parts.pop())
                for p in parts:
                    yield p + sep
                continue
            if not await self._fill():
                if self._buf:
                    yield self._take(len(self._buf))
                return

    def unread(self, data: bytes) -> None:
        self._buf = bytearray(data) + self._buf

    def close(self) -> None:
        """Reader is done: a pipe's writer will get BrokenPipeError."""
        self._eof = True
        self._buf = bytearray()


class OutputStream:
    async def write(self, data: bytes) -> None:
        raise NotImplementedError

    def write_now(self, data: bytes) -> bool:
        """``write`` when it needs no wait: True once written; False (nothing written) when
        only ``write`` can (the interpreter's compiled commands write this way first)."""
        return False

    def screen(self) -> str | None:
        """Who reads this stream as it is written: "notebook" (a cell's output), "terminal",
        or None (a file, a pipe, a capture); what isatty() means here."""
        return None

    def isatty(self) -> bool:
        return self.screen() is not None

    async def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


class EmptyInput(InputStream):
    async def read_chunk(self) -> bytes:
        return b""

    def chunk_now(self) -> bytes | None:
        return b""


class DirectoryInput(InputStream):
    """``< dir``: the fd opens (as open(2) opens a directory for reading) and each read fails
    with EISDIR, which commands report as any read error (``cat: -: Is a directory``)."""

    async def read_chunk(self) -> bytes:
        raise IsADirectoryError(21, "Is a directory")

    def chunk_now(self) -> bytes | None:
        return None  # (the error comes from read_chunk, where readers expect errors)


class BytesInput(InputStream):
    """Input from a fixed byte string (here-docs, here-strings)."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    async def read_chunk(self) -> bytes:
        data, self._data = self._data, b""
        return data

    def chunk_now(self) -> bytes | None:
        data, self._data = self._data, b""
        return data


async def fifo_change(handle) -> None:
    """Until a named pipe's channel changes (a handle said BlockingIOError: vfs/fifo.py). An
    await like a pipe's: the interrupt (the task's cancellation) ends it."""
    await aio.need_loop()
    event = asyncio.Event()
    wakers = handle.channel.wakers
    pool = handle.channel.pool.wakers  # (a writer may wait for all the FIFOs' room)
    wakers.add(event.set)
    pool.add(event.set)
    try:
        await event.wait()
    finally:
        wakers.discard(event.set)
        pool.discard(event.set)


class FileInput(InputStream):
    """Reads a VFS file handle lazily in chunks, so ``cat big | head -1`` reads one chunk
    (a named pipe's handle: what was written, waiting while there is none)."""

    def __init__(self, handle) -> None:
        self.handle = handle

    async def read_chunk(self) -> bytes:
        while True:
            try:
                return self.handle.read(CHUNK)
            except BlockingIOError:
                await fifo_change(self.handle)

    def chunk_now(self) -> bytes | None:
        try:
            return self.handle.read(CHUNK)
        except BlockingIOError:
            return None

    def in_place(self) -> tuple[bytearray, int] | None:
        """The VFS file's content and the offset reading has reached, when nothing is buffered
        ahead (else None): commands that only look at the bytes (wc) read them where they lie,
        by index, without copies, and say how far with ``seek``."""
        node = getattr(self.handle, "node", None)
        data = getattr(node, "data", None)
        if self._buf or not isinstance(data, bytearray) or not getattr(self.handle, "readable", False):
            return None
        return data, self.handle.pos

    def seek(self, pos: int) -> None:
        self.handle.pos = pos

    def close(self) -> None:
        super().close()


class FileOutput(OutputStream):
    def __init__(self, handle) -> None:
        self.handle = handle

    async def write(self, data: bytes) -> None:
        if getattr(self.handle, "fifo", False):
            await fifo_write(self.handle, data)
            return
        self.handle.write(data)

    def write_now(self, data: bytes) -> bool:
        if getattr(self.handle, "fifo", False):
            return self.handle.write_now(data)
        self.handle.write(data)
        return True


async def fifo_write(handle, data: bytes) -> None:
    """All of ``data`` into a named pipe, waiting for a reader and for room as a blocking
    write does."""
    view = memoryview(data)
    while view:
        try:
            n = handle.write(bytes(view[:CHUNK]))
        except BlockingIOError:
            await fifo_change(handle)
            continue
        view = view[n:]


class BufferOutput(OutputStream):
    """Collects output (command substitution). Raises when it would exceed ``limit``; a
    ``meter`` (``grow(n)``, raising when the bytes may not be kept) counts what it holds."""

    def __init__(self, limit: int | None = None, meter=None) -> None:
        self.buf = bytearray()
        self.limit = limit
        self.meter = meter

    async def write(self, data: bytes) -> None:
        self.write_now(data)

    def write_now(self, data: bytes) -> bool:
        if self.limit is not None and len(self.buf) + len(data) > self.limit:
            raise OutputTooLarge(self.limit)
        if self.meter is not None:
            self.meter.grow(len(data))
        self.buf += data
        return True

    def getvalue(self) -> bytes:
        return bytes(self.buf)


class NullOutput(OutputStream):
    async def write(self, data: bytes) -> None:
        pass

    def write_now(self, data: bytes) -> bool:
        return True


class ClosedOutput(OutputStream):
    """``>&-``: writing fails like a closed fd."""

    async def write(self, data: bytes) -> None:
        raise OSError(9, "Bad file descriptor")


class ClosedInput(InputStream):
    async def read_chunk(self) -> bytes:
        raise OSError(9, "Bad file descriptor")


class OutputTooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(f"output exceeds {limit} bytes")
        self.limit = limit


class SinkOutput(OutputStream):
    """Writes to an engine sink (the kernel's coalescing stream or the CLI's stdout)."""

    def __init__(self, sink) -> None:
        self.sink = sink

    async def write(self, data: bytes) -> None:
        self.sink.write(data)

    def write_now(self, data: bytes) -> bool:
        self.sink.write(data)
        return True

    def screen(self) -> str | None:
        return getattr(self.sink, "screen", None)


#: writes smaller than this are joined in a pipe (``Pipe.push``)
SMALL_WRITE = 4096
#: what a pipe's end waits for (``_PipeBuffer.until``)
READABLE, WRITABLE = 0, 1


class Pipe:
    """A bounded in-memory pipe; ``reader`` and ``writer`` are its two ends.

    The writer awaits while the pipe holds ``capacity`` bytes; closing the writer gives the
    reader end-of-file; closing the reader makes further writes raise BrokenPipeError. The
    ends share the pipe's ``buffer``, not the pipe itself: no reference cycle, so a pipeline's
    pipes go as soon as their ends do, without waiting for the garbage collector.
    """

    __slots__ = ("buffer", "reader", "writer")

    def __init__(self, capacity: int = PIPE_CAPACITY) -> None:
        self.buffer = buffer = _PipeBuffer(capacity)
        self.reader = _PipeReader(buffer)
        self.writer = _PipeWriter(buffer)

    @property
    def size(self) -> int:
        """The bytes written and not read yet."""
        return self.buffer.size


class _PipeBuffer:
    """What a pipe holds, and the state of its two ends."""

    __slots__ = ("capacity", "chunks", "size", "writer_closed", "reader_closed", "_events")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.chunks: deque[bytes] = deque()
        self.size = 0
        self.writer_closed = False
        self.reader_closed = False
        # [readable, writable], made when an end first waits (most pipes never do)
        self._events: list = [None, None]

    def push(self, data: bytes) -> None:
        """Queue ``data`` for the reader: small writes (a loop's lines) join the last small
        chunk, so the reader takes them in a few reads, not one per line."""
        chunks = self.chunks
        n = len(data)
        if n < SMALL_WRITE:
            if chunks:
                last = chunks[-1]
                if type(last) is bytearray and len(last) < SMALL_WRITE:
                    last += data
                    self.size += n
                    return
            chunks.append(bytearray(data))
        else:
            chunks.append(bytes(data))
        self.size += n

    def wake(self, side: int) -> None:
        """Wake the end waiting for ``side`` (READABLE or WRITABLE), if one is."""
        event = self._events[side]
        if event is not None:
            event.set()

    async def until(self, side: int) -> None:
        """Wait until the other end wakes ``side``."""
        await aio.need_loop()
        event = self._events[side]
        if event is None:
            event = self._events[side] = asyncio.Event()
        event.clear()
        await event.wait()


class _PipeReader(InputStream):
    def __init__(self, buffer: _PipeBuffer) -> None:
        self.buffer = buffer

    async def read_chunk(self) -> bytes:
        p = self.buffer
        while not p.chunks:
            if p.writer_closed or p.reader_closed:
                return b""
            await p.until(READABLE)
        return self._pop()

    def chunk_now(self) -> bytes | None:
        p = self.buffer
        if not p.chunks:
            return b"" if p.writer_closed or p.reader_closed else None
        return self._pop()

    def _pop(self) -> bytes:
        p = self.buffer
        chunk = p.chunks.popleft()
        p.size -= len(chunk)
        if type(chunk) is bytearray:
            chunk = bytes(chunk)
        if p.size < p.capacity:
            p.wake(WRITABLE)
        return chunk

    def close(self) -> None:
        super().close()
        p = self.buffer
        p.reader_closed = True
        p.chunks.clear()
        p.size = 0
        p.wake(WRITABLE)
        p.wake(READABLE)


class _PipeWriter(OutputStream):
    def __init__(self, buffer: _PipeBuffer) -> None:
        self.buffer = buffer

    async def write(self, data: bytes) -> None:
        p = self.buffer
        if not data:
            return
        if p.reader_closed:
            raise BrokenPipeError(32, "Broken pipe")
        if p.writer_closed:
            raise OSError(9, "Bad file descriptor")
        while p.size >= p.capacity:
            await p.until(WRITABLE)
            if p.reader_closed:
                raise BrokenPipeError(32, "Broken pipe")
        p.push(data)
        p.wake(READABLE)
        if p.size >= p.capacity:
            # let the reader run before the writer produces more
            await asyncio.sleep(0)

    def write_now(self, data: bytes) -> bool:
        p = self.buffer
        if not data:
            return True
        if p.reader_closed:
            raise BrokenPipeError(32, "Broken pipe")
        if p.writer_closed:
            raise OSError(9, "Bad file descriptor")
        if p.size >= p.capacity:
            return False  # full: write waits for the reader
        p.push(data)
        p.wake(READABLE)
        return True

    def close(self) -> None:
        p = self.buffer
        p.writer_closed = True
        p.wake(READABLE)
