"""The host side of the prelude's calls: node-style fs over the VFS, process, display, stdin.

Each call arrives as a JSON header (``{"op": ..., ...}``) plus an optional payload and answers
``{"value": ...}`` / ``{"size": n}`` (+ bytes) or ``{"error": {...}}`` with node's error shape
(``code``, ``errno``, ``syscall``, ``path``, message ``ENOENT: no such file or directory, open 'x'``).
"""
from __future__ import annotations

import base64
import errno as py_errno
import hashlib
import hmac
import io
import json
import re
import stat as st
import zlib
from typing import Any, Callable

from ..chars import isdigits
from ..limits import format_size
from ..vfs import FSError, normpath

# libuv's wording where it differs from the C library's
_UV_TEXT = {
    py_errno.EISDIR: "illegal operation on a directory",
    py_errno.EEXIST: "file already exists",
    py_errno.ENOTEMPTY: "directory not empty",
}
_SYSCALL = {
    "readFile": "open", "writeFile": "open", "readdir": "scandir", "exists": "access",
    "copyFile": "copyfile", "cp": "cp", "rm": "rm", "truncate": "open", "utimes": "utime",
}
_JS_RESERVED = set("""break case catch class const continue debugger default delete do else enum export
extends false finally for function if import in instanceof new null return super switch this throw true
try typeof var void while with yield let static implements interface package private protected public
await""".split())
_HASHES = {"md5", "sha1", "sha224", "sha256", "sha384", "sha512"}
_BUILTIN_NAME = re.compile(r"^(node:)?[a-z_/]+$")
#: Files one JS context may have open through fs.openSync (node's usual ulimit -n).
MAX_OPEN_HANDLES = 1024


class HostError(Exception):
    def __init__(self, info: dict) -> None:
        super().__init__(info.get("message", ""))
        self.info = info


def _fs_error(e: FSError, syscall: str, path: str, dest: str | None = None) -> HostError:
    code = e.code
    text = _UV_TEXT.get(e.errno or 0) or (e.strerror or "error")
    text = text[0].lower() + text[1:]
    where = f"'{path}'" + (f" -> '{dest}'" if dest else "")
    info = {"name": "Error", "code": code, "errno": -(e.errno or 5), "syscall": syscall,
            "path": path, "message": f"{code}: {text}, {syscall} {where}"}
    if dest:
        info["dest"] = dest
    return HostError(info)


def _stat_dict(s) -> dict:
    return {"dev": s.st_dev, "ino": s.st_ino, "mode": s.st_mode, "nlink": s.st_nlink,
            "uid": s.st_uid, "gid": s.st_gid, "rdev": 0, "size": s.st_size,
            "blksize": s.st_blksize, "blocks": s.st_blocks,
            "atimeMs": s.st_atime * 1000, "mtimeMs": s.st_mtime * 1000,
            "ctimeMs": s.st_ctime * 1000, "birthtimeMs": s.st_ctime * 1000}


# node open flags -> (VFS mode, exclusive create)
_OPEN_FLAGS = {"r": ("rb", False), "r+": ("r+b", False), "w": ("wb", False), "wx": ("wb", True),
               "w+": ("w+b", False), "wx+": ("w+b", True), "a": ("ab", False), "ax": ("ab", True),
               "a+": ("a+b", False), "ax+": ("a+b", True)}


class RunIO:
    """What one run offers the JS side; engine.py makes one per cell or command."""

    cwd: str = "/"
    env: dict[str, str] | None = None   # None: fetched by load_env() on first use
    argv: list[str] = []
    consts: list[str] = []     # top-level names the cell declares (transform.prepare_cell)
    declared: list[str] = []

    def load_env(self) -> dict[str, str]: return {}

    def write_stdout(self, data: bytes) -> None: ...
    def write_stderr(self, data: bytes) -> None: ...
    def read_stdin(self, n: int) -> bytes: return b""
    def display(self, data: dict, metadata: dict, display_id: str | None, update: bool) -> None: ...
    def cancelled(self) -> str | None: return None
    def wait(self, seconds: float) -> None: ...


class HostApi:
    """Bridges the WASI host and the prelude to the sandbox. ``run`` is the current RunIO."""

    def __init__(self, fs, memory_limit: Callable[[], int]) -> None:
        self.fs = fs
        self.run: RunIO = RunIO()
        self.instance = None
        self.exit_requested: int | None = None
        self.handles: dict[int, Any] = {}
        self.next_handle = 20
        self.memory_limit = memory_limit

    # ------------------------------------------------------------------ sizes
    def buffer_limit(self) -> int:
        """No host-side buffer of a call (payload, header, answer) may be bigger than the JS
        heap: nothing bigger could come from it or fit into it."""
        memory = self.instance.memory_bytes() if self.instance is not None else 0
        return max(self.memory_limit(), memory)

    def too_large(self, what: str, size: int, code: str = "ERR_BUFFER_TOO_LARGE") -> HostError:
        return HostError({"name": "RangeError", "code": code, "message":
                          f"{what} ({size} bytes) is larger than the JS memory limit "
                          f"({format_size(self.memory_limit())}: wasm_memory_bytes)"})

    def refused_call(self, part: str) -> bytes:
        """The answer to a call whose header or payload was too big to take in."""
        if part == "payload":
            info = self.too_large("the data of one host call", self.buffer_limit() + 1).info
            info["message"] = info["message"].replace(f"({self.buffer_limit() + 1} bytes) ", "")
        else:
            info = {"name": "RangeError", "code": "ERR_BUFFER_TOO_LARGE", "message":
                    "the arguments of one host call (display data, paths) may not exceed "
                    "16M or 1000000 items"}
        return json.dumps({"error": info}).encode()

    def _read_file(self, path: str) -> bytes:
        size = self.fs.stat(path).st_size
        if size > self.buffer_limit():
            raise self.too_large(f"File {path!r}", size, "ERR_FS_FILE_TOO_LARGE")
        return self.fs.read_bytes(path)

    # ------------------------------------------------------------------ WASI-side I/O
    def write_stdout(self, data: bytes) -> None:
        self.run.write_stdout(data)

    def write_stderr(self, data: bytes) -> None:
        self.run.write_stderr(data)

    def read_stdin(self, n: int) -> bytes:
        return self.run.read_stdin(n)

    def sleep(self, seconds: float) -> None:
        self.run.wait(seconds)

    def virtual_file(self, path: str) -> bytes | None:
        """Source of a built-in module imported by bare name (``import fs from 'fs'``,
        ``'node:fs/promises'``); the loader hands bare names over resolved against the cwd,
        so only a path under the cwd with no file behind it qualifies."""
        inst = self.instance
        cwd = normpath(self.run.cwd).rstrip("/") + "/"
        if inst is None or not path.startswith(cwd):
            return None
        name = path[len(cwd):]
        if name.startswith("node:"):
            name = name[5:]
        if not _BUILTIN_NAME.match(name):
            return None
        exports = inst.builtin_exports.get(name)
        if exports is None:
            return None
        names = [n for n in exports if n not in _JS_RESERVED]
        src = f"const m = globalThis.__sandbox.builtin({json.dumps(name)});\nexport default m;\n"
        if names:
            src += f"export const {{ {', '.join(names)} }} = m;\n"
        return src.encode()

    # ------------------------------------------------------------------ RPC
    def rpc(self, header: bytes, payload: bytes) -> tuple[bytes, bytes]:
        data, op = b"", ""
        try:
            request = json.loads(header)
            op = request.pop("op")
            handler = getattr(self, "op_" + op, None)
            if handler is None:
                raise HostError({"name": "Error", "message": f"unknown host operation {op!r}"})
            try:
                result = handler(request, payload)
            except FSError as e:
                raise _fs_error(e, _SYSCALL.get(op, op), request.get("path", e.filename or ""),
                                request.get("dest")) from None
            if isinstance(result, (bytes, bytearray)):
                data = bytes(result)
                reply: dict = {"size": len(data)}
            else:
                reply = {"value": result}
            if len(data) > self.buffer_limit():
                raise self.too_large(f"the answer of {op}", len(data))
            answer = json.dumps(reply).encode()
            if len(answer) > self.buffer_limit():
                raise self.too_large(f"the answer of {op}", len(answer))
            return answer, data
        except HostError as e:
            reply = {"error": e.info}
        except BrokenPipeError:
            self.request_exit(141)
            reply = {"value": None}
        except RecursionError:  # e.g. json.loads of arguments nested a thousand deep
            reply = {"error": {"name": "RangeError", "message":
                               f"Maximum call stack size exceeded (in the host: {op or 'decoding the arguments'})"}}
        except Exception as e:  # a host bug must surface as a JS error, never a crash
            reply = {"error": {"name": "Error", "message": f"sandbox host error: {type(e).__name__}: {e}"}}
        return json.dumps(reply).encode(), b""

    def request_exit(self, code: int) -> None:
        self.exit_requested = code
        if self.instance is not None:
            self.instance.request_interrupt()

    # --- process / session
    def op_session(self, req, payload):
        return {"cwd": self.run.cwd, "env": self.run.env, "argv": self.run.argv,
                "consts": self.run.consts, "declared": self.run.declared}

    def op_env(self, req, payload):
        if self.run.env is None:
            self.run.env = self.run.load_env()
        return self.run.env

    def op_exit(self, req, payload):
        self.request_exit(int(req.get("code", 0)) & 0xFF)

    def op_chdir(self, req, payload):
        path = req["path"]
        if not self.fs.is_dir(path):
            raise FSError(py_errno.ENOTDIR if self.fs.exists(path) else py_errno.ENOENT, path)
        self.run.cwd = path

    def op_memory(self, req, payload):
        return {"memory": self.instance.memory_bytes() if self.instance else 0, "limit": self.memory_limit()}

    def op_display(self, req, payload):
        self.run.display(req.get("data") or {}, req.get("metadata") or {}, req.get("display_id"),
                         bool(req.get("update")))

    def op_stdin(self, req, payload):
        return self.run.read_stdin(min(self.buffer_limit(), max(1, int(req.get("size", 65536)))))

    def op_compileCommonJS(self, req, payload):
        path = req["path"]
        source = self._read_file(path).decode("utf-8", "replace")
        if source.startswith("#!"):
            source = "//" + source
        error = self.instance.compile_commonjs(path, source)
        if error:
            try:
                info = json.loads(error)
            except ValueError:
                info = {"name": "SyntaxError", "message": error}
            raise HostError({"name": info.get("name", "Error"), "message": info.get("message", ""),
                             "stack": info.get("stack", "")})

    def op_echo(self, req, payload):  # UTF-8 conversions of big strings (see prelude)
        return payload

    def op_validUtf8(self, req, payload):
        try:
            payload.decode("utf-8")
            return True
        except UnicodeDecodeError:
            return False

    def op_random(self, req, payload):
        size = max(0, int(req.get("size") or 0))
        if size > self.buffer_limit():
            raise self.too_large("the requested random data", size, "ERR_OUT_OF_RANGE")
        return self.fs.random_bytes(size)

    def op_hash(self, req, payload):
        algorithm = str(req.get("algorithm") or "")
        if algorithm not in _HASHES:
            raise HostError(
                {"name": "Error", "code": "ERR_OSSL_EVP_UNSUPPORTED", "message": "Digest method not supported"}
            )
        key = req.get("key")
        if key is not None:
            return hmac.new(base64.b64decode(key), payload, algorithm).digest()
        return hashlib.new(algorithm, payload).digest()

    def op_zlib(self, req, payload):
        fmt, level = req.get("format"), int(req.get("level", -1))
        try:
            if fmt in ("gzip", "deflate", "deflateRaw"):
                bits = {"gzip": 31, "deflate": 15, "deflateRaw": -15}[fmt]
                c = zlib.compressobj(level, zlib.DEFLATED, bits)
                return c.compress(payload) + c.flush()
            bits = {"gunzip": 31, "inflate": 15, "inflateRaw": -15, "unzip": 47}[fmt]
            d = zlib.decompressobj(bits)
            limit = self.buffer_limit()
            out = d.decompress(payload, limit + 1)  # a small bomb must not fill the host
            if len(out) > limit:
                raise self.too_large("the decompressed data", len(out))
            out += d.flush()
            if not d.eof:
                raise zlib.error("unexpected end of file")
            return out
        except (zlib.error, KeyError, ValueError) as e:
            raise HostError({"name": "Error", "code": "Z_DATA_ERROR", "errno": -3, "message": str(e)}) from None

    # --- fs
    def op_readFile(self, req, payload):
        return self._read_file(req["path"])

    def op_writeFile(self, req, payload):
        path, flag = req["path"], req.get("flag") or "w"
        mode = req.get("mode") or 0o666
        if "x" in flag and self.fs.exists(path, follow=False):
            raise FSError(py_errno.EEXIST, path)
        if flag.startswith("a"):
            with self.fs.open(path, "ab", perm=mode) as f:
                f.write(payload)
        elif flag.startswith("r"):
            with self.fs.open(path, "r+b", perm=mode) as f:
                f.write(payload)
        elif not self.fs.exists(path):
            with self.fs.open(path, "wb", perm=mode) as f:
                f.write(payload)
        else:
            self.fs.write_bytes(path, payload)

    def op_exists(self, req, payload):
        return self.fs.exists(req["path"])

    def op_access(self, req, payload):
        path, mode = req["path"], int(req.get("mode") or 0)
        self.fs.stat(path)
        if mode and not self.fs.access(path, mode):
            raise FSError(py_errno.EACCES, path)

    def op_readdir(self, req, payload):
        path = req["path"]
        if not req.get("recursive"):
            return [[name, s.st_mode] for name, s in self.fs.scandir(path)]
        out = []
        limit, size = self.buffer_limit(), 0
        pending = [""]
        for rel in pending:  # breadth first, as node lists; no Python recursion; bounded
            for name, s in self.fs.scandir(normpath(rel, path) if rel else path):
                entry = f"{rel}/{name}" if rel else name
                out.append([entry, s.st_mode])
                size += len(entry) + 16
                if size > limit:
                    raise self.too_large(f"the recursive listing of {path!r}", size)
                if st.S_ISDIR(s.st_mode):
                    pending.append(entry)
        return out

    def op_mkdir(self, req, payload):
        path, mode = req["path"], int(req.get("mode") or 0o777)
        if not req.get("recursive"):
            self.fs.mkdir(path, mode=mode)
            return None
        first = None
        probe = path
        while probe != "/" and not self.fs.exists(probe):
            first = probe
            probe = probe.rsplit("/", 1)[0] or "/"
        if self.fs.exists(path) and not self.fs.is_dir(path):
            raise FSError(py_errno.EEXIST, path)
        self.fs.mkdir(path, mode=mode, parents=True, exist_ok=True)
        return first

    def op_mkdtemp(self, req, payload):
        prefix = req["prefix"]
        for _ in range(100):
            candidate = prefix + "".join("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[b % 62]
                                         for b in self.fs.random_bytes(6))
            if not self.fs.exists(candidate, follow=False):
                self.fs.mkdir(candidate, mode=0o700)
                return candidate
        raise FSError(py_errno.EEXIST, prefix)

    def op_stat(self, req, payload):
        path = req["path"]
        s = self.fs.stat(path) if req.get("follow", True) else self.fs.lstat(path)
        return _stat_dict(s)

    def op_unlink(self, req, payload):
        path = req["path"]
        if st.S_ISDIR(self.fs.lstat(path).st_mode):
            raise FSError(py_errno.EISDIR, path)
        self.fs.unlink(path)

    def op_rmdir(self, req, payload):
        if req.get("recursive"):
            self.fs.remove_tree(req["path"])
        else:
            self.fs.rmdir(req["path"])

    def op_rm(self, req, payload):
        path = req["path"]
        try:
            mode = self.fs.lstat(path).st_mode
        except FSError as e:
            if req.get("force") and e.errno == py_errno.ENOENT:
                return None
            raise
        if st.S_ISDIR(mode):
            if not req.get("recursive"):
                raise HostError({"name": "SystemError", "code": "ERR_FS_EISDIR", "errno": 21,
                                 "syscall": "rm", "path": path,
                                 "message": f"Path is a directory: rm returned EISDIR (is a directory) {path}"})
            self.fs.remove_tree(path)
        else:
            self.fs.unlink(path)

    def op_rename(self, req, payload):
        self.fs.rename(req["path"], req["dest"])

    def op_copyFile(self, req, payload):
        src, dest = req["path"], req["dest"]
        data = self.fs.read_bytes(src)
        if req.get("excl") and self.fs.exists(dest, follow=False):
            raise FSError(py_errno.EEXIST, dest)
        if self.fs.is_dir(dest):
            raise FSError(py_errno.EISDIR, dest)
        self.fs.write_bytes(dest, data)

    def op_cp(self, req, payload):
        src, dest = req["path"], req["dest"]
        if self.fs.is_dir(src):
            if not req.get("recursive"):
                raise HostError(
                    {
                        "name": "SystemError",
                        "code": "ERR_FS_EISDIR",
                        "errno": 21,
                        "syscall": "cp",
                        "path": src,
                        "message": "Recursive option is required to copy a directory: "
                        f"cp returned EISDIR ({src} is a directory (not copied))",
                    }
                )
            self.fs.mkdir(dest, parents=True, exist_ok=True)
            for name in self.fs.listdir(src):
                self.op_cp({**req, "path": f"{src.rstrip('/')}/{name}", "dest": f"{dest.rstrip('/')}/{name}"}, b"")
            return None
        if self.fs.exists(dest):
            if req.get("errorOnExist") and not req.get("force", True):
                raise FSError(py_errno.EEXIST, dest)
            if not req.get("force", True):
                return None
        self.fs.write_bytes(dest, self.fs.read_bytes(src))

    def op_symlink(self, req, payload):
        self.fs.symlink(req["target"], req["path"])

    def op_link(self, req, payload):
        self.fs.link(req["path"], req["dest"])

    def op_readlink(self, req, payload):
        return self.fs.readlink(req["path"])

    def op_realpath(self, req, payload):
        return self.fs.realpath(req["path"], strict=True)

    def op_chmod(self, req, payload):
        self.fs.chmod(req["path"], int(req["mode"]) & 0o7777)

    def op_chown(self, req, payload):
        self.fs.chown(req["path"], int(req["uid"]), int(req["gid"]))

    def op_utimes(self, req, payload):
        try:  # NaN and Infinity arrive as null
            mtime, atime = float(req["mtime"]), float(req["atime"])
        except (TypeError, ValueError):
            raise FSError(py_errno.EINVAL, req["path"]) from None
        self.fs.utime(req["path"], mtime, atime)

    def op_truncate(self, req, payload):
        self.fs.truncate(req["path"], int(req.get("size") or 0))

    # --- descriptors (fs.openSync & co.)
    def op_open(self, req, payload):
        flags = str(req.get("flags") or "r")
        if isdigits(flags):
            n = int(flags)
            base = "a" if n & 1024 else "w" if n & (512 | 64) and n & 3 else "r"
            flags = base + ("x" if n & 128 and base != "r" else "") + ("+" if n & 3 == 2 else "")
        key = flags.replace("s", "")
        key = "".join(sorted(key, key=lambda c: "rwax+".index(c) if c in "rwax+" else 9))
        spec = _OPEN_FLAGS.get(key)
        if spec is None:
            raise HostError({"name": "TypeError", "code": "ERR_INVALID_ARG_VALUE",
                             "message": f"The argument 'flags' is invalid. Received '{flags}'"})
        mode, exclusive = spec
        path = req["path"]
        if len(self.handles) >= MAX_OPEN_HANDLES:
            raise FSError(py_errno.EMFILE, path)
        if exclusive and self.fs.exists(path, follow=False):
            raise FSError(py_errno.EEXIST, path)
        handle = self.fs.open(path, mode, perm=int(req.get("mode") or 0o666))
        fd = self.next_handle
        self.next_handle += 1
        self.handles[fd] = handle
        return fd

    def _handle(self, fd) -> Any:
        handle = self.handles.get(fd)
        if handle is None:
            raise HostError({"name": "Error", "code": "EBADF", "errno": -9, "syscall": "fstat",
                             "message": "EBADF: bad file descriptor"})
        return handle

    def op_close(self, req, payload):
        self._handle(req["fd"]).close()
        del self.handles[req["fd"]]

    def op_fstat(self, req, payload):
        handle = self._handle(req["fd"])
        return _stat_dict(self.fs.stat(handle.path))

    def op_read(self, req, payload):
        handle = self._handle(req["fd"])
        size, position = min(self.buffer_limit(), int(req.get("size") or 0)), req.get("position")
        if position is None:
            return handle.read(size)
        saved = handle.tell()
        handle.seek(int(position))
        try:
            return handle.read(size)
        finally:
            handle.seek(saved)

    def op_write(self, req, payload):
        handle = self._handle(req["fd"])
        position = req.get("position")
        if position is None:
            return handle.write(payload)
        saved = handle.tell()
        handle.seek(int(position))
        try:
            return handle.write(payload)
        finally:
            handle.seek(saved)

    def op_ftruncate(self, req, payload):
        self._handle(req["fd"]).truncate(int(req.get("size") or 0))

    def close_handles(self) -> None:
        for handle in self.handles.values():
            try:
                handle.close()
            except Exception:
                pass
        self.handles.clear()


def virtual_handle(data: bytes):
    """A read-only in-memory file for WASI (built-in module sources)."""
    f = io.BytesIO(data)
    f.node = None  # looks like a regular file to fd_fdstat_get
    f.path = "<builtin>"
    return f
