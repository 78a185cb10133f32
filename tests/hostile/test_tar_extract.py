"""The tar command reads untrusted archives (red team, item 8 and D7): a decompression or
sparse bomb meets the VFS quota with bounded host memory, symlinks and hard links in the
archive cannot reach outside the extraction directory, huge timestamps are clamped."""
from __future__ import annotations

import io
import tarfile

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits

from .bombs import BOMB_SIZE, Zeros, run_in_child


def archive(members, mode: str = "w", fmt: int = tarfile.GNU_FORMAT) -> bytes:
    """A tar of ``members``: (TarInfo, data or None)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode=mode, format=fmt) as tar:  # type: ignore[call-overload]
        for info, data in members:
            tar.addfile(info, data)
    return raw.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, data: bytes = b"", link: str = "", mtime: float = 0):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mtime, info.mode = kind, link, mtime, 0o644
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    return info, (io.BytesIO(data) if kind == tarfile.REGTYPE else None)


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """A tar.bz2 of a few kilobytes holding 200 MiB of zeros."""
    info = tarfile.TarInfo("zeros.bin")
    info.size = BOMB_SIZE
    data = archive([(info, io.BufferedReader(Zeros(BOMB_SIZE), 1 << 20))], mode="w:bz2")
    assert len(data) < 200_000
    return data


def sparse_bomb() -> bytes:
    """A 10 KB tar whose one sparse member is 4 GiB of holes."""
    info = tarfile.TarInfo("sparse")
    info.size = 1
    size = 4 * 2**30
    info.pax_headers = {"GNU.sparse.size": str(size), "GNU.sparse.map": f"{size - 1},1",
                        "GNU.sparse.numblocks": "1"}
    return archive([(info, io.BytesIO(b"x"))], fmt=tarfile.PAX_FORMAT)


@pytest.mark.parametrize("kind", ["bz2 bomb", "sparse"])
def test_a_bomb_meets_the_quota_with_bounded_memory(bomb, tmp_path, kind):
    path = tmp_path / "archive"
    path.write_bytes(bomb if kind == "bz2 bomb" else sparse_bomb())
    out, err, grown = run_in_child(str(path), "cat > a.tar; tar xf a.tar; echo status=$?")
    assert grown < 100_000, f"the host process grew by {grown // 1024} MiB"
    assert "status=2" in out, (out, err)
    assert "Cannot write: No space left on device" in err, err


def test_listing_a_bomb_is_interruptible_by_the_wall_time(bomb):
    out, err, status = run_script("cat > a.tbz2; tar tvf a.tbz2 >/dev/null; tar tf a.tbz2", stdin=bomb,
                                  limits=Limits(wall_time=30))
    assert out == b"zeros.bin\n" and status == 0, err


def test_an_archive_symlink_cannot_redirect_later_members():
    data = archive([member("lnk", tarfile.SYMTYPE, link="/home/user"),
                    member("lnk/.bashrc", data=b"echo PWNED\n"),
                    member("up", tarfile.SYMTYPE, link=".."),
                    member("up/escaped", data=b"x")])
    out, err, status = run_script("echo mine > ~/.bashrc; before=$(cat ~/.bashrc); "
                                  "mkdir -p /tmp/x && cd /tmp/x && cat > /tmp/a.tar; tar xf /tmp/a.tar; "
                                  "echo status=$?; [ \"$(cat ~/.bashrc)\" = \"$before\" ] "
                                  "&& echo unchanged; ls -A /tmp; readlink lnk", stdin=data)
    assert b"tar: lnk/.bashrc: Cannot open: Not a directory" in err, err
    assert b"tar: up/escaped: Cannot open: Not a directory" in err, err
    assert out.split(b"\n")[:2] == [b"status=2", b"unchanged"], (out, err)
    assert b"escaped" not in out and out.endswith(b"/home/user\n")


def test_hard_links_stay_inside_the_extraction_directory():
    data = archive([member("pw", tarfile.LNKTYPE, link="/etc/passwd"),
                    member("lnk", tarfile.SYMTYPE, link="/home/user"),
                    member("rc", tarfile.LNKTYPE, link="lnk/.bashrc"),
                    member("own", data=b"mine"),
                    member("again", tarfile.LNKTYPE, link="own")])
    out, err, status = run_script("echo mine > ~/.bashrc; mkdir -p /tmp/x && cd /tmp/x && cat > /tmp/a.tar; "
                                  "tar xf /tmp/a.tar; "
                                  "echo status=$?; ls; stat -c %h again /etc/passwd ~/.bashrc", stdin=data)
    assert b"tar: pw: Cannot hard link to 'etc/passwd': No such file or directory" in err, err
    assert b"tar: rc: Cannot hard link to 'lnk/.bashrc': Not a directory" in err, err
    assert out == b"status=2\nagain\nlnk\nown\n2\n1\n1\n", (out, err)


def test_huge_timestamps_are_clamped():
    data = archive([member("far", data=b"x", mtime=10**15), member("before", data=b"y", mtime=-10**15)],
                   fmt=tarfile.PAX_FORMAT)
    out, err, status = run_script("cat > /tmp/a.tar; tar tvf /tmp/a.tar; mkdir /tmp/x; cd /tmp/x; "
                                  "tar xf /tmp/a.tar; echo status=$?; ls -l --time-style=+%Y far before",
                                  stdin=data)
    assert b"Traceback" not in err and b"status=0" in out, (out, err)
    assert b" 9999 far" in out and b" 1970 before" in out, out
