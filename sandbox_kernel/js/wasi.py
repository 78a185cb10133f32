"""WASI preview1 over the sandbox VFS: the only world the QuickJS binary can see.

No host directory is preopened, no host environment is passed, there are no sockets. Only
``/`` of the VFS is preopened (fd 3). fds 0-2 are the run's stdin/stdout/stderr, reported as
character devices without seek rights so libc line-buffers them (output streams promptly).
Two extra fds carry calls from the JS prelude to the host (``RPC_CTL_FD``, ``RPC_DATA_FD``):
a call writes its payload to the data fd, then a one-line JSON header to the control fd; the
host answers with a JSON line read back from the control fd and bytes from the data fd.

Every import catches every exception: a Python exception escaping a host function would
unwind the wasm stack and leave QuickJS in an inconsistent state.
"""
from __future__ import annotations

import ctypes
import errno as py_errno
import stat as st
import struct
import sys
import time
from typing import Callable

import wasmtime

from ..vfs import FSError, normpath

RPC_CTL_FD = 1000
RPC_DATA_FD = 1001
PREOPEN_FD = 3
RPC_DATA_PATH = f"/dev/fd/{RPC_DATA_FD}"

# WASI errno values
W_SUCCESS, W_EACCES, W_EBADF, W_EBUSY, W_EEXIST, W_EINVAL, W_EIO = 0, 2, 8, 10, 20, 28, 29
W_EISDIR, W_ELOOP, W_ENAMETOOLONG, W_ENOENT, W_ENOSPC, W_ENOSYS = 31, 32, 37, 44, 51, 52
W_ENOTDIR, W_ENOTEMPTY, W_ENOTSUP, W_EPERM, W_ESPIPE, W_EXDEV, W_EINTR = 54, 55, 58, 63, 70, 75, 27
W_EFAULT, W_EFBIG, W_EMFILE = 21, 22, 33

#: Open descriptors one JS context may hold (each costs host memory; node's usual ulimit -n).
MAX_OPEN_FDS = 1024
#: A host call's JSON header (display bundles travel in it) may not be bigger than this, nor
#: have more separators than MAX_HEADER_ITEMS: json.loads turns small items into objects
#: ~20x their size, so both bound the host memory one call can take.
MAX_HEADER_BYTES = 16 << 20
MAX_HEADER_ITEMS = 1_000_000

_ERRNO_TO_WASI = {
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


class _DirFd:
    def __init__(self, path: str) -> None:
        self.path = path
        self.entries: list[tuple[str, int]] | None = None


class WasiHost:
    """The 21 imports the binary needs, bound to one sandbox run context.

    ``io`` supplies: ``write_stdout(bytes)``, ``write_stderr(bytes)``, ``read_stdin(n) -> bytes``,
    ``rpc(header: bytes, payload: bytes) -> (reply: bytes, data: bytes)``, ``sleep(seconds)``,
    ``cwd() -> str``.
    """

    def __init__(self, fs, io) -> None:
        self.fs = fs
        self.io = io
        self.fds: dict[int, object] = {PREOPEN_FD: _DirFd("/")}
        self.next_fd = 4
        self.memory: wasmtime.Memory | None = None
        self._base = 0  # host address of the linear memory (see attach)
        self.store: wasmtime.Store | None = None
        self.exit_code: int | None = None
        self._ctl_in = bytearray()      # header bytes written by JS, up to a newline
        self._data_in = bytearray()     # payload written by JS for the next call
        self._ctl_out = b""             # reply JSON line for JS to read
        self._data_out = b""            # reply bytes for JS to read
        self._refused: str | None = None  # why the call being written cannot be made

    def reset_calls(self) -> None:
        """Forget a half-written host call and unread replies (a new run starts clean)."""
        self._ctl_in, self._data_in = bytearray(), bytearray()
        self._ctl_out = self._data_out = b""
        self._refused = None

    # ------------------------------------------------------------------ linking
    def define(self, linker: wasmtime.Linker) -> None:
        i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
        signatures = {
            "environ_get": "ii", "environ_sizes_get": "ii", "clock_time_get": "iIi",
            "fd_close": "i", "fd_fdstat_get": "ii", "fd_fdstat_set_flags": "ii",
            "fd_prestat_get": "ii", "fd_prestat_dir_name": "iii", "fd_read": "iiii",
            "fd_readdir": "iiiIi", "fd_seek": "iIii", "fd_write": "iiii",
            "path_create_directory": "iii", "path_filestat_get": "iiiii",
            "path_filestat_set_times": "iiiiIIi", "path_open": "iiiiiIIii",
            "path_remove_directory": "iii", "path_rename": "iiiiii",
            "path_unlink_file": "iii", "poll_oneoff": "iiii",
        }
        for name, params in signatures.items():
            linker.define_func("wasi_snapshot_preview1", name,
                               wasmtime.FuncType([i64 if c == "I" else i32 for c in params], [i32]),
                               self._guard(name, getattr(self, name)))

        def proc_exit(code: int) -> None:
            self.exit_code = code
            raise ProcessExit(code)  # a deliberate trap: the instance is finished
        linker.define_func("wasi_snapshot_preview1", "proc_exit", wasmtime.FuncType([i32], []), proc_exit)

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
            except Exception as e:  # never unwind through wasm
                try:
                    sys.__stderr__.write(f"sandbox js: WASI {name} failed: {e!r}\n")
                except Exception:
                    pass
                return W_EIO
        return call

    # ------------------------------------------------------------------ memory helpers
    def attach(self, memory: wasmtime.Memory, store: wasmtime.Store) -> None:
        self.memory, self.store = memory, store
        self._base = ctypes.addressof(memory.data_ptr(store).contents)

    def _read(self, ptr: int, n: int) -> bytes:
        # straight from the linear memory (it never moves: memory_may_move=False), after the
        # bounds check Memory.read would make; Memory.read itself takes 40 ms per 16 MB
        if ptr < 0 or n < 0 or ptr + n > self.memory.data_len(self.store):
            raise IndexError("out of bounds memory access")
        return ctypes.string_at(self._base + ptr, n)

    def _write(self, data: bytes, ptr: int) -> None:
        self.memory.write(self.store, data, ptr)

    def _put_u32(self, value: int, ptr: int) -> None:
        self._write(struct.pack("<I", value), ptr)

    def _iovecs(self, iovs: int, count: int) -> list[tuple[int, int]]:
        raw = self._read(iovs, 8 * count)
        return [struct.unpack_from("<II", raw, 8 * k) for k in range(count)]

    def _path(self, dirfd: int, ptr: int, n: int) -> str:
        base = self.fds[dirfd]
        if not isinstance(base, _DirFd):
            raise FSError(py_errno.ENOTDIR)
        rel = self._read(ptr, n).decode("utf-8", "surrogateescape")
        return normpath(rel, base.path)

    # ------------------------------------------------------------------ environment, clocks
    def environ_sizes_get(self, count_ptr: int, size_ptr: int) -> None:
        self._put_u32(0, count_ptr)   # no host environment; process.env comes from the shell
        self._put_u32(0, size_ptr)

    def environ_get(self, environ_ptr: int, buf_ptr: int) -> None:
        return None

    def clock_time_get(self, clock_id: int, precision: int, out_ptr: int) -> None:
        now = time.time_ns() if clock_id == 0 else time.monotonic_ns()
        self._write(struct.pack("<Q", now), out_ptr)

    def poll_oneoff(self, in_ptr: int, out_ptr: int, nsubs: int, nevents_ptr: int) -> int:
        # used by os.sleep(): wait for the longest clock subscription, interruptibly
        raw = self._read(in_ptr, 48 * nsubs)
        timeout_ns, userdata = 0, 0
        for k in range(nsubs):
            userdata, tag = struct.unpack_from("<QB", raw, 48 * k)
            if tag == 0:
                clock_id, timeout, _, flags = struct.unpack_from("<IxxxxQQH", raw, 48 * k + 16)
                if flags & 1:
                    timeout -= time.time_ns() if clock_id == 0 else time.monotonic_ns()
                timeout_ns = max(timeout_ns, timeout)
        self.io.sleep(max(0, timeout_ns) / 1e9)
        self._write(struct.pack("<QHBx4xQH6x", userdata, 0, 0, 0, 0), out_ptr)
        self._put_u32(1, nevents_ptr)
        return W_SUCCESS

    # ------------------------------------------------------------------ descriptors
    def fd_prestat_get(self, fd: int, buf_ptr: int) -> int:
        if fd != PREOPEN_FD:
            return W_EBADF
        self._write(struct.pack("<BxxxI", 0, 1), buf_ptr)
        return W_SUCCESS

    def fd_prestat_dir_name(self, fd: int, ptr: int, n: int) -> int:
        if fd != PREOPEN_FD:
            return W_EBADF
        self._write(b"/"[:n], ptr)
        return W_SUCCESS

    def fd_fdstat_get(self, fd: int, buf_ptr: int) -> int:
        if fd in (0, 1, 2, RPC_CTL_FD, RPC_DATA_FD):
            stat = struct.pack("<BxHxxxxQQ", FT_CHAR, 0, RIGHTS_STREAM, RIGHTS_STREAM)
        else:
            obj = self.fds[fd]
            if isinstance(obj, _DirFd):
                stat = struct.pack("<BxHxxxxQQ", FT_DIR, 0, RIGHTS_ALL, RIGHTS_ALL)
            else:
                flags = FDFLAG_APPEND if getattr(obj, "append", False) else 0
                ft = FT_REG if hasattr(obj, "node") else FT_CHAR
                stat = struct.pack("<BxHxxxxQQ", ft, flags, RIGHTS_ALL, RIGHTS_ALL)
        self._write(stat, buf_ptr)
        return W_SUCCESS

    def fd_fdstat_set_flags(self, fd: int, flags: int) -> int:
        obj = self.fds.get(fd)
        if obj is not None and hasattr(obj, "append"):
            obj.append = bool(flags & FDFLAG_APPEND)
        return W_SUCCESS

    def fd_close(self, fd: int) -> int:
        if fd in (0, 1, 2, RPC_CTL_FD, RPC_DATA_FD, PREOPEN_FD):
            return W_SUCCESS
        obj = self.fds.pop(fd)
        if hasattr(obj, "close"):
            obj.close()
        return W_SUCCESS

    def fd_write(self, fd: int, iovs: int, count: int, nwritten_ptr: int) -> int:
        pieces = [self._read(p, n) for p, n in self._iovecs(iovs, count) if n]
        data = pieces[0] if len(pieces) == 1 else b"".join(pieces)  # a big write: one copy
        if fd == 1:
            self.io.write_stdout(data)
        elif fd == 2:
            self.io.write_stderr(data)
        elif fd == RPC_DATA_FD:
            if self._refused is None and len(self._data_in) + len(data) > self.io.buffer_limit():
                self._refuse("payload")
            if self._refused is not None:
                return W_EFBIG
            self._data_in += data
        elif fd == RPC_CTL_FD:
            return self._write_header(data, nwritten_ptr)
        elif fd == 0:
            return W_EBADF
        else:
            handle = self.fds[fd]
            if isinstance(handle, _DirFd):
                return W_EISDIR
            try:
                handle.write(data)
            except FSError as e:
                if e.errno == py_errno.ENOSPC:
                    return W_ENOSPC
                raise
        self._put_u32(len(data), nwritten_ptr)
        return W_SUCCESS

    def _refuse(self, part: str) -> None:
        self._refused = part
        self._data_in = bytearray()  # give the memory back at once

    def _write_header(self, data: bytes, nwritten_ptr: int) -> int:
        """Header bytes up to a newline, then the call. An oversized header or payload is
        dropped and the call answered with an error (the JS side throws a RangeError)."""
        rest = data
        while True:
            end = rest.find(b"\n")
            head = rest if end < 0 else rest[:end]
            if self._refused is None and len(self._ctl_in) + len(head) > min(MAX_HEADER_BYTES, self.io.buffer_limit()):
                self._refuse("header")
            if self._refused is None:
                self._ctl_in += head
            if end < 0:
                break
            self._call_host()
            rest = rest[end + 1:]
        self._put_u32(len(data), nwritten_ptr)
        return W_SUCCESS

    def _call_host(self) -> None:
        header, payload = self._ctl_in, self._data_in
        self._ctl_in, self._data_in = bytearray(), bytearray()
        if self._refused is None and header.count(b",") + header.count(b":") > MAX_HEADER_ITEMS:
            self._refused = "header"
        if self._refused is not None:
            self._ctl_out, self._data_out = self.io.refused_call(self._refused), b""
            self._refused = None
        else:
            self._ctl_out, self._data_out = self.io.rpc(header, payload)

    def fd_read(self, fd: int, iovs: int, count: int, nread_ptr: int) -> int:
        vecs = self._iovecs(iovs, count)
        want = sum(n for _, n in vecs)
        if fd == 0:
            data = self.io.read_stdin(want)
        elif fd == RPC_CTL_FD:
            data, self._ctl_out = self._ctl_out[:want], self._ctl_out[want:]
        elif fd == RPC_DATA_FD:
            data, self._data_out = self._data_out[:want], self._data_out[want:]
        elif fd in (1, 2):
            return W_EBADF
        else:
            handle = self.fds[fd]
            if isinstance(handle, _DirFd):
                return W_EISDIR
            data = handle.read(want)
        pos = 0
        for ptr, n in vecs:
            if pos >= len(data):
                break
            piece = data[pos:pos + n]
            self._write(piece, ptr)
            pos += len(piece)
        self._put_u32(len(data), nread_ptr)
        return W_SUCCESS

    def fd_seek(self, fd: int, offset: int, whence: int, out_ptr: int) -> int:
        obj = self.fds.get(fd) if fd > 2 else None
        if obj is None or fd in (RPC_CTL_FD, RPC_DATA_FD):
            return W_ESPIPE if fd in (0, 1, 2, RPC_CTL_FD, RPC_DATA_FD) else W_EBADF
        if isinstance(obj, _DirFd):
            return W_EISDIR
        if whence not in (0, 1, 2):
            return W_EINVAL
        pos = obj.seek(offset, whence)
        self._write(struct.pack("<Q", pos), out_ptr)
        return W_SUCCESS

    def fd_readdir(self, fd: int, buf_ptr: int, buf_len: int, cookie: int, used_ptr: int) -> int:
        obj = self.fds[fd]
        if not isinstance(obj, _DirFd):
            return W_ENOTDIR
        if obj.entries is None or cookie == 0:
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
        self._write(bytes(out), buf_ptr)
        self._put_u32(len(out), used_ptr)
        return W_SUCCESS

    # ------------------------------------------------------------------ paths
    def path_open(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int, oflags: int,
                  rights_base: int, rights_inheriting: int, fdflags: int, fd_ptr: int) -> int:
        if len(self.fds) >= MAX_OPEN_FDS:
            return W_EMFILE
        path = self._path(dirfd, path_ptr, path_len)
        if path == RPC_DATA_PATH:  # the prelude reads a text reply with std.loadFile (fast)
            from .hostapi import virtual_handle
            data, self._data_out = self._data_out, b""
            return self._new_fd(virtual_handle(data), fd_ptr)
        fs = self.fs
        exists = fs.exists(path)
        if not exists and not oflags & O_CREAT and "?" in path:
            # import('./m.mjs?v2'): a query makes the module loader read the file afresh
            path = path.split("?", 1)[0]
            exists = fs.exists(path)
        if not exists and not oflags & O_CREAT:
            source = self.io.virtual_file(path)
            if source is not None:
                from .hostapi import virtual_handle
                return self._new_fd(virtual_handle(source), fd_ptr)
        if exists and fs.is_dir(path):
            if oflags & O_CREAT and oflags & O_EXCL:
                return W_EEXIST
            if rights_base & RIGHT_FD_WRITE and not oflags & O_DIRECTORY:
                return W_EISDIR
            obj: object = _DirFd(fs.realpath(path))
        else:
            if oflags & O_DIRECTORY:
                return W_ENOTDIR if exists else W_ENOENT
            if oflags & O_CREAT and oflags & O_EXCL and (exists or fs.exists(path, follow=False)):
                return W_EEXIST
            readable = bool(rights_base & RIGHT_FD_READ)
            writable = bool(rights_base & RIGHT_FD_WRITE) or bool(oflags & (O_CREAT | O_TRUNC))
            if not exists and not oflags & O_CREAT:
                return W_ENOENT
            if writable:
                mode = "r+b" if exists else "w+b"
                if oflags & O_TRUNC:
                    mode = "w+b" if readable else "wb"
                elif exists and not readable:
                    mode = "r+b"
            else:
                mode = "rb"
            handle = fs.open(path, mode)
            if fdflags & FDFLAG_APPEND and hasattr(handle, "append"):
                handle.append = True
            obj = handle
        return self._new_fd(obj, fd_ptr)

    def _new_fd(self, obj: object, fd_ptr: int) -> int:
        fd = self.next_fd
        self.next_fd += 1
        if self.next_fd == RPC_CTL_FD:
            self.next_fd = RPC_DATA_FD + 1
        self.fds[fd] = obj
        self._put_u32(fd, fd_ptr)
        return W_SUCCESS

    def path_filestat_get(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int,
                          buf_ptr: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        s = self.fs.stat(path) if lookupflags & 1 else self.fs.lstat(path)
        self._write(struct.pack("<QQB7xQQQQQ", s.st_dev, s.st_ino, _filetype(s.st_mode), s.st_nlink,
                                s.st_size, _nanos(s.st_atime), _nanos(s.st_mtime),
                                _nanos(s.st_ctime)), buf_ptr)
        return W_SUCCESS

    def path_filestat_set_times(self, dirfd: int, lookupflags: int, path_ptr: int, path_len: int,
                                atim: int, mtim: int, fstflags: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        now = time.time()
        atime = atim / 1e9 if fstflags & 1 else now if fstflags & 2 else None
        mtime = mtim / 1e9 if fstflags & 4 else now if fstflags & 8 else None
        self.fs.utime(path, mtime, atime)
        return W_SUCCESS

    def path_create_directory(self, dirfd: int, path_ptr: int, path_len: int) -> int:
        self.fs.mkdir(self._path(dirfd, path_ptr, path_len))
        return W_SUCCESS

    def path_remove_directory(self, dirfd: int, path_ptr: int, path_len: int) -> int:
        self.fs.rmdir(self._path(dirfd, path_ptr, path_len))
        return W_SUCCESS

    def path_unlink_file(self, dirfd: int, path_ptr: int, path_len: int) -> int:
        path = self._path(dirfd, path_ptr, path_len)
        if st.S_ISDIR(self.fs.lstat(path).st_mode):
            return W_EISDIR
        self.fs.unlink(path)
        return W_SUCCESS

    def path_rename(self, fd1: int, p1: int, n1: int, fd2: int, p2: int, n2: int) -> int:
        self.fs.rename(self._path(fd1, p1, n1), self._path(fd2, p2, n2))
        return W_SUCCESS


class ProcessExit(Exception):
    """Raised by ``proc_exit``: the wasm instance cannot continue."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _nanos(seconds: float) -> int:
    """A VFS time as WASI's timestamp: unsigned nanoseconds since 1970 (1970 to 2554)."""
    return min(max(int(seconds * 1e9), 0), 2**64 - 1)
