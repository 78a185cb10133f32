"""Export and import a VFS subtree as a tar stream (stdlib tarfile).

Import is bounded whatever the archive: decompression goes through the stdlib's file readers
(which decompress a bounded amount per read, so a small bz2/gzip/xz bomb cannot expand in one
step), every byte written meets the VFS quota, an optional ``check()`` is called between
members (wall time, interrupt), names are confined to the destination (never through a
symlink, the archive's or the destination's), hard links and devices are skipped, timestamps
are clamped; it is linear in the archive's size whatever the depth. Export walks the tree's
nodes without recursion and without re-resolving paths and writes as it goes, so trees deeper
than a path can be long still export; ``export_size`` tells beforehand what it would write.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zlib
from typing import IO, BinaryIO, Callable, Iterator, cast

from ..paths import under
from .errors import EBUSY, EINVAL, ENOENT, ENOTDIR, FSError
from .fs import MAX_PATH, MAX_TIME, VFS, Dir, File, Inode, Symlink, normpath

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


#: what one entry costs in a PAX tar at least: its header block; a name too long for the
#: header adds an extended header (a block, and the name's record rounded up to blocks)
_BLOCK = 512
_USTAR_NAME = 100


def _entry_size(name_length: int, node: Inode) -> int:
    size = _BLOCK
    if name_length >= _USTAR_NAME:
        size += _BLOCK + (name_length + 20 + _BLOCK - 1) // _BLOCK * _BLOCK
    if isinstance(node, File):
        size += (len(node.data) + _BLOCK - 1) // _BLOCK * _BLOCK
    return size


def export_size(fs: VFS, path: str = "/", cwd: str = "/", skip: Callable[[str], bool] | None = None,
                check: Callable[[], None] | None = None) -> int:
    """At least how many bytes ``export_tar`` writes for ``path`` uncompressed (a lower bound:
    headers, long names and data; PAX details add a little). A chain of directories makes a
    tar quadratic in its depth (every name repeats its parents'): 25,000 levels are 677 MB, so
    callers refuse an export that cannot fit before writing a byte."""
    top = fs.realpath(path, cwd)
    node = fs.resolve(top).node
    if node is None:
        raise FSError(ENOENT, path)
    if not isinstance(node, Dir):
        return _entry_size(len(top.rsplit("/", 1)[-1]), node) + 2 * _BLOCK
    total = 2 * _BLOCK  # the end-of-archive blocks
    for name, child in _walk_nodes(node):
        if check is not None:
            check()
        if skip is None or not skip(name):
            total += _entry_size(len(name) + isinstance(child, Dir), child)
    return total


def export_tar(fs: VFS, fileobj: BinaryIO, path: str = "/", cwd: str = "/",
               compress: str = "", skip: Callable[[str], bool] | None = None,
               check: Callable[[], None] | None = None) -> int:
    """Write ``path`` (a file or a directory tree) to ``fileobj`` as it goes (nothing is
    gathered here); returns the entry count. Names in the archive are relative to ``path``'s
    parent for a file, to ``path`` for a dir; ``skip(name)`` leaves an entry out; ``check()``
    may raise to stop between entries. ``compress``: "", "gz" (level 6, as GNU tar -z),
    "bz2" or "xz"."""
    top = fs.realpath(path, cwd)
    node = fs.resolve(top).node
    if node is None:
        raise FSError(ENOENT, path)
    count = 0
    packer = _compressor(fileobj, compress)
    try:
        with tarfile.open(fileobj=packer, mode="w|", format=tarfile.PAX_FORMAT) as tar:
            if isinstance(node, Dir):
                for name, child in _walk_nodes(node):
                    if check is not None:
                        check()
                    if skip is not None and skip(name):
                        continue
                    _add(tar, child, name)
                    # tarfile keeps every TarInfo (a deep tree's names are huge)
                    tar.members.clear()  # type: ignore[attr-defined]
                    count += 1
            else:
                _add(tar, node, top.rsplit("/", 1)[-1])
                count += 1
    finally:
        if packer is not fileobj:
            packer.close()  # the compressor's trailer; fileobj itself stays open
    return count


def _compressor(fileobj: BinaryIO, kind: str) -> BinaryIO:
    if kind == "gz":
        return cast(BinaryIO, gzip.GzipFile(fileobj=fileobj, mode="wb", compresslevel=6))
    if kind == "bz2":
        return cast(BinaryIO, bz2.BZ2File(fileobj, "wb"))
    if kind == "xz":
        return cast(BinaryIO, lzma.LZMAFile(fileobj, "wb"))
    if kind:
        raise ValueError(f"unknown compression {kind!r}")
    return fileobj


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


def import_tar(fs: VFS, fileobj: BinaryIO, dest: str = "/", cwd: str = "/",
               check: Callable[[], None] | None = None, skipped_mounts: set[str] | None = None) -> int:
    """Extract a tar stream (plain, gzip, bzip2 or xz) under ``dest`` (created if missing);
    returns the entry count. ``check()`` may raise to stop between members (and between the
    MiBs of a member's data).

    The tree is built with its directories in hand (``_Building``), so a member costs the
    length of its name, whatever the depth: a 1,000-deep tree took 52 s when every member
    made its parents from the root, and trees deeper than a path may be long (what export
    writes for them) import too. Members never pass through a symlink (the archive's or the
    destination's) and never climb out of ``dest``; what cannot be made is skipped. The
    admin's mounts (``fs.mount_points``) are outside every archive: a destination inside one
    is refused (EBUSY), members at or below one (or a non-directory where one's parents are)
    are skipped and the mount is added to ``skipped_mounts``."""
    base = fs.realpath(normpath(dest, cwd), strict=False)
    inside = next((m for m in fs.mount_points if under(base, m)), None)
    if inside is not None:
        raise FSError(EBUSY, f"{dest} (in the admin's mount {inside}: archives are not unpacked into mounts)")
    mounts = [m for m in fs.mount_points if under(m, base)]
    fs.mkdir(base, parents=True, exist_ok=True)
    top = fs.resolve(base).node
    if not isinstance(top, Dir):
        raise FSError(ENOTDIR, dest)
    count = 0
    try:
        tar = tarfile.open(fileobj=open_archive(fileobj), mode="r|")
    except (tarfile.TarError, OSError, EOFError, lzma.LZMAError, zlib.error) as e:
        raise FSError(EINVAL, f"{dest}: not a tar archive ({e})") from None
    tree = _Building(fs, top, base)
    try:
        with tar:
            for member in tar:
                # tarfile keeps every TarInfo read (a deep tree's names are huge)
                tar.members.clear()  # type: ignore[attr-defined]
                if check is not None:
                    check()
                if not (member.isdir() or member.issym() or member.isreg()):
                    continue  # hard links, devices, fifos
                if mounts and _at_mount(base, member, mounts, skipped_mounts):
                    continue
                relative = member.name.strip("/")
                while relative.startswith("./"):
                    relative = relative[2:]
                parent, _, name = relative.rpartition("/")
                folder = tree.folder(parent) if name not in ("", ".", "..") else _ODD
                if folder is _ODD:  # '.', '..' or '' among the components: normalise the name
                    relative = _member_path(member.name) or ""
                    parent, _, name = relative.rpartition("/")
                    folder = tree.folder(parent) if relative else None
                if not isinstance(folder, Dir):
                    continue  # the destination itself, a name climbing out, under a symlink or a file
                path = tree.path(relative)
                existing = folder.entries.get(name)
                mode = member.mode & 0o7777
                if member.isdir():
                    if existing is not None and not isinstance(existing, Dir):
                        tree.remove(folder, name, path)
                        existing = None
                    node = existing if existing is not None else fs.mkdir_in(folder, name, 0o700, path)
                    fs.chmod_node(node, mode | 0o700, path)
                elif isinstance(existing, Dir) and member.isreg():
                    continue  # a file over a directory: tar says 'Is a directory' and goes on
                else:
                    if existing is not None:
                        tree.remove(folder, name, path)  # never written through: replaced
                    if member.issym():
                        fs.symlink_in(folder, name, member.linkname, path)
                    else:
                        src = tar.extractfile(member)
                        with fs.create_in(folder, name, 0o600, path) as out:
                            while chunk := (src.read(1 << 20) if src else b""):
                                out.write(chunk)
                                if check is not None:
                                    check()
                        fs.chmod_node(out.node, mode, path)
                        fs.utime_node(out.node, clamp_mtime(member.mtime), None, path)
                count += 1
    except (tarfile.TarError, EOFError, lzma.LZMAError, zlib.error, OSError) as e:
        if isinstance(e, FSError):
            raise
        raise FSError(EINVAL, f"{dest}: damaged archive ({e})") from None
    return count


def _at_mount(base: str, member: tarfile.TarInfo, mounts: list[str], skipped: set[str] | None) -> bool:
    """Whether ``member`` is to be left out for the admin's ``mounts`` (below ``base``): at
    or below one (recorded in ``skipped``), or where one's parents are (a directory there is
    left as it is: its mode is the admin's)."""
    relative = _member_path(member.name)
    if relative is None:
        return False  # climbs out: skipped anyway
    path = base.rstrip("/") + "/" + relative if relative else base
    for mount in mounts:
        if under(path, mount) or (under(mount, path) and not member.isdir()):
            if skipped is not None:
                skipped.add(mount)
            return True
        if under(mount, path):
            return True
    return False


#: ``_Building.folder``'s answer for a name with '', '.' or '..' components
_ODD = object()


def _member_path(name: str) -> str | None:
    """A member's name as a normalised path below the destination ('a/b'); None when it
    climbs out."""
    kept: list[str] = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not kept:
                return None
            kept.pop()
            continue
        kept.append(part)
    return "/".join(kept)


class _Building:
    """The directories of the current member's folder, kept from one member to the next:
    archives list a directory's entries together (export writes parents first), so finding a
    member's folder costs comparing its name with the previous one's (in C) and walking only
    the components that differ. A directory chain of any depth imports in linear time."""

    def __init__(self, fs: VFS, top: Dir, base: str) -> None:
        self.fs = fs
        self.base = base.rstrip("/")
        self.current = ""  # the folder held, relative to base ('' is base itself)
        self.dirs: list[Dir] = [top]  # base, then one directory per component of current

    def path(self, relative: str) -> str | None:
        """A VFS path (None past MAX_PATH: such entries are not notified)."""
        if len(self.base) + 1 + len(relative) > MAX_PATH:
            return None
        return self.base + "/" + relative

    def folder(self, relative: str) -> Dir | None | object:
        """The directory ``relative`` names, made (like mkdir -p) where missing; None when a
        component is a symlink or not a directory, _ODD (nothing made) when one is '', '.' or
        '..' (only the components past the folder held are looked at: those were checked before)."""
        cur, dirs = self.current, self.dirs
        while cur and not (relative == cur or (relative.startswith(cur) and relative[len(cur)] == "/")):
            cut = cur.rfind("/")
            cur = cur[:cut] if cut >= 0 else ""
            dirs.pop()
        self.current = cur
        if relative == cur:
            return dirs[-1]
        start = len(cur) + 1 if cur else 0
        parts = relative[start:].split("/")
        if "" in parts or "." in parts or ".." in parts:
            return _ODD  # looked at before anything is made: 'a/b/../../c' makes no 'a/b'
        for part in parts:
            end = start + len(part)
            child = dirs[-1].entries.get(part)
            if child is None:
                child = self.fs.mkdir_in(dirs[-1], part, 0o777, self.path(relative[:end]))
            elif not isinstance(child, Dir):
                self.current = relative[:start - 1] if start else ""
                return None
            dirs.append(child)
            start = end + 1
        self.current = relative
        return dirs[-1]

    def remove(self, folder: Dir, name: str, path: str | None) -> None:
        self.fs.remove_in(folder, name, path)
        self.current = ""  # a directory held may have gone with it
        del self.dirs[1:]
