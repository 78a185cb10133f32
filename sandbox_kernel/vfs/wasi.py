"""WASI preview 1 over the VFS: what the QuickJS host (``js/wasi.py``) and the CPython host
(``python/wasi.py``) share. The constants of the ABI, the guest's linear memory (bounds-checked
reads and writes), the one preopen (``/``, fd 3), directory descriptors and their listing, stat
records, the path calls that only forward to the VFS, the error guard every import runs in, and
``ProcessExit``. Each engine subclasses ``WasiBase`` with its own descriptors, opening and
streams; the hooks below are where they differ.

Imported only by the engines (it imports wasmtime; ``vfs/__init__`` does not import it).
"""
from __future__ import annotations

import ctypes
import errno as py_errno
import stat as st
import struct
import sys
import time
from typing import Any, Callable

import wasmtime

from .errors import FSError
from .fs import normpath

PREOPEN_FD = 3

# WASI errno values
W_SUCCESS, W_EACCES, W_EBADF, W_EBUSY, W_EEXIST, W_EINVAL, W_EIO = 0, 2, 8, 10, 20, 28, 29
W_EISDIR, W_ELOOP, W_ENAMETOOLONG, W_ENOENT, W_ENOSPC, W_ENOSYS = 31, 32, 37, 44, 51, 52
W_ENOTDIR, W_ENOTEMPTY, W_ENOTSUP, W_EPERM, W_ESPIPE, W_EXDEV, W_EROFS = 54, 55, 58, 63, 70, 75, 69
W_EFAULT, W_EFBIG, W_EMFILE, W_ENOMEM, W_EINTR = 21, 22, 33, 48, 27

#: Open descriptors one guest may hold (each costs host memory; a usual ulimit -n).
MAX_OPEN_FDS = 1024

ERRNO_TO_WASI = {
    py_errno.EACCES: W_EACCES, py_errno.EBADF: W_EBADF, py_errno.EBUSY: W_EBUSY,
    py_errno.EEXIST: W_EEXIST, py_errno.EINVAL: W_EINVAL, py_errno.EISDIR: W_EISDIR,
    py_errno.ELOOP: W_ELOOP, py_errno.ENAMETOOLONG: W_ENAMETOOLONG, py_errno.ENOENT: W_ENOENT,
    py_errno.ENOSPC: W_ENOSPC, py_errno.ENOTDIR: W_ENOTDIR, py_errno.ENOTEMPTY: W_ENOTEMPTY,
    py_errno.EPERM: W_EPERM, py_errno.ESPIPE: W_ESPIPE, py_errno.EXDEV: W_EXDEV,
}

FT_UNKNOWN, FT_CHAR, FT_DIR, FT_REG, FT_SYMLINK = 0, 2, 3, 4, 7
RIGHTS_ALL = (1 << 30) - 1
RIGHTS_STREAM = RIGHTS_ALL & ~((1 << 2) | (1 << 5))  # no fd_seek / fd_tell: a tty-like stream
O_CREAT, O_DIRECTORY, O_EXCL, O_TRUNC = 1, 2, 4, 8
FDFLAG_APPEND = 1
RIGHT_FD_READ, RIGHT_FD_WRITE = 1 << 1, 1 << 6
LOOKUP_SYMLINK_FOLLOW = 1


def filetype(mode: int) -> int:
    if st.S_ISDIR(mode):
        return FT_DIR
    if st.S_ISREG(mode):
        return FT_REG
    if st.S_ISLNK(mode):
        return FT_SYMLINK
    if st.S_ISCHR(mode):
        return FT_CHAR
    return FT_UNKNOWN


def nanos(seconds: float) -> int:
    """A VFS time as WASI's timestamp: unsigned nanoseconds since 1970 (1970 to 2554)."""
    return min(max(int(seconds * 1e9), 0), 2**64 - 1)


def stat_bytes(s) -> bytes:
    """A VFS Stat as WASI's filestat record."""
    return struct.pack("<QQB7xQQQQQ", s.st_dev, s.st_ino, filetype(s.st_mode), s.st_nlink,
                       s.st_size, nanos(s.st_atime), nanos(s.st_mtime), nanos(s.st_ctime))


class DirFd:
    def __init__(self, path: str, system: list[str] | None = None) -> None:
        self.path = path
        self.system = system  # the entries of a folder outside the VFS (the Python engine's)
        self.entries: list[tuple[str, int, int]] | None = None


class ProcessExit(Exception):
    """Raised by ``proc_exit``: the wasm instance cannot continue."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class WasiBase:
    """The imports both engines answer alike, over ``self.fs``; a subclass sets ``fs``, ``io``
    (with ``sleep(seconds)``), ``fds`` and defines the rest."""

    #: who the guard names on stderr when an import fails unexpectedly
    LABEL = "sandbox"
    #: refuse what Linux refuses: more than 1024 iovecs, a path over 4096 bytes or with a NUL
    LINUX_LIMITS = False
    ERRNO_MAP = ERRNO_TO_WASI

    fs: Any
    io: Any
    fds: dict[int, object]
    memory: wasmtime.Memory
    store: wasmtime.Store
    _base: int

    # ------------------------------------------------------------------ the error guard
    def _guard(self, name: str, impl: Callable) -> Callable:
        def call(*args):
            try:
                return impl(*args) or W_SUCCESS
            except FSError as e:
                return self.ERRNO_MAP.get(e.errno or 0, W_EIO)
            except KeyError:
                return W_EBADF
            except IndexError:  # a pointer outside the linear memory
                return W_EFAULT
            except Exception as e:  # never unwind through wasm
                code = self._other_error(e)
                if code is not None:
                    return code
                try:
                    sys.__stderr__.write(f"{self.LABEL}: WASI {name} failed: {e!r}\n")
                except Exception:
                    pass
                return W_EIO
        return call

    def _other_error(self, e: Exception) -> int | None:
        """The WASI errno for an exception the guard does not know; None: W_EIO, reported."""
        return None

    # ------------------------------------------------------------------ memory
    def attach(self, memory: wasmtime.Memory, store: wasmtime.Store) -> None:
        self.memory, self.store = memory, store
        self._base = ctypes.addressof(memory.data_ptr(store).contents)

    def _check(self, ptr: int, n: int) -> None:
        if ptr < 0 or n < 0 or ptr + n > self.memory.data_len(self.store):
            raise IndexError("out of bounds memory access")

    def read(self, ptr: int, n: int) -> bytes:
        # straight from the linear memory (it never moves: memory_may_move=False), after the
        # bounds check Memory.read would make; Memory.read itself takes 40 ms per 16 MB
        self._check(ptr, n)
        return ctypes.string_at(self._base + ptr, n)

    def write(self, data: bytes, ptr: int) -> None:
        self._check(ptr, len(data))
        ctypes.memmove(self._base + ptr, data, len(data))

    def _u32(self, value: int, ptr: int) -> None:
        self.write(struct.pack("<I", value & 0xFFFFFFFF), ptr)

    def _iovecs(self, iovs: int, count: int) -> list[tuple[int, int]]:
        if self.LINUX_LIMITS and count > 1024:
            raise FSError(py_errno.EINVAL)
        raw = self.read(iovs, 8 * count)
        return [struct.unpack_from("<II", raw, 8 * k) for k in range(count)]

    def _gather(self, vecs: list[tuple[int, int]]) -> bytes:
        pieces = [self.read(p, n) for p, n in vecs if n]
        return pieces[0] if len(pieces) == 1 else b"".join(pieces)  # a big write: one copy

    def _file(self, fd: int) -> Any:
        """What ``fd`` has open, to read or write; FSError(EISDIR) for a folder."""
        handle = self.fds[fd]
        if isinstance(handle, DirFd):
            raise FSError(py_errno.EISDIR)
        return handle

    def _scatter(self, data: bytes, vecs: list[tuple[int, int]], nread_ptr: int) -> None:
        pos = 0
        for ptr, n in vecs:
            if pos >= len(data):
                break
            piece = data[pos:pos + n]
            self.write(piece, ptr)
            pos += len(piece)
        self._u32(len(data), nread_ptr)

    def _read_size(self, vecs: list[tuple[int, int]]) -> int:
        """How much one fd_read into ``vecs`` asks for."""
        return sum(n for _, n in vecs)

    def _read_stream(self, fd: int, want: int) -> bytes | None:
        """Up to ``want`` bytes of a stream descriptor; None: not a stream."""
        return self.io.read_stdin(want) if fd == 0 else None

    def fd_read(self, fd: int, iovs: int, count: int, nread_ptr: int) -> int:
        vecs = self._iovecs(iovs, count)
        want = self._read_size(vecs)
        if fd in (1, 2):
            return W_EBADF
        data = self._read_stream(fd, want)
        if data is None:
            data = self._file(fd).read(want)
        self._scatter(data, vecs, nread_ptr)
        return W_SUCCESS

    def _path(self, dirfd: int, ptr: int, n: int) -> str:
        base = self.fds[dirfd]
        if not isinstance(base, DirFd):
            raise FSError(py_errno.ENOTDIR)
        if self.LINUX_LIMITS and n > 4096:
            raise FSError(py_errno.ENAMETOOLONG)
        rel = self.read(ptr, n).decode("utf-8", "surrogateescape")
        if self.LINUX_LIMITS and "\0" in rel:
            raise FSError(py_errno.EINVAL)
        return normpath(rel, base.path)

    # ------------------------------------------------------------------ clocks
    def _poll_subscriptions(self, in_ptr: int, nsubs: int) -> list[tuple[int, int | None]]:
        """(userdata, nanoseconds from now) of each subscription of a poll_oneoff, None for
        one that is not a clock's."""
        raw = self.read(in_ptr, 48 * nsubs)
        subs: list[tuple[int, int | None]] = []
        for k in range(nsubs):
            userdata, tag = struct.unpack_from("<QB", raw, 48 * k)
            timeout = None
            if tag == 0:
                clock_id, timeout, _, flags = struct.unpack_from("<IxxxxQQH", raw, 48 * k + 16)
                if flags & 1:
                    timeout -= time.time_ns() if clock_id == 0 else time.monotonic_ns()
            subs.append((userdata, timeout))
        return subs

    def _poll_sleep(self, timeout_ns: int, userdata: int, out_ptr: int, nevents_ptr: int) -> int:
        self.io.sleep(max(0, timeout_ns) / 1e9)
        self.write(struct.pack("<QHBx4xQH6x", userdata, 0, 0, 0, 0), out_ptr)
        self._u32(1, nevents_ptr)
        return W_SUCCESS

    # ------------------------------------------------------------------ descriptors
    def fd_prestat_get(self, fd: int, buf_ptr: int) -> int:
        if fd != PREOPEN_FD:
            return W_EBADF
        self.write(struct.pack("<BxxxI", 0, 1), buf_ptr)
        return W_SUCCESS

    def fd_prestat_dir_name(self, fd: int, ptr: int, n: int) -> int:
        if fd != PREOPEN_FD:
            return W_EBADF
        self.write(b"/"[:n], ptr)
        return W_SUCCESS

    def _stream_type(self, fd: int) -> int | None:
        """The filetype of a stream descriptor (stdin, stdout ...); None: not a stream."""
        return FT_CHAR if fd in (0, 1, 2) else None

    def _is_file(self, obj: object) -> bool:
        return hasattr(obj, "node")

    def fd_fdstat_get(self, fd: int, buf_ptr: int) -> int:
        ft = self._stream_type(fd)
        if ft is not None:
            stat = struct.pack("<BxHxxxxQQ", ft, 0, RIGHTS_STREAM, RIGHTS_STREAM)
        else:
            obj = self.fds[fd]
            if isinstance(obj, DirFd):
                stat = struct.pack("<BxHxxxxQQ", FT_DIR, 0, RIGHTS_ALL, RIGHTS_ALL)
            else:
                flags = FDFLAG_APPEND if getattr(obj, "append", False) else 0
                ft = FT_REG if self._is_file(obj) else FT_CHAR
                stat = struct.pack("<BxHxxxxQQ", ft, flags, RIGHTS_ALL, RIGHTS_ALL)
        self.write(stat, buf_ptr)
        return W_SUCCESS

    def _dir_entries(self, obj: DirFd) -> list[tuple[str, int, int]]:
        fs = self.fs
        here = fs.stat(obj.path)
        entries = [(".", FT_DIR, here.st_ino), ("..", FT_DIR, here.st_ino)]
        for name, lst in fs.scandir(obj.path):
            entries.append((name, filetype(lst.st_mode), lst.st_ino))
        return entries

    def fd_readdir(self, fd: int, buf_ptr: int, buf_len: int, cookie: int, used_ptr: int) -> int:
        obj = self.fds[fd]
        if not isinstance(obj, DirFd):
            return W_ENOTDIR
        if obj.entries is None or cookie == 0:
            obj.entries = self._dir_entries(obj)
        out = bytearray()
        for k in range(cookie, len(obj.entries)):
            name, ft, ino = obj.entries[k]
            raw = name.encode("utf-8", "surrogateescape")
            out += struct.pack("<QQIB3x", k + 1, ino, len(raw), ft) + raw
            if len(out) >= buf_len:
                break
        out = out[:buf_len]
        self.write(bytes(out), buf_ptr)
        self._u32(len(out), used_ptr)
        return W_SUCCESS

    # ------------------------------------------------------------------ paths
    def _new_fd(self, obj: object, fd_ptr: int) -> int:
        raise NotImplementedError

    def path_open(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int, oflags: int,
                  rights_base: int, rights_inheriting: int, fdflags: int, fd_ptr: int) -> int:
        if len(self.fds) >= MAX_OPEN_FDS:
            return W_EMFILE
        return self._open(self._path(dirfd, path_ptr, path_len), oflags, rights_base, fdflags, fd_ptr)

    def _open(self, path: str, oflags: int, rights_base: int, fdflags: int, fd_ptr: int) -> int:
        """path_open of a resolved path: the engine's own paths first, then the VFS's."""
        return self._open_in_vfs(path, self.fs.exists(path), oflags, rights_base, fdflags, fd_ptr)

    def _open_in_vfs(self, path: str, exists: bool, oflags: int, rights_base: int, fdflags: int,
                     fd_ptr: int) -> int:
        """path_open's VFS part, once the engine has looked at the path: a folder or a file."""
        fs = self.fs
        if exists and fs.is_dir(path):
            if oflags & O_CREAT and oflags & O_EXCL:
                return W_EEXIST
            if rights_base & RIGHT_FD_WRITE and not oflags & O_DIRECTORY:
                return W_EISDIR
            return self._new_fd(DirFd(fs.realpath(path)), fd_ptr)
        if oflags & O_DIRECTORY:
            return W_ENOTDIR if exists else W_ENOENT
        if oflags & O_CREAT and oflags & O_EXCL and (exists or fs.exists(path, follow=False)):
            return W_EEXIST
        if not exists and not oflags & O_CREAT:
            return W_ENOENT
        readable = bool(rights_base & RIGHT_FD_READ)
        if rights_base & RIGHT_FD_WRITE or oflags & (O_CREAT | O_TRUNC):
            mode = "r+b" if exists else "w+b"
            if oflags & O_TRUNC:
                mode = "w+b" if readable else "wb"
        else:
            mode = "rb"
        handle = fs.open(path, mode)
        if fdflags & FDFLAG_APPEND and hasattr(handle, "append"):
            handle.append = True
        return self._new_fd(handle, fd_ptr)

    def _writable_path(self, path: str) -> str:
        """``path``, or FSError(EROFS) where the engine serves it read-only."""
        return path

    def _special_stat(self, path: str) -> bytes | None:
        """The filestat of a path the engine serves outside the VFS; None: a VFS path."""
        return None

    def path_filestat_get(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int,
                          buf_ptr: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        record = self._special_stat(path)
        if record is None:
            fs = self.fs
            s = fs.stat(path) if lookupflags & LOOKUP_SYMLINK_FOLLOW else fs.lstat(path)
            record = stat_bytes(s)
        self.write(record, buf_ptr)
        return W_SUCCESS

    def _set_times(self, path: str, atim: int, mtim: int, fstflags: int) -> int:
        now = time.time()
        atime = atim / 1e9 if fstflags & 1 else now if fstflags & 2 else None
        mtime = mtim / 1e9 if fstflags & 4 else now if fstflags & 8 else None
        self.fs.utime(path, mtime, atime)
        return W_SUCCESS

    def path_filestat_set_times(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int,
                                atim: int, mtim: int, fstflags: int) -> int:
        path = self._writable_path(self._path(dirfd, path_ptr, path_len))
        return self._set_times(path, atim, mtim, fstflags)

    def path_create_directory(self, dirfd: int, path_ptr: int, path_len: int) -> int:
        self.fs.mkdir(self._writable_path(self._path(dirfd, path_ptr, path_len)))
        return W_SUCCESS

    def path_remove_directory(self, dirfd: int, path_ptr: int, path_len: int) -> int:
        self.fs.rmdir(self._writable_path(self._path(dirfd, path_ptr, path_len)))
        return W_SUCCESS

    def path_unlink_file(self, dirfd: int, path_ptr: int, path_len: int) -> int:
        path = self._writable_path(self._path(dirfd, path_ptr, path_len))
        if st.S_ISDIR(self.fs.lstat(path).st_mode):
            return W_EISDIR
        self.fs.unlink(path)
        return W_SUCCESS

    def path_rename(self, fd1: int, p1: int, n1: int, fd2: int, p2: int, n2: int) -> int:
        self.fs.rename(self._writable_path(self._path(fd1, p1, n1)),
                       self._writable_path(self._path(fd2, p2, n2)))
        return W_SUCCESS
