"""The in-memory filesystem: inodes, POSIX path resolution, quotas, change events."""
from __future__ import annotations

import stat as st
import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator

from ..lazy import TYPE_CHECKING
from .errors import (
    EACCES, EBADF, EBUSY, EEXIST, EINVAL, EISDIR, ELOOP, ENAMETOOLONG, ENOENT, ENOSPC,
    ENOTDIR, ENOTEMPTY, EPERM, FSError,
)
from .fifo import FifoHandle, FifoPool
from .statresult import Stat

if TYPE_CHECKING:
    import random

USER_UID = 1000
USER_GID = 1000
ROOT_UID = 0
MAX_SYMLINK_HOPS = 40
MAX_NAME = 255
MAX_PATH = 4096
DIR_CACHE_SIZE = 4096  # directories remembered by path (see VFS._dir_cache)
#: The timestamps a node may have: 0001-01-02 to 9999-12-31 23:59:59 UTC, what the tools'
#: date formatting holds. Linux clamps a time a filesystem cannot store to its range; so does
#: ``VFS.utime`` (a JS ``fs.utimesSync(p, 1e12, 1e12)`` made ls, stat and date fail).
MIN_TIME = -62135596800.0 + 86400
MAX_TIME = 253402300799.0


def clamp_time(value: float, path: str = "") -> float:
    """``value`` within MIN_TIME..MAX_TIME; NaN is EINVAL."""
    value = float(value)
    if value != value:
        raise FSError(EINVAL, path)
    return min(max(value, MIN_TIME), MAX_TIME)


class Inode:
    __slots__ = ("ino", "mode", "uid", "gid", "nlink", "atime", "mtime", "ctime")

    def __init__(self, ino: int, mode: int, uid: int, gid: int, now: float) -> None:
        self.ino = ino
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.nlink = 1
        self.atime = self.mtime = self.ctime = now

    @property
    def size(self) -> int:
        return 0


class File(Inode):
    __slots__ = ("data",)

    def __init__(self, ino, mode, uid, gid, now, data: bytes = b"") -> None:
        super().__init__(ino, st.S_IFREG | mode, uid, gid, now)
        self.data = bytearray(data)

    @property
    def size(self) -> int:
        return len(self.data)


class Dir(Inode):
    __slots__ = ("entries", "parent")

    def __init__(self, ino, mode, uid, gid, now, parent: "Dir | None" = None) -> None:
        super().__init__(ino, st.S_IFDIR | mode, uid, gid, now)
        self.entries: dict[str, Inode] = {}
        self.parent = parent if parent is not None else self
        self.nlink = 2

    @property
    def size(self) -> int:
        return 4096


class Symlink(Inode):
    __slots__ = ("target",)

    def __init__(self, ino, uid, gid, now, target: str) -> None:
        super().__init__(ino, st.S_IFLNK | 0o777, uid, gid, now)
        self.target = target

    @property
    def size(self) -> int:
        return len(self.target.encode("utf-8", "surrogateescape"))


class Device(Inode):
    """A character device: ``null``, ``zero``, ``random``, or ``fd:N`` (/dev/stdin etc.).

    ``fd:N`` devices are resolved by the shell (they mean "this process's fd N"); the VFS
    itself only knows how to read and write the stateless ones.
    """

    __slots__ = ("kind",)

    def __init__(self, ino, now, kind: str) -> None:
        super().__init__(ino, st.S_IFCHR | 0o666, ROOT_UID, ROOT_UID, now)
        self.kind = kind


class Fifo(Inode):
    """A named pipe (``mkfifo``): its bytes are never in the file but in ``channel`` (a
    ``fifo.FifoChannel``) while an end is open."""

    __slots__ = ("channel",)

    def __init__(self, ino, mode, uid, gid, now) -> None:
        super().__init__(ino, st.S_IFIFO | mode, uid, gid, now)
        self.channel = None


def stat_of(node: Inode) -> Stat:
    """The Stat of an inode already in hand (no path resolution)."""
    return Stat(node.mode, node.ino, node.nlink, node.uid, node.gid, node.size,
                node.atime, node.mtime, node.ctime)


def normpath(path: str, cwd: str = "/") -> str:
    """Lexically absolute and normalised (no symlink resolution); ``..`` stops at ``/``."""
    if not path.startswith("/"):
        path = cwd.rstrip("/") + "/" + path
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return "/" + "/".join(parts)


ChangeListener = Callable[[str, str], None]  # (absolute path, "created"|"modified"|"deleted")


class Resolved:
    """Result of resolving a path: the parent directory, the last name, the node (or None)."""

    __slots__ = ("parent", "name", "node", "path")

    def __init__(self, parent: Dir, name: str, node: Inode | None, path: str) -> None:
        self.parent = parent
        self.name = name
        self.node = node
        self.path = path  # canonical absolute path of the entry (parent resolved)


class VFS:
    """An in-memory POSIX-like filesystem with quotas.

    All public methods take absolute paths or paths relative to ``cwd`` (keyword). Errors are
    ``FSError`` (an ``OSError``) with errno set. The acting user is uid 1000 (``user``);
    permission bits of the owner class are enforced, root-owned system dirs are read-only.
    """

    def __init__(self, max_bytes: int = 256 * 1024 * 1024, max_inodes: int = 100_000,
                 seed: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.max_inodes = max_inodes
        self.bytes_used = 0
        self.inodes_used = 0
        self._next_ino = 1
        self.uid = USER_UID
        self.gid = USER_GID
        self.umask = 0o022
        self.listeners: list[ChangeListener] = []
        #: the admin's host mounts (``kernel.storage.mounts``): no archive import, %load or %save
        #: writes through, replaces or removes these trees (they are outside every snapshot)
        self.mount_points: set[str] = set()
        #: ENOSPC errors the quotas gave, by limit (``vfs_bytes``, ``vfs_inodes``): a run that
        #: made them grow ends with a notice naming the limit (``Sandbox.run``)
        self.quota_refusals = {"vfs_bytes": 0, "vfs_inodes": 0}
        self._seed = seed
        self._rng: random.Random | None = None  # made on the first read of /dev/(u)random
        #: what the named pipes hold together (bounded: their writers wait, vfs/fifo.py)
        self.fifo_pool = FifoPool()
        self.root = Dir(self._alloc_ino(), 0o755, ROOT_UID, ROOT_UID, time.time())
        # (absolute dir path as written, uid) -> (Dir, canonical path): a path operation
        # then resolves only its last name. Filled by symlink-free resolutions; adding an
        # entry never changes one, so only removals, renames and dir chmod/chown clear it.
        self._dir_cache: dict[tuple[str, int], tuple[Dir, str]] = {}

    # ----------------------------------------------------------------- bookkeeping
    @property
    def inode_mark(self) -> int:
        """Every inode made from now on has a number at least this."""
        return self._next_ino

    def _alloc_ino(self) -> int:
        if self.inodes_used >= self.max_inodes:
            raise self.quota_error("vfs_inodes")
        self.inodes_used += 1
        ino = self._next_ino
        self._next_ino += 1
        return ino

    def quota_error(self, limit: str, path: str = "") -> FSError:
        """The ENOSPC of a full quota (``vfs_bytes`` or ``vfs_inodes``), counted."""
        self.quota_refusals[limit] += 1
        return FSError(ENOSPC, path)

    def _release(self, node: Inode) -> None:
        node.nlink -= 1 if not isinstance(node, Dir) else node.nlink
        if node.nlink <= 0:
            self.inodes_used -= 1
            if isinstance(node, File):
                self.bytes_used -= len(node.data)
                node.data = bytearray()

    def _forget_dirs(self) -> None:
        self._dir_cache.clear()

    def notify(self, path: str, kind: str) -> None:
        """Tell the listeners that ``path`` was created, modified or deleted (for system work
        that moves trees without the path operations, e.g. %load's exchange)."""
        self._notify(path, kind)

    def _notify(self, path: str, kind: str) -> None:
        for listener in self.listeners:
            try:
                listener(path, kind)
            except Exception:
                pass

    def _can(self, node: Inode, bit: int) -> bool:
        """bit: 4 read, 2 write, 1 exec/search; owner class for the user, other class otherwise."""
        if self.uid == ROOT_UID:
            return True
        shift = 6 if node.uid == self.uid else 0
        return bool((node.mode >> shift) & bit)

    # ----------------------------------------------------------------- resolution
    def resolve(self, path: str, cwd: str = "/", follow: bool = True) -> Resolved:
        """Resolve all but the last component (following symlinks); the last one is followed
        only when ``follow``. The returned node is None when the last name does not exist."""
        if path == "":
            raise FSError(ENOENT, path)
        if "\0" in path:
            raise FSError(EINVAL, path)
        if len(path) > MAX_PATH:
            raise FSError(ENAMETOOLONG, path)
        full = path if path.startswith("/") else cwd.rstrip("/") + "/" + path
        prefix, _, tail = full.rpartition("/")
        cached = self._dir_cache.get((prefix, self.uid)) if prefix else (self.root, "/")
        if cached is not None and tail not in ("", ".", "..") and len(tail) <= MAX_NAME:
            folder, folder_path = cached
            if not self._can(folder, 1):
                raise FSError(EACCES, path)
            found = folder.entries.get(tail)
            if not follow or not isinstance(found, Symlink):
                return Resolved(folder, tail, found, folder_path.rstrip("/") + "/" + tail)
        pending = [p for p in full.split("/") if p not in ("", ".")]
        pending.reverse()  # a stack: next component at the end
        trailing_slash = path.endswith("/") and len(path) > 1
        stack: list[tuple[str, Dir]] = []  # (name, dir) of ancestors below root
        cur: Dir = self.root
        hops = 0
        if not pending:
            return Resolved(self.root, "", self.root, "/")
        while pending:
            name = pending.pop()
            if name == "..":
                if stack:
                    stack.pop()
                    cur = stack[-1][1] if stack else self.root
                continue
            if name == ".":
                continue
            if len(name) > MAX_NAME:
                raise FSError(ENAMETOOLONG, path)
            if not self._can(cur, 1):
                raise FSError(EACCES, path)
            node = cur.entries.get(name)
            last = not pending
            if isinstance(node, Symlink) and (not last or follow or trailing_slash):
                hops += 1
                if hops > MAX_SYMLINK_HOPS:
                    raise FSError(ELOOP, path)
                target = node.target
                if target.startswith("/"):
                    stack.clear()
                    cur = self.root
                parts = [p for p in target.split("/") if p not in ("", ".")]
                pending.extend(reversed(parts))
                if not pending:  # symlink to "/"
                    return Resolved(self.root, "", self.root, "/")
                continue
            if last:
                parent_path = "/" + "/".join(n for n, _ in stack)
                full_path = parent_path.rstrip("/") + "/" + name
                if trailing_slash and node is not None and not isinstance(node, Dir):
                    raise FSError(ENOTDIR, path)
                if not hops and prefix and name == tail:
                    if len(self._dir_cache) >= DIR_CACHE_SIZE:
                        self._dir_cache.clear()
                    self._dir_cache[(prefix, self.uid)] = (cur, parent_path)
                return Resolved(cur, name, node, full_path)
            if node is None:
                raise FSError(ENOENT, path)
            if not isinstance(node, Dir):
                raise FSError(ENOTDIR, path)
            stack.append((name, node))
            cur = node
        # path ended with ".." or "." components: the result is a directory itself
        if not stack:
            return Resolved(self.root, "", self.root, "/")
        name, node = stack[-1]
        parent = stack[-2][1] if len(stack) > 1 else self.root
        return Resolved(parent, name, node, "/" + "/".join(n for n, _ in stack))

    def _lookup(self, path: str, cwd: str = "/", follow: bool = True) -> Inode:
        r = self.resolve(path, cwd, follow)
        if r.node is None:
            raise FSError(ENOENT, path)
        return r.node

    def _lookup_dir(self, path: str, cwd: str = "/") -> Dir:
        node = self._lookup(path, cwd)
        if not isinstance(node, Dir):
            raise FSError(ENOTDIR, path)
        return node

    def realpath(self, path: str, cwd: str = "/", strict: bool = True) -> str:
        """Canonical path with every symlink resolved (``readlink -f`` when not strict:
        the last component may be missing)."""
        r = self.resolve(path, cwd, follow=True)
        if r.node is None and strict:
            raise FSError(ENOENT, path)
        return r.path

    def abspath(self, path: str, cwd: str = "/") -> str:
        return normpath(path, cwd)

    # ----------------------------------------------------------------- queries
    def stat(self, path: str, cwd: str = "/", follow: bool = True) -> Stat:
        return stat_of(self._lookup(path, cwd, follow))

    def lstat(self, path: str, cwd: str = "/") -> Stat:
        return self.stat(path, cwd, follow=False)

    def exists(self, path: str, cwd: str = "/", follow: bool = True) -> bool:
        try:
            self._lookup(path, cwd, follow)
            return True
        except OSError:
            return False

    def is_dir(self, path: str, cwd: str = "/") -> bool:
        try:
            return isinstance(self._lookup(path, cwd), Dir)
        except OSError:
            return False

    def is_file(self, path: str, cwd: str = "/") -> bool:
        try:
            return isinstance(self._lookup(path, cwd), File)
        except OSError:
            return False

    def access(self, path: str, mode: int, cwd: str = "/") -> bool:
        """mode: bit mask of 4 (read), 2 (write), 1 (exec) like os.access."""
        try:
            node = self._lookup(path, cwd)
        except OSError:
            return False
        return all(self._can(node, b) for b in (4, 2, 1) if mode & b)

    def file_access(self, path: str, cwd: str = "/") -> tuple[bool, bool]:
        """(a regular file is there, and it may be executed): a command search's question, in
        one lookup."""
        try:
            node = self._lookup(path, cwd)
        except OSError:
            return False, False
        if not isinstance(node, File):
            return False, False
        return True, self._can(node, 1)

    def enterable(self, path: str, cwd: str = "/") -> int:
        """What ``cd`` finds at PATH (one lookup): 0 for a directory it may enter, else ENOTDIR
        or EACCES; FSError when there is nothing there."""
        node = self._lookup(path, cwd)
        if not isinstance(node, Dir):
            return ENOTDIR
        return 0 if self._can(node, 1) else EACCES

    def program(self, path: str, cwd: str = "/") -> bytes:
        """The bytes of the file at PATH to run as a program, checked as exec does: FSError
        ENOENT (or ENOTDIR, ELOOP ...), EISDIR for a directory, EACCES without execute or read
        permission."""
        if path[:1] == "/":
            # an absolute path in a directory resolved before (every command run from PATH):
            # one lookup in it, the same checks as the general way's
            prefix, _, tail = path.rpartition("/")
            cached = self._dir_cache.get((prefix, self.uid)) if prefix else None
            if cached is not None and tail and tail != "." and tail != ".." and "\0" not in tail \
                    and len(tail) <= MAX_NAME and len(path) <= MAX_PATH:
                folder = cached[0]
                node = folder.entries.get(tail)
                if type(node) is File and self._can(folder, 1) and self._can(node, 1) and self._can(node, 4):
                    return bytes(node.data)
        node = self._lookup(path, cwd)
        if isinstance(node, Dir):
            raise FSError(EISDIR, path)
        if not self._can(node, 1):
            raise FSError(EACCES, path)
        if isinstance(node, File):
            if not self._can(node, 4):
                raise FSError(EACCES, path)
            return bytes(node.data)
        return self.read_bytes(path, cwd)

    def listdir(self, path: str = "/", cwd: str = "/") -> list[str]:
        """Names in the directory, sorted bytewise (no ``.``/``..``)."""
        node = self._lookup(path, cwd)
        if not isinstance(node, Dir):
            raise FSError(ENOTDIR, path)
        if not self._can(node, 4):
            raise FSError(EACCES, path)
        return sorted(node.entries)

    def scandir(self, path: str = "/", cwd: str = "/") -> list[tuple[str, Stat]]:
        """(name, lstat) pairs, sorted by name."""
        node = self._lookup(path, cwd)
        if not isinstance(node, Dir):
            raise FSError(ENOTDIR, path)
        return [(name, stat_of(child)) for name, child in self.entries(node, path)]

    # Walkers (ls -R, du, cp -r, tar, find) hold each directory's inode and list it with
    # ``entries``: resolving every child's path from "/" made a walk O(entries x depth).
    def node(self, path: str, cwd: str = "/", follow: bool = True) -> Inode:
        """The inode at ``path`` (ENOENT when missing)."""
        return self._lookup(path, cwd, follow)

    def entries(self, folder: Dir, path: str = "") -> list[tuple[str, Inode]]:
        """(name, inode) of a directory held in hand, sorted by name. Needs read permission
        (EACCES names ``path``)."""
        if not self._can(folder, 4):
            raise FSError(EACCES, path)
        items = folder.entries
        return [(name, items[name]) for name in sorted(items)]

    def entry_stat(self, folder: Dir, node: Inode, path: str = "") -> Stat:
        """lstat of an entry of ``folder`` from ``entries``: like resolving its path, it
        needs search permission on the folder (the walk already passed the ancestors)."""
        if not self._can(folder, 1):
            raise FSError(EACCES, path)
        return stat_of(node)

    def readlink(self, path: str, cwd: str = "/") -> str:
        node = self._lookup(path, cwd, follow=False)
        if not isinstance(node, Symlink):
            raise FSError(EINVAL, path)
        return node.target

    def walk(self, path: str, cwd: str = "/") -> Iterator[tuple[str, list[str], list[str]]]:
        """Like os.walk (top-down, symlinks to dirs are not descended)."""
        top = normpath(path, cwd)
        node = self._lookup(top)
        if not isinstance(node, Dir):
            return
        todo = [(top, node)]
        while todo:
            dpath, d = todo.pop()
            dirs: list[str] = []
            files: list[str] = []
            for name in sorted(d.entries):
                child = d.entries[name]
                (dirs if isinstance(child, Dir) else files).append(name)
            yield dpath, dirs, files
            for name in reversed(dirs):
                sub_dir = d.entries.get(name)
                if isinstance(sub_dir, Dir):
                    todo.append(((dpath.rstrip("/") + "/" + name), sub_dir))

    # ----------------------------------------------------------------- file content
    def read_bytes(self, path: str, cwd: str = "/") -> bytes:
        with self.open(path, "rb", cwd=cwd) as f:
            return f.read()

    def write_bytes(self, path: str, data: bytes, cwd: str = "/", append: bool = False,
                    perm: int = 0o666) -> None:
        """Write a whole file. Replacing is all-or-nothing: over quota, ENOSPC and the old
        content stays. Appending writes what fits, then raises ENOSPC."""
        if append:
            with self.open(path, "ab", cwd=cwd, perm=perm) as f:
                f.write(data)
            return
        r = self.resolve(path, cwd)
        node = r.node
        if isinstance(node, Dir):
            raise FSError(EISDIR, path)
        old_size = 0
        if isinstance(node, File):
            if not self._can(node, 2):
                raise FSError(EACCES, path)
            old_size = len(node.data)
        if self.bytes_used - old_size + len(data) > self.max_bytes:
            raise self.quota_error("vfs_bytes", path)
        with self.open(path, "wb", cwd=cwd, perm=perm) as f:
            f.write(data)

    def read_text(self, path: str, cwd: str = "/") -> str:
        return self.read_bytes(path, cwd).decode("utf-8", "surrogateescape")

    def write_text(self, path: str, text: str, cwd: str = "/") -> None:
        self.write_bytes(path, text.encode("utf-8", "surrogateescape"), cwd)

    def open(self, path: str, mode: str = "rb", cwd: str = "/", perm: int = 0o666,
             umask: int | None = None) -> "FileHandle | DeviceHandle | FifoHandle":
        """Open like Python's ``open`` with binary modes: r, w, a, x, r+, w+, a+ (``b`` optional).
        ``perm`` is the permission of a new file before ``umask`` (the VFS's own by default;
        a shell passes its process's)."""
        flags = mode.replace("b", "").replace("t", "")
        readable = "r" in flags or "+" in flags
        writable = any(c in flags for c in "wax") or "+" in flags
        create = any(c in flags for c in "wax")
        r = self.resolve(path, cwd, follow=True)
        node = r.node
        if node is None:
            if not create:
                raise FSError(ENOENT, path)
            if path.endswith("/"):
                raise FSError(EISDIR, path)  # "name/" can only ever be a directory
            node = self._create_file(r, perm, umask)
        elif "x" in flags:
            raise FSError(EEXIST, path)
        if isinstance(node, Dir):
            raise FSError(EISDIR, path)
        if isinstance(node, Device):
            return DeviceHandle(self, node)
        if readable and not self._can(node, 4):
            raise FSError(EACCES, path)
        if writable and not self._can(node, 2):
            raise FSError(EACCES, path)
        if isinstance(node, Fifo):
            return FifoHandle(node, r.path, readable, writable, self.fifo_pool)
        assert isinstance(node, File)
        handle = FileHandle(self, node, r.path, readable, writable, "a" in flags)
        if "w" in flags and node.data:
            self.bytes_used -= len(node.data)
            node.data = bytearray()
            node.mtime = node.ctime = time.time()
            self._notify(r.path, "modified")
        return handle

    def _create_file(self, r: Resolved, perm: int, umask: int | None = None) -> File:
        if not self._can(r.parent, 2) or not self._can(r.parent, 1):
            raise FSError(EACCES, r.path)
        if not r.name:
            raise FSError(EISDIR, r.path)
        node = self._add_node(r, File, perm, umask)
        assert isinstance(node, File)
        return node

    def _add_node(self, r: Resolved, kind: type, perm: int, umask: int | None) -> File | Fifo:
        """A new ``kind`` (File or Fifo) at ``r``'s free name, ``perm`` less the umask."""
        now = time.time()
        node = kind(self._alloc_ino(), perm & ~(self.umask if umask is None else umask) & 0o7777,
                    self.uid, self.gid, now)
        r.parent.entries[r.name] = node
        r.parent.mtime = r.parent.ctime = now
        self._notify(r.path, "created")
        return node

    def truncate(self, path: str, size: int = 0, cwd: str = "/") -> None:
        node = self._lookup(path, cwd)
        if isinstance(node, Dir):
            raise FSError(EISDIR, path)
        if not isinstance(node, File):
            return
        if not self._can(node, 2):
            raise FSError(EACCES, path)
        _resize(self, node, size, path)
        self._notify(normpath(path, cwd), "modified")

    # ----------------------------------------------------------------- tree changes
    def mkdir(self, path: str, cwd: str = "/", mode: int = 0o777, parents: bool = False,
              exist_ok: bool = False) -> None:
        if parents:
            parts = [p for p in path.split("/") if p]
            prefix = "/" if path.startswith("/") else ""
            for i in range(1, len(parts) + 1):
                sub = prefix + "/".join(parts[:i])
                last = i == len(parts)
                try:
                    self.mkdir(sub, cwd, mode=mode if last else 0o777)
                except FSError as e:
                    if e.errno != EEXIST or not self.is_dir(sub, cwd):
                        raise
            return
        # an existing name is EEXIST even when spelled "file/" (which resolve calls ENOTDIR)
        r = self.resolve(path.rstrip("/") or "/", cwd, follow=False)
        if r.node is not None:
            if exist_ok and isinstance(self._lookup(path, cwd), Dir):
                return
            raise FSError(EEXIST, path)
        if not r.name:
            raise FSError(EEXIST, path)
        if not self._can(r.parent, 2) or not self._can(r.parent, 1):
            raise FSError(EACCES, path)
        now = time.time()
        node = Dir(self._alloc_ino(), mode & ~self.umask & 0o7777, self.uid, self.gid, now, r.parent)
        r.parent.entries[r.name] = node
        r.parent.nlink += 1
        r.parent.mtime = r.parent.ctime = now
        self._notify(r.path, "created")

    def mkfifo(self, path: str, cwd: str = "/", mode: int = 0o666, umask: int | None = None) -> None:
        """A named pipe at ``path`` (EEXIST if the name is taken), ``mode`` less the umask."""
        r = self.resolve(path.rstrip("/") or "/", cwd, follow=False)
        if r.node is not None or not r.name:
            raise FSError(EEXIST, path)
        if path.endswith("/"):
            raise FSError(ENOENT, path)
        if not self._can(r.parent, 2) or not self._can(r.parent, 1):
            raise FSError(EACCES, path)
        self._add_node(r, Fifo, mode, umask)

    def makedirs(self, path: str, cwd: str = "/", mode: int = 0o777) -> None:
        self.mkdir(path, cwd, mode, parents=True)

    def _removable(self, r: Resolved, path: str) -> Inode:
        if r.node is None:
            raise FSError(ENOENT, path)
        if r.node is self.root or not r.name:
            raise FSError(EBUSY, path)
        if not self._can(r.parent, 2) or not self._can(r.parent, 1):
            raise FSError(EACCES, path)
        if r.parent.mode & st.S_ISVTX and self.uid not in (ROOT_UID, r.node.uid, r.parent.uid):
            raise FSError(EPERM, path)
        return r.node

    def unlink(self, path: str, cwd: str = "/") -> None:
        r = self.resolve(path, cwd, follow=False)
        node = self._removable(r, path)
        if isinstance(node, Dir):
            raise FSError(EISDIR, path)
        del r.parent.entries[r.name]
        if isinstance(node, Symlink):
            self._forget_dirs()
        r.parent.mtime = r.parent.ctime = time.time()
        self._release(node)
        self._notify(r.path, "deleted")

    def rmdir(self, path: str, cwd: str = "/") -> None:
        # "link/" names the symlink's target, which rmdir must not remove (ENOTDIR like Linux)
        stripped = path.rstrip("/") or "/"
        r = self.resolve(stripped, cwd, follow=False)
        node = self._removable(r, path)
        if not isinstance(node, Dir):
            raise FSError(ENOTDIR, path)
        if node.entries:
            raise FSError(ENOTEMPTY, path)
        del r.parent.entries[r.name]
        self._forget_dirs()
        r.parent.nlink -= 1
        r.parent.mtime = r.parent.ctime = time.time()
        self._release(node)
        self._notify(r.path, "deleted")

    def remove_tree(self, path: str, cwd: str = "/") -> None:
        """``rm -rf`` of one path (no error if missing is the caller's choice). Works on the
        nodes, without recursion or re-resolving paths: trees deeper than a path may be long
        go too. Stops at the first entry it may not remove (EACCES/EPERM), like rm."""
        r = self.resolve(path, cwd, follow=False)
        node = self._removable(r, path)
        if not isinstance(node, Dir):
            self.unlink(r.path)
            return
        self._empty_tree(node, r.path.rstrip("/"))
        self.rmdir(r.path)

    def _empty_tree(self, node: Dir, path: str | None) -> None:
        """Remove everything below ``node`` (at ``path``; None: deeper than a path may be
        long, nothing is notified), children first, without recursion."""
        # (parent, its path or None past MAX_PATH, name), parents before children: one path
        # string per directory, so a 100 000-deep chain costs no 10 GB of paths
        order: list[tuple[Dir, str | None, str]] = []
        todo: list[tuple[str | None, Dir]] = [(path, node)]
        self._forget_dirs()
        while todo:
            dpath, folder = todo.pop()
            for name, child in folder.entries.items():
                order.append((folder, dpath, name))
                if isinstance(child, Dir):
                    sub = None if dpath is None or len(dpath) > MAX_PATH else dpath + "/" + name
                    todo.append((sub, child))
        now = time.time()
        for folder, dpath, name in reversed(order):
            child = folder.entries[name]
            sub = f"{dpath}/{name}" if dpath is not None else f".../{name}"
            if not self._can(folder, 2) or not self._can(folder, 1):
                raise FSError(EACCES, sub)
            if folder.mode & st.S_ISVTX and self.uid not in (ROOT_UID, child.uid, folder.uid):
                raise FSError(EPERM, sub)
            del folder.entries[name]
            if isinstance(child, Dir):
                folder.nlink -= 1
            folder.mtime = folder.ctime = now
            self._release(child)
            if dpath is not None:  # deeper ones are gone with their notified ancestor
                self._notify(sub, "deleted")

    def rename(self, src: str, dst: str, cwd: str = "/") -> None:
        rs = self.resolve(src, cwd, follow=False)
        node = self._removable(rs, src)
        rd = self.resolve(dst, cwd, follow=False)
        if not rd.name:
            raise FSError(EBUSY, dst)
        if dst.endswith("/") and not isinstance(node, Dir):
            raise FSError(ENOTDIR, dst)  # "name/" can only name a directory
        if not self._can(rd.parent, 2) or not self._can(rd.parent, 1):
            raise FSError(EACCES, dst)
        if rd.node is node:
            return
        self._forget_dirs()
        if isinstance(node, Dir):
            # refuse moving a directory into itself
            p: Dir | None = rd.parent
            while True:
                if p is node:
                    raise FSError(EINVAL, dst)
                if p is self.root or p is None:
                    break
                p = p.parent
        if rd.node is not None:
            if isinstance(rd.node, Dir):
                if not isinstance(node, Dir):
                    raise FSError(EISDIR, dst)
                if rd.node.entries:
                    raise FSError(ENOTEMPTY, dst)
                rd.parent.nlink -= 1
            elif isinstance(node, Dir):
                raise FSError(ENOTDIR, dst)
            self._release(rd.node)
        del rs.parent.entries[rs.name]
        rd.parent.entries[rd.name] = node
        now = time.time()
        if isinstance(node, Dir):
            rs.parent.nlink -= 1
            rd.parent.nlink += 1
            node.parent = rd.parent
        rs.parent.mtime = rs.parent.ctime = rd.parent.mtime = rd.parent.ctime = now
        node.ctime = now
        self._notify(rs.path, "deleted")
        self._notify(rd.path, "created")

    def symlink(self, target: str, path: str, cwd: str = "/") -> None:
        if "\0" in target:
            raise FSError(EINVAL, path)
        r = self.resolve(path, cwd, follow=False)
        if r.node is not None or not r.name:
            raise FSError(EEXIST, path)
        if not self._can(r.parent, 2) or not self._can(r.parent, 1):
            raise FSError(EACCES, path)
        now = time.time()
        r.parent.entries[r.name] = Symlink(self._alloc_ino(), self.uid, self.gid, now, target)
        r.parent.mtime = r.parent.ctime = now
        self._notify(r.path, "created")

    def link(self, src: str, dst: str, cwd: str = "/", follow: bool = False) -> None:
        node = self._lookup(src, cwd, follow=follow)
        if isinstance(node, Dir) or not self._may_hard_link(node):
            raise FSError(EPERM, src)
        r = self.resolve(dst, cwd, follow=False)
        if r.node is not None or not r.name:
            raise FSError(EEXIST, dst)
        if not self._can(r.parent, 2) or not self._can(r.parent, 1):
            raise FSError(EACCES, dst)
        r.parent.entries[r.name] = node
        node.nlink += 1
        node.ctime = r.parent.mtime = r.parent.ctime = time.time()
        self._notify(r.path, "created")

    def _may_hard_link(self, node: Inode) -> bool:
        """Linux's fs.protected_hardlinks (on by default): a user links only files they own, or
        regular files they may read and write that are neither setuid nor setgid-executable."""
        if self.uid in (ROOT_UID, node.uid):
            return True
        if not isinstance(node, File) or node.mode & 0o4000 or node.mode & 0o2010 == 0o2010:
            return False
        return self._can(node, 4) and self._can(node, 2)

    def chmod(self, path: str, mode: int, cwd: str = "/", follow: bool = True) -> None:
        self._chmod(self._lookup(path, cwd, follow), mode, path)
        self._notify(normpath(path, cwd), "modified")

    def chmod_node(self, node: Inode, mode: int, path: str | None = None) -> None:
        """chmod of a node in hand (``path``: where it is, for errors and listeners)."""
        self._chmod(node, mode, path or "")
        if path is not None:
            self._notify(path, "modified")

    def _chmod(self, node: Inode, mode: int, path: str) -> None:
        if self.uid not in (ROOT_UID, node.uid):
            raise FSError(EPERM, path)
        node.mode = (node.mode & ~0o7777) | (mode & 0o7777)
        if isinstance(node, Dir):
            self._forget_dirs()
        node.ctime = time.time()

    def chown(self, path: str, uid: int, gid: int, cwd: str = "/", follow: bool = True) -> None:
        self.chown_node(self._lookup(path, cwd, follow), uid, gid, path)

    def chown_node(self, node: Inode, uid: int, gid: int, path: str = "") -> None:
        """chown of a node in hand (``path``: where it is, for errors)."""
        if self.uid != ROOT_UID and (uid not in (-1, node.uid) or node.uid != self.uid
                                     or gid not in (-1, node.gid, self.gid)):
            raise FSError(EPERM, path)
        if isinstance(node, Dir):
            self._forget_dirs()
        if uid != -1:
            node.uid = uid
        if gid != -1:
            node.gid = gid
        node.ctime = time.time()

    def utime(self, path: str, mtime: float | None = None, atime: float | None = None,
              cwd: str = "/", follow: bool = True) -> None:
        self._utime(self._lookup(path, cwd, follow), mtime, atime, path)
        self._notify(normpath(path, cwd), "modified")

    def utime_node(self, node: Inode, mtime: float | None = None, atime: float | None = None,
                   path: str | None = None) -> None:
        """utime of a node in hand (``path``: where it is, for errors and listeners)."""
        self._utime(node, mtime, atime, path or "")
        if path is not None:
            self._notify(path, "modified")

    def _utime(self, node: Inode, mtime: float | None, atime: float | None, path: str) -> None:
        if self.uid not in (ROOT_UID, node.uid):
            # like utimensat: explicit times need ownership; "now" needs write access
            if mtime is not None or atime is not None:
                raise FSError(EPERM, path)
            if not self._can(node, 2):
                raise FSError(EACCES, path)
        now = time.time()
        node.mtime = now if mtime is None else clamp_time(mtime, path)
        node.atime = node.mtime if atime is None else clamp_time(atime, path)
        node.ctime = now

    # ----------------------------------------------------------------- by directory in hand
    # Building a tree (archive import) with the parent directory held: each operation costs
    # one name, not a path resolution, and trees deeper than a path may be long can be built.
    # They check what the path operations check (names, permissions, quotas); ``path`` is the
    # entry's path for messages and listeners (None: nothing is notified, as for entries past
    # MAX_PATH). Symlinks are never followed: the caller holds real directories.
    def _adding(self, folder: Dir, name: str, path: str | None) -> float:
        if not name or name in (".", "..") or "/" in name or "\0" in name:
            raise FSError(EINVAL, path or name)
        if len(name) > MAX_NAME:
            raise FSError(ENAMETOOLONG, path or name)
        if name in folder.entries:
            raise FSError(EEXIST, path or name)
        if not self._can(folder, 2) or not self._can(folder, 1):
            raise FSError(EACCES, path or name)
        return time.time()

    def mkdir_in(self, folder: Dir, name: str, mode: int = 0o777, path: str | None = None) -> Dir:
        now = self._adding(folder, name, path)
        node = Dir(self._alloc_ino(), mode & ~self.umask & 0o7777, self.uid, self.gid, now, folder)
        folder.entries[name] = node
        folder.nlink += 1
        folder.mtime = folder.ctime = now
        if path is not None:
            self._notify(path, "created")
        return node

    def create_in(self, folder: Dir, name: str, perm: int = 0o666, path: str | None = None) -> FileHandle:
        """A new empty regular file, open for writing."""
        now = self._adding(folder, name, path)
        node = File(self._alloc_ino(), perm & ~self.umask & 0o7777, self.uid, self.gid, now)
        folder.entries[name] = node
        folder.mtime = folder.ctime = now
        if path is not None:
            self._notify(path, "created")
        return FileHandle(self, node, path or "", False, True, False)

    def symlink_in(self, folder: Dir, name: str, target: str, path: str | None = None) -> None:
        if "\0" in target:
            raise FSError(EINVAL, path or name)
        now = self._adding(folder, name, path)
        folder.entries[name] = Symlink(self._alloc_ino(), self.uid, self.gid, now, target)
        folder.mtime = folder.ctime = now
        if path is not None:
            self._notify(path, "created")

    def remove_in(self, folder: Dir, name: str, path: str | None = None) -> None:
        """``rm -rf`` of the entry ``name`` of ``folder``."""
        node = folder.entries.get(name)
        if node is None:
            raise FSError(ENOENT, path or name)
        if not self._can(folder, 2) or not self._can(folder, 1):
            raise FSError(EACCES, path or name)
        if folder.mode & st.S_ISVTX and self.uid not in (ROOT_UID, node.uid, folder.uid):
            raise FSError(EPERM, path or name)
        if isinstance(node, Dir):
            self._empty_tree(node, path if path is not None and len(path) <= MAX_PATH else None)
            folder.nlink -= 1
        if isinstance(node, (Dir, Symlink)):
            self._forget_dirs()
        del folder.entries[name]
        folder.mtime = folder.ctime = time.time()
        self._release(node)
        if path is not None:
            self._notify(path, "deleted")

    def swap_entries(self, a: str, b: str) -> None:
        """Exchange the contents of directories ``a`` and ``b`` in one step (system work:
        %load puts a staged tree in place; no permission applies and nothing is notified,
        the caller says what changed)."""
        da, db = self._lookup(a, follow=False), self._lookup(b, follow=False)
        if not isinstance(da, Dir) or not isinstance(db, Dir):
            raise FSError(ENOTDIR, a if not isinstance(da, Dir) else b)
        for inner, outer in ((da, db), (db, da)):
            p = inner
            while p is not self.root:
                if p is outer:
                    raise FSError(EINVAL, b)
                p = p.parent
        da.entries, db.entries = db.entries, da.entries
        now = time.time()
        for folder in (da, db):
            subdirs = 0
            for child in folder.entries.values():
                if isinstance(child, Dir):
                    child.parent = folder
                    subdirs += 1
            folder.nlink = 2 + subdirs
            folder.mtime = folder.ctime = now
        self._forget_dirs()

    # ----------------------------------------------------------------- system setup helpers
    @contextmanager
    def privileged(self, uid: int = ROOT_UID) -> Iterator[None]:
        """Act as ``uid`` (root by default) for the kernel's own work on the sandbox's files
        (restoring a saved workspace, host mounts): permission bits don't stop it, quotas do.
        Never held while sandbox code runs."""
        saved, self.uid = self.uid, uid
        try:
            yield
        finally:
            self.uid = saved

    def install_device(self, path: str, kind: str) -> None:
        r = self.resolve(path, follow=False)
        self._forget_dirs()  # may replace a directory
        r.parent.entries[r.name] = Device(self._alloc_ino(), time.time(), kind)

    def install_dir_as_root(self, path: str, mode: int = 0o755, uid: int = ROOT_UID) -> Dir:
        """Create a directory chain owned by ``uid`` bypassing permissions (system setup)."""
        cur = self.root
        for part in [p for p in path.split("/") if p]:
            nxt = cur.entries.get(part)
            if nxt is None:
                nxt = Dir(self._alloc_ino(), mode, uid, uid, time.time(), cur)
                cur.entries[part] = nxt
                cur.nlink += 1
            assert isinstance(nxt, Dir)
            cur = nxt
        return cur

    def install_file_as_root(self, path: str, data: bytes, mode: int = 0o644) -> None:
        r = self.resolve(path, follow=False)
        node = File(self._alloc_ino(), mode, ROOT_UID, ROOT_UID, time.time(), data)
        self.bytes_used += len(data)
        self._forget_dirs()  # may replace a directory
        r.parent.entries[r.name] = node

    def random_bytes(self, n: int) -> bytes:
        if self._rng is None:
            import random  # here: every sandbox makes a VFS, few read /dev/random
            self._rng = random.Random(self._seed)
        return self._rng.randbytes(n)

    def usage(self) -> dict:
        return {"bytes_used": self.bytes_used, "bytes_max": self.max_bytes,
                "inodes_used": self.inodes_used, "inodes_max": self.max_inodes}


def _resize(fs: VFS, node: File, size: int, path: str) -> None:
    if size < 0:
        raise FSError(EINVAL, path)
    delta = size - len(node.data)
    if delta > 0 and fs.bytes_used + delta > fs.max_bytes:
        raise fs.quota_error("vfs_bytes", path)
    if delta > 0:
        node.data.extend(bytes(delta))
    else:
        del node.data[size:]
    fs.bytes_used += delta
    node.mtime = node.ctime = time.time()


class FileHandle:
    """An open regular file with its own offset (binary I/O)."""

    def __init__(self, fs: VFS, node: File, path: str, readable: bool, writable: bool,
                 append: bool) -> None:
        self.fs = fs
        self.node = node
        self.path = path
        self.readable = readable
        self.writable = writable
        self.append = append
        self.pos = 0
        self.closed = False

    def __enter__(self) -> "FileHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.closed = True

    def read(self, n: int = -1) -> bytes:
        if not self.readable:
            raise FSError(EBADF, self.path)
        data = self.node.data
        end = len(data) if n is None or n < 0 else min(len(data), self.pos + n)
        with memoryview(data) as view:  # one copy (a bytearray slice, then bytes(), made two)
            chunk = bytes(view[self.pos:end])
        self.pos = max(self.pos, end)
        return chunk

    def readline(self, limit: int = -1) -> bytes:
        data = self.node.data
        nl = data.find(b"\n", self.pos)
        end = len(data) if nl < 0 else nl + 1
        if limit is not None and limit >= 0:
            end = min(end, self.pos + limit)
        chunk = bytes(data[self.pos:end])
        self.pos = max(self.pos, end)
        return chunk

    def write(self, b: bytes) -> int:
        """Write at the offset (or the end when appending). Over quota: writes what fits,
        then raises ENOSPC, so nothing already written is lost."""
        if not self.writable:
            raise FSError(EBADF, self.path)
        node, fs = self.node, self.fs
        data = node.data
        if self.append:
            self.pos = len(data)
        if self.pos == len(data) and len(b) <= fs.max_bytes - fs.bytes_used:
            # at the end, within the quota: the commonest write (a line of a loop's output)
            data += b
            fs.bytes_used += len(b)
            self.pos = len(data)
            node.mtime = node.ctime = time.time()
            if fs.listeners and self.path:
                fs._notify(self.path, "modified")
            return len(b)
        end = self.pos + len(b)
        growth = max(0, end - len(node.data))
        room = fs.max_bytes - fs.bytes_used
        short = growth > room
        if short:
            if self.pos - len(node.data) > room:  # not even the hole before the offset fits
                raise fs.quota_error("vfs_bytes", self.path)
            b = b[: max(0, len(b) - (growth - max(room, 0)))]
            end = self.pos + len(b)
            growth = max(0, end - len(node.data))
        if self.pos > len(node.data):
            node.data.extend(bytes(self.pos - len(node.data)))
        node.data[self.pos:end] = b
        fs.bytes_used += growth
        self.pos = end
        node.mtime = node.ctime = time.time()
        if fs.listeners and self.path:
            fs._notify(self.path, "modified")
        if short:
            raise fs.quota_error("vfs_bytes", self.path)
        return len(b)

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self.pos, 2: len(self.node.data)}[whence]
        if base + offset < 0:
            raise FSError(EINVAL, self.path)
        self.pos = base + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def truncate(self, size: int | None = None) -> int:
        if not self.writable:
            raise FSError(EBADF, self.path)
        _resize(self.fs, self.node, self.pos if size is None else size, self.path)
        return len(self.node.data)

    @property
    def size(self) -> int:
        return len(self.node.data)


class DeviceHandle:
    """Open /dev/null, /dev/zero, /dev/(u)random. ``fd:N`` devices are the shell's job."""

    def __init__(self, fs: VFS, node: Device) -> None:
        self.fs = fs
        self.node = node
        self.kind = node.kind
        self.path = "/dev/" + node.kind
        self.closed = False
        self.readable = self.writable = True
        if self.kind.startswith("fd:"):
            raise FSError(ENXIO_OR_EBADF, self.path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        self.closed = True

    def read(self, n: int = -1) -> bytes:
        if self.kind == "null":
            return b""
        n = 65536 if n is None or n < 0 else n
        if self.kind == "zero":
            return bytes(n)
        return self.fs.random_bytes(n)

    def readline(self, limit: int = -1) -> bytes:
        return self.read(limit if limit and limit > 0 else 65536)

    def write(self, b: bytes) -> int:
        return len(b)

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0

    def tell(self) -> int:
        return 0

    def truncate(self, size: int | None = None) -> int:
        return 0

    size = 0


ENXIO_OR_EBADF = EBADF
