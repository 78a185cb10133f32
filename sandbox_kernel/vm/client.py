"""Asyncio client of the guest agent: one connection, many concurrent requests (by id)."""
from __future__ import annotations

import asyncio
import errno as errno_mod
import os
import time
from dataclasses import dataclass
from typing import Awaitable, Callable

from . import protocol as P

STDIN_WINDOW = 1 << 20  # bytes of stdin in flight before we wait for the agent's acks
#: bytes of a connection's output the agent may send that we have not taken yet (agent.c's
#: STREAM_WINDOW); taken bytes are granted back with CREDIT, in batches of CREDIT_BATCH
STREAM_WINDOW = 1 << 20
CREDIT_BATCH = 256 * 1024
INPUT_QUEUED = 256 * 1024  # bytes of a connection's input queued here before ``drain`` waits
#: bytes of answers to one request (exec output, listings) queued and not yet taken: past it
#: the agent floods a consumer that cannot keep up. An exec with an output limit may queue
#: that much (an honest agent sends no more), so a slow pipeline never trips it.
QUEUED_MAX = 64 << 20
#: guest connections open at once (the agent keeps at most 64 streams; a hostile one may claim more)
MAX_ACCEPTED = 128
UNSOLICITED_KEPT = 100  # frames for no request kept (their first bytes) for tests and diagnosis
MAX_MESSAGE = 1000      # characters of an agent's error message shown


class AgentGone(ConnectionError):
    """The connection to the agent ended (the VM stopped or crashed)."""


class AgentError(OSError):
    """The agent refused a request (errno + message)."""


@dataclass
class ExitInfo:
    kind: int          # protocol.EXITED / SIGNALED / TIMED_OUT / OUTPUT_LIMIT
    code: int          # exit status, or the signal number when SIGNALED
    oom_kills: int = 0       # processes of the command the guest's OOM killer ended
    forks_refused: int = 0   # forks refused at the command's process limit

    @property
    def status(self) -> int:
        """Shell-style status: 128+N for a signal, 124 for the agent's timeout."""
        if self.kind == P.SIGNALED:
            return 128 + self.code
        return self.code


class _Request:
    def __init__(self, window: int | None = None) -> None:
        #: answers in order; (-1, b"") when the agent is gone, (-2, message) when it sent more than it may
        self.queue: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue()
        #: a connection: output bytes the agent may send ahead of what we granted back
        self.window = window
        self.outstanding = 0  # output received and not yet granted back
        self.queued = 0       # payload bytes in ``queue``
        self.queue_cap = QUEUED_MAX
        #: takes STDIN_ACK payloads as they arrive: the stdin window must open even while
        #: nobody iterates the output (a proxy that sent its request and now only writes)
        self.on_ack: Callable[[bytes], None] | None = None


class AgentClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._requests: dict[int, _Request] = {}
        self._next_id = 1
        self._closed: BaseException | None = None
        self._reader_task: asyncio.Task | None = None
        self._write_lock = asyncio.Lock()
        #: frames the agent sent with id 0 (protocol errors about unparsable input)
        self.unsolicited: list[tuple[int, bytes]] = []
        self.ready: asyncio.Future = asyncio.get_running_loop().create_future()
        #: called with an Execution for each connection accepted by a guest listener
        self.on_accept: Callable[["Execution"], None] | None = None
        #: time.monotonic() of the last frame from the agent
        self.last_heard = time.monotonic()
        self._posts: set[asyncio.Task] = set()  # frames sent without a waiting caller

    def start(self) -> None:
        self._reader_task = asyncio.get_running_loop().create_task(self._read_loop())

    @property
    def closed(self) -> bool:
        return self._closed is not None

    # ---------------------------------------------------------------- plumbing
    async def _read_loop(self) -> None:
        try:
            while True:
                header = await self.reader.readexactly(P.HEADER.size)
                magic, version, type_, req_id, n = P.HEADER.unpack(header)
                if magic != P.MAGIC or version != P.VERSION or n > P.MAX_PAYLOAD:
                    raise P.ProtocolError(f"bad frame from agent (magic {magic!r}, version {version}, length {n})")
                payload = await self.reader.readexactly(n) if n else b""
                self.last_heard = time.monotonic()
                if type_ == P.READY:
                    if not self.ready.done():
                        self.ready.set_result(P.field_map(payload))
                    continue
                if type_ == P.ACCEPT and req_id & P.GUEST_ID_BIT and req_id not in self._requests:
                    self._accepted(req_id)
                    continue
                req = self._requests.get(req_id)
                if req is None:  # e.g. the rest of a listing we stopped reading
                    self.unsolicited.append((type_, payload[:4096]))
                    del self.unsolicited[:-UNSOLICITED_KEPT]
                    continue
                if type_ == P.STDIN_ACK and req.on_ack is not None:
                    req.on_ack(payload)
                    continue
                if req.window is not None and type_ in (P.STDOUT, P.STDERR):
                    req.outstanding += n
                    if req.outstanding > req.window:
                        self._overrun(req_id, req, f"more than its window of {req.window} bytes")
                        continue
                if req.queued + n > req.queue_cap:
                    self._overrun(req_id, req, f"more than {req.queue_cap} bytes the host has not read yet")
                    continue
                req.queued += n
                req.queue.put_nowait((type_, payload))
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as e:
            self._fail(AgentGone(f"connection to the VM agent lost ({type(e).__name__})"))
        except P.ProtocolError as e:
            self._fail(AgentGone(str(e)))
        except asyncio.CancelledError:
            self._fail(AgentGone("client closed"))
            raise

    def _overrun(self, req_id: int, req: _Request, what: str) -> None:
        """The agent sent a request more than it may: what is queued is dropped and the request
        ends with MalformedReply (a connection is closed in the agent too). A broken or hostile
        agent holds at most a window per connection, ``queue_cap`` per other request."""
        self._requests.pop(req_id, None)
        while not req.queue.empty():
            req.queue.get_nowait()
        req.queued = 0
        req.queue.put_nowait((-2, f"the agent sent request {req_id} {what}".encode()))
        if req.window is not None:
            self.post(P.CREDIT, req_id, P.field(P.T_FLAGS, P.CREDIT_CLOSE))

    def post(self, type_: int, req_id: int, payload: bytes = b"") -> None:
        """Send a frame in the background (from places that cannot wait); lost if the agent is gone."""
        if self._closed is not None:
            return

        async def send() -> None:
            try:
                await self._send(type_, req_id, payload)
            except AgentGone:
                pass

        task = asyncio.get_running_loop().create_task(send())
        self._posts.add(task)
        task.add_done_callback(self._posts.discard)

    def _accepted(self, req_id: int) -> None:
        if sum(1 for i in self._requests if i & P.GUEST_ID_BIT) >= MAX_ACCEPTED:
            self.post(P.CREDIT, req_id, P.field(P.T_FLAGS, P.CREDIT_CLOSE))  # refused: the agent closes it
            return
        req = self._requests[req_id] = _Request(STREAM_WINDOW)
        stream = Execution(self, req_id, req, _QueueInput(), started=True)
        if self.on_accept is not None:
            self.on_accept(stream)
        else:  # nobody serves guest connections: close it
            stream.close_input()

    def _fail(self, exc: BaseException) -> None:
        if self._closed is None:
            self._closed = exc
        if not self.ready.done():
            self.ready.set_exception(exc)
            self.ready.exception()  # mark retrieved
        for req in self._requests.values():
            req.queue.put_nowait((-1, b""))

    def _open(self, window: int | None = None) -> tuple[int, _Request]:
        if self._closed is not None:
            raise AgentGone(str(self._closed))
        req_id = self._next_id
        self._next_id = self._next_id % (P.GUEST_ID_BIT - 1) + 1
        req = _Request(window)
        self._requests[req_id] = req
        return req_id, req

    def _close(self, req_id: int) -> None:
        self._requests.pop(req_id, None)

    async def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (tests use this to send malformed frames)."""
        if self._closed is not None:
            raise AgentGone(str(self._closed))
        async with self._write_lock:
            try:
                self.writer.write(data)
                await self.writer.drain()
            except (ConnectionError, OSError) as e:
                self._fail(AgentGone(f"cannot write to the VM agent ({e})"))
                raise AgentGone(str(self._closed)) from None

    async def _send(self, type_: int, req_id: int, payload: bytes = b"") -> None:
        await self.send_raw(P.frame(type_, req_id, payload))

    async def _next(self, req: _Request, timeout: float | None = None) -> tuple[int, bytes]:
        if timeout is None:
            type_, payload = await req.queue.get()
        else:
            type_, payload = await asyncio.wait_for(req.queue.get(), timeout)
        if type_ >= 0:
            req.queued -= len(payload)
        if type_ == -1:
            raise AgentGone(str(self._closed))
        if type_ == -2:
            raise P.MalformedReply(payload.decode())
        return type_, payload

    @staticmethod
    def _raise_error(payload: bytes) -> None:
        info = P.field_map(payload)
        code = int(info.get(P.T_ERRNO, errno_mod.EIO))  # type: ignore[arg-type]
        message = info.get(P.T_MESSAGE, b"agent error")
        text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
        raise AgentError(code, text[:MAX_MESSAGE])

    async def _simple(self, type_: int, payload: bytes, timeout: float | None = 60) -> tuple[int, bytes]:
        """One request, one final answer (OK/DATA/PONG or ERROR)."""
        req_id, req = self._open()
        try:
            await self._send(type_, req_id, payload)
            answer, body = await self._next(req, timeout)
            if answer == P.ERROR:
                self._raise_error(body)
            return answer, body
        finally:
            self._close(req_id)

    # ---------------------------------------------------------------- requests
    async def hello(self, timeout: float | None = 10, data: bytes = b"") -> dict:
        _, body = await self._simple(P.HELLO, data, timeout)
        return P.field_map(body)

    async def sync_clock_and_rng(self) -> None:
        await self._simple(P.SYNC, P.fields([(P.T_TIME_NS, time.time_ns()), (P.T_SEED, os.urandom(256))]))

    async def shutdown(self, timeout: float = 5) -> None:
        await self._simple(P.SHUTDOWN, b"", timeout)

    async def stat(self, path: str, user: tuple[int, int] | None = None) -> dict:
        _, body = await self._simple(P.STAT, P.fields([(P.T_PATH, P.check_path(path)), *P.user_fields(user)]))
        info = P.field_map(body)
        return {"type": P.TYPE_NAMES.get(info.get(P.T_TYPE, 4), "other"), "mode": info.get(P.T_MODE),
                "size": info.get(P.T_SIZE), "mtime_ns": info.get(P.T_MTIME_NS),
                "target": info[P.T_TARGET].decode("utf-8", "surrogateescape") if P.T_TARGET in info else None}  # type: ignore[union-attr]

    async def mkdir(self, path: str, parents: bool = False, mode: int = 0o755, mtime_ns: int | None = None,
                    user: tuple[int, int] | None = None) -> None:
        items: list = [(P.T_PATH, P.check_path(path)), (P.T_MODE, mode), (P.T_FLAGS, P.RECURSIVE if parents else 0),
                       *P.user_fields(user)]
        if mtime_ns is not None:
            items.append((P.T_MTIME_NS, mtime_ns))
        await self._simple(P.MKDIR, P.fields(items))

    async def remove(self, path: str, recursive: bool = False, user: tuple[int, int] | None = None) -> None:
        await self._simple(
            P.REMOVE,
            P.fields(
                [(P.T_PATH, P.check_path(path)), (P.T_FLAGS, P.RECURSIVE if recursive else 0), *P.user_fields(user)]
            ),
        )

    async def list(self, path: str, recursive: bool = False, user: tuple[int, int] | None = None,
                   max_entries: int | None = None, max_bytes: int | None = None) -> list[dict]:
        """The entries under ``path`` (names relative to it). ``max_entries`` / ``max_bytes``
        bound what is accepted (EFBIG past them: the rest is not read into memory)."""
        req_id, req = self._open()
        entries: list[dict] = []
        received = 0
        try:
            await self._send(P.LIST, req_id, P.fields([(P.T_PATH, P.check_path(path)),
                                                      (P.T_FLAGS, P.RECURSIVE if recursive else 0),
                                                      *P.user_fields(user)]))
            while True:
                answer, body = await self._next(req, 120)
                if answer == P.ENTRIES:
                    received += len(body)
                    if max_bytes is not None and received > max_bytes:
                        raise AgentError(errno_mod.EFBIG, f"{path}: the listing is larger than {max_bytes >> 20} MiB")
                    entries.extend(P.parse_entries(body))
                    if max_entries is not None and len(entries) > max_entries:
                        raise AgentError(errno_mod.EFBIG, f"{path}: more than {max_entries} entries")
                elif answer == P.OK:
                    return entries
                elif answer == P.ERROR:
                    self._raise_error(body)
        finally:
            self._close(req_id)

    async def read_chunk(self, path: str, offset: int, length: int = P.CHUNK,
                         user: tuple[int, int] | None = None) -> bytes:
        if not 0 <= length <= P.CHUNK:
            raise P.ProtocolError(f"read length must be 0..{P.CHUNK}")
        answer, body = await self._simple(P.READ, P.fields([(P.T_PATH, P.check_path(path)), (P.T_OFFSET, offset),
                                                           (P.T_LENGTH, length), *P.user_fields(user)]))
        if answer != P.DATA or len(body) > length:
            raise P.MalformedReply(f"READ of {length} bytes answered with type {answer}, {len(body)} bytes")
        return body

    async def read_file(self, path: str, limit: int | None = None, user: tuple[int, int] | None = None) -> bytes:
        """The whole file, in 1 MiB chunks; ``limit`` bounds the size (EFBIG past it)."""
        parts: list[bytes] = []
        offset = 0
        while True:
            chunk = await self.read_chunk(path, offset, user=user)
            parts.append(chunk)
            offset += len(chunk)
            if limit is not None and offset > limit:
                raise AgentError(errno_mod.EFBIG, f"{path}: larger than {limit} bytes")
            if len(chunk) < P.CHUNK:
                return b"".join(parts)

    async def write_file(self, path: str, data: bytes, mode: int = 0o644, mtime_ns: int | None = None,
                         parents: bool = False, user: tuple[int, int] | None = None) -> None:
        """Create or replace ``path`` with ``data`` in 1 MiB chunks (mode and mtime set with the last)."""
        view = memoryview(data)
        offset = 0
        first = True
        while first or offset < len(data):
            chunk = view[offset:offset + P.CHUNK]
            last = offset + len(chunk) >= len(data)
            flags = (P.WRITE_CREATE | P.WRITE_TRUNCATE if first else 0) | (P.WRITE_PARENTS if first and parents else 0)
            items: list = [(P.T_PATH, P.check_path(path)), (P.T_OFFSET, offset), (P.T_FLAGS, flags),
                           (P.T_DATA, bytes(chunk)), *P.user_fields(user)]
            if first or last:  # a read-only mode comes with the last chunk: the others must open it
                items.append((P.T_MODE, mode if last else mode | 0o200))
            if last and mtime_ns is not None:
                items.append((P.T_MTIME_NS, mtime_ns))
            await self._simple(P.WRITE, P.fields(items))
            offset += len(chunk)
            first = False

    async def exec(self, argv: list[str], *, cwd: str = "/", env: dict[str, str] | None = None,
                   stdin: "Callable[[], Awaitable[bytes]] | None" = None, timeout: float | None = None,
                   output_limit: int | None = None, pty: tuple[int, int] | None = None,
                   interactive: bool = False, stdin_on_request: "Callable[[], Awaitable[bytes]] | None" = None,
                   pids_max: int | None = None, memory_max: int | None = None,
                   user: tuple[int, int] | None = None, keep: bool = False) -> "Execution":
        """Start ``argv`` in the guest; returns an Execution to stream and wait on.
        ``stdin`` is an async function returning the next chunk (b'' at end); with
        ``interactive`` input is given with ``Execution.write`` / ``close_input`` instead;
        ``stdin_on_request`` is called only when a guest process waits for input on an
        empty stdin (b'' ends the input). ``pty=(rows, cols)`` runs it on a pseudo-terminal
        (output all on "stdout"). ``pids_max`` / ``memory_max`` limit the command's cgroup
        (memory is also capped by the agent at the guest's memory less a reserve). ``user``
        (uid, gid) runs it as that user (None: root). Without ``keep`` nothing the command
        started outlives it (the agent kills its cgroup when it ends)."""
        if interactive:
            stdin = _QueueInput()
        if stdin is not None and stdin_on_request is not None:
            raise P.ProtocolError("stdin and stdin_on_request exclude each other")
        if not argv:
            raise P.ProtocolError("exec needs a program")
        items: list = [(P.T_ARG, a) for a in P.check_words(argv, "arguments")]
        env_words = [f"{k}={v}" for k, v in (env or {}).items()]
        for word in env_words:
            name = word.split("=", 1)[0]
            if not name:
                raise P.ProtocolError("environment names must not be empty")
        items += [(P.T_ENV, e) for e in P.check_words(env_words, "environment entries")]
        items.append((P.T_CWD, P.check_path(cwd)))
        flags = P.EXEC_STDIN if stdin is not None else P.EXEC_STDIN_DEMAND if stdin_on_request is not None else 0
        if keep:
            flags |= P.EXEC_KEEP
        items += P.user_fields(user)
        if pty is not None:
            rows, cols = pty
            if not (1 <= rows <= 1000 and 1 <= cols <= 1000):
                raise P.ProtocolError("terminal rows and cols must be 1..1000")
            flags |= P.EXEC_PTY
            items += [(P.T_ROWS, rows), (P.T_COLS, cols)]
        items.append((P.T_FLAGS, flags))
        if timeout is not None:
            items.append((P.T_TIMEOUT_MS, max(1, int(timeout * 1000))))
        if output_limit is not None:
            items.append((P.T_OUTPUT_LIMIT, output_limit))
        if pids_max is not None:
            items.append((P.T_PIDS_MAX, pids_max))
        if memory_max is not None:
            items.append((P.T_MEMORY_MAX, memory_max))
        payload = P.fields(items)
        if len(payload) > P.MAX_PAYLOAD:
            raise P.ProtocolError("command line and environment exceed 1 MiB")
        req_id, req = self._open()
        if output_limit is not None:
            req.queue_cap = max(QUEUED_MAX, output_limit + P.MAX_PAYLOAD)
        execution = Execution(self, req_id, req, stdin)
        execution._on_request = stdin_on_request
        try:
            await self._send(P.EXEC, req_id, payload)
        except BaseException:
            self._close(req_id)
            raise
        return execution

    async def listen(self, port: int) -> None:
        """Make the agent listen on 127.0.0.1:``port`` in the guest; connections arrive
        through ``on_accept``."""
        if not 1 <= port <= 65535:
            raise P.ProtocolError("port must be 1..65535")
        await self._simple(P.LISTEN, P.field(P.T_PORT, port))

    async def connect(self, port: int) -> "Execution":
        """A TCP connection to ``127.0.0.1:port`` inside the guest: ``write``/``close_input``
        send, ``events()`` yields ("stdout", bytes) until the guest side closes."""
        if not 1 <= port <= 65535:
            raise P.ProtocolError("port must be 1..65535")
        req_id, req = self._open(STREAM_WINDOW)
        try:
            await self._send(P.CONNECT, req_id, P.field(P.T_PORT, port))
            answer, body = await self._next(req, 30)
            if answer == P.ERROR:
                self._raise_error(body)
        except BaseException:
            self._close(req_id)
            raise
        return Execution(self, req_id, req, _QueueInput(), started=True)


class _QueueInput:
    """Input given with ``Execution.write``, taken by the stdin pump; ``size`` bytes wait here
    (``Execution.drain`` keeps it near INPUT_QUEUED)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.size = 0
        self.room = asyncio.Event()  # set when size fell to INPUT_QUEUED or the input ended
        self.room.set()

    def put(self, data: bytes) -> None:
        self.size += len(data)
        if self.size > INPUT_QUEUED:
            self.room.clear()
        self.queue.put_nowait(data)

    async def __call__(self) -> bytes:
        data = await self.queue.get()
        self.size -= len(data)
        if self.size <= INPUT_QUEUED:
            self.room.set()
        return data


class Execution:
    """A running guest process: iterate its output with ``events()``, ``signal()`` it."""

    def __init__(self, client: AgentClient, req_id: int, req: _Request,
                 stdin: "Callable[[], Awaitable[bytes]] | None", started: bool = False) -> None:
        self.client = client
        self.id = req_id
        self.req = req
        self.pid: int | None = None
        self.exit: ExitInfo | None = None
        self._stdin = stdin
        self._stdin_task: asyncio.Task | None = None
        self._window = asyncio.Event()
        self._window.set()
        self._in_flight = 0
        self._stdin_closed = False
        self._on_request: "Callable[[], Awaitable[bytes]] | None" = None
        self._request_task: asyncio.Task | None = None
        req.on_ack = self._acked
        if started and stdin is not None:  # a connection: no OK with a pid will come
            self._stdin_task = asyncio.get_running_loop().create_task(self._pump_stdin())

    def write(self, data: bytes) -> None:
        """Queue input (interactive executions and connections); a writer that may outpace
        the guest awaits ``drain`` after it."""
        if isinstance(self._stdin, _QueueInput) and data and not self._stdin_closed:
            self._stdin.put(bytes(data))

    async def drain(self) -> None:
        """Wait until the input queued here is down to INPUT_QUEUED bytes (the guest takes
        it), or the input ended: a guest that does not read holds back its writer, not memory."""
        queue = self._stdin
        if isinstance(queue, _QueueInput):
            while queue.size > INPUT_QUEUED and not self._stdin_closed and not self.client.closed:
                await queue.room.wait()

    def close_input(self) -> None:
        if isinstance(self._stdin, _QueueInput):
            self._stdin.put(b"")

    async def resize(self, rows: int, cols: int) -> None:
        """Set the terminal size of a PTY execution (the guest gets SIGWINCH)."""
        if not (1 <= rows <= 1000 and 1 <= cols <= 1000):
            raise P.ProtocolError("terminal rows and cols must be 1..1000")
        if self.exit is None and not self.client.closed:
            await self.client._send(P.RESIZE, self.id, P.fields([(P.T_ROWS, rows), (P.T_COLS, cols)]))

    async def signal(self, signum: int, whole_command: bool = False) -> None:
        """Signal the process group; ``whole_command`` also every process of the command's
        cgroup (those that left the group too), and nothing of it outlives its end."""
        if self.exit is None and not self.client.closed:
            items = [(P.T_SIGNAL, signum), (P.T_FLAGS, P.SIGNAL_WHOLE_COMMAND if whole_command else 0)]
            try:
                await self.client._send(P.SIGNAL, self.id, P.fields(items))
            except AgentGone:
                pass

    async def _pump_stdin(self) -> None:
        assert self._stdin is not None
        try:
            while not self._stdin_closed:
                chunk = await self._stdin()
                if not chunk:
                    break
                for i in range(0, len(chunk), 256 * 1024):
                    piece = chunk[i:i + 256 * 1024]
                    while self._in_flight + len(piece) > STDIN_WINDOW and not self._stdin_closed:
                        self._window.clear()
                        await self._window.wait()
                    if self._stdin_closed:
                        return
                    self._in_flight += len(piece)
                    await self.client._send(P.STDIN, self.id, piece)
            if not self._stdin_closed:
                await self.client._send(P.STDIN, self.id, b"")
        except (AgentGone, asyncio.CancelledError):
            pass
        finally:
            self._end_input()

    def _acked(self, payload: bytes) -> None:
        """STDIN_ACK: the guest took LENGTH bytes (FLAGS 1: its reader is gone, input ends)."""
        info = P.field_map(payload)
        self._in_flight = max(0, self._in_flight - int(info.get(P.T_LENGTH, 0)))  # type: ignore[arg-type]
        if info.get(P.T_FLAGS):
            self._end_input()
        self._window.set()

    def _end_input(self) -> None:
        """No more input goes to the guest: writers waiting in ``drain`` go on."""
        self._stdin_closed = True
        if isinstance(self._stdin, _QueueInput):
            self._stdin.room.set()

    async def _answer_request(self) -> None:
        """A guest process waits on the empty stdin: ask for input, send it (b'' = end)."""
        assert self._on_request is not None
        try:
            data = await self._on_request()
            if self.exit is None and not self._stdin_closed:
                for i in range(0, len(data), 256 * 1024):
                    await self.client._send(P.STDIN, self.id, bytes(data[i:i + 256 * 1024]))
                if not data:
                    await self.client._send(P.STDIN, self.id, b"")
                    self._stdin_closed = True
        except (AgentGone, asyncio.CancelledError):
            pass

    async def events(self):
        """Yield ("stdout"|"stderr", bytes) as output arrives; ends with the process
        (``self.exit`` is then set). Raises AgentGone / AgentError / MalformedReply. A
        connection's output is granted back to the agent (CREDIT) once the consumer took it."""
        ungranted = 0  # a connection's output taken and not yet granted back
        try:
            while True:
                answer, body = await self.client._next(self.req)
                if answer in (P.STDOUT, P.STDERR):
                    yield ("stdout" if answer == P.STDOUT else "stderr"), body
                    if self.req.window is not None:  # taken by the consumer: the agent may send more
                        ungranted += len(body)
                        if ungranted >= CREDIT_BATCH:
                            self.req.outstanding -= ungranted
                            await self.client._send(P.CREDIT, self.id, P.field(P.T_LENGTH, ungranted))
                            ungranted = 0
                elif answer == P.OK:
                    self.pid = int(P.field_map(body).get(P.T_PID, 0)) or None
                    if self._stdin is not None and self._stdin_task is None:
                        self._stdin_task = asyncio.get_running_loop().create_task(self._pump_stdin())
                elif answer == P.STDIN_WANTED:
                    if self._on_request is not None and (self._request_task is None or self._request_task.done()):
                        self._request_task = asyncio.get_running_loop().create_task(self._answer_request())
                elif answer == P.EXIT:
                    info = P.field_map(body)
                    self.exit = ExitInfo(int(info.get(P.T_EXIT_KIND, P.EXITED)), int(info.get(P.T_EXIT_CODE, 1)),  # type: ignore[arg-type]
                                         int(info.get(P.T_OOM_KILLS, 0)), int(info.get(P.T_FORKS_REFUSED, 0)))  # type: ignore[arg-type]
                    return
                elif answer == P.ERROR:
                    AgentClient._raise_error(body)
        finally:
            self._end_input()
            self._window.set()
            for task in (self._stdin_task, self._request_task):
                if task is not None and not task.done():
                    task.cancel()
            if self.req.window is not None and self.exit is None and self.id in self.client._requests:
                # nobody reads this connection any more: the agent closes it (its window would
                # stay full and the connection open forever)
                self.client.post(P.CREDIT, self.id, P.field(P.T_FLAGS, P.CREDIT_CLOSE))
            self.client._close(self.id)
