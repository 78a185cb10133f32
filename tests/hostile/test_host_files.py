"""Host files are a trust boundary (the admin's mounts, the persistent workspace): sandbox
code must not reach host paths through them, and a tampered store must not reach the VFS's
system files."""
from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import tarfile
from importlib import resources
from pathlib import Path

import pytest

from sandbox_kernel.kernel.storage.mounts import HostMount
from sandbox_kernel.kernel.storage.store import WorkspaceStore
from sandbox_kernel.policy import parse_mount
from sandbox_kernel.sandbox import Sandbox


@pytest.fixture
def host(tmp_path):
    top = tmp_path / "data"
    top.mkdir()
    (top / "a.csv").write_text("x\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "canary").write_text("host secret\n")
    (top / "escape").symlink_to(outside)
    return top, outside


def mounted(top: Path, rw: bool = True):
    sb = Sandbox()
    mount = HostMount(parse_mount(f"{top}:/workspace/data:{'rw' if rw else 'ro'}"), sb.fs)
    mount.copy_in()
    return sb, mount


def sh(sb: Sandbox, script: str) -> str:
    import asyncio

    from sandbox_kernel.cli import _Collect, _run
    out, err = _Collect(), _Collect()
    asyncio.run(_run(script, sb, out, err, sb.limits))
    return bytes(out.buf).decode() + bytes(err.buf).decode()


def reopened(path: Path):
    sb = Sandbox()
    store = WorkspaceStore(path, sb.fs)
    return sb, store, store.open()


def test_host_symlinks_are_never_followed(host):
    top, outside = host
    sb, mount = mounted(top, rw=True)
    out = sh(sb, "readlink /workspace/data/escape; cat /workspace/data/escape/canary 2>&1; echo")
    assert str(outside) in out and "host secret" not in out  # a VFS symlink, resolved in the VFS
    sh(sb, "rm /workspace/data/escape && mkdir /workspace/data/escape && echo pwned > /workspace/data/escape/canary")
    notes = mount.write_back()
    assert (outside / "canary").read_text() == "host secret\n"  # the host symlink was not followed
    assert any("escape/canary" in n and "not written" in n for n in notes), notes


def test_a_sandbox_symlink_is_not_created_on_the_host(host):
    top, outside = host
    sb, mount = mounted(top)
    sh(sb, "ln -s /etc/shadow /workspace/data/shadow; ln -s ../outside /workspace/data/out2")
    mount.write_back()
    assert not (top / "shadow").exists() and not (top / "out2").is_symlink()


def test_a_store_with_hostile_paths_is_refused(tmp_path):
    """A bad row is skipped and said; the rest of the store is restored, never discarded."""
    db = tmp_path / "ws.sqlite"
    sb, store, _ = reopened(db)
    sh(sb, "echo kept > /workspace/keep.txt")
    store.close()
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO entries VALUES ('/workspace/../etc/passwd', 'file', 420, 1000, 1000, 0, x'41', NULL)")
    sb2, store2, notice = reopened(db)
    assert "could not be restored" in notice and "bad path" in notice, notice
    assert sb2.fs.read_bytes("/etc/passwd").startswith(b"root:") and sb2.fs.read_bytes("/workspace/keep.txt")
    assert not list(tmp_path.glob("*.unreadable*"))
    store2.close()


def test_time_zones_come_from_the_tzdata_package_never_the_host(tmp_path):
    """Red team, D10: TZ=... read the host's /usr/share/zoneinfo first (output differed by
    host, and TZ probed which host files exist). A fake host zone directory where
    Europe/Paris is UTC and posixrules exists changes nothing; no host directory at all
    (a wheel install on a bare host) works the same."""
    fake = tmp_path / "zoneinfo"
    (fake / "Europe").mkdir(parents=True)
    utc = resources.files("tzdata.zoneinfo").joinpath("UTC").read_bytes()
    (fake / "Europe" / "Paris").write_bytes(utc)
    (fake / "posixrules").write_bytes(utc.replace(b"UTC", b"HST"))
    script = "TZ=Europe/Paris date -d @0 '+%H %Z'; TZ=posixrules date -d @0 +%Z; TZ=Asia/Kolkata date -d @0 +%z"
    for tzpath in (str(fake), str(tmp_path / "missing")):
        done = subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", "-c", script], capture_output=True,
                              text=True, timeout=60, env={**os.environ, "PYTHONTZPATH": tzpath})
        assert done.stdout == "01 CET\nposixrules\n+0530\n", (tzpath, done.stdout, done.stderr)


def test_restore_never_follows_a_symlink_left_by_a_rename(tmp_path):
    """Red team (third round): 'mv a b; ln -s /etc a' left the rows below /workspace/a in the
    store; the restart wrote /workspace/a/passwd through the new symlink: the user owned
    /etc/passwd in the sandbox."""
    db = tmp_path / "ws.sqlite"
    sb, store, _ = reopened(db)
    sh(sb, "cd /workspace && mkdir a && echo mine > a/passwd")
    store.save()
    sh(sb, "cd /workspace && mv a b && ln -s /etc a")
    store.close()
    sb2, store2, notice = reopened(db)
    assert sb2.fs.read_bytes("/etc/passwd").startswith(b"root:") and sb2.fs.stat("/etc/passwd").st_uid == 0
    assert sb2.fs.read_bytes("/workspace/b/passwd") == b"mine\n" and sb2.fs.readlink("/workspace/a") == "/etc"
    assert "skipped" not in notice, notice  # the save dropped the rows below the replaced directory
    store2.close()


def test_a_store_with_rows_below_a_symlink_never_writes_through_it(tmp_path):
    db = tmp_path / "ws.sqlite"
    sb, store, _ = reopened(db)
    store.close()
    with sqlite3.connect(db) as con:
        con.executemany("INSERT INTO entries VALUES (?, ?, 420, 1000, 1000, 0, ?, ?)", [
            ("/workspace/l", "symlink", None, "/etc"), ("/workspace/l/passwd", "file", b"pwned", None),
            ("/home/user/up", "symlink", None, ".."), ("/home/user/up/user/x", "file", b"x", None),
            ("/workspace/keep.txt", "file", b"kept", None)])
    sb2, store2, notice = reopened(db)
    assert sb2.fs.read_bytes("/etc/passwd").startswith(b"root:") and sb2.fs.stat("/etc/passwd").st_uid == 0
    assert sb2.fs.read_bytes("/workspace/keep.txt") == b"kept" and not sb2.fs.exists("/home/user/x")
    assert "restored 1 files" in notice and "2 saved entries could not be restored" in notice, notice
    store2.close()


def test_a_long_name_reaches_the_host_and_a_failure_is_told_once(host):
    """Red team: a 252-byte name never reached the host (the temp name beside it was longer
    than 255 bytes) and the notice came again after every cell."""
    top, outside = host
    sb, mount = mounted(top, rw=True)
    name = "n" * 252
    sb.fs.write_bytes(f"/workspace/data/{name}", b"long\n")
    assert mount.write_back() == []
    assert (top / name).read_text() == "long\n"
    sh(sb, "rm /workspace/data/escape && mkdir /workspace/data/escape && echo x > /workspace/data/escape/f")
    first = mount.write_back()
    assert any("escape/f" in n and "not written" in n for n in first), first
    assert mount.tracker.pending  # retried after the next cell ...
    assert mount.write_back() == []  # ... and not told again
    assert not (outside / "f").exists()


def tar_of(entries: dict[str, bytes | str | None]) -> bytes:
    """A tar: name -> file data (bytes), symlink target (str) or a directory (None)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, value in entries.items():
            info = tarfile.TarInfo(name)
            if value is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            elif isinstance(value, str):
                info.type, info.linkname = tarfile.SYMTYPE, value
                tar.addfile(info)
            else:
                info.size = len(value)
                tar.addfile(info, io.BytesIO(value))
    return raw.getvalue()


def host_tree(top: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(top)): (None if p.is_dir() or p.is_symlink() else p.read_bytes())
            for p in sorted(top.rglob("*"))}


@pytest.mark.parametrize("snapshot", [
    {"workspace/other.txt": b"no data folder"},
    {"workspace/data/a.csv": b"snapshot's", "workspace/data/new.txt": b"new", "workspace/other.txt": b"o"},
    {"workspace/data": "/etc", "workspace/other.txt": b"o"},
    {"workspace/data": b"a file where the mount is", "workspace/other.txt": b"o"},
], ids=["lacking", "different", "symlink", "file"])
def test_load_leaves_a_read_write_mount_as_it_is(host, snapshot):
    """Red team: %load of a snapshot without the rw mount's folder deleted the host's files
    and removed the mount. Mounts are outside every snapshot."""
    from sandbox_kernel.kernel.protocol import magics

    top, _ = host
    sb, mount = mounted(top, rw=True)
    before = host_tree(top)
    sb.fs.write_bytes("/tmp/snap.tar", tar_of(snapshot))
    notes: list[str] = []
    assert magics.load_snapshot(sb.fs, "/tmp/snap.tar", "/workspace", notes=notes) > 0
    assert mount.write_back() == [] and host_tree(top) == before
    assert sb.fs.read_bytes("/workspace/data/a.csv") == b"x\n" and sb.fs.readlink("/workspace/data/escape")
    assert bool(notes) == any(k.startswith("workspace/data") for k in snapshot), notes
    sh(sb, "echo after > /workspace/data/a.csv")  # still written back
    mount.write_back()
    assert (top / "a.csv").read_text() == "after\n"


def test_a_snapshot_of_nothing_but_a_mount_changes_nothing(host):
    from sandbox_kernel.kernel.protocol import magics

    top, _ = host
    sb, mount = mounted(top, rw=True)
    sb.fs.write_bytes("/workspace/mine.txt", b"mine")
    sb.fs.write_bytes("/tmp/snap.tar", tar_of({"workspace/data/a.csv": b"evil"}))
    with pytest.raises(magics.MagicError, match="nothing but the admin's mounts .*nothing was changed"):
        magics.load_snapshot(sb.fs, "/tmp/snap.tar", "/workspace")
    assert sb.fs.read_bytes("/workspace/mine.txt") == b"mine" and mount.write_back() == []
    assert (top / "a.csv").read_text() == "x\n"


def test_save_leaves_the_mounts_out(host):
    from sandbox_kernel.kernel.protocol import magics

    top, _ = host
    sb, _ = mounted(top, rw=True)
    sb.fs.write_bytes("/workspace/mine.txt", b"mine")
    magics.save_snapshot(sb.fs, "/tmp/snap.tar", "/workspace")
    with tarfile.open(fileobj=io.BytesIO(sb.fs.read_bytes("/tmp/snap.tar"))) as tar:
        names = tar.getnames()
    assert "workspace/mine.txt" in names and not [n for n in names if n.startswith("workspace/data")]


def test_a_comm_import_leaves_the_mounts_as_they_are(host):
    from sandbox_kernel.kernel.comms.vfs import VfsRequestHandler

    top, _ = host
    sb, mount = mounted(top, rw=True)
    before = host_tree(top)
    handler = VfsRequestHandler(sb.fs)
    reply, _ = handler.handle({"id": 1, "op": "import", "path": "/workspace"}, [tar_of(
        {"data/a.csv": b"evil", "data/new.txt": b"new", "mine.txt": b"mine"})])
    assert reply["ok"] and reply["result"]["skipped_mounts"] == ["/workspace/data"], reply
    reply, _ = handler.handle({"id": 2, "op": "import", "path": "/workspace"}, [tar_of({"data": "/etc"})])
    assert reply["ok"] and reply["result"]["entries"] == 0, reply
    reply, _ = handler.handle({"id": 3, "op": "import", "path": "/workspace/data/sub"}, [tar_of({"x": b"x"})])
    assert reply["error"]["code"] == "EBUSY" and "mount" in reply["error"]["message"], reply
    assert sb.fs.read_bytes("/workspace/mine.txt") == b"mine" and sb.fs.read_bytes("/workspace/data/a.csv") == b"x\n"
    assert mount.write_back() == [] and host_tree(top) == before
