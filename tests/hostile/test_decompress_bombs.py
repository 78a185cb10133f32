"""gzip, gunzip, zcat, unzip and zip read untrusted archives (red team, item 8): they inflate
a block at a time and write as they go, so a 200 MiB bomb, a bomb inside a bomb or an endless
input costs bounded host memory; output into the VFS meets its quota (a 1 MB .gz took 2.1 GB
of host memory even with `gunzip -c | head -c 10`)."""
from __future__ import annotations

import gzip
import io
import zipfile

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits

from .bombs import BOMB_SIZE, run_in_child

#: the most the host process may grow while a bomb goes off (KiB)
MAX_GROWTH = 100_000


def zeros(n: int):
    block = bytes(1 << 20)
    for _ in range(n // len(block)):
        yield block


@pytest.fixture(scope="module")
def gz_bomb() -> bytes:
    raw = io.BytesIO()
    with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as g:
        for block in zeros(BOMB_SIZE):
            g.write(block)
    assert len(raw.getvalue()) < 300_000
    return raw.getvalue()


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("zeros.bin", "w") as f:
            for block in zeros(BOMB_SIZE):
                f.write(block)
    assert len(raw.getvalue()) < 300_000
    return raw.getvalue()


def child_run(tmp_path, data: bytes, script: str) -> tuple[str, str, int]:
    """``run_in_child`` of ``data`` (written to a file first)."""
    path = tmp_path / "input"
    path.write_bytes(data)
    return run_in_child(str(path), script)


@pytest.mark.parametrize("script, expected", [
    ("cat > a.gz; gunzip -c a.gz | head -c 10 | wc -c", "10"),
    ("cat > a.gz; zcat a.gz | head -c 10 | wc -c", "10"),
    ("gzip -dc | wc -c", str(BOMB_SIZE)),
    ("cat > a.gz; gzip -t a.gz; echo t=$?; gzip -l a.gz | awk 'NR==2 {print $2}'", f"t=0\n{BOMB_SIZE}"),
    ("cat > a.gz; gunzip a.gz; echo status=$?; ls", "status=1\na.gz"),
    ("cat > a.gz; gzip -c a.gz > b.gz; zcat b.gz | zcat | head -c 10 | wc -c", "10"),
    ("gzip -c < /dev/zero | gzip -dc | head -c 10 | wc -c", "10"),
])
def test_gzip_bombs_cost_bounded_memory(gz_bomb, tmp_path, script, expected):
    out, err, grown = child_run(tmp_path, gz_bomb, script)
    assert grown < MAX_GROWTH, f"the host process grew by {grown // 1024} MiB"
    assert out.strip() == expected, (out, err)
    if "gunzip a.gz" in script:
        assert "gzip: a: No space left on device" in err, err


@pytest.mark.parametrize("script, expected", [
    ("cat > a.zip; unzip -p a.zip | head -c 10 | wc -c", "10"),
    ("cat > a.zip; unzip -t a.zip | tail -1", "No errors detected in compressed data of a.zip."),
    ("cat > a.zip; unzip -qo a.zip; echo status=$?", "status=1"),
    ("cat > a.zip; echo hi > n; zip -q a.zip n; echo status=$?; unzip -l a.zip | tail -1", "status=0"),
])
def test_zip_bombs_cost_bounded_memory(zip_bomb, tmp_path, script, expected):
    out, err, grown = child_run(tmp_path, zip_bomb, script)
    assert grown < MAX_GROWTH, f"the host process grew by {grown // 1024} MiB"
    assert out.strip().startswith(expected), (out, err)
    if "unzip -qo" in script:
        assert "No space left on device" in err, err


def test_gzip_output_stays_what_gnu_writes_and_reads():
    data = bytes(range(256)) * 5000
    out, err, status = run_script("gzip -9c | gzip -dc | md5sum; gzip -c | wc -c", stdin=data)
    assert status == 0, err
    out2, _, _ = run_script("gzip -c", stdin=data)
    assert gzip.decompress(out2) == data
    assert out2[10:] == gzip.compress(data, compresslevel=6, mtime=0)[10:]  # the stream zlib makes in one go
    out3, err3, status3 = run_script("gzip -dc", stdin=gzip.compress(b"hello\n", mtime=0) + b"junk")
    assert (out3, status3) == (b"hello\n", 2) and b"decompression OK, trailing garbage ignored" in err3


def test_an_endless_input_obeys_the_wall_time():
    out, err, status = run_script("gzip -c < /dev/zero > /dev/null", limits=Limits(wall_time=0.5))
    assert status == 124, (out, err)
