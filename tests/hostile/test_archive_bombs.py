"""Archives are untrusted (red team, items 8 and 9, and the tar findings): decompression and
sparse bombs stay within the VFS quota and bounded host memory, %load swaps trees only when the
whole archive unpacked (a failing %load destroys nothing) and obeys the wall time, archive
symlinks cannot redirect later members out of the destination, huge timestamps are clamped,
and trees deeper than a path may be long still export and delete."""
from __future__ import annotations

import io
import tarfile

import pytest

from sandbox_kernel.kernel.protocol import magics
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vfs import FSError
from sandbox_kernel.vfs.tar import MAX_MTIME, export_tar, import_tar

from .bombs import BOMB_SIZE, Zeros


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """A tar.bz2 of a few hundred bytes holding 200 MiB of zeros."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:bz2", compresslevel=1) as tar:
        for name in ("workspace/zeros.bin",):
            info = tarfile.TarInfo(name)
            info.size = BOMB_SIZE
            tar.addfile(info, Zeros(BOMB_SIZE))
    data = raw.getvalue()
    assert len(data) < 200_000
    return data


def test_import_of_a_bomb_stops_at_the_quota(bomb):
    sb = Sandbox(Limits(vfs_bytes=16 * 1024 * 1024))
    with pytest.raises(FSError) as e:
        import_tar(sb.fs, io.BytesIO(bomb), "/tmp/x")
    assert e.value.code == "ENOSPC"


def test_a_failing_load_changes_nothing(bomb):
    """Red team, item 9: an ENOSPC %load had already deleted /workspace, /home/user and /tmp."""
    sb = Sandbox(Limits(vfs_bytes=16 * 1024 * 1024))
    fs = sb.fs
    fs.write_bytes("/workspace/precious.txt", b"keep me")
    fs.write_bytes("/home/user/.config", b"mine")
    fs.write_bytes("/tmp/bomb.tar.bz2", bomb)
    with pytest.raises(magics.MagicError, match="nothing was changed"):
        magics.load_snapshot(fs, "/tmp/bomb.tar.bz2", "/workspace")
    assert fs.read_bytes("/workspace/precious.txt") == b"keep me" and fs.read_bytes("/home/user/.config") == b"mine"
    assert not [n for n in fs.listdir("/") if n.startswith(".sandbox-load")], "the staging tree was left behind"
    assert fs.usage()["bytes_used"] < 1024 * 1024


def test_load_stops_at_the_wall_time_and_changes_nothing():
    sb = Sandbox()
    fs = sb.fs
    for i in range(50):
        fs.write_bytes(f"/workspace/f{i}", b"x" * 1000)
    magics.save_snapshot(fs, "/tmp/snap.tar", "/workspace")
    fs.write_bytes("/workspace/newer", b"after the snapshot")
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 10:
            raise magics.MagicError("wall time limit of 1 s exceeded; nothing was changed")
    with pytest.raises(magics.MagicError, match="nothing was changed"):
        magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace", check)
    assert fs.read_bytes("/workspace/newer") == b"after the snapshot"
    assert magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace") == 50
    assert not fs.exists("/workspace/newer")


def test_archive_symlinks_cannot_redirect_members():
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        link = tarfile.TarInfo("escape")
        link.type, link.linkname = tarfile.SYMTYPE, "/home/user"
        tar.addfile(link)
        evil = tarfile.TarInfo("escape/.bashrc")
        evil.size = 6
        tar.addfile(evil, io.BytesIO(b"pwned\n"))
        up = tarfile.TarInfo("../../home/user/up")
        up.size = 2
        tar.addfile(up, io.BytesIO(b"up"))
    sb = Sandbox()
    sb.fs.write_bytes("/home/user/.bashrc", b"original\n")
    import_tar(sb.fs, io.BytesIO(raw.getvalue()), "/workspace/x")
    assert sb.fs.read_bytes("/home/user/.bashrc") == b"original\n"
    assert not sb.fs.exists("/home/user/up")
    assert sb.fs.readlink("/workspace/x/escape") == "/home/user"  # kept as data, not followed


def sh(sb: Sandbox, script: str) -> tuple[bytes, bytes, int]:
    import asyncio

    from sandbox_kernel.cli import _Collect, _run
    out, err = _Collect(), _Collect()
    status = asyncio.run(_run(script, sb, out, err, sb.limits))
    return bytes(out.buf), bytes(err.buf), status


def test_huge_timestamps_are_clamped():
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo("future")
        info.size, info.mtime = 1, 10**15
        tar.addfile(info, io.BytesIO(b"x"))
    sb = Sandbox()
    import_tar(sb.fs, io.BytesIO(raw.getvalue()), "/workspace")
    assert sb.fs.stat("/workspace/future").st_mtime == MAX_MTIME
    out, err, status = sh(sb, "ls -l future; date -r future +%Y")
    assert status == 0 and out.endswith(b"9999\n"), err


def test_a_tree_deeper_than_a_path_exports_and_deletes():
    """Red team: a 25,000-deep tree blocked %save, export and rm -rf. Chains of 1,000 dirs are
    nested into each other by rename, so the deepest path (10,000 characters) exceeds PATH_MAX."""
    sb = Sandbox(Limits(vfs_inodes=20_000))
    fs = sb.fs
    chain = "/".join(["d"] * 1000)
    for i in range(5):
        fs.mkdir(f"/workspace/c{i}/{chain}", parents=True)
    for i in range(4, 0, -1):
        fs.rename(f"/workspace/c{i}", f"/workspace/c{i - 1}/{chain}/c{i}")
    assert fs.listdir("/workspace") == ["c0"]
    buf = io.BytesIO()
    assert export_tar(fs, buf, "/workspace") == 5005
    magics.save_snapshot(fs, "/tmp/deep.tar", "/workspace")
    fs.remove_tree("/workspace/c0")
    assert fs.listdir("/workspace") == [] and fs.usage()["inodes_used"] < 200


def snapshot_session() -> Sandbox:
    sb = Sandbox()
    fs = sb.fs
    fs.write_bytes("/workspace/keep.txt", b"keep")
    fs.mkdir("/workspace/z")
    fs.write_bytes("/workspace/z/f", b"1")
    fs.write_bytes("/home/user/.profile", b"mine")
    magics.save_snapshot(fs, "/tmp/snap.tar", "/workspace")
    fs.write_bytes("/workspace/new.txt", b"after the snapshot")
    return sb


def test_load_replaces_read_only_directories():
    """Red team: with 'chmod 555 z' on a non-empty directory %load hit EACCES half way and
    left neither the old trees nor the new: the files were gone."""
    sb = snapshot_session()
    fs = sb.fs
    fs.chmod("/workspace/z", 0o555)
    assert magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace") > 0
    assert fs.read_bytes("/workspace/keep.txt") == b"keep" and fs.read_bytes("/workspace/z/f") == b"1"
    assert not fs.exists("/workspace/new.txt") and fs.read_bytes("/home/user/.profile") == b"mine"
    assert fs.read_bytes("/tmp/snap.tar")  # the archive itself stays
    assert not [n for n in fs.listdir("/") if n.startswith(".sandbox-")]


def test_load_keeps_the_admins_read_only_mounts():
    """A read-only mount (root's tree under /workspace) is no user state: %load neither stops
    at it nor replaces it with the snapshot's copy."""
    sb = snapshot_session()
    fs = sb.fs
    with fs.privileged():
        fs.mkdir("/workspace/data")
        fs.write_bytes("/workspace/data/ref.csv", b"from the host")
        fs.chmod("/workspace/data/ref.csv", 0o444)
        fs.chmod("/workspace/data", 0o555)
    fs.mount_points.add("/workspace/data")  # what HostMount.copy_in does
    magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace")
    assert fs.read_bytes("/workspace/data/ref.csv") == b"from the host"
    assert fs.stat("/workspace/data").st_uid == 0 and fs.read_bytes("/workspace/keep.txt") == b"keep"


def test_a_failure_in_the_middle_of_the_swap_puts_everything_back(monkeypatch):
    sb = snapshot_session()
    fs = sb.fs
    fs.chmod("/workspace/z", 0o555)
    real_swap, calls = fs.swap_entries, []

    def failing_swap(a, b):
        calls.append(a)
        if len(calls) == 2:
            raise FSError(5, a)  # EIO while swapping the second tree
        real_swap(a, b)
    monkeypatch.setattr(fs, "swap_entries", failing_swap)
    with pytest.raises(FSError):
        magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace")
    assert calls[:2] == ["/workspace", "/home/user"] and calls[2] == "/workspace"  # swapped back
    assert fs.read_bytes("/workspace/new.txt") == b"after the snapshot" and fs.read_bytes("/workspace/z/f") == b"1"
    assert fs.read_bytes("/home/user/.profile") == b"mine"
    assert not [n for n in fs.listdir("/") if n.startswith(".sandbox-")]
    monkeypatch.undo()
    assert magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace") > 0 and not fs.exists("/workspace/new.txt")


def test_load_tells_the_persistent_store_what_it_replaced():
    """--persist and rw mounts write back the changed paths: a %load must show the old
    entries gone (deep ones too), the restored ones created."""
    from sandbox_kernel.vfs.changes import ChangeTracker

    sb = snapshot_session()
    fs = sb.fs
    fs.mkdir("/workspace/z/sub")
    fs.write_bytes("/workspace/z/sub/old", b"x")
    tracker = ChangeTracker(fs, ("/workspace", "/home/user"))
    magics.load_snapshot(fs, "/tmp/snap.tar", "/workspace")
    gone, present = tracker.changes()
    assert {"/workspace/new.txt", "/workspace/z/sub", "/workspace/z/sub/old"} <= set(gone)
    assert {"/workspace/keep.txt", "/workspace/z/f"} <= {path for path, _ in present}


def test_a_comm_import_stops_at_its_time_limit(bomb, monkeypatch):
    """Comm requests are answered on the kernel's event loop: an import had no time limit."""
    from sandbox_kernel.kernel.comms import vfs as comm

    monkeypatch.setattr(comm, "ARCHIVE_SECONDS", 0.0)
    sb = Sandbox()
    reply, _ = comm.VfsRequestHandler(sb.fs).handle({"id": 1, "op": "import", "path": "/tmp/x"}, [bomb])
    assert reply["error"]["code"] == "ETIMEDOUT", reply
