"""WASI preview 1 over the sandbox VFS: the only world the CPython module can see.

``/`` of the VFS is the one preopen (fd 3); fds 0-2 are the run's stdin, stdout and stderr
(character devices, so output streams while a cell runs). Nothing of the host is reachable:
no host directory is preopened, no host environment is passed, there are no sockets
(``sock_*`` answer ENOSYS). Two read-only paths are served from outside the VFS, and only to
Python: the interpreter's standard library (``STDLIB_PATH``, the artefact's zip, read from the
host file opened once by us) and matplotlib's data (``MPL_DATA``, the zip's inner archive
unpacked in memory), where the snapshot's ``sys.path`` and matplotlib look for them. They are
not in the VFS, so the shell and the panel never see them and no quota counts them.

Every import catches every exception: a Python exception escaping a host function would
unwind the wasm stack and leave CPython in an inconsistent state. Every length the guest
gives is checked against its linear memory before anything is read or allocated.
"""
from __future__ import annotations

import ctypes
import errno as py_errno
import io
import os
import stat as st
import struct
import sys
import threading
import time
import zipfile
from typing import Callable

import wasmtime

from ..vfs import FSError, normpath

PREOPEN_FD = 3
STDLIB_DIR = "/usr/local/lib"
STDLIB_PATH = "/usr/local/lib/python315.zip"
MPL_DATA = STDLIB_PATH + "/matplotlib/mpl-data"
MPL_DATA_MEMBER = "matplotlib/mpl-data.zip"

# WASI errno values
W_SUCCESS, W_EACCES, W_EBADF, W_EBUSY, W_EEXIST, W_EINVAL, W_EIO = 0, 2, 8, 10, 20, 28, 29
W_EISDIR, W_ELOOP, W_ENAMETOOLONG, W_ENOENT, W_ENOSPC, W_ENOSYS = 31, 32, 37, 44, 51, 52
W_ENOTDIR, W_ENOTEMPTY, W_ENOTSUP, W_EPERM, W_ESPIPE, W_EXDEV, W_EROFS = 54, 55, 58, 63, 70, 75, 69
W_EFAULT, W_EFBIG, W_EMFILE, W_ENOMEM, W_EINTR = 21, 22, 33, 48, 27

#: Open descriptors one interpreter may hold (each costs host memory; a usual ulimit -n).
MAX_OPEN_FDS = 1024
#: The most one read or write call moves (a bigger request is served in parts, as Linux does).
MAX_IO = 64 << 20

_ERRNO_TO_WASI = {
    py_errno.EACCES: W_EACCES, py_errno.EBADF: W_EBADF, py_errno.EBUSY: W_EBUSY,
    py_errno.EEXIST: W_EEXIST, py_errno.EINVAL: W_EINVAL, py_errno.EISDIR: W_EISDIR,
    py_errno.ELOOP: W_ELOOP, py_errno.ENAMETOOLONG: W_ENAMETOOLONG, py_errno.ENOENT: W_ENOENT,
    py_errno.ENOSPC: W_ENOSPC, py_errno.ENOTDIR: W_ENOTDIR, py_errno.ENOTEMPTY: W_ENOTEMPTY,
    py_errno.EPERM: W_EPERM, py_errno.ESPIPE: W_ESPIPE, py_errno.EXDEV: W_EXDEV,
    py_errno.EROFS: W_EROFS, py_errno.EFBIG: W_EFBIG,
}

FT_UNKNOWN, FT_CHAR, FT_DIR, FT_REG, FT_SYMLINK = 0, 2, 3, 4, 7
RIGHTS_ALL = (1 << 30) - 1
RIGHTS_STREAM = RIGHTS_ALL & ~((1 << 2) | (1 << 5))  # no fd_seek / fd_tell: a tty-like stream
O_CREAT, O_DIRECTORY, O_EXCL, O_TRUNC = 1, 2, 4, 8
FDFLAG_APPEND = 1
RIGHT_FD_READ, RIGHT_FD_WRITE = 1 << 1, 1 << 6
LOOKUP_SYMLINK_FOLLOW = 1


def _filetype(mode: int) -> int:
    if st.S_ISDIR(mode):
        return FT_DIR
    if st.S_ISREG(mode):
        return FT_REG
    if st.S_ISLNK(mode):
        return FT_SYMLINK
    if st.S_ISCHR(mode):
        return FT_CHAR
    return FT_UNKNOWN


def _nanos(seconds: float) -> int:
    return min(max(int(seconds * 1e9), 0), 2**64 - 1)


# ---------------------------------------------------------------------- the read-only system files
class _ReadOnly:
    """An open read-only file outside the VFS: the stdlib zip (a host file, read with pread)
    or one of matplotlib's data files (bytes in memory)."""

    def __init__(self, size: int, reader: Callable[[int, int], bytes], ino: int) -> None:
        self.size, self._reader, self.ino, self.pos = size, reader, ino, 0
        self.append = False

    def read(self, n: int) -> bytes:
        data = self.pread(n, self.pos)
        self.pos += len(data)
        return data

    def pread(self, n: int, offset: int) -> bytes:
        if offset >= self.size:
            return b""
        return self._reader(min(n, self.size - offset), offset)

    def seek(self, offset: int, whence: int) -> int:
        base = {0: 0, 1: self.pos, 2: self.size}[whence]
        if base + offset < 0:
            raise FSError(py_errno.EINVAL)
        self.pos = base + offset
        return self.pos

    def close(self) -> None:
        pass


class SystemFiles:
    """The stdlib zip and matplotlib's data, shared read-only by every interpreter of the
    process (the zip's host descriptor is opened once; the data is unpacked once)."""

    _lock = threading.Lock()
    _shared: dict[str, "SystemFiles"] = {}

    def __init__(self, zip_path: str) -> None:
        self.fd = os.open(zip_path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        self.zip_size = os.fstat(self.fd).st_size
        self.mtime = os.fstat(self.fd).st_mtime
        self._mpl: dict[str, bytes] | None = None
        self._mpl_dirs: set[str] = set()

    @classmethod
    def for_zip(cls, zip_path: str) -> "SystemFiles":
        with cls._lock:
            found = cls._shared.get(zip_path)
            if found is None:
                found = cls._shared[zip_path] = cls(zip_path)
            return found

    def _read_zip(self, n: int, offset: int) -> bytes:
        return os.pread(self.fd, n, offset)

    def mpl(self) -> tuple[dict[str, bytes], set[str]]:
        with self._lock:
            if self._mpl is None:
                with zipfile.ZipFile(_PreadFile(self)) as outer:
                    inner = zipfile.ZipFile(io.BytesIO(outer.read(MPL_DATA_MEMBER)))
                files = {name: inner.read(name) for name in inner.namelist() if not name.endswith("/")}
                dirs = {""}
                for name in files:
                    parts = name.split("/")[:-1]
                    for k in range(1, len(parts) + 1):
                        dirs.add("/".join(parts[:k]))
                self._mpl, self._mpl_dirs = files, dirs
            return self._mpl, self._mpl_dirs

    def lookup(self, path: str) -> tuple[str, object] | None:
        """("file", opener-info) / ("dir", entries) for a system path; None: not ours;
        raises FSError(ENOENT/ENOTDIR) for a path inside ours that does not exist."""
        if path == STDLIB_PATH:
            return "zip", None
        if path == MPL_DATA or path.startswith(MPL_DATA + "/"):
            files, dirs = self.mpl()
            rel = path[len(MPL_DATA) + 1:]
            if rel in files:
                return "mpl", rel
            if rel in dirs:
                prefix = rel + "/" if rel else ""
                names = set()
                for name in list(files) + [d for d in dirs if d]:
                    if name.startswith(prefix) and name != rel:
                        names.add(name[len(prefix):].split("/")[0])
                return "mpldir", sorted(names)
            raise FSError(py_errno.ENOENT, path)
        if path.startswith(STDLIB_PATH + "/"):
            # inside the zip is the zip importer's business: a folder here would hide it
            raise FSError(py_errno.ENOTDIR, path)
        return None

    def open(self, kind: str, rel) -> _ReadOnly:
        if kind == "zip":
            return _ReadOnly(self.zip_size, self._read_zip, 1 << 40)
        files, _ = self.mpl()
        data = files[rel]
        return _ReadOnly(len(data), lambda n, off: data[off:off + n], (1 << 40) + hash(rel) % (1 << 30))

    def stat(self, kind: str, rel) -> tuple[int, int, int]:
        """(filetype, size, ino)"""
        if kind == "zip":
            return FT_REG, self.zip_size, 1 << 40
        if kind == "mpl":
            return FT_REG, len(self.mpl()[0][rel]), (1 << 40) + hash(rel) % (1 << 30)
        return FT_DIR, 0, (1 << 40) + 7


class _PreadFile(io.RawIOBase):
    """The zip's host descriptor as a seekable file for zipfile (no shared offset)."""

    def __init__(self, files: SystemFiles) -> None:
        self.files, self.pos = files, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = {0: 0, 1: self.pos, 2: self.files.zip_size}[whence] + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def readinto(self, b) -> int:
        data = os.pread(self.files.fd, len(b), self.pos)
        b[:len(data)] = data
        self.pos += len(data)
        return len(data)


class _DirFd:
    def __init__(self, path: str, system: list[str] | None = None) -> None:
        self.path = path
        self.system = system  # the entries of a system folder (not in the VFS)
        self.entries: list[tuple[str, int, int]] | None = None


class ProcessExit(Exception):
    """Raised by ``proc_exit``: the instance cannot continue."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class WasiIO:
    """What a run gives the WASI layer; the engine replaces it per run."""

    #: the standard descriptors that are terminals (a cell's; a command's when not redirected)
    ttys: frozenset[int] = frozenset((0, 1, 2))

    def write_stdout(self, data: bytes) -> None:
        pass

    def write_stderr(self, data: bytes) -> None:
        pass

    def read_stdin(self, n: int) -> bytes:
        return b""

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, 0.05))


class PyWasi:
    """The 42 imports of the CPython module, over one VFS. ``io`` (a WasiIO) is swapped per run;
    ``args``/``env`` are what the guest reads at its start (a snapshot has read them already)."""

    def __init__(self, fs, system: SystemFiles, io: WasiIO, args: list[str], env: dict[str, str]) -> None:
        self.fs = fs
        self.system = system
        self.io = io
        self.args = [a.encode("utf-8", "surrogateescape") + b"\0" for a in args]
        self.env = [f"{k}={v}".encode("utf-8", "surrogateescape") + b"\0" for k, v in env.items()]
        self.fds: dict[int, object] = {PREOPEN_FD: _DirFd("/")}
        self.next_fd = 4
        self.memory: wasmtime.Memory | None = None
        self.store: wasmtime.Store | None = None
        self._base = 0

    # ------------------------------------------------------------------ linking
    SIGNATURES = {
        "args_get": "ii", "args_sizes_get": "ii", "environ_get": "ii", "environ_sizes_get": "ii",
        "clock_res_get": "ii", "clock_time_get": "iIi", "fd_advise": "iIIi", "fd_close": "i",
        "fd_datasync": "i", "fd_fdstat_get": "ii", "fd_fdstat_set_flags": "ii",
        "fd_filestat_get": "ii", "fd_filestat_set_size": "iI", "fd_filestat_set_times": "iIIi",
        "fd_pread": "iiiIi", "fd_prestat_get": "ii", "fd_prestat_dir_name": "iii",
        "fd_pwrite": "iiiIi", "fd_read": "iiii", "fd_readdir": "iiiIi", "fd_seek": "iIii",
        "fd_sync": "i", "fd_tell": "ii", "fd_write": "iiii", "path_create_directory": "iii",
        "path_filestat_get": "iiiii", "path_filestat_set_times": "iiiiIIi",
        "path_link": "iiiiiii", "path_open": "iiiiiIIii", "path_readlink": "iiiiii",
        "path_remove_directory": "iii", "path_rename": "iiiiii", "path_symlink": "iiiii",
        "path_unlink_file": "iii", "poll_oneoff": "iiii", "sched_yield": "", "random_get": "ii",
        "sock_accept": "iii", "sock_recv": "iiiiii", "sock_send": "iiiii", "sock_shutdown": "ii",
    }

    def define(self, linker: wasmtime.Linker) -> None:
        i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
        for name, params in self.SIGNATURES.items():
            impl = getattr(self, name, None) or self._nosys
            linker.define_func("wasi_snapshot_preview1", name,
                               wasmtime.FuncType([i64 if c == "I" else i32 for c in params], [i32]),
                               self._guard(name, impl))

        def proc_exit(code: int) -> None:
            raise ProcessExit(code & 0xFFFFFFFF)  # a deliberate trap: the instance is finished
        linker.define_func("wasi_snapshot_preview1", "proc_exit", wasmtime.FuncType([i32], []), proc_exit)

    @staticmethod
    def _nosys(*args) -> int:
        return W_ENOSYS

    @staticmethod
    def _guard(name: str, impl: Callable) -> Callable:
        def call(*args):
            try:
                return impl(*args) or W_SUCCESS
            except FSError as e:
                return _ERRNO_TO_WASI.get(e.errno or 0, W_EIO)
            except KeyError:
                return W_EBADF
            except IndexError:  # a pointer outside the linear memory
                return W_EFAULT
            except MemoryError:
                return W_ENOMEM
            except OSError as e:  # the stdlib zip's host file
                return _ERRNO_TO_WASI.get(e.errno or 0, W_EIO)
            except wasmtime.Trap:
                raise
            except Exception as e:  # never unwind through wasm
                try:
                    sys.__stderr__.write(f"sandbox python: WASI {name} failed: {e!r}\n")
                except Exception:
                    pass
                return W_EIO
        return call

    # ------------------------------------------------------------------ memory
    def attach(self, memory: wasmtime.Memory, store: wasmtime.Store) -> None:
        self.memory, self.store = memory, store
        self._base = ctypes.addressof(memory.data_ptr(store).contents)

    def _check(self, ptr: int, n: int) -> None:
        if ptr < 0 or n < 0 or ptr + n > self.memory.data_len(self.store):
            raise IndexError("out of bounds memory access")

    def read(self, ptr: int, n: int) -> bytes:
        # straight from the linear memory (it never moves: memory_may_move=False)
        self._check(ptr, n)
        return ctypes.string_at(self._base + ptr, n)

    def write(self, data: bytes, ptr: int) -> None:
        self._check(ptr, len(data))
        ctypes.memmove(self._base + ptr, data, len(data))

    def _u32(self, value: int, ptr: int) -> None:
        self.write(struct.pack("<I", value & 0xFFFFFFFF), ptr)

    def _iovecs(self, iovs: int, count: int) -> list[tuple[int, int]]:
        if count > 1024:
            raise FSError(py_errno.EINVAL)
        raw = self.read(iovs, 8 * count)
        return [struct.unpack_from("<II", raw, 8 * k) for k in range(count)]

    def _path(self, dirfd: int, ptr: int, n: int) -> str:
        base = self.fds[dirfd]
        if not isinstance(base, _DirFd):
            raise FSError(py_errno.ENOTDIR)
        if n > 4096:
            raise FSError(py_errno.ENAMETOOLONG)
        rel = self.read(ptr, n).decode("utf-8", "surrogateescape")
        if "\0" in rel:
            raise FSError(py_errno.EINVAL)
        return normpath(rel, base.path)

    # ------------------------------------------------------------------ args, environment, clocks
    def _strings(self, items: list[bytes], list_ptr: int, buf_ptr: int) -> None:
        offset = 0
        for k, item in enumerate(items):
            self._u32(buf_ptr + offset, list_ptr + 4 * k)
            self.write(item, buf_ptr + offset)
            offset += len(item)

    def args_sizes_get(self, count_ptr: int, size_ptr: int) -> None:
        self._u32(len(self.args), count_ptr)
        self._u32(sum(map(len, self.args)), size_ptr)

    def args_get(self, argv_ptr: int, buf_ptr: int) -> None:
        self._strings(self.args, argv_ptr, buf_ptr)

    def environ_sizes_get(self, count_ptr: int, size_ptr: int) -> None:
        self._u32(len(self.env), count_ptr)
        self._u32(sum(map(len, self.env)), size_ptr)

    def environ_get(self, environ_ptr: int, buf_ptr: int) -> None:
        self._strings(self.env, environ_ptr, buf_ptr)

    def clock_res_get(self, clock_id: int, out_ptr: int) -> None:
        self.write(struct.pack("<Q", 1000), out_ptr)

    def clock_time_get(self, clock_id: int, precision: int, out_ptr: int) -> None:
        if clock_id == 0:
            now = time.time_ns()
        elif clock_id == 1:
            now = time.monotonic_ns()
        else:
            now = time.process_time_ns() if clock_id == 2 else time.thread_time_ns()
        self.write(struct.pack("<Q", now), out_ptr)

    def sched_yield(self) -> None:
        return None

    def random_get(self, ptr: int, n: int) -> None:
        self._check(ptr, n)
        self.write(os.urandom(n), ptr)

    def poll_oneoff(self, in_ptr: int, out_ptr: int, nsubs: int, nevents_ptr: int) -> int:
        # time.sleep and select() on no descriptor: wait for the earliest clock, interruptibly
        if nsubs <= 0 or nsubs > 64:
            return W_EINVAL
        raw = self.read(in_ptr, 48 * nsubs)
        timeout_ns, userdata, found = None, 0, False
        for k in range(nsubs):
            data, tag = struct.unpack_from("<QB", raw, 48 * k)
            if tag == 0:
                clock_id, timeout, _, flags = struct.unpack_from("<IxxxxQQH", raw, 48 * k + 16)
                if flags & 1:
                    timeout -= time.time_ns() if clock_id == 0 else time.monotonic_ns()
                if timeout_ns is None or timeout < timeout_ns:
                    timeout_ns, userdata, found = timeout, data, True
        if not found:
            return W_ENOTSUP
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

    def fd_fdstat_get(self, fd: int, buf_ptr: int) -> int:
        if fd in (0, 1, 2):
            # a terminal is a character device; a pipe is "unknown" (libc's isatty says no)
            ft = FT_CHAR if fd in self.io.ttys else FT_UNKNOWN
            stat = struct.pack("<BxHxxxxQQ", ft, 0, RIGHTS_STREAM, RIGHTS_STREAM)
        else:
            obj = self.fds[fd]
            if isinstance(obj, _DirFd):
                stat = struct.pack("<BxHxxxxQQ", FT_DIR, 0, RIGHTS_ALL, RIGHTS_ALL)
            else:
                flags = FDFLAG_APPEND if getattr(obj, "append", False) else 0
                ft = FT_REG if hasattr(obj, "node") or isinstance(obj, _ReadOnly) else FT_CHAR
                stat = struct.pack("<BxHxxxxQQ", ft, flags, RIGHTS_ALL, RIGHTS_ALL)
        self.write(stat, buf_ptr)
        return W_SUCCESS

    def fd_fdstat_set_flags(self, fd: int, flags: int) -> int:
        obj = self.fds.get(fd)
        if obj is not None and hasattr(obj, "append") and not isinstance(obj, _ReadOnly):
            obj.append = bool(flags & FDFLAG_APPEND)
        return W_SUCCESS

    def fd_advise(self, fd: int, offset: int, length: int, advice: int) -> int:
        return W_SUCCESS if fd in self.fds or fd in (0, 1, 2) else W_EBADF

    def fd_sync(self, fd: int) -> int:
        return W_SUCCESS if fd in self.fds or fd in (0, 1, 2) else W_EBADF

    fd_datasync = fd_sync

    def fd_close(self, fd: int) -> int:
        if fd in (0, 1, 2):
            return W_SUCCESS
        if fd == PREOPEN_FD:
            return W_EBADF
        obj = self.fds.pop(fd)
        if hasattr(obj, "close"):
            obj.close()
        return W_SUCCESS

    def close_all(self) -> None:
        for fd in [fd for fd in self.fds if fd != PREOPEN_FD]:
            obj = self.fds.pop(fd)
            if hasattr(obj, "close"):
                try:
                    obj.close()
                except Exception:
                    pass

    def _stat_bytes(self, s) -> bytes:
        return struct.pack("<QQB7xQQQQQ", s.st_dev, s.st_ino, _filetype(s.st_mode), s.st_nlink,
                           s.st_size, _nanos(s.st_atime), _nanos(s.st_mtime), _nanos(s.st_ctime))

    def _system_stat(self, kind: str, rel) -> bytes:
        ft, size, ino = self.system.stat(kind, rel)
        t = _nanos(self.system.mtime)
        return struct.pack("<QQB7xQQQQQ", 2, ino, ft, 1, size, t, t, t)

    def fd_filestat_get(self, fd: int, buf_ptr: int) -> int:
        if fd in (0, 1, 2):
            self.write(struct.pack("<QQB7xQQQQQ", 0, fd, FT_CHAR, 1, 0, 0, 0, 0), buf_ptr)
            return W_SUCCESS
        obj = self.fds[fd]
        if isinstance(obj, _DirFd):
            if obj.system is not None:
                self.write(self._system_stat("mpldir", None), buf_ptr)
            else:
                self.write(self._stat_bytes(self.fs.stat(obj.path)), buf_ptr)
        elif isinstance(obj, _ReadOnly):
            t = _nanos(self.system.mtime)
            self.write(struct.pack("<QQB7xQQQQQ", 2, obj.ino, FT_REG, 1, obj.size, t, t, t), buf_ptr)
        elif hasattr(obj, "node"):
            node = obj.node
            s = self.fs.stat(obj.path) if obj.path and self.fs.exists(obj.path) else None
            if s is not None and s.st_ino == node.ino:
                self.write(self._stat_bytes(s), buf_ptr)
            else:  # unlinked while open
                self.write(struct.pack("<QQB7xQQQQQ", 1, node.ino, FT_REG, 0, len(node.data),
                                       _nanos(node.mtime), _nanos(node.mtime), _nanos(node.mtime)), buf_ptr)
        else:  # a device
            self.write(struct.pack("<QQB7xQQQQQ", 1, 0, FT_CHAR, 1, 0, 0, 0, 0), buf_ptr)
        return W_SUCCESS

    def fd_filestat_set_size(self, fd: int, size: int) -> int:
        obj = self.fds.get(fd)
        if obj is None:
            return W_EBADF
        if isinstance(obj, (_DirFd, _ReadOnly)) or not hasattr(obj, "truncate"):
            return W_EINVAL if isinstance(obj, _DirFd) else W_EBADF
        obj.truncate(size)
        return W_SUCCESS

    def fd_filestat_set_times(self, fd: int, atim: int, mtim: int, fstflags: int) -> int:
        obj = self.fds.get(fd)
        if obj is None:
            return W_EBADF
        path = getattr(obj, "path", None)
        if not path or isinstance(obj, _ReadOnly) or (isinstance(obj, _DirFd) and obj.system is not None):
            return W_EROFS if isinstance(obj, (_ReadOnly, _DirFd)) else W_SUCCESS
        return self._set_times(path, atim, mtim, fstflags)

    def _set_times(self, path: str, atim: int, mtim: int, fstflags: int) -> int:
        now = time.time()
        atime = atim / 1e9 if fstflags & 1 else now if fstflags & 2 else None
        mtime = mtim / 1e9 if fstflags & 4 else now if fstflags & 8 else None
        self.fs.utime(path, mtime, atime)
        return W_SUCCESS

    def fd_write(self, fd: int, iovs: int, count: int, nwritten_ptr: int) -> int:
        return self._write_vec(fd, iovs, count, nwritten_ptr, None)

    def fd_pwrite(self, fd: int, iovs: int, count: int, offset: int, nwritten_ptr: int) -> int:
        if fd in (0, 1, 2):
            return W_ESPIPE
        return self._write_vec(fd, iovs, count, nwritten_ptr, offset)

    def _write_vec(self, fd: int, iovs: int, count: int, nwritten_ptr: int, offset: int | None) -> int:
        vecs = self._iovecs(iovs, count)
        if sum(n for _, n in vecs) > MAX_IO:
            return W_EINVAL
        pieces = [self.read(p, n) for p, n in vecs if n]
        data = pieces[0] if len(pieces) == 1 else b"".join(pieces)
        if fd == 1:
            self.io.write_stdout(data)
        elif fd == 2:
            self.io.write_stderr(data)
        elif fd == 0:
            return W_EBADF
        else:
            handle = self.fds[fd]
            if isinstance(handle, _DirFd):
                return W_EISDIR
            if isinstance(handle, _ReadOnly):
                return W_EBADF
            if offset is not None:
                saved, append = handle.tell(), handle.append
                handle.append = False
                handle.seek(offset, 0)
                try:
                    handle.write(data)
                finally:
                    handle.seek(saved, 0)
                    handle.append = append
            else:
                handle.write(data)
        self._u32(len(data), nwritten_ptr)
        return W_SUCCESS

    def _scatter(self, data: bytes, vecs: list[tuple[int, int]], nread_ptr: int) -> None:
        pos = 0
        for ptr, n in vecs:
            if pos >= len(data):
                break
            piece = data[pos:pos + n]
            self.write(piece, ptr)
            pos += len(piece)
        self._u32(len(data), nread_ptr)

    def fd_read(self, fd: int, iovs: int, count: int, nread_ptr: int) -> int:
        vecs = self._iovecs(iovs, count)
        want = min(sum(n for _, n in vecs), MAX_IO)
        for ptr, n in vecs:
            self._check(ptr, n)
        if fd == 0:
            data = self.io.read_stdin(want)
        elif fd in (1, 2):
            return W_EBADF
        else:
            handle = self.fds[fd]
            if isinstance(handle, _DirFd):
                return W_EISDIR
            data = handle.read(want)
        self._scatter(data, vecs, nread_ptr)
        return W_SUCCESS

    def fd_pread(self, fd: int, iovs: int, count: int, offset: int, nread_ptr: int) -> int:
        vecs = self._iovecs(iovs, count)
        want = min(sum(n for _, n in vecs), MAX_IO)
        for ptr, n in vecs:
            self._check(ptr, n)
        if fd in (0, 1, 2):
            return W_ESPIPE
        handle = self.fds[fd]
        if isinstance(handle, _DirFd):
            return W_EISDIR
        if isinstance(handle, _ReadOnly):
            data = handle.pread(want, offset)
        else:
            saved = handle.tell()
            handle.seek(offset, 0)
            try:
                data = handle.read(want)
            finally:
                handle.seek(saved, 0)
        self._scatter(data, vecs, nread_ptr)
        return W_SUCCESS

    def fd_seek(self, fd: int, offset: int, whence: int, out_ptr: int) -> int:
        if fd in (0, 1, 2):
            return W_ESPIPE
        obj = self.fds[fd]
        if isinstance(obj, _DirFd):
            return W_EISDIR
        if whence not in (0, 1, 2):
            return W_EINVAL
        if offset >= 1 << 63:
            offset -= 1 << 64
        pos = obj.seek(offset, whence)
        self.write(struct.pack("<Q", pos), out_ptr)
        return W_SUCCESS

    def fd_tell(self, fd: int, out_ptr: int) -> int:
        if fd in (0, 1, 2):
            return W_ESPIPE
        obj = self.fds[fd]
        if isinstance(obj, _DirFd):
            return W_EISDIR
        self.write(struct.pack("<Q", obj.seek(0, 1)), out_ptr)
        return W_SUCCESS

    def fd_readdir(self, fd: int, buf_ptr: int, buf_len: int, cookie: int, used_ptr: int) -> int:
        obj = self.fds[fd]
        if not isinstance(obj, _DirFd):
            return W_ENOTDIR
        self._check(buf_ptr, buf_len)
        if obj.entries is None or cookie == 0:
            if obj.system is not None:
                entries = [(".", FT_DIR, 1), ("..", FT_DIR, 1)]
                base = obj.path
                for name in obj.system:
                    found = self.system.lookup(base + "/" + name)
                    ft = FT_DIR if found and found[0] == "mpldir" else FT_REG
                    entries.append((name, ft, 2))
            else:
                here = self.fs.stat(obj.path)
                entries = [(".", FT_DIR, here.st_ino), ("..", FT_DIR, here.st_ino)]
                for name, lst in self.fs.scandir(obj.path):
                    entries.append((name, _filetype(lst.st_mode), lst.st_ino))
            obj.entries = entries
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
        if len(self.fds) >= MAX_OPEN_FDS:
            if hasattr(obj, "close"):
                obj.close()
            return W_EMFILE
        fd = self.next_fd
        while fd in self.fds:
            fd += 1
        self.next_fd = fd + 1
        self.fds[fd] = obj
        self._u32(fd, fd_ptr)
        return W_SUCCESS

    def path_open(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int, oflags: int,
                  rights_base: int, rights_inheriting: int, fdflags: int, fd_ptr: int) -> int:
        if len(self.fds) >= MAX_OPEN_FDS:
            return W_EMFILE
        path = self._path(dirfd, path_ptr, path_len)
        wants_write = bool(rights_base & RIGHT_FD_WRITE) or bool(oflags & (O_CREAT | O_TRUNC))
        sys_found = self.system.lookup(path)
        if sys_found is not None:
            kind, rel = sys_found
            if wants_write:
                return W_EROFS
            if kind == "mpldir":
                return self._new_fd(_DirFd(path, rel), fd_ptr)
            if oflags & O_DIRECTORY:
                return W_ENOTDIR
            return self._new_fd(self.system.open(kind, rel), fd_ptr)
        fs = self.fs
        exists = fs.exists(path)
        if exists and fs.is_dir(path):
            if oflags & O_CREAT and oflags & O_EXCL:
                return W_EEXIST
            if rights_base & RIGHT_FD_WRITE and not oflags & O_DIRECTORY:
                return W_EISDIR
            return self._new_fd(_DirFd(fs.realpath(path)), fd_ptr)
        if oflags & O_DIRECTORY:
            return W_ENOTDIR if exists else W_ENOENT
        if oflags & O_CREAT and oflags & O_EXCL and (exists or fs.exists(path, follow=False)):
            return W_EEXIST
        if not exists and not oflags & O_CREAT:
            return W_ENOENT
        readable = bool(rights_base & RIGHT_FD_READ)
        if wants_write:
            mode = "r+b" if exists else "w+b"
            if oflags & O_TRUNC:
                mode = "w+b" if readable else "wb"
        else:
            mode = "rb"
        handle = fs.open(path, mode)
        if fdflags & FDFLAG_APPEND and hasattr(handle, "append"):
            handle.append = True
        return self._new_fd(handle, fd_ptr)

    def path_filestat_get(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int,
                          buf_ptr: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        sys_found = self.system.lookup(path)
        if sys_found is not None:
            self.write(self._system_stat(*sys_found), buf_ptr)
            return W_SUCCESS
        s = self.fs.stat(path) if lookupflags & LOOKUP_SYMLINK_FOLLOW else self.fs.lstat(path)
        self.write(self._stat_bytes(s), buf_ptr)
        return W_SUCCESS

    def path_filestat_set_times(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int,
                                atim: int, mtim: int, fstflags: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        if self.system.lookup(path) is not None:
            return W_EROFS
        return self._set_times(path, atim, mtim, fstflags)

    def _writable_path(self, path: str) -> str:
        if self.system.lookup(path) is not None:
            raise FSError(py_errno.EROFS, path)
        return path

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
        self.fs.rename(self._writable_path(self._path(fd1, p1, n1)), self._writable_path(self._path(fd2, p2, n2)))
        return W_SUCCESS

    def path_symlink(self, old_ptr: int, old_len: int, dirfd: int, new_ptr: int, new_len: int) -> int:
        if old_len > 4096:
            return W_ENAMETOOLONG
        target = self.read(old_ptr, old_len).decode("utf-8", "surrogateescape")
        self.fs.symlink(target, self._writable_path(self._path(dirfd, new_ptr, new_len)))
        return W_SUCCESS

    def path_link(self, fd1: int, flags: int, p1: int, n1: int, fd2: int, p2: int, n2: int) -> int:
        self.fs.link(self._writable_path(self._path(fd1, p1, n1)), self._writable_path(self._path(fd2, p2, n2)),
                     follow=bool(flags & LOOKUP_SYMLINK_FOLLOW))
        return W_SUCCESS

    def path_readlink(self, dirfd: int, path_ptr: int, path_len: int, buf_ptr: int, buf_len: int,
                      used_ptr: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        if self.system.lookup(path) is not None:
            return W_EINVAL
        raw = self.fs.readlink(path).encode("utf-8", "surrogateescape")[:buf_len]
        self.write(raw, buf_ptr)
        self._u32(len(raw), used_ptr)
        return W_SUCCESS
