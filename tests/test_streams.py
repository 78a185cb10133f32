"""Pipes between pipeline stages: capacity, back-pressure, chunks handed on uncopied."""
from __future__ import annotations

import asyncio

from sandbox_kernel.streams import CHUNK, PIPE_CAPACITY, SMALL_WRITE, FileInput, Pipe
from sandbox_kernel.vfs import make_vfs


def test_a_chunk_passes_through_a_pipe_uncopied():
    async def main():
        pipe = Pipe()
        data = bytes(range(256)) * 256
        await pipe.writer.write(data)
        got = await pipe.reader.read_some(len(data))
        assert got is data  # no bytearray round trip in the reader's buffer
        pipe.writer.close()
        assert await pipe.reader.read_some() == b""
    asyncio.run(main())


def test_small_writes_reach_the_reader_joined_and_in_order():
    async def main():
        pipe = Pipe()
        lines = [b"line %d\n" % k for k in range(1000)]
        for line in lines:
            assert pipe.writer.write_now(line)
        big = b"y" * SMALL_WRITE
        await pipe.writer.write(big)
        await pipe.writer.write(b"tail\n")
        pipe.writer.close()
        chunks = []
        while chunk := await pipe.reader.read_chunk():
            assert type(chunk) is bytes
            chunks.append(chunk)
        assert b"".join(chunks) == b"".join(lines) + big + b"tail\n"
        assert len(chunks) < 10  # a few reads, not one per line
        assert big in chunks  # a big write is handed on as it came
    asyncio.run(main())


def test_a_pipe_holds_a_mebibyte_before_the_writer_waits():
    async def main():
        pipe = Pipe()
        piece = b"x" * CHUNK
        for _ in range(PIPE_CAPACITY // CHUNK - 1):
            await pipe.writer.write(piece)  # the reader has not run: these must not wait
        await pipe.writer.write(piece)  # reaches the capacity (yields once to the reader)
        blocked = asyncio.ensure_future(pipe.writer.write(piece))
        for _ in range(5):
            await asyncio.sleep(0)
        assert not blocked.done()
        assert PIPE_CAPACITY >= 1 << 20
        total = 0
        while total < PIPE_CAPACITY:
            total += len(await pipe.reader.read_some(PIPE_CAPACITY))
        await blocked
        pipe.writer.close()
        while chunk := await pipe.reader.read_some(PIPE_CAPACITY):
            total += len(chunk)
        assert total == PIPE_CAPACITY + CHUNK
    asyncio.run(main())


def test_file_input_reads_every_byte_in_chunks():
    fs = make_vfs(1 << 24, 100)
    data = bytes(range(251)) * 4000  # about 1 MB, not a multiple of CHUNK
    fs.write_bytes("/tmp/f", data)

    async def main():
        inp = FileInput(fs.open("/tmp/f"))
        parts = []
        while chunk := await inp.read_some():
            assert len(chunk) <= CHUNK
            parts.append(chunk)
        return b"".join(parts)
    assert asyncio.run(main()) == data
