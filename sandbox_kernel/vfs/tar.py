"""Export and import a VFS subtree as a tar stream (stdlib tarfile).

Import is bounded whatever the archive: decompression goes through the stdlib's file readers
(which decompress a bounded amount per read, so a small bz2/gzip/xz bomb cannot expand in one
step), every byte written meets the VFS quota, an optional ``check()`` is called between
members (wall time, interrupt), names are confined to the destination also through symlinks
the archive itself creates, hard links and devices are skipped, timestamps are clamped.
Export walks the tree's nodes without recursion and without re-resolving paths, so trees
deeper than a path can be long still export.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
from typing import IO, BinaryIO, Callable, Iterator, cast

from .errors import EINVAL, ENOENT, FSError
from .fs import MAX_TIME, VFS, Dir, File, Inode, Symlink, normpath

#: the latest mtime kept from an archive (9999-12-31), the VFS's own latest
MAX_MTIME = MAX_TIME


def clamp_mtime(value: float) -> float:
    """An archive's timestamp within what the VFS and date formatting take (1970 to 9999)."""
    value = float(value)
    return min(max(value, 0.0), MAX_MTIME) if value == value else 0.0

_MAGIC: tuple[tuple[bytes, Callable[[IO[bytes]], IO[bytes]]], ...] = (
    (b"\x1f\x8b", lambda f: cast(IO[bytes], gzip.GzipFile(fileobj=f))),
    (b"BZh", lambda f: cast(IO[bytes], bz2.BZ2File(f))),
    (b"\xfd7zXZ\x00", lambda f: cast(IO[bytes], lzma.LZMAFile(f))),
)


def export_tar(fs: VFS, fileobj: BinaryIO, path: str = "/", cwd: str = "/",
               compress: str = "", skip: Callable[[str], bool] | None = None,
               check: Callable[[], None] | None = None) -> int:
    """Write ``path`` (a file or a directory tree) to ``fileobj``; returns the entry count.
    Names in the archive are relative to ``path``'s parent for a file, to ``path`` for a dir;
    ``skip(name)`` leaves an entry out; ``check()`` may raise to stop between entries."""
    top = fs.realpath(path, cwd)
    node = fs.resolve(top).node
    if node is None:
        raise FSError(ENOENT, path)
    count = 0
    with tarfile.open(fileobj=fileobj, mode="w|" + compress, format=tarfile.PAX_FORMAT) as tar:  # type: ignore[call-overload]  # mode built at run time
        if isinstance(node, Dir):
            for name, child in _walk_nodes(node):
                if check is not None:
                    check()
                if skip is not None and skip(name):
                    continue
                _add(tar, child, name)
                count += 1
        else:
            _add(tar, node, top.rsplit("/", 1)[-1])
            count += 1
    return count


def _walk_nodes(top: Dir) -> Iterator[tuple[str, Inode]]:
    """(relative name, node) of everything below ``top``, parents first, iteratively."""
    todo: list[tuple[str, Dir]] = [("", top)]
    while todo:
        prefix, folder = todo.pop()
        for name in sorted(folder.entries, reverse=True):
            child = folder.entries[name]
            rel = prefix + name
            yield rel, child
            if isinstance(child, Dir):
                todo.append((rel + "/", child))


def _add(tar: tarfile.TarFile, node: Inode, arcname: str) -> None:
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


def open_archive(fileobj: BinaryIO) -> IO[bytes]:
    """``fileobj`` itself for a plain tar, else a bounded decompressing reader over it."""
    head = fileobj.read(6)
    rest = cast(IO[bytes], _Prefixed(head, fileobj))
    for magic, reader in _MAGIC:
        if head.startswith(magic):
            return reader(rest)
    return rest


class _Prefixed(io.RawIOBase):
    """``head`` followed by the rest of ``tail``: puts back the bytes read to sniff the format."""

    def __init__(self, head: bytes, tail: BinaryIO) -> None:
        self._head = head
        self._tail = tail

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        if self._head:
            n = min(len(buf), len(self._head))
            buf[:n], self._head = self._head[:n], self._head[n:]
            return n
        data = self._tail.read(len(buf))
        buf[:len(data)] = data
        return len(data)


def inside(fs: VFS, path: str, base: str) -> bool:
    """Whether ``path`` stays under ``base`` once every existing symlink on the way is
    resolved (what an archive's own symlinks could redirect)."""
    try:
        real = fs.realpath(path, strict=False)
    except FSError:
        return False
    return real == base or real.startswith(base.rstrip("/") + "/")


def _is_dir_itself(fs: VFS, path: str) -> bool:
    """A directory, not a symlink to one."""
    return isinstance(fs.resolve(path, follow=False).node, Dir)


def import_tar(fs: VFS, fileobj: BinaryIO, dest: str = "/", cwd: str = "/",
               check: Callable[[], None] | None = None) -> int:
    """Extract a tar stream (plain, gzip, bzip2 or xz) under ``dest`` (created if missing);
    returns the entry count. ``check()`` may raise to stop between members."""
    base = fs.realpath(normpath(dest, cwd), strict=False)
    fs.mkdir(base, parents=True, exist_ok=True)
    count = 0
    try:
        tar = tarfile.open(fileobj=open_archive(fileobj), mode="r|")
    except (tarfile.TarError, OSError, EOFError, lzma.LZMAError) as e:
        raise FSError(EINVAL, f"{dest}: not a tar archive ({e})") from None
    try:
        with tar:
            for member in tar:
                if check is not None:
                    check()
                name = member.name.lstrip("/")
                target = normpath(name, base)
                if not (target == base or target.startswith(base.rstrip("/") + "/")) or target == base:
                    continue
                parent = target.rsplit("/", 1)[0] or "/"
                if not inside(fs, parent, base):
                    continue  # through a symlink out of the destination
                mode = member.mode & 0o7777
                mtime = clamp_mtime(member.mtime)
                if member.isdir():
                    if fs.exists(target, follow=False) and not _is_dir_itself(fs, target):
                        fs.unlink(target)
                    fs.mkdir(target, parents=True, exist_ok=True)
                    fs.chmod(target, mode | 0o700)
                elif member.issym():
                    fs.mkdir(parent, parents=True, exist_ok=True)
                    if fs.exists(target, follow=False):
                        if _is_dir_itself(fs, target):
                            fs.remove_tree(target)
                        else:
                            fs.unlink(target)
                    fs.symlink(member.linkname, target)
                elif member.isreg():
                    fs.mkdir(parent, parents=True, exist_ok=True)
                    src = tar.extractfile(member)
                    if fs.exists(target, follow=False) and not _is_dir_itself(fs, target):
                        fs.unlink(target)  # never write through a symlink the archive left
                    with fs.open(target, "wb") as out:
                        while chunk := (src.read(1 << 20) if src else b""):
                            out.write(chunk)
                            if check is not None:
                                check()
                    fs.chmod(target, mode)
                    fs.utime(target, mtime)
                else:
                    continue  # hard links, devices, fifos
                count += 1
    except (tarfile.TarError, EOFError, lzma.LZMAError, OSError) as e:
        if isinstance(e, FSError):
            raise
        raise FSError(EINVAL, f"{dest}: damaged archive ({e})") from None
    return count
