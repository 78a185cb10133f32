"""The VFS comm target ``sandbox.vfs``: file access for frontends without running a cell.

Protocol (documented in docs/comm-protocol.md): requests ``{"id", "op", ...}`` with binary
payloads in the message's ``buffers``; replies ``{"id", "ok": true, "result"}`` or
``{"id", "ok": false, "error": {"code", "message"}}``; pushed events
``{"event": "changed", "changes": [{"path", "kind"}]}``. Relays that pass binary websocket frames
on as text (jupyter_server's gateway relay) lose buffers: a comm opened with
``{"encoding": "base64"}`` carries them as base64 strings in ``buffers_base64`` instead, both ways.
``VfsRequestHandler`` is transport-free (unit-testable, fuzzable); ``register_vfs_comm`` binds
it to an ipykernel CommManager.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import errno
import io
import stat as st
import threading
import time
from typing import Any, Callable

from ...vfs import FSError, VFS, normpath
from ...vfs.tar import export_size, export_tar, import_tar
from .editors import EditorHosts
from ..storage.store import valid_workspace_id

#: 2 added the base64 encoding; every version 1 message means the same in version 2
PROTOCOL_VERSION = 2
TARGET_NAME = "sandbox.vfs"
MAX_READ = 4 * 1024 * 1024
MAX_WRITE = 4 * 1024 * 1024
#: how payloads travel: in the message's binary buffers, or base64 in the JSON (text-only relays)
ENCODINGS = ("binary", "base64")
BASE64_FIELD = "buffers_base64"
EXPORT_CHUNK = 4 * 1024 * 1024
WATCH_INTERVAL = 0.1
MAX_PENDING_CHANGES = 10_000
#: watching comms per kernel: each one is a listener on every VFS write and a message stream
MAX_WATCHERS = 8
#: seconds an export or import may take: requests are answered on the kernel's event loop
ARCHIVE_SECONDS = 60.0


#: ``(workspace id or None, the notebook's path or None, answer later) -> reply``
WorkspaceHook = Callable[[Any, Any, Callable[[dict], None] | None], dict]
#: the longest notebook path the `workspace` op takes
MAX_NOTEBOOK_PATH = 4096
#: the `host_names` op: at most this many names of the notebook's folder, each a file name
MAX_HOST_NAMES = 1000
MAX_HOST_NAME_BYTES = 255
#: a staged upload (`write` with `staged`) not renamed into place this long after its last
#: chunk (the browser closed mid-way) is deleted; at most this many are staged per comm
STAGED_SECONDS = 120.0
MAX_STAGED = 64
#: ops whose ENOSPC is the VFS quota the user may raise (the reply says how)
QUOTA_OPS = frozenset({"write", "copy", "import", "mkdir"})


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _field(req: dict, name: str, kind: type | tuple, default: Any = ..., check: Callable | None = None):
    if name not in req:
        if default is ...:
            raise ProtocolError("EINVAL", f"missing field '{name}'")
        return default
    value = req[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ProtocolError("EINVAL", f"field '{name}' must be {names}")
    if check is not None and not check(value):
        raise ProtocolError("EINVAL", f"field '{name}' is out of range")
    return value


def _path(req: dict, name: str = "path") -> str:
    value = _field(req, name, str)
    if "\0" in value:
        raise ProtocolError("EINVAL", f"field '{name}' contains NUL")
    if not value.startswith("/"):
        raise ProtocolError("EINVAL", f"field '{name}' must be an absolute path")
    if len(value) > 4096:
        raise ProtocolError("ENAMETOOLONG", f"field '{name}' is too long")
    return normpath(value)


def _host_name(value: Any) -> str:
    """One name of the notebook's folder, as the frontend sent it (untrusted): a single file
    name, no path, no NUL or control characters, at most 255 bytes."""
    if not isinstance(value, str):
        raise ProtocolError("EINVAL", "field 'names' must be a list of strings")
    if (not value or value in (".", "..") or "/" in value or len(value.encode("utf-8", "surrogatepass")) >
            MAX_HOST_NAME_BYTES or any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in value)):
        raise ProtocolError("EINVAL", f"field 'names' holds {value[:40]!r}, which is not a file name "
                                      f"(no '/', NUL or control characters, at most {MAX_HOST_NAME_BYTES} bytes)")
    return value


class NoticeHosts:
    """The frontends that show the kernel's notices (restored workspace, mounts, files not
    kept) themselves: comms opened with ``{"notices": true}`` (JupyterLab's extension shows
    them as notifications, which are not saved in the notebook). ``send`` tells them all and
    says whether anyone listened; without one the kernel puts the notice in the cell's output."""

    def __init__(self) -> None:
        self._hosts: list[Callable[[dict], None]] = []

    def attach(self, send: Callable[[dict], None]) -> None:
        self._hosts.append(send)

    def detach(self, send: Callable[[dict], None]) -> None:
        if send in self._hosts:
            self._hosts.remove(send)

    def send(self, text: str, level: str = "info") -> bool:
        told = False
        for send in list(self._hosts):
            try:
                send({"event": "notice", "level": level, "text": text})
                told = True
            except Exception:  # a comm that cannot send any more
                self.detach(send)
        return told


def _entry(name: str, s, target: str | None) -> dict:
    return {"name": name, "type": s.type, "size": s.st_size, "mode": st.S_IMODE(s.st_mode),
            "mtime": s.st_mtime, "target": target}


class BuffersReader(io.RawIOBase):
    """A file over a message's buffers, read in place (no joined copy)."""

    def __init__(self, buffers: list[memoryview]) -> None:
        self._parts = [memoryview(b).cast("B") for b in buffers]
        self._at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        while self._parts and self._at >= len(self._parts[0]):
            self._parts.pop(0)
            self._at = 0
        if not self._parts:
            return 0
        part = self._parts[0]
        n = min(len(buf), len(part) - self._at)
        buf[:n] = part[self._at:self._at + n]
        self._at += n
        return n


def _deadline(seconds: float, what: str) -> Callable[[], None]:
    end = time.monotonic() + seconds

    def check() -> None:
        if time.monotonic() > end:
            raise ProtocolError("ETIMEDOUT", f"the {what} took longer than {seconds:g} s and was stopped "
                                             "(the kernel answers comms and cells meanwhile); use a smaller tree")
    return check


class _Chunks:
    """A write-only file that keeps what is written as the reply's chunks; past ``limit``
    bytes it refuses (EFBIG)."""

    def __init__(self, size: int, limit: int, path: str) -> None:
        self.chunk = size
        self.limit = limit
        self.path = path
        self.parts: list[bytes] = []
        self.current = bytearray()
        self.size = 0

    def write(self, data) -> int:
        self.size += len(data)
        if self.size > self.limit:
            raise ProtocolError("EFBIG", f"{self.path}: the archive is larger than the VFS quota "
                                         f"({self.limit} bytes); export a subtree")
        self.current += data
        while len(self.current) >= self.chunk:
            self.parts.append(bytes(self.current[:self.chunk]))
            del self.current[:self.chunk]
        return len(data)

    def flush(self) -> None:
        pass

    def finish(self) -> list[bytes]:
        if self.current:
            self.parts.append(bytes(self.current))
            self.current = bytearray()
        return self.parts


class VfsRequestHandler:
    """Answers protocol requests against one VFS. ``emit(data, buffers)`` sends pushed events."""

    def __init__(self, fs: VFS, emit: Callable[[dict, list[bytes]], None] | None = None,
                 watchers: set | None = None, editors: EditorHosts | None = None,
                 workspace: WorkspaceHook | None = None,
                 host_names: Callable[[frozenset[str]], None] | None = None,
                 quota_hint: Callable[[], str] | None = None) -> None:
        self.fs = fs
        self.emit = emit
        #: takes the names of the notebook's folder (`host_names` op) for `cat`'s hint
        self.host_names = host_names
        #: what an ENOSPC of the quota adds: the limit and how to raise it (``%limits vfs_bytes=``)
        self.quota_hint = quota_hint
        #: staged uploads of this comm: path -> when it is abandoned (STAGED_SECONDS after its last chunk)
        self._staged: dict[str, float] = {}
        self._reaper: asyncio.TimerHandle | None = None
        #: the kernel's persistent workspace (``HostFiles.identify``), for the `workspace` op
        self.workspace = workspace
        #: the kernel's editor hosts, whose `edit` events the `edited` requests answer
        self.editors = editors
        #: the watching handlers of this kernel (shared by its comms), for MAX_WATCHERS
        self.watchers: set = watchers if watchers is not None else set()
        self.watching = False
        self._pending: dict[str, str] = {}
        self._flush_handle: asyncio.TimerHandle | None = None
        self._last_flush = 0.0
        # changes also come from other threads (the JS engine's worker writes files while a
        # %%js cell runs): the batch is locked and the flush is armed on the watch's loop
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._arming = False

    # ----------------------------------------------------------------- dispatch
    def handle(self, req: Any, buffers: list[bytes] | None = None) -> tuple[dict, list[bytes]]:
        """One request -> (reply, reply buffers). Never raises."""
        rid = req.get("id") if isinstance(req, dict) else None
        if not isinstance(rid, (str, int)) or isinstance(rid, bool):
            rid = None
        if self._staged:
            self.reap()
        try:
            if not isinstance(req, dict):
                raise ProtocolError("EINVAL", "request must be a JSON object")
            if rid is None:
                raise ProtocolError("EINVAL", "missing or invalid field 'id'")
            op = _field(req, "op", str)
            method = getattr(self, "op_" + op, None) if op.isidentifier() else None
            if method is None:
                raise ProtocolError("ENOSYS", f"unknown op '{op}'")
            raw = list(buffers or [])
            if BASE64_FIELD in req:
                if raw:
                    raise ProtocolError("EINVAL", f"binary buffers and '{BASE64_FIELD}' in one request")
                raw = self._decode_base64(req[BASE64_FIELD], op == "import")
            size = sum(len(b) for b in raw)
            if op == "import":  # checked before anything is copied: the archive may be huge
                room = self.fs.max_bytes - self.fs.bytes_used
                if size > room:
                    raise ProtocolError("ENOSPC", f"archive of {size} bytes is larger than the free VFS space "
                                                  f"({max(room, 0)} bytes)")
                result, out_buffers = method(req, [memoryview(b) for b in raw])
            elif size > MAX_WRITE:
                raise ProtocolError("EFBIG", f"buffers larger than {MAX_WRITE} bytes; send chunks")
            else:
                result, out_buffers = method(req, [bytes(b) for b in raw])
            return {"id": rid, "ok": True, "result": result}, out_buffers
        except ProtocolError as e:
            return self._error(rid, e.code, e.message), []
        except FSError as e:
            message = f"{e.filename}: {e.strerror}" if e.filename else str(e.strerror)
            if e.code == "ENOSPC" and self.quota_hint is not None and req.get("op") in QUOTA_OPS:
                message += f" ({self.quota_hint()})"
            return self._error(rid, e.code, message), []
        except OSError as e:
            code = errno.errorcode.get(e.errno or 0, "EIO")
            return self._error(rid, code, e.strerror or str(e)), []
        except Exception as e:  # a bug must still produce a reply, never kill the kernel
            return self._error(rid, "EIO", f"internal error: {type(e).__name__}: {e}"), []

    def _decode_base64(self, encoded: Any, unbounded: bool) -> list[bytes]:
        """The payloads of a base64 request; sizes are checked before anything is decoded."""
        if not isinstance(encoded, list) or not all(isinstance(e, str) for e in encoded):
            raise ProtocolError("EINVAL", f"field '{BASE64_FIELD}' must be a list of base64 strings")
        size = sum(len(e) for e in encoded) // 4 * 3
        room = self.fs.max_bytes - self.fs.bytes_used
        if unbounded and size > room + 3 * len(encoded):
            raise ProtocolError("ENOSPC", f"archive of about {size} bytes is larger than the free VFS space "
                                          f"({max(room, 0)} bytes)")
        if not unbounded and size > MAX_WRITE + 3 * len(encoded):
            raise ProtocolError("EFBIG", f"buffers larger than {MAX_WRITE} bytes; send chunks")
        try:
            return [base64.b64decode(e, validate=True) for e in encoded]
        except (binascii.Error, ValueError):
            raise ProtocolError("EINVAL", f"field '{BASE64_FIELD}' is not valid base64") from None

    @staticmethod
    def _error(rid, code: str, message: str) -> dict:
        return {"id": rid, "ok": False, "error": {"code": code, "message": message}}

    # ----------------------------------------------------------------- ops
    def op_list(self, req, buffers):
        path = _path(req)
        entries = []
        for name, s in self.fs.scandir(path):
            full = path.rstrip("/") + "/" + name
            target = self.fs.readlink(full) if st.S_ISLNK(s.st_mode) else None
            entries.append(_entry(name, s, target))
        return {"path": path, "entries": entries}, []

    def op_stat(self, req, buffers):
        path = _path(req)
        follow = _field(req, "follow", bool, True)
        s = self.fs.stat(path, follow=follow)
        target = self.fs.readlink(path) if st.S_ISLNK(s.st_mode) else None
        return _entry(path.rsplit("/", 1)[-1] or "/", s, target) | {"path": path}, []

    def op_read(self, req, buffers):
        path = _path(req)
        offset = _field(req, "offset", int, 0, lambda v: v >= 0)
        length = _field(req, "length", int, MAX_READ, lambda v: 0 <= v <= MAX_READ)
        with self.fs.open(path, "rb") as f:
            size = f.size
            f.seek(offset)
            data = f.read(length)
        return {"path": path, "offset": offset, "length": len(data), "size": size,
                "eof": offset + len(data) >= size}, [data]

    def op_write(self, req, buffers):
        path = _path(req)
        if len(buffers) != 1:
            raise ProtocolError("EINVAL", "write needs exactly one binary buffer")
        data = buffers[0]
        if len(data) > MAX_WRITE:
            raise ProtocolError("EFBIG", f"buffer larger than {MAX_WRITE} bytes; send chunks")
        offset = _field(req, "offset", int, None, lambda v: v >= 0) if "offset" in req else None
        truncate = _field(req, "truncate", bool, offset is None)
        staged = _field(req, "staged", bool, False)
        if staged and path not in self._staged and len(self._staged) >= MAX_STAGED:
            raise ProtocolError("EBUSY", f"{MAX_STAGED} uploads are already under way on this comm")
        if _field(req, "parents", bool, False):
            parent = path.rsplit("/", 1)[0] or "/"
            self.fs.mkdir(parent, parents=True)
        if truncate and offset in (None, 0):
            self.fs.write_bytes(path, data)  # all-or-nothing: over quota keeps old content
        else:
            mode = "r+b" if self.fs.exists(path) else "wb"
            with self.fs.open(path, mode) as f:
                if truncate:
                    f.truncate(offset or 0)
                if offset is not None:
                    if (
                        offset + len(data) > f.size
                        and (offset + len(data) - f.size) > self.fs.max_bytes - self.fs.bytes_used
                    ):
                        raise FSError(errno.ENOSPC, path)
                    f.seek(offset)
                else:
                    f.seek(0, 2)
                f.write(data)
        if staged:
            self._stage(path)
        return {"path": path, "size": self.fs.stat(path).st_size}, []

    def _stage(self, path: str) -> None:
        """An upload's partial file: deleted unless renamed into place (or deleted) in time."""
        self._staged[path] = time.monotonic() + STAGED_SECONDS
        if self._reaper is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop (a unit test): reaped at the next request or close
            self._reaper = loop.call_later(STAGED_SECONDS, self._reap_timer)

    def _reap_timer(self) -> None:
        self._reaper = None
        self.reap()
        if self._staged:
            try:
                self._reaper = asyncio.get_running_loop().call_later(
                    max(0.1, min(self._staged.values()) - time.monotonic()), self._reap_timer)
            except RuntimeError:
                pass

    def reap(self, everything: bool = False) -> None:
        """Delete the staged uploads abandoned by now (all of them: the comm closed)."""
        now = time.monotonic()
        for path, deadline in list(self._staged.items()):
            if everything or deadline <= now:
                del self._staged[path]
                try:
                    if self.fs.lstat(path).type == "file":
                        self.fs.unlink(path)
                except FSError:
                    pass

    def op_mkdir(self, req, buffers):
        path = _path(req)
        self.fs.mkdir(path, parents=_field(req, "parents", bool, False),
                      exist_ok=_field(req, "parents", bool, False))
        return {"path": path}, []

    def op_delete(self, req, buffers):
        path = _path(req)
        recursive = _field(req, "recursive", bool, False)
        if self.fs.is_dir(path) and not self.fs.lstat(path).type == "symlink":
            if recursive:
                self.fs.remove_tree(path)
            else:
                self.fs.rmdir(path)
        else:
            self.fs.unlink(path)
        self._staged.pop(path, None)
        return {"path": path}, []

    def op_rename(self, req, buffers):
        src, dst = _path(req, "path"), _path(req, "to")
        self.fs.rename(src, dst)
        self._staged.pop(src, None)  # an upload put in place
        return {"path": src, "to": dst}, []

    def op_copy(self, req, buffers):
        src, dst = _path(req, "path"), _path(req, "to")
        self._copy(src, dst)
        return {"path": src, "to": dst}, []

    def _copy(self, src: str, dst: str) -> None:
        s = self.fs.lstat(src)
        if s.type == "dir":
            if dst == src or dst.startswith(src.rstrip("/") + "/"):
                raise FSError(errno.EINVAL, dst)
            self.fs.mkdir(dst, exist_ok=True)
            for name in self.fs.listdir(src):
                self._copy(src.rstrip("/") + "/" + name, dst.rstrip("/") + "/" + name)
        elif s.type == "symlink":
            self.fs.symlink(self.fs.readlink(src), dst)
        else:
            self.fs.write_bytes(dst, self.fs.read_bytes(src))
            self.fs.chmod(dst, st.S_IMODE(s.st_mode))

    def op_export(self, req, buffers):
        """The tar goes straight into the reply's chunks (one copy of it, no more), and may
        not be larger than the VFS quota: a deep tree's tar is quadratic in its depth (25,000
        levels: 677 MB), so an uncompressed one that cannot fit is refused before it is made."""
        path = _path(req)
        chunk = _field(req, "chunk_size", int, EXPORT_CHUNK, lambda v: 1024 <= v <= EXPORT_CHUNK)
        gzip = _field(req, "gzip", bool, False)
        check = _deadline(ARCHIVE_SECONDS, "export")
        limit = self.fs.max_bytes
        if not gzip and (need := export_size(self.fs, path, check=check)) > limit:
            raise ProtocolError("EFBIG", f"{path}: the archive would take at least {need} bytes, more than "
                                         f"the VFS quota ({limit} bytes); export a subtree, or with gzip")
        out = _Chunks(chunk, limit, path)
        count = export_tar(self.fs, out, path, compress="gz" if gzip else "", check=check)
        parts = out.finish() or [b""]
        return {"path": path, "entries": count, "size": out.size, "chunks": len(parts)}, parts

    def op_import(self, req, buffers):
        path = _path(req)
        if not buffers:
            raise ProtocolError("EINVAL", "import needs the tar archive in binary buffers")
        skipped: set[str] = set()  # the admin's mounts are outside every archive
        count = import_tar(self.fs, BuffersReader(buffers), path, check=_deadline(ARCHIVE_SECONDS, "import"),
                           skipped_mounts=skipped)
        return {"path": path, "entries": count, "skipped_mounts": sorted(skipped)}, []

    def op_watch(self, req, buffers):
        if not self.watching:
            if len(self.watchers) >= MAX_WATCHERS:
                raise ProtocolError("EBUSY", f"{MAX_WATCHERS} comms already watch this kernel's files; "
                                             "close one (or unwatch) first")
            self.watching = True
            self.watchers.add(self)
            try:
                self._loop = asyncio.get_running_loop()
            except RuntimeError:
                self._loop = None  # adopted from the first change made on a loop
            self.fs.listeners.append(self._on_change)
        return {"watching": True, "interval": WATCH_INTERVAL}, []

    def op_unwatch(self, req, buffers):
        self.close()
        return {"watching": False}, []

    def op_usage(self, req, buffers):
        usage = self.fs.usage()
        if self.quota_hint is not None:
            usage["hint"] = self.quota_hint()
        return usage, []

    def op_host_names(self, req: dict, buffers: list[bytes]) -> tuple[dict, list[bytes]]:
        """The names of the files in the notebook's folder on the host, as the frontend lists
        them through Jupyter's contents API: names only (the kernel never reads host files), at
        most MAX_HOST_NAMES, each checked; they replace the names sent before."""
        names = _field(req, "names", list)
        if len(names) > MAX_HOST_NAMES:
            raise ProtocolError("E2BIG", f"field 'names' holds {len(names)} names; send at most {MAX_HOST_NAMES}")
        checked = frozenset(_host_name(n) for n in names)
        if self.host_names is not None:
            self.host_names(checked)
        return {"count": len(checked)}, []

    def op_edited(self, req, buffers):
        edit_id = _field(req, "edit", str)
        state = _field(req, "state", str, check=lambda v: v in ("opened", "closed", "failed"))
        message = _field(req, "message", str, "")[:1000]
        known = self.editors is not None and self.editors.report(edit_id, state, message)
        return {"edit": edit_id, "known": known}, []

    def op_workspace(self, req: dict, buffers: list[bytes]) -> tuple[dict, list[bytes]]:
        """The notebook's persistent workspace: its id (``workspace``, from the notebook's
        metadata; null when it has none) and its ``path`` as the frontend knows it (a rename
        sends it again). The reply's ``workspace`` is the id the notebook keeps."""
        wanted = _field(req, "workspace", (str, type(None)), None)
        if wanted is not None and not valid_workspace_id(wanted):
            raise ProtocolError("EINVAL", "field 'workspace' must be 8 to 64 letters, digits, '-' or '_'")
        path = _field(req, "path", (str, type(None)), None)
        if path is not None and ("\0" in path or len(path) > MAX_NOTEBOOK_PATH):
            raise ProtocolError("EINVAL", "field 'path' must be a notebook path without NUL")
        if self.workspace is None:
            return {"persist": False}, []
        emit = self.emit

        def answer(result: dict) -> None:
            if emit is not None:
                emit({"event": "workspace", **result}, [])
        return self.workspace(wanted, path or None, answer), []

    # ----------------------------------------------------------------- change events
    def _on_change(self, path: str, kind: str) -> None:
        """A VFS listener: called on whichever thread changed the file."""
        with self._lock:
            prev = self._pending.get(path)
            if prev == "created" and kind == "modified":
                kind = "created"
            elif prev == "created" and kind == "deleted":
                del self._pending[path]
                return
            if len(self._pending) < MAX_PENDING_CHANGES or path in self._pending:
                self._pending[path] = kind
            if self._flush_handle is not None or self._arming:
                return
            self._arming = True
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if self._loop is None:
            self._loop = running
        if self._loop is None:
            self._arming = False  # no loop anywhere: the next flush() sends them
        elif running is self._loop:
            self._arm_flush()
        else:
            try:
                self._loop.call_soon_threadsafe(self._arm_flush)
            except RuntimeError:  # the loop is closed: nobody to send to
                self._arming = False

    def _arm_flush(self) -> None:
        """On the loop: send the batch at most every WATCH_INTERVAL."""
        self._arming = False
        if self._flush_handle is None and self.watching and self._loop is not None:
            delay = max(0.0, WATCH_INTERVAL - (time.monotonic() - self._last_flush))
            self._flush_handle = self._loop.call_later(delay, self.flush)

    def flush(self) -> None:
        """Send the batched changes (called by the timer; public for tests/transports)."""
        with self._lock:
            self._flush_handle = None
            if not self._pending or self.emit is None:
                return
            changes = [{"path": p, "kind": k} for p, k in self._pending.items()]
            self._pending.clear()
            self._last_flush = time.monotonic()
        self.emit({"event": "changed", "changes": changes}, [])

    def close(self) -> None:
        if self.watching:
            self.watching = False
            self.watchers.discard(self)
            if self._on_change in self.fs.listeners:
                self.fs.listeners.remove(self._on_change)
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        self._pending.clear()
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        self.reap(everything=True)


def requested_encoding(open_data: Any) -> str:
    """The encoding a ``comm_open`` asks for; binary (version 1's) unless it names base64."""
    wanted = open_data.get("encoding") if isinstance(open_data, dict) else None
    return wanted if wanted in ENCODINGS else "binary"


def encode_payload(data: dict, buffers: list[bytes], encoding: str) -> tuple[dict, list[bytes]]:
    """A reply or event as sent on a comm of ``encoding``: base64 moves the buffers into the JSON."""
    if encoding != "base64" or not buffers:
        return data, buffers
    return data | {BASE64_FIELD: [base64.b64encode(b).decode("ascii") for b in buffers]}, []


def register_vfs_comm(comm_manager, get_fs: Callable[[], VFS], editors: EditorHosts | None = None,
                      workspace: WorkspaceHook | None = None, notices: NoticeHosts | None = None,
                      host_names: Callable[[frozenset[str]], None] | None = None,
                      quota_hint: Callable[[], str] | None = None) -> None:
    """Register the ``sandbox.vfs`` target on an ipykernel CommManager. ``get_fs`` returns
    the current sandbox's VFS (it changes on kernel restart / %load). A comm opened with
    ``{"editor": true}`` becomes one of ``editors`` until it closes; ``workspace`` answers the
    `workspace` op (the persistent workspace's identity)."""

    watchers: set = set()

    def on_open(comm, open_msg) -> None:
        open_data = open_msg.get("content", {}).get("data")
        encoding = requested_encoding(open_data)

        def send(data: dict, buffers: list[bytes]) -> None:
            data, buffers = encode_payload(data, buffers, encoding)
            comm.send(data, buffers=buffers or None)

        def send_event(event: dict) -> None:
            send(event, [])

        hosts_editor = editors is not None and isinstance(open_data, dict) and open_data.get("editor") is True
        handler = VfsRequestHandler(get_fs(), emit=send, watchers=watchers, editors=editors, workspace=workspace,
                                    host_names=host_names, quota_hint=quota_hint)
        shows_notices = notices is not None and isinstance(open_data, dict) and open_data.get("notices") is True

        def on_msg(msg) -> None:
            content = msg.get("content", {})
            data = content.get("data")
            send(*handler.handle(data, msg.get("buffers") or []))

        def on_close(msg) -> None:
            handler.close()
            if editors is not None:
                editors.detach(send_event)
            if notices is not None:
                notices.detach(send_event)

        comm.on_msg(on_msg)
        comm.on_close(on_close)
        comm.send({"event": "open", "protocol_version": PROTOCOL_VERSION, "target": TARGET_NAME,
                   "encoding": encoding, "encodings": list(ENCODINGS), "editor": hosts_editor,
                   "notices": shows_notices,
                   "ops": sorted(n[3:] for n in dir(VfsRequestHandler) if n.startswith("op_"))})
        if hosts_editor:
            editors.attach(send_event)  # type: ignore[union-attr]
        if shows_notices:
            notices.attach(send_event)  # type: ignore[union-attr]

    comm_manager.register_target(TARGET_NAME, on_open)
