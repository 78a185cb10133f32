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

import errno as py_errno
import io
import os
import struct
import threading
import time
import zipfile
from typing import Callable

import wasmtime

from ..vfs import FSError
from ..vfs.wasi import (
    ERRNO_TO_WASI, FDFLAG_APPEND, FT_CHAR, FT_DIR, FT_REG, FT_UNKNOWN, LOOKUP_SYMLINK_FOLLOW,
    MAX_OPEN_FDS, O_CREAT, O_DIRECTORY, O_TRUNC, PREOPEN_FD, RIGHT_FD_WRITE, W_EBADF, W_EINVAL, W_EIO,
    W_EISDIR, W_EMFILE, W_ENAMETOOLONG, W_ENOMEM, W_ENOSYS, W_ENOTDIR, W_ENOTSUP, W_EROFS,
    W_ESPIPE, W_SUCCESS, W_EFBIG, DirFd, ProcessExit, WasiBase, nanos, stat_bytes,
)

STDLIB_DIR = "/usr/local/lib"
STDLIB_PATH = "/usr/local/lib/python315.zip"
MPL_DATA = STDLIB_PATH + "/matplotlib/mpl-data"
MPL_DATA_MEMBER = "matplotlib/mpl-data.zip"

#: The most one read or write call moves (a bigger request is served in parts, as Linux does).
MAX_IO = 64 << 20

_ERRNO_TO_WASI = {**ERRNO_TO_WASI, py_errno.EROFS: W_EROFS, py_errno.EFBIG: W_EFBIG}


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


class PyWasi(WasiBase):
    """The 42 imports of the CPython module, over one VFS. ``io`` (a WasiIO) is swapped per run;
    ``args``/``env`` are what the guest reads at its start (a snapshot has read them already)."""

    LABEL = "sandbox python"
    LINUX_LIMITS = True
    ERRNO_MAP = _ERRNO_TO_WASI

    def __init__(self, fs, system: SystemFiles, io: WasiIO, args: list[str], env: dict[str, str]) -> None:
        self.fs = fs
        self.system = system
        self.io = io
        self.args = [a.encode("utf-8", "surrogateescape") + b"\0" for a in args]
        self.env = [f"{k}={v}".encode("utf-8", "surrogateescape") + b"\0" for k, v in env.items()]
        self.fds: dict[int, object] = {PREOPEN_FD: DirFd("/")}
        self.next_fd = 4
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

    def _other_error(self, e: Exception) -> int | None:
        if isinstance(e, MemoryError):
            return W_ENOMEM
        if isinstance(e, OSError):  # the stdlib zip's host file
            return self.ERRNO_MAP.get(e.errno or 0, W_EIO)
        if isinstance(e, wasmtime.Trap):
            raise e
        return None

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
        clocks = [(data, t) for data, t in self._poll_subscriptions(in_ptr, nsubs) if t is not None]
        if not clocks:
            return W_ENOTSUP
        userdata, timeout_ns = min(clocks, key=lambda c: c[1])
        return self._poll_sleep(timeout_ns, userdata, out_ptr, nevents_ptr)

    # ------------------------------------------------------------------ descriptors
    def _stream_type(self, fd: int) -> int | None:
        if fd not in (0, 1, 2):
            return None
        # a terminal is a character device; a pipe is "unknown" (libc's isatty says no)
        return FT_CHAR if fd in self.io.ttys else FT_UNKNOWN

    def _is_file(self, obj: object) -> bool:
        return hasattr(obj, "node") or isinstance(obj, _ReadOnly)

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

    def _system_stat(self, kind: str, rel) -> bytes:
        ft, size, ino = self.system.stat(kind, rel)
        t = nanos(self.system.mtime)
        return struct.pack("<QQB7xQQQQQ", 2, ino, ft, 1, size, t, t, t)

    def fd_filestat_get(self, fd: int, buf_ptr: int) -> int:
        if fd in (0, 1, 2):
            self.write(struct.pack("<QQB7xQQQQQ", 0, fd, FT_CHAR, 1, 0, 0, 0, 0), buf_ptr)
            return W_SUCCESS
        obj = self.fds[fd]
        if isinstance(obj, DirFd):
            if obj.system is not None:
                self.write(self._system_stat("mpldir", None), buf_ptr)
            else:
                self.write(stat_bytes(self.fs.stat(obj.path)), buf_ptr)
        elif isinstance(obj, _ReadOnly):
            t = nanos(self.system.mtime)
            self.write(struct.pack("<QQB7xQQQQQ", 2, obj.ino, FT_REG, 1, obj.size, t, t, t), buf_ptr)
        elif hasattr(obj, "node"):
            node = obj.node
            s = self.fs.stat(obj.path) if obj.path and self.fs.exists(obj.path) else None
            if s is not None and s.st_ino == node.ino:
                self.write(stat_bytes(s), buf_ptr)
            else:  # unlinked while open
                self.write(struct.pack("<QQB7xQQQQQ", 1, node.ino, FT_REG, 0, len(node.data),
                                       nanos(node.mtime), nanos(node.mtime), nanos(node.mtime)), buf_ptr)
        else:  # a device
            self.write(struct.pack("<QQB7xQQQQQ", 1, 0, FT_CHAR, 1, 0, 0, 0, 0), buf_ptr)
        return W_SUCCESS

    def fd_filestat_set_size(self, fd: int, size: int) -> int:
        obj = self.fds.get(fd)
        if obj is None:
            return W_EBADF
        if isinstance(obj, (DirFd, _ReadOnly)) or not hasattr(obj, "truncate"):
            return W_EINVAL if isinstance(obj, DirFd) else W_EBADF
        obj.truncate(size)
        return W_SUCCESS

    def fd_filestat_set_times(self, fd: int, atim: int, mtim: int, fstflags: int) -> int:
        obj = self.fds.get(fd)
        if obj is None:
            return W_EBADF
        path = getattr(obj, "path", None)
        if not path or isinstance(obj, _ReadOnly) or (isinstance(obj, DirFd) and obj.system is not None):
            return W_EROFS if isinstance(obj, (_ReadOnly, DirFd)) else W_SUCCESS
        return self._set_times(path, atim, mtim, fstflags)

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
        data = self._gather(vecs)
        if fd == 1:
            self.io.write_stdout(data)
        elif fd == 2:
            self.io.write_stderr(data)
        elif fd == 0:
            return W_EBADF
        else:
            handle = self._file(fd)
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

    def _read_size(self, vecs: list[tuple[int, int]]) -> int:
        for ptr, n in vecs:  # every buffer is checked before anything is read
            self._check(ptr, n)
        return min(sum(n for _, n in vecs), MAX_IO)

    def fd_pread(self, fd: int, iovs: int, count: int, offset: int, nread_ptr: int) -> int:
        vecs = self._iovecs(iovs, count)
        want = self._read_size(vecs)
        if fd in (0, 1, 2):
            return W_ESPIPE
        handle = self._file(fd)
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
        if isinstance(obj, DirFd):
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
        if isinstance(obj, DirFd):
            return W_EISDIR
        self.write(struct.pack("<Q", obj.seek(0, 1)), out_ptr)
        return W_SUCCESS

    def _dir_entries(self, obj: DirFd) -> list[tuple[str, int, int]]:
        if obj.system is None:
            return super()._dir_entries(obj)
        entries = [(".", FT_DIR, 1), ("..", FT_DIR, 1)]
        for name in obj.system:
            found = self.system.lookup(obj.path + "/" + name)
            ft = FT_DIR if found and found[0] == "mpldir" else FT_REG
            entries.append((name, ft, 2))
        return entries

    def fd_readdir(self, fd: int, buf_ptr: int, buf_len: int, cookie: int, used_ptr: int) -> int:
        if not isinstance(self.fds[fd], DirFd):
            return W_ENOTDIR
        self._check(buf_ptr, buf_len)
        return super().fd_readdir(fd, buf_ptr, buf_len, cookie, used_ptr)

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

    def _open(self, path: str, oflags: int, rights_base: int, fdflags: int, fd_ptr: int) -> int:
        wants_write = bool(rights_base & RIGHT_FD_WRITE) or bool(oflags & (O_CREAT | O_TRUNC))
        sys_found = self.system.lookup(path)
        if sys_found is not None:
            kind, rel = sys_found
            if wants_write:
                return W_EROFS
            if kind == "mpldir":
                return self._new_fd(DirFd(path, rel), fd_ptr)
            if oflags & O_DIRECTORY:
                return W_ENOTDIR
            return self._new_fd(self.system.open(kind, rel), fd_ptr)
        return super()._open(path, oflags, rights_base, fdflags, fd_ptr)

    def _special_stat(self, path: str) -> bytes | None:
        sys_found = self.system.lookup(path)
        return None if sys_found is None else self._system_stat(*sys_found)

    def _writable_path(self, path: str) -> str:
        if self.system.lookup(path) is not None:
            raise FSError(py_errno.EROFS, path)
        return path

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
