"""Export and import a VFS subtree as a tar stream (stdlib tarfile)."""
from __future__ import annotations

import io
import tarfile
from typing import BinaryIO

from .errors import EINVAL, FSError
from .fs import VFS, Dir, File, Symlink, normpath


def export_tar(fs: VFS, fileobj: BinaryIO, path: str = "/", cwd: str = "/",
               compress: str = "") -> int:
    """Write ``path`` (a file or a directory tree) to ``fileobj``; returns the entry count.
    Names in the archive are relative to ``path``'s parent for a file, to ``path`` for a dir."""
    top = fs.realpath(path, cwd)
    count = 0
    with tarfile.open(fileobj=fileobj, mode="w|" + compress, format=tarfile.PAX_FORMAT) as tar:  # type: ignore[call-overload]  # mode built at run time
        node = fs._lookup(top)
        if isinstance(node, Dir):
            for dpath, dirs, files in fs.walk(top):
                rel = dpath[len(top):].lstrip("/")
                if rel:
                    _add(fs, tar, dpath, rel)
                    count += 1
                for name in files:
                    _add(fs, tar, dpath.rstrip("/") + "/" + name, (rel + "/" + name).lstrip("/"))
                    count += 1
        else:
            _add(fs, tar, top, top.rsplit("/", 1)[-1])
            count += 1
    return count


def _add(fs: VFS, tar: tarfile.TarFile, path: str, arcname: str) -> None:
    node = fs._lookup(path, follow=False)
    info = tarfile.TarInfo(arcname)
    info.mode = node.mode & 0o7777
    info.mtime = int(node.mtime)
    info.uid, info.gid = node.uid, node.gid
    info.uname = info.gname = "user" if node.uid == 1000 else "root"
    if isinstance(node, Dir):
        info.type = tarfile.DIRTYPE
        tar.addfile(info)
    elif isinstance(node, Symlink):
        info.type = tarfile.SYMTYPE
        info.linkname = node.target
        tar.addfile(info)
    elif isinstance(node, File):
        info.size = len(node.data)
        tar.addfile(info, io.BytesIO(bytes(node.data)))


def import_tar(fs: VFS, fileobj: BinaryIO, dest: str = "/", cwd: str = "/") -> int:
    """Extract a tar stream under ``dest`` (created if missing); returns the entry count.
    Absolute names and ``..`` are confined to ``dest``; device and fifo entries are skipped."""
    base = normpath(dest, cwd)
    fs.mkdir(base, parents=True)
    count = 0
    try:
        tar = tarfile.open(fileobj=fileobj, mode="r|*")
    except tarfile.TarError as e:
        raise FSError(EINVAL, f"{dest}: not a tar archive ({e})") from None
    with tar:
        for member in tar:
            target = normpath(member.name, base) if not member.name.startswith("/") else normpath(base + "/" + member.name)
            if not (target == base or target.startswith(base.rstrip("/") + "/")):
                continue
            mode = member.mode & 0o7777
            if member.isdir():
                fs.mkdir(target, parents=True)
                fs.chmod(target, mode | 0o700)
            elif member.issym():
                parent = target.rsplit("/", 1)[0] or "/"
                fs.mkdir(parent, parents=True)
                if fs.exists(target, follow=False):
                    fs.unlink(target)
                fs.symlink(member.linkname, target)
            elif member.isreg():
                parent = target.rsplit("/", 1)[0] or "/"
                fs.mkdir(parent, parents=True)
                src = tar.extractfile(member)
                if fs.exists(target, follow=False) and not fs.is_dir(target):
                    fs.unlink(target)
                with fs.open(target, "wb") as out:
                    while True:
                        chunk = src.read(1 << 20) if src else b""
                        if not chunk:
                            break
                        out.write(chunk)
                fs.chmod(target, mode)
                fs.utime(target, float(member.mtime))
            else:
                continue
            count += 1
    return count
