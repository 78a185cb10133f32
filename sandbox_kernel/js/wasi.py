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

import errno as py_errno
import struct
import time

import wasmtime

from ..vfs import FSError
from ..vfs.wasi import (
    FDFLAG_APPEND, FT_CHAR, O_CREAT, PREOPEN_FD, W_EBADF, W_EFBIG, W_EINVAL, W_EISDIR,
    W_ENOSPC, W_ESPIPE, W_SUCCESS, DirFd, ProcessExit, WasiBase,
)

RPC_CTL_FD = 1000
RPC_DATA_FD = 1001
RPC_DATA_PATH = f"/dev/fd/{RPC_DATA_FD}"

#: A host call's JSON header (display bundles travel in it) may not be bigger than this, nor
#: have more separators than MAX_HEADER_ITEMS: json.loads turns small items into objects
#: ~20x their size, so both bound the host memory one call can take.
MAX_HEADER_BYTES = 16 << 20
MAX_HEADER_ITEMS = 1_000_000
_STREAMS = (0, 1, 2, RPC_CTL_FD, RPC_DATA_FD)


class WasiHost(WasiBase):
    """The 21 imports the binary needs, bound to one sandbox run context.

    ``io`` supplies: ``write_stdout(bytes)``, ``write_stderr(bytes)``, ``read_stdin(n) -> bytes``,
    ``rpc(header: bytes, payload: bytes) -> (reply: bytes, data: bytes)``, ``sleep(seconds)``,
    ``cwd() -> str``.
    """

    LABEL = "sandbox js"

    def __init__(self, fs, io) -> None:
        self.fs = fs
        self.io = io
        self.fds: dict[int, object] = {PREOPEN_FD: DirFd("/")}
        self.next_fd = 4
        self._base = 0  # host address of the linear memory (see attach)
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

    # ------------------------------------------------------------------ environment, clocks
    def environ_sizes_get(self, count_ptr: int, size_ptr: int) -> None:
        self._u32(0, count_ptr)   # no host environment; process.env comes from the shell
        self._u32(0, size_ptr)

    def environ_get(self, environ_ptr: int, buf_ptr: int) -> None:
        return None

    def clock_time_get(self, clock_id: int, precision: int, out_ptr: int) -> None:
        now = time.time_ns() if clock_id == 0 else time.monotonic_ns()
        self.write(struct.pack("<Q", now), out_ptr)

    def poll_oneoff(self, in_ptr: int, out_ptr: int, nsubs: int, nevents_ptr: int) -> int:
        # used by os.sleep(): wait for the longest clock subscription, interruptibly
        subs = self._poll_subscriptions(in_ptr, nsubs)
        timeout_ns = max([0] + [t for _, t in subs if t is not None])
        return self._poll_sleep(timeout_ns, subs[-1][0] if subs else 0, out_ptr, nevents_ptr)

    # ------------------------------------------------------------------ descriptors
    def _stream_type(self, fd: int) -> int | None:
        return FT_CHAR if fd in _STREAMS else None

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
        data = self._gather(self._iovecs(iovs, count))
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
            handle = self._file(fd)
            try:
                handle.write(data)
            except FSError as e:
                if e.errno == py_errno.ENOSPC:
                    return W_ENOSPC
                raise
        self._u32(len(data), nwritten_ptr)
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
        self._u32(len(data), nwritten_ptr)
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

    def _read_stream(self, fd: int, want: int) -> bytes | None:
        if fd == RPC_CTL_FD:
            data, self._ctl_out = self._ctl_out[:want], self._ctl_out[want:]
            return data
        if fd == RPC_DATA_FD:
            data, self._data_out = self._data_out[:want], self._data_out[want:]
            return data
        return super()._read_stream(fd, want)

    def fd_seek(self, fd: int, offset: int, whence: int, out_ptr: int) -> int:
        obj = self.fds.get(fd) if fd > 2 else None
        if obj is None or fd in (RPC_CTL_FD, RPC_DATA_FD):
            return W_ESPIPE if fd in (0, 1, 2, RPC_CTL_FD, RPC_DATA_FD) else W_EBADF
        if isinstance(obj, DirFd):
            return W_EISDIR
        if whence not in (0, 1, 2):
            return W_EINVAL
        pos = obj.seek(offset, whence)
        self.write(struct.pack("<Q", pos), out_ptr)
        return W_SUCCESS

    # ------------------------------------------------------------------ paths
    def _open(self, path: str, oflags: int, rights_base: int, fdflags: int, fd_ptr: int) -> int:
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
        return self._open_in_vfs(path, exists, oflags, rights_base, fdflags, fd_ptr)

    def _new_fd(self, obj: object, fd_ptr: int) -> int:
        fd = self.next_fd
        self.next_fd += 1
        if self.next_fd == RPC_CTL_FD:
            self.next_fd = RPC_DATA_FD + 1
        self.fds[fd] = obj
        self._u32(fd, fd_ptr)
        return W_SUCCESS
