"""seq, yes, shuf, tee, split against GNU coreutils (LC_ALL=C) plus properties of the random ones."""
from __future__ import annotations

import pytest

from .helpers import DEFAULT_ENV, DirectRunner, assert_like_gnu, new_fs, run_cmd

SEQ_CASES = [
    ["5"], ["3", "7"], ["1", "0.5", "3"], ["10", "-2", "1"], ["-w", "-1", "1"], ["-w", "1", "0.5", "10"],
    ["0.1", "0.1", "0.5"], ["1e3", "1e3", "3e3"], ["1.5e1", "20"], ["-s,", "1", "5"], ["-f", "%05.1f", "1", "3"],
    ["-f", "%g", "0.1", "0.3"], ["1", "0.1", "1.3"], ["-w", "8", "11"], ["-w", "-5", "-3", "-12"],
    ["0", "1e-1", "0.3"], ["1.0", "3"], ["5", "1"], ["1", "0", "3"], ["x"], ["-f", "%d", "1", "2"],
    ["-f", "%e", "1", "2"], ["2e0", "4"], [".5", "2"], ["-f", "%x", "1"], ["1", "2", "3", "4"], ["-w", "1.50", "3"],
    ["1e-2", "1e-2", "3e-2"], ["1.0e1", "12"], ["--", "-3", "-1"], ["-3", "-1"], ["0x10", "0x12"], [],
    ["-f", "x%sy", "1"], ["-f", "%.3f%%", "1", "2"], ["-s", ":", "-w", "9", "11"], ["-w", "-f", "%g", "1"],
    ["1", "1", "1"], ["-1", "-0.5", "-3"], ["nan"], ["100000000000000000000", "100000000000000000002"],
    ["-f", "%10.2e", "3"], ["0", "0.25", "1"], ["1", "3", "10"], ["-w", "1", "3", "10"], ["+2", "4"],
    ["-s", "", "3"], ["2", "-1"], ["-f", "%G", "1e-5", "1e-5", "2e-5"], ["1", "0.000001", "1.000003"],
]


@pytest.mark.parametrize("args", SEQ_CASES, ids=[" ".join(c) for c in SEQ_CASES])
def test_seq_like_gnu(args):
    assert_like_gnu(["seq", *args])


@pytest.mark.parametrize("argv", [["yes", "--bogus"], ["yes", "-x"]])
def test_yes_errors_like_gnu(argv):
    assert_like_gnu(argv)


TEXT = "".join(f"line {i}\n" for i in range(1, 26))
SPLIT_CASES = [
    ["split", "-l", "7", "in"], ["split", "-l", "7", "in", "pre"], ["split", "-b", "40", "in"],
    ["split", "-b", "40", "-d", "-a", "3", "in", "p"], ["split", "-C", "30", "in"], ["split", "-n", "3", "in"],
    ["split", "-n", "l/3", "in"], ["split", "-n", "r/4", "in"], ["split", "-n", "2/3", "in"],
    ["split", "-n", "l/2/3", "in"],
    ["split", "-n", "r/2/3", "in"], ["split", "-l", "1", "--additional-suffix=.txt", "in"],
    ["split", "-x", "-l", "2", "in"],
    ["split", "--numeric-suffixes=5", "-l", "5", "in"], ["split", "-l", "0", "in"], ["split", "nope"],
    ["split", "-a", "1", "-l", "1", "in"], ["split", "--verbose", "-l", "10", "in"], ["split", "-5", "in"],
    ["split", "-n", "30", "small"], ["split", "-l", "2", "-"],
    ["split", "-t", ",", "-l", "2", "csv"], ["split", "-b", "1K", "in"], ["split", "-n", "0", "in"],
    ["tee", "o1", "o2"], ["tee", "-a", "in"], ["tee", "/nonexistent/x", "o1"], ["tee"], ["tee", "-"],
]


@pytest.mark.parametrize("argv", SPLIT_CASES, ids=[" ".join(c) for c in SPLIT_CASES])
def test_split_tee_like_gnu(argv):
    assert_like_gnu(argv, {"in": TEXT, "small": "abc\n", "csv": "a,b,c,d,e"}, stdin="s1\ns2\ns3\n",
                    check_files=True)


def test_split_many_files_widens_suffix():
    assert_like_gnu(["split", "-l", "1", "in"], {"in": "".join(f"{i}\n" for i in range(700))},
                    check_files=True)
    assert_like_gnu(["split", "-d", "-l", "1", "in"], {"in": "".join(f"{i}\n" for i in range(95))},
                    check_files=True)


def test_shuf_is_a_permutation_and_seeded():
    fs = new_fs(seed=7)
    out1, _, s1 = run_cmd(["shuf", "-e", "a", "b", "c", "d", "e"], fs=fs)
    assert s1 == 0 and sorted(out1.split()) == ["a", "b", "c", "d", "e"]
    again, _, _ = run_cmd(["shuf", "-e", "a", "b", "c", "d", "e"], fs=new_fs(seed=7))
    assert again == out1
    out, _, _ = run_cmd(["shuf", "-i", "1-100"])
    assert sorted(map(int, out.split())) == list(range(1, 101))
    out, _, _ = run_cmd(["shuf", "-n", "3", "-i", "1-1000000000"])
    assert len(out.split()) == 3
    out, _, _ = run_cmd(["shuf", "-r", "-n", "50", "-e", "x", "y"])
    assert len(out.split()) == 50 and set(out.split()) <= {"x", "y"}
    out, _, _ = run_cmd(["shuf"], stdin="1\n2\n3\n")
    assert sorted(out.split()) == ["1", "2", "3"]


def test_shuf_random_source_is_deterministic():
    fs = new_fs()
    fs.write_bytes("/workspace/seed", b"0123456789" * 10)
    a, _, _ = run_cmd(["shuf", "--random-source=seed", "-i", "1-20"], fs=fs)
    b, _, _ = run_cmd(["shuf", "--random-source=seed", "-i", "1-20"], fs=fs)
    assert a == b


@pytest.mark.parametrize("argv", [["shuf", "-i", "5-x"], ["shuf", "-n", "x", "-e", "a"], ["shuf", "-e", "-i", "1-2"],
                                  ["shuf", "nope"], ["shuf", "-n", "0", "-e", "a"], ["shuf", "-i", "3-2"],
                                  ["shuf", "-i", "1-1"]])
def test_shuf_like_gnu_where_deterministic(argv):
    assert_like_gnu(argv)


def test_yes_streams_until_reader_stops():
    from sandbox_kernel.streams import Pipe
    import asyncio

    async def go():
        fs = new_fs()
        runner = DirectRunner(fs, dict(DEFAULT_ENV))
        pipe = Pipe()
        from sandbox_kernel.streams import BufferOutput, EmptyInput
        err = BufferOutput()

        async def reader():
            data = await pipe.reader.read(300000)
            pipe.reader.close()
            return data

        task = asyncio.ensure_future(reader())
        try:
            await runner.run_argv(["yes", "ab"], EmptyInput(), pipe.writer, err)
        except BrokenPipeError:
            pass
        return await task

    data = asyncio.run(go())
    assert data == b"ab\n" * 100000


def test_seq_huge_range_streams_lazily():
    import asyncio
    from sandbox_kernel.streams import Pipe, BufferOutput, EmptyInput

    async def go():
        runner = DirectRunner(new_fs(), dict(DEFAULT_ENV))
        pipe = Pipe()

        async def reader():
            line = await pipe.reader.readline()
            pipe.reader.close()
            return line

        task = asyncio.ensure_future(reader())
        try:
            await runner.run_argv(["seq", "1e12"], EmptyInput(), pipe.writer, BufferOutput())
        except BrokenPipeError:
            pass
        return await task

    assert asyncio.run(asyncio.wait_for(go(), 10)) == b"1\n"


@pytest.mark.parametrize("argv", [["yes"], ["seq", "inf"], ["shuf", "-r", "-e", "a"], ["tr", "a", "b"],
                                  ["cut", "-c1"]])
def test_endless_producers_notice_interrupts(argv):
    import asyncio
    from sandbox_kernel.commands.registry import CommandCancelled
    from sandbox_kernel.streams import InputStream, OutputStream

    runner = DirectRunner(new_fs(), dict(DEFAULT_ENV))

    class EndlessInput(InputStream):
        async def read_chunk(self):
            return b"abc\n" * 16384

    class Sink(OutputStream):
        size = 0

        async def write(self, data):
            self.size += len(data)
            if self.size > 1_000_000:
                runner.cancel.set("interrupt")

    async def go():
        await runner.run_argv(argv, EndlessInput(), Sink(), Sink())

    with pytest.raises(CommandCancelled):
        asyncio.run(asyncio.wait_for(go(), 20))
