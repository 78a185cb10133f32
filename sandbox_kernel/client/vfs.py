"""Python client for the ``sandbox.vfs`` comm: files in and out of a running sandbox kernel.

    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="sandbox")
    with VfsClient(kc) as vfs:
        vfs.write_text("/workspace/input.csv", "a,b\\n1,2\\n")
        print(vfs.list("/workspace"))

``VfsClient`` (blocking) and ``AsyncVfsClient`` open their own connection to the kernel from
the given client's connection info, so they never steal the messages of the client that runs
cells. ``encoding="base64"`` sends and receives payloads as base64 in the JSON, as a client behind
a relay that drops binary frames must (over the kernel's own sockets binary always works).
``editor=True`` makes the client an editor host, as the JupyterLab panel is: ``next_edit()``
returns the kernel's next ``edit`` event (a cell ran ``nano FILE``), ``edited(...)`` answers it.
See docs/comm-protocol.md.
"""
from __future__ import annotations

import asyncio
import base64
import builtins
import errno
import os
import uuid
from pathlib import Path
from typing import Any, Callable

from ..kernel.comms.vfs import BASE64_FIELD, ENCODINGS, MAX_READ, TARGET_NAME

CHUNK = MAX_READ
Progress = Callable[[int, int], None]  # (bytes done, bytes total)


class VfsError(OSError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(getattr(errno, code, errno.EIO), message)
        self.code = code


class AsyncVfsClient:
    def __init__(self, kernel_client, timeout: float = 60.0, encoding: str = "binary",
                 editor: bool = False) -> None:
        from jupyter_client.asynchronous import AsyncKernelClient

        if encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}")

        info = kernel_client.get_connection_info(session=True)
        self._kc = AsyncKernelClient()
        self._kc.load_connection_info(info)
        self._kc.session.key = kernel_client.session.key
        self.timeout = timeout
        self.comm_id = uuid.uuid4().hex
        self.encoding = encoding
        self.editor = editor
        self.protocol_version: int | None = None
        self._watchers: list[Callable[[list[dict]], None]] = []
        self._opened = False

    async def open(self) -> "AsyncVfsClient":
        if self._opened:
            return self
        self._kc.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=False)
        await asyncio.sleep(0.05)  # let the iopub subscription settle before the kernel answers
        msg = self._kc.session.msg("comm_open", {"comm_id": self.comm_id, "target_name": TARGET_NAME,
                                                 "data": {"encoding": self.encoding, "editor": self.editor}})
        self._kc.shell_channel.send(msg)
        data, _ = await self._next(lambda d: d.get("event") == "open")
        self.protocol_version = data.get("protocol_version")
        if data.get("encoding", "binary") != self.encoding:
            raise VfsError("ENOSYS", f"the kernel does not offer the {self.encoding} encoding "
                                     f"(protocol version {self.protocol_version})")
        self._opened = True
        return self

    async def close(self) -> None:
        if self._opened:
            msg = self._kc.session.msg("comm_close", {"comm_id": self.comm_id, "data": {}})
            self._kc.shell_channel.send(msg)
            self._opened = False
        self._kc.stop_channels()

    async def __aenter__(self):
        return await self.open()

    async def __aexit__(self, *exc):
        await self.close()

    # ----------------------------------------------------------------- transport
    async def _next(self, match: Callable[[dict], bool], what: str = "the comm_open") -> tuple[dict, list[bytes]]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"no reply to {what} from the sandbox.vfs comm within {self.timeout:g} s")
            try:
                msg = await self._kc.get_iopub_msg(timeout=remaining)
            except Exception:
                continue
            if msg["msg_type"] != "comm_msg" or msg["content"].get("comm_id") != self.comm_id:
                continue
            data = msg["content"].get("data") or {}
            buffers = [bytes(b) for b in msg.get("buffers") or []]
            if isinstance(data.get(BASE64_FIELD), list):
                buffers = [base64.b64decode(b) for b in data.pop(BASE64_FIELD)]
            if data.get("event") == "changed":
                for cb in list(self._watchers):
                    cb(data.get("changes", []))
                continue
            if match(data):
                return data, buffers

    async def request(self, op: str, buffers: list[bytes] | None = None, **fields: Any) -> tuple[Any, list[bytes]]:
        if not self._opened:
            await self.open()
        rid = uuid.uuid4().hex
        data = {"id": rid, "op": op, **fields}
        if buffers and self.encoding == "base64":
            data[BASE64_FIELD] = [base64.b64encode(b).decode("ascii") for b in buffers]
            buffers = None
        msg = self._kc.session.msg("comm_msg", {"comm_id": self.comm_id, "data": data})
        self._kc.session.send(self._kc.shell_channel.socket, msg, buffers=buffers or None)
        data, out = await self._next(lambda d: d.get("id") == rid, f"'{op}'")
        if not data.get("ok"):
            error = data.get("error") or {}
            raise VfsError(error.get("code", "EIO"), error.get("message", "unknown error"))
        return data.get("result"), out

    # ----------------------------------------------------------------- operations
    async def list(self, path: str) -> list[dict]:
        return (await self.request("list", path=path))[0]["entries"]

    async def stat(self, path: str) -> dict:
        return (await self.request("stat", path=path))[0]

    async def read_bytes(self, path: str, progress: Progress | None = None) -> bytes:
        parts, offset = [], 0
        while True:
            result, bufs = await self.request("read", path=path, offset=offset, length=CHUNK)
            chunk = bufs[0] if bufs else b""
            parts.append(chunk)
            offset += len(chunk)
            if progress:
                progress(offset, result["size"])
            if result["eof"] or not chunk:
                return b"".join(parts)

    async def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return (await self.read_bytes(path)).decode(encoding)

    async def write_bytes(self, path: str, data: bytes, parents: bool = False,
                          progress: Progress | None = None) -> None:
        if len(data) <= CHUNK:
            await self.request("write", [data], path=path, parents=parents)
            if progress:
                progress(len(data), len(data))
            return
        tmp = f"{path}.part-{uuid.uuid4().hex[:8]}"  # readers never see a half-written file
        for offset in range(0, len(data), CHUNK):
            await self.request("write", [data[offset:offset + CHUNK]], path=tmp, offset=offset,
                               truncate=offset == 0, parents=parents)
            if progress:
                progress(min(offset + CHUNK, len(data)), len(data))
        await self.request("rename", path=tmp, to=path)

    async def write_text(self, path: str, text: str, encoding: str = "utf-8", parents: bool = False) -> None:
        await self.write_bytes(path, text.encode(encoding), parents=parents)

    async def upload(self, local_path: str | os.PathLike, vfs_path: str, progress: Progress | None = None) -> None:
        await self.write_bytes(vfs_path, Path(local_path).read_bytes(), parents=True, progress=progress)

    async def download(self, vfs_path: str, local_path: str | os.PathLike, progress: Progress | None = None) -> None:
        Path(local_path).write_bytes(await self.read_bytes(vfs_path, progress))

    async def mkdir(self, path: str, parents: bool = False) -> None:
        await self.request("mkdir", path=path, parents=parents)

    async def delete(self, path: str, recursive: bool = False) -> None:
        await self.request("delete", path=path, recursive=recursive)

    async def rename(self, path: str, to: str) -> None:
        await self.request("rename", path=path, to=to)

    async def copy(self, path: str, to: str) -> None:
        await self.request("copy", path=path, to=to)

    async def export_tar(self, path: str = "/workspace", gzip: bool = False) -> bytes:
        _, bufs = await self.request("export", path=path, gzip=gzip)
        return b"".join(bufs)

    async def import_tar(self, data: bytes, path: str = "/workspace") -> int:
        bufs = [data[i:i + CHUNK] for i in range(0, len(data), CHUNK)]
        return (await self.request("import", bufs, path=path))[0]["entries"]

    async def watch(self, callback: Callable[[builtins.list[dict]], None]) -> None:
        """``callback(changes)`` is called while the client waits for messages
        (any request, or ``poll_events``)."""
        self._watchers.append(callback)
        await self.request("watch")

    async def next_edit(self) -> dict:
        """The kernel's next ``{"event": "edit", "edit", "path"}`` (an ``editor=True`` client)."""
        return (await self._next(lambda d: d.get("event") == "edit", "an edit"))[0]

    async def edited(self, edit: str, state: str, message: str = "") -> None:
        """Answer an edit: ``opened``, then ``closed``; or ``failed`` with a message."""
        await self.request("edited", edit=edit, state=state, message=message)

    async def workspace(self, workspace: str | None = None, path: str | None = None) -> dict:
        """Tell a ``--persist`` kernel which notebook it runs, as the JupyterLab extension does:
        its workspace id (None: it has none yet) and its path relative to the server's root.
        Returns ``{"persist", "workspace", "notice"}``: the id the notebook keeps."""
        return (await self.request("workspace", workspace=workspace, path=path))[0]

    async def poll_events(self, seconds: float) -> None:
        """Receive pushed change events for ``seconds``."""
        try:
            await asyncio.wait_for(self._next(lambda d: False), seconds)
        except (asyncio.TimeoutError, TimeoutError):
            pass


class VfsClient:
    """Blocking wrapper of AsyncVfsClient (runs it on a private event loop)."""

    def __init__(self, kernel_client, timeout: float = 60.0, encoding: str = "binary",
                 editor: bool = False) -> None:
        self._loop = asyncio.new_event_loop()
        self._client = AsyncVfsClient(kernel_client, timeout, encoding, editor)

    def _run(self, coro):
        return self._loop.run_until_complete(coro)

    def __getattr__(self, name: str):
        attr = getattr(self._client, name)
        if not asyncio.iscoroutinefunction(attr):
            return attr
        return lambda *a, **k: self._run(attr(*a, **k))

    def close(self) -> None:
        if not self._loop.is_closed():
            self._run(self._client.close())
            self._loop.close()

    def __enter__(self) -> "VfsClient":
        self._run(self._client.open())
        return self

    def __exit__(self, *exc) -> None:
        self.close()
