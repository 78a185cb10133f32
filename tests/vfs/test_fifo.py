"""Named pipes in the VFS: the handle's non-blocking answers, the bounded buffer, end-of-file
and EPIPE by the ends that came and went (vfs/fifo.py)."""
from __future__ import annotations

import gc
import stat

import pytest

from sandbox_kernel.vfs import FSError, make_vfs
from sandbox_kernel.vfs.fifo import FIFO_CAPACITY


@pytest.fixture
def fs():
    fs = make_vfs(1 << 20, 1000, ["cat"], seed=1)
    fs.mkdir("/tmp/w")
    fs.mkfifo("/tmp/w/p")
    return fs


def test_mkfifo_makes_a_fifo_inode(fs):
    s = fs.stat("/tmp/w/p")
    assert stat.S_ISFIFO(s.st_mode) and s.st_size == 0
    assert stat.S_IMODE(s.st_mode) == 0o666 & ~fs.umask
    with pytest.raises(FSError) as e:
        fs.mkfifo("/tmp/w/p")
    assert e.value.code == "EEXIST"
    with pytest.raises(FSError) as e:
        fs.mkfifo("/nowhere/p")
    assert e.value.code == "ENOENT"


def test_a_reader_waits_for_a_writer_then_gets_its_bytes_then_end_of_file(fs):
    r = fs.open("/tmp/w/p", "rb")
    with pytest.raises(BlockingIOError):
        r.read(10)  # no writer yet: a blocking open would still wait
    w = fs.open("/tmp/w/p", "wb")
    with pytest.raises(BlockingIOError):
        r.read(10)  # a writer, nothing written
    assert w.write(b"hello") == 5
    assert r.read(3) == b"hel" and r.read(10) == b"lo"
    w.close()
    assert r.read(10) == b""  # every writer closed: end-of-file
    r.close()


def test_a_writer_that_wrote_nothing_still_ends_the_next_reader(fs):
    w = fs.open("/tmp/w/p", "wb")  # (`: > fifo &`: its open would wait for the reader)
    w.close()
    r = fs.open("/tmp/w/p", "rb")
    assert r.read(10) == b""
    r.close()
    r = fs.open("/tmp/w/p", "rb")  # but only the reader that met it
    with pytest.raises(BlockingIOError):
        r.read(10)
    r.close()


def test_the_buffer_is_bounded_and_a_writer_waits_when_it_is_full(fs):
    r = fs.open("/tmp/w/p", "rb")
    w = fs.open("/tmp/w/p", "wb")
    assert w.write(b"x" * (FIFO_CAPACITY + 100)) == FIFO_CAPACITY
    with pytest.raises(BlockingIOError):
        w.write(b"y")
    assert not w.write_now(b"y")
    assert len(r.read(1000)) == 1000
    assert w.write(b"y" * 5000) == 1000
    assert fs.node("/tmp/w/p").channel.buf.__len__() == FIFO_CAPACITY


def test_all_the_fifos_together_hold_a_bounded_amount(fs):
    fs.fifo_pool.limit = FIFO_CAPACITY + 10
    fs.mkfifo("/tmp/w/q")
    a = fs.open("/tmp/w/p", "r+b")
    b = fs.open("/tmp/w/q", "r+b")
    assert a.write(b"x" * FIFO_CAPACITY) == FIFO_CAPACITY
    assert b.write(b"y" * 100) == 10
    with pytest.raises(BlockingIOError):
        b.write(b"y")
    woken = []
    fs.fifo_pool.wakers.add(lambda: woken.append(1))
    assert len(a.read(50)) == 50 and woken
    assert b.write(b"y" * 100) == 50
    a.close()  # what nobody will read goes back to the pool
    assert fs.fifo_pool.used == 60


def test_a_writer_waits_for_a_reader_and_gets_epipe_once_readers_went(fs):
    w = fs.open("/tmp/w/p", "wb")
    with pytest.raises(BlockingIOError):
        w.write(b"x")
    r = fs.open("/tmp/w/p", "rb")
    assert w.write(b"x") == 1
    r.close()
    with pytest.raises(BrokenPipeError):
        w.write(b"x")


def test_read_write_never_waits_to_open_nor_sees_end_of_file(fs):
    rw = fs.open("/tmp/w/p", "r+b")
    rw.write(b"first\n")
    assert rw.read(100) == b"first\n"
    with pytest.raises(BlockingIOError):
        rw.read(1)  # it is a writer itself
    with pytest.raises(FSError):
        rw.seek(0)


def test_the_bytes_go_with_the_last_end_and_a_dropped_handle_closes(fs):
    rw = fs.open("/tmp/w/p", "r+b")
    rw.write(b"lost")
    del rw
    gc.collect()
    assert fs.node("/tmp/w/p").channel is None  # closed by the collector: nothing kept
    r = fs.open("/tmp/w/p", "rb")
    w = fs.open("/tmp/w/p", "wb")
    w.close()
    assert r.read(10) == b""


def test_a_fifo_is_never_truncated_or_read_whole_without_a_writer(fs):
    with pytest.raises(BlockingIOError):
        fs.read_bytes("/tmp/w/p")  # what would wait answers at once in the synchronous VFS
