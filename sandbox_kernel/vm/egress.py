"""Allow-listed network egress for the guest, without giving it a network card.

The guest has only ``lo``. When the kernel's policy allows a network (the admin's
``--network allow:example.org,*.pypi.org``, which a cell may narrow) the agent listens on
127.0.0.1:3128 inside the guest and hands each connection to the host over the agent channel;
this module is the HTTP proxy at the host end. It accepts ``CONNECT host:port`` (HTTPS and any
TLS) and absolute-URI plain HTTP requests, lets through only hosts on the allow-list, resolves
each name once and connects to a resolved public address (``netpolicy.reachable``), records
every access (allowed or denied, with byte counts) in an ``AccessSink``, and answers
everything else with 403.

Secrets (``injection``): plain HTTP requests and the TLS of CONNECTs to a secret's hosts are
parsed request by request, strictly (``Request``: what the server gets is what the proxy
checked), and the secret's placeholder in a header becomes its value when the request really
goes to that host (the Host header and target name it too). For TLS the
proxy terminates the guest's connection with the kernel's CA (``tlsintercept``) and opens its
own to the real server, which it verifies. All other CONNECTs are end-to-end tunnels.
"""
from __future__ import annotations

import asyncio
import re
import socket
import ssl
import time
from typing import Awaitable, Callable

from ..chars import isdigits
from ..netpolicy import AllowRule, host_addresses, parse_address, reachable
from .accesslog import AccessRecord, AccessSink
from .client import AgentGone
from .injection import ActiveSecret, Scrubber, SecretInjector
from .tlsintercept import GuestTls, KernelCA

GUEST_PROXY_PORT = 3128
MAX_HEAD = 64 * 1024
MAX_LINE = 8192
FIRST_HEAD_TIMEOUT = 30.0
CONNECT_TIMEOUT = 15.0
DRAIN_GRACE = 5.0  # seconds a response may still take after the guest closed a terminated TLS connection
PAUSE = 0.05        # seconds a response may pause before the Scrubber's held-back tail is flushed
HOP_BY_HOP = {"proxy-connection", "proxy-authorization", "keep-alive"}
BODILESS = {"GET", "HEAD", "OPTIONS", "TRACE", "DELETE"}  # methods whose body servers may ignore
FRAMING_FIELDS = {"host", "content-length", "transfer-encoding", "connection", "upgrade"}  # never in trailers
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_VERSION = re.compile(rb"HTTP/1\.[01]")
_TARGET = re.compile(rb"[\x21\x22\x24-\x7e]+")             # visible ASCII without '#'
_FIELD_VALUE = re.compile(rb"[^\x00-\x08\x0a-\x1f\x7f]*")  # no control character but HTAB
_HOST = re.compile(rb"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]*)(:[0-9]*)?")


class BadRequest(Exception):
    """A request the proxy will not forward (answered with 400)."""


class GuestConnection:
    """One guest connection (an agent stream): reads, writes and byte counts for the record."""

    def __init__(self, stream, record: AccessRecord | None = None) -> None:
        self.stream = stream
        self.events = stream.events()
        self.record = record
        self.up = 0
        self.down = 0

    async def read(self) -> bytes:
        try:
            _, data = await self.events.__anext__()
        except StopAsyncIteration:
            return b""
        self.up += len(data)
        if self.record is not None:
            self.record.bytes_up += len(data)
        return data

    def write(self, data: bytes) -> None:
        if data:
            self.down += len(data)
            if self.record is not None:
                self.record.bytes_down += len(data)
            self.stream.write(data)

    async def drain(self) -> None:
        """Wait while the guest has not taken what was written (a few hundred KiB queued)."""
        await self.stream.drain()

    def close(self) -> None:
        self.stream.close_input()


class Reader:
    """Buffered reads over ``read()`` (b'' = end): request heads, lines, exact lengths."""

    def __init__(self, read: Callable[[], Awaitable[bytes]], data: bytes = b"") -> None:
        self._read = read
        self.buffer = bytearray(data)
        self.ended = False
        self.consumed = 0  # bytes taken from the front of the buffer so far

    def _take(self, length: int) -> bytes:
        data = bytes(self.buffer[:length])
        del self.buffer[:length]
        self.consumed += length
        return data

    async def _more(self) -> bool:
        if self.ended:
            return False
        data = await self._read()
        if not data:
            self.ended = True
            return False
        self.buffer += data
        return True

    async def until(self, marker: bytes, limit: int) -> bytes | None:
        """Bytes up to and including ``marker`` (at most ``limit`` of them, else BadRequest);
        None at a clean end."""
        searched = 0  # the buffer before this is known not to hold the marker's start
        while True:
            at = self.buffer.find(marker, searched)
            if at >= 0 and at + len(marker) <= limit:
                return self._take(at + len(marker))
            if at >= 0 or len(self.buffer) > limit:
                raise BadRequest("request header too large" if limit == MAX_HEAD else "line too long")
            searched = max(0, len(self.buffer) - len(marker) + 1)
            if not await self._more():
                if self.buffer:
                    raise BadRequest("connection closed in the middle of a request")
                return None

    async def exactly(self, length: int) -> bytes:
        """``length`` bytes (a small count: the CRLF after a chunk); BadRequest at the end."""
        while len(self.buffer) < length:
            if not await self._more():
                raise BadRequest("connection closed in the middle of a request body")
        return self._take(length)

    async def chunks(self, length: int | None):
        """``length`` bytes as they come (None: everything until the end)."""
        left = length
        while left is None or left > 0:
            if not self.buffer and not await self._more():
                if left:
                    raise BadRequest("connection closed in the middle of a request body")
                return
            take = len(self.buffer) if left is None else min(left, len(self.buffer))
            chunk = self._take(take)
            if left is not None:
                left -= take
            yield chunk


class Request:
    """A parsed HTTP/1.x request head, read strictly (RFC 9112): anything another parser could
    read differently (bare CR or LF, obsolete line folding, control characters, more than one
    Host, a Host other than the target's authority, ambiguous body framing) is a BadRequest, so
    the head the proxy forwards is the one every upstream sees."""

    def __init__(self, head: bytes) -> None:
        if not head.endswith(b"\r\n\r\n"):
            raise BadRequest("malformed request head")
        lines = head[:-4].split(b"\r\n")
        if any(b"\r" in line or b"\n" in line for line in lines):
            raise BadRequest("bare CR or LF in the request head")
        parts = lines[0].split(b" ")
        if len(parts) != 3 or not _VERSION.fullmatch(parts[2]) or not _TARGET.fullmatch(parts[1]):
            raise BadRequest("malformed request line")
        if not _TOKEN.fullmatch(parts[0]):
            raise BadRequest("malformed method")
        self.method = parts[0].decode("latin-1")
        self.target = parts[1].decode("latin-1")
        self.version = parts[2].decode("latin-1")
        self.headers: list[tuple[str, bytes]] = [_field(line) for line in lines[1:]]
        self.framing = self._framing()
        self._check_host()

    def values(self, name: str) -> list[bytes]:
        return [v for n, v in self.headers if n.lower() == name]

    def _framing(self) -> int | str:
        """The body's framing: Content-Length, or "chunked", or 0; BadRequest for anything
        ambiguous (request smuggling)."""
        encodings = self.values("transfer-encoding")
        lengths = self.values("content-length")
        if encodings:
            if lengths or len(encodings) != 1 or encodings[0].lower() != b"chunked" or self.version != "HTTP/1.1":
                raise BadRequest("unsupported or ambiguous Transfer-Encoding")
            return "chunked"
        if not lengths:
            return 0
        if len(lengths) != 1 or not isdigits(lengths[0].decode("latin-1")) or len(lengths[0]) > 18:
            raise BadRequest("invalid Content-Length")
        return int(lengths[0])

    def _check_host(self) -> None:
        """One valid Host (HTTP/1.1 needs it, CONNECT aside), naming the target's authority if the
        target has one."""
        hosts = self.values("host")
        connect = self.method.upper() == "CONNECT"
        if len(hosts) > 1:
            raise BadRequest("more than one Host header")
        if not hosts:
            if self.version == "HTTP/1.1" and not connect:
                raise BadRequest("no Host header")
            return
        if not _HOST.fullmatch(hosts[0]):
            raise BadRequest("invalid Host header")
        if connect:
            authority, default = self.target, 443
        else:
            m = re.match(r"(https?)://([^/?]*)", self.target, re.IGNORECASE)
            if not m:
                return  # origin form: the connection names the host (checked where the value goes in)
            authority, default = m.group(2), 80 if m.group(1).lower() == "http" else 443
        name, port = _split_host_port(authority, default)
        if name is None or port is None or not _same_host(hosts[0], name, port, default):
            raise BadRequest("the Host header names another host than the request target")

    def upgrades(self) -> bool:
        """Whether the connection may stop being HTTP after this request."""
        return bool(self.values("upgrade")) or self.method.upper() == "CONNECT"

    def wants_close(self) -> bool:
        tokens = {t.strip().lower() for v in self.values("connection") for t in v.split(b",")}
        return b"close" in tokens or (self.version == "HTTP/1.0" and b"keep-alive" not in tokens)

    def serialize(self, target: str, headers: list[tuple[str, bytes]]) -> bytes:
        lines = [f"{self.method} {target} {self.version}".encode("latin-1")]
        lines += [name.encode("latin-1") + b": " + value for name, value in headers]
        return b"\r\n".join(lines) + b"\r\n\r\n"


def _check_received(reader: Reader, request: Request, checked: int) -> int:
    """Check the complete request heads already in ``reader``'s buffer behind ``request``, whose
    body starts the buffer; each once: ``checked`` is the stream offset of the first head not yet
    checked, and the one reached is returned. The look ends at a chunked body (its chunks are
    checked as they are read) and where the connection may stop being HTTP."""
    at = 0
    while not (request.framing == "chunked" or request.upgrades() or request.wants_close()):
        at = max(at + int(request.framing), checked - reader.consumed)
        end = reader.buffer.find(b"\r\n\r\n", at)
        if end < 0:
            return reader.consumed + at
        request = Request(bytes(reader.buffer[at:end + 4]))
        at = end + 4
    return max(checked, reader.consumed + at)


def _field(line: bytes) -> tuple[str, bytes]:
    """One header (or trailer) line without its CRLF: ``name: value``, the name a token, the value
    free of control characters but HTAB (RFC 9110 5.5)."""
    if line[:1] in (b" ", b"\t"):
        raise BadRequest("obsolete line folding")
    name, colon, value = line.partition(b":")
    if not colon or not _TOKEN.fullmatch(name):
        raise BadRequest("malformed header line")
    if not _FIELD_VALUE.fullmatch(value):
        raise BadRequest("control character in a header value")
    return name.decode("latin-1"), value.strip(b" \t")


def _chunk_size(line: bytes) -> int:
    """The size of a chunk-size line (with its CRLF); extensions are checked and not forwarded."""
    text = line[:-2]
    if not _FIELD_VALUE.fullmatch(text):
        raise BadRequest("control character in a chunk-size line")
    size = text.split(b";")[0].rstrip(b" \t")
    if not size or len(size) > 16 or not all(c in b"0123456789abcdefABCDEF" for c in size):
        raise BadRequest("invalid chunk size")
    return int(size, 16)


def _same_host(text: bytes | str, host: str, port: int, default: int) -> bool:
    """Whether a Host header or URL authority names exactly ``host:port``."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    name, named_port = _split_host_port(text.strip(), default)
    if name is None or named_port != port:
        return False
    addr, other = parse_address(name), parse_address(host)
    if addr is not None or other is not None:
        return addr == other
    return name.lower().rstrip(".") == host.lower().rstrip(".")


class EgressProxy:
    def __init__(self, rules: list[AllowRule], sink: AccessSink | None = None,
                 injector: SecretInjector | None = None, ca: KernelCA | None = None,
                 upstream_tls: ssl.SSLContext | None = None) -> None:
        self.rules = rules
        self.sink = sink
        self.injector = injector or SecretInjector(())
        self.ca = ca
        self.upstream_tls = upstream_tls
        self.tasks: set[asyncio.Task] = set()

    def allowed(self, host: str, port: int) -> bool:
        return any(rule.matches(host, port) for rule in self.rules)

    def _open(self, record: AccessRecord) -> None:
        if self.sink is not None:
            self.sink.opened(record)

    def _close(self, record: AccessRecord, started: float) -> None:
        record.open = False
        record.duration = time.monotonic() - started
        if self.sink is not None:
            self.sink.closed(record)

    def serve(self, stream) -> None:
        task = asyncio.get_running_loop().create_task(self._handle(stream))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _handle(self, stream) -> None:
        conn = GuestConnection(stream)
        reader = Reader(conn.read)
        record: AccessRecord | None = None
        started = time.monotonic()
        try:
            try:
                head = await asyncio.wait_for(reader.until(b"\r\n\r\n", MAX_HEAD), FIRST_HEAD_TIMEOUT)
            except asyncio.TimeoutError:
                # no reply: the guest sent no complete request; the connection is closed
                self._refuse(conn, _unparsed(reader.buffer), f"no complete request within {FIRST_HEAD_TIMEOUT:g} s")
                return
            except BadRequest as e:
                code = 431 if "too large" in str(e) else 400
                self._refuse(conn, _unparsed(reader.buffer), f"bad request: {e}", code, str(e))
                return
            if head is None:
                conn.close()  # closed before sending anything: no request, nothing to log
                return
            try:
                request = Request(head)
            except BadRequest as e:
                self._refuse(conn, _unparsed(head), f"bad request: {e}", 400, f"Bad Request ({e})")
                return
            tunnel = request.method.upper() == "CONNECT"
            if tunnel:
                host, port = _split_host_port(request.target, 443)
            else:
                m = re.fullmatch(r"http://([^/?#]+)([^#]*)", request.target, re.IGNORECASE)
                if not m:
                    self._refuse(conn, AccessRecord(request.method[:16], "-", None, mode="http"),
                                 "bad request: not an absolute http:// URL", 400,
                                 "Bad Request (absolute http:// URL or CONNECT expected)")
                    return
                host, port = _split_host_port(m.group(1), 80)
            record = AccessRecord(request.method[:16], (host or "-")[:255], port,
                                  mode="tunnel" if tunnel else "http")
            conn.record = record
            record.bytes_up = conn.up
            if host is None or port is None or not self.allowed(host, port):
                self._deny(conn, record, "not on the allow-list", 403,
                           f"Forbidden by the VM network allow-list: {host}:{port}")
                return
            try:
                addresses = await self._resolve(host, port)
            except OSError as e:
                self._fail(conn, record, f"cannot resolve: {e}"[:200], f"Bad Gateway: cannot resolve {host}")
                return
            own = host_addresses()
            allowed = [a for a in addresses if reachable(a, port, self.rules, own)]
            if not allowed:
                shown = ", ".join(str(a) for a in addresses[:4])
                self._deny(conn, record, f"resolves to {shown}: not a public address", 403,
                           f"Forbidden: {host} resolves to {shown}, which is not a public address "
                           "(loopback, private, link-local or this host)")
                return
            secrets = self.injector.for_target(host, port)
            terminate = tunnel and bool(secrets) and self.ca is not None
            try:
                if terminate:
                    upstream = await self._connect(allowed, port, tls=self.upstream_tls or ssl.create_default_context(),
                                                   server_hostname=host)
                else:
                    upstream = await self._connect(allowed, port)
            except ssl.SSLCertVerificationError as e:
                self._fail(conn, record, f"upstream certificate not valid: {e.verify_message}"[:200],
                           f"Bad Gateway: the certificate of {host} did not verify ({e.verify_message})")
                return
            except (OSError, asyncio.TimeoutError, ssl.SSLError) as e:
                self._fail(conn, record, str(e or type(e).__name__)[:200], f"Bad Gateway: {e or 'timed out'}")
                return
            self._open(record)
            up_reader, up_writer = upstream
            try:
                if terminate:
                    record.mode = "tls-terminated"
                    conn.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
                    await self._terminated(conn, reader, up_reader, up_writer, host, port, secrets, record)
                elif tunnel:
                    conn.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
                    if reader.buffer:
                        up_writer.write(bytes(reader.buffer))
                    await self._pipe(conn, up_reader, up_writer)
                else:
                    await self._plain(conn, reader, request, up_reader, up_writer, host, port, secrets, record)
            finally:
                up_writer.close()
                self._close(record, started)
        except AgentGone:
            pass
        finally:
            # the queued answer is still being sent: wait for the guest side to close
            try:
                await asyncio.wait_for(_drain(conn.events), 30)
            except (asyncio.TimeoutError, AgentGone):
                await conn.events.aclose()

    def _deny(self, conn: GuestConnection, record: AccessRecord, reason: str, code: int, message: str) -> None:
        self._answered(conn, record, "denied", reason, code, message)

    def _fail(self, conn: GuestConnection, record: AccessRecord, reason: str, message: str) -> None:
        self._answered(conn, record, "failed", reason, 502, message)

    def _refuse(self, conn: GuestConnection, record: AccessRecord, reason: str, code: int | None = None,
                message: str = "") -> None:
        """A request the proxy could not read (malformed, too large, never completed): denied,
        answered with ``code`` (None: the connection is just closed)."""
        self._answered(conn, record, "denied", reason, code, message)

    def _answered(self, conn: GuestConnection, record: AccessRecord, verdict: str, reason: str,
                  code: int | None, message: str) -> None:
        """The proxy's own answer ends the access: the reply goes out first, so the record's byte
        counts (what the guest sent, the answer it got) are final when it is logged."""
        record.verdict, record.reason, record.open = verdict, reason, False
        conn.record = record
        record.bytes_up, record.bytes_down = conn.up, conn.down
        if code is None:
            conn.close()
        else:
            self._reply(conn, code, message)
        self._open(record)
        self._close(record, time.monotonic())

    # ------------------------------------------------------------------ forwarding
    async def _plain(self, conn: GuestConnection, reader: Reader, request: Request, up_reader, up_writer,
                     host: str, port: int, secrets: list[ActiveSecret], record: AccessRecord) -> None:
        """One plain-HTTP request (forwarded with ``Connection: close``, so the server ends the
        exchange and a next request to another host comes on a new connection)."""
        path = re.fullmatch(r"http://[^/?#]+([^#]*)", request.target, re.IGNORECASE).group(1)  # type: ignore[union-attr]
        path = path if path.startswith("/") else "/" + path  # origin form, also for http://host?query
        scrubber = self.injector.scrubber(secrets) if secrets else None

        async def send() -> None:
            if scrubber is not None:
                scrubber.expect(request.method)
            await self._forward(request, path, reader, up_writer, host, port, 80, secrets, record, force_close=True)
            if up_writer.can_write_eof():
                up_writer.write_eof()

        def refuse(message: str) -> None:
            self._reply(conn, 400, message)

        down = self._downstream(up_reader, conn.write, conn.drain, scrubber)
        await self._exchange(send(), down, refuse, conn.close, record, grace=None)

    async def _terminated(self, conn: GuestConnection, reader: Reader, up_reader, up_writer, host: str,
                          port: int, secrets: list[ActiveSecret], record: AccessRecord) -> None:
        """TLS to a secret's host: the guest talks to us, we talk to the server, request by request."""
        assert self.ca is not None
        early = bytes(reader.buffer)

        async def raw_read() -> bytes:
            nonlocal early
            if early:
                data, early = early, b""
                return data
            return await conn.read()

        tls = GuestTls(raw_read, conn.write, self.ca.server_context(host))
        try:
            await asyncio.wait_for(tls.handshake(), FIRST_HEAD_TIMEOUT)
        except (ssl.SSLError, ConnectionError, asyncio.TimeoutError) as e:
            record.reason = f"guest TLS handshake failed: {getattr(e, 'reason', None) or type(e).__name__}"[:200]
            conn.close()
            return
        plain = Reader(tls.read)
        scrubber = self.injector.scrubber(secrets)

        async def send() -> None:
            await self._requests(plain, up_writer, host, port, secrets, record, scrubber)

        def refuse(message: str) -> None:
            body = (message + "\n").encode()
            tls.write(b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                      b"Content-Length: %d\r\n\r\n" % len(body) + body)

        def close() -> None:
            tls.close()
            conn.close()

        down = self._downstream(up_reader, tls.write, conn.drain, scrubber)
        await self._exchange(send(), down, refuse, close, record, grace=DRAIN_GRACE)

    async def _requests(self, reader: Reader, up_writer, host: str, port: int, secrets: list[ActiveSecret],
                        record: AccessRecord, scrubber: Scrubber) -> None:
        """The requests of a terminated connection, each read strictly and forwarded before the
        next is read: the server sees only heads and framing the proxy has checked. Requests
        already received behind one are checked before it is forwarded: a bad one among them
        refuses the lot, so no value goes out in a batch that holds a bad request."""
        checked = 0  # the stream offset up to which the received requests were checked
        while True:
            head = await reader.until(b"\r\n\r\n", MAX_HEAD)
            if head is None:
                return
            request = Request(head)
            checked = _check_received(reader, request, checked)
            target = request.target
            if target == "*" and request.method != "OPTIONS":
                raise BadRequest("request target * is for OPTIONS only")
            if not target.startswith("/") and target != "*":
                authority = re.split(r"[/?]", target[8:], maxsplit=1)[0]
                if not (target.lower().startswith("https://") and _same_host(authority, host, port, 443)):
                    raise BadRequest("request target names another host")
                rest = target[8 + len(authority):]
                target = rest if rest.startswith("/") else "/" + rest
            if secrets and request.framing and request.method in BODILESS:
                # a server that ignores a GET body's length (CL.0) would read the body as the start of
                # another request, which the next request's head (and its value) would complete
                raise BadRequest(f"a {request.method} request with a body is not sent to a secret's host")
            scrubber.expect(request.method)  # before the request goes: its response may come at once
            if not await self._forward(request, target, reader, up_writer, host, port, 443, secrets, record):
                return

    @staticmethod
    async def _exchange(send: Awaitable[None], down: Awaitable[None], refuse: Callable[[str], None],
                        close: Callable[[], None], record: AccessRecord, grace: float | None) -> None:
        """Requests up and the responses down at once (a client may wait for ``100 Continue``
        before its body). The guest's end leaves the response ``grace`` seconds (None: until
        the server closes); a bad request is refused. Then the guest side is closed, and only
        after that the request side stops waiting for the guest: stopping it first would end
        the agent stream before the close reached the guest."""
        up_task, down_task = asyncio.ensure_future(send), asyncio.ensure_future(down)
        try:
            await asyncio.wait({up_task, down_task}, return_when=asyncio.FIRST_COMPLETED)
            if up_task.done() and not up_task.cancelled():
                error = up_task.exception()
                if isinstance(error, BadRequest):
                    down_task.cancel()
                    record.reason = f"bad request: {error}"
                    refuse(f"Bad Request ({error})")
                elif error is not None and not isinstance(error, (OSError, AgentGone)):
                    raise error
                else:
                    await asyncio.wait({down_task}, timeout=grace)
            if not down_task.done():
                down_task.cancel()
            close()
            if not up_task.done():  # the guest answers the close by closing its end
                await asyncio.wait({up_task}, timeout=FIRST_HEAD_TIMEOUT)
        finally:
            for task in (up_task, down_task):
                if not task.done():
                    task.cancel()

    async def _forward(self, request: Request, target: str, reader: Reader, up_writer, host: str, port: int,
                       default_port: int, secrets: list[ActiveSecret], record: AccessRecord,
                       force_close: bool = False) -> bool:
        """Send one request upstream (headers rewritten, body streamed); False when the
        connection must not carry another request."""
        framing = request.framing
        headers = [(n, v) for n, v in request.headers if n.lower() not in HOP_BY_HOP]
        hosts = request.values("host")
        if secrets and len(hosts) == 1 and _same_host(hosts[0], host, port, default_port):
            headers, used = SecretInjector.inject(headers, secrets)
            if used:
                headers = [(n, v) for n, v in headers if n.lower() != "accept-encoding"]  # keep replies searchable
                record.secrets.extend(n for n in used if n not in record.secrets)
        elif secrets and any(s.placeholder in v for s in secrets for _, v in headers):
            record.reason = f"secret not put in: the Host header does not name {host}:{port}"
        if force_close:
            headers = [(n, v) for n, v in headers if n.lower() != "connection"] + [("Connection", b"close")]
        up_writer.write(request.serialize(target, headers))
        upgrade = request.upgrades()
        if framing == "chunked":
            while True:
                line = await reader.until(b"\r\n", MAX_LINE)
                if line is None:
                    raise BadRequest("connection closed in a chunked body")
                size = _chunk_size(line)
                up_writer.write(b"%x\r\n" % size)  # as read, so the server frames it as the proxy did
                if size == 0:
                    while True:  # trailers, up to the empty line, read as strictly as headers
                        trailer = await reader.until(b"\r\n", MAX_LINE)
                        if trailer is None:
                            raise BadRequest("connection closed in chunked trailers")
                        if trailer == b"\r\n":
                            up_writer.write(trailer)
                            break
                        name, value = _field(trailer[:-2])
                        if name.lower() in FRAMING_FIELDS:
                            raise BadRequest(f"{name} in chunked trailers")
                        up_writer.write(name.encode("latin-1") + b": " + value + b"\r\n")
                    break
                async for chunk in reader.chunks(size):
                    up_writer.write(chunk)
                    await up_writer.drain()
                if await reader.exactly(2) != b"\r\n":
                    raise BadRequest("chunk data not followed by CRLF")
                up_writer.write(b"\r\n")
        elif framing:
            async for chunk in reader.chunks(framing):  # type: ignore[arg-type]
                up_writer.write(chunk)
                await up_writer.drain()
        await up_writer.drain()
        if upgrade:  # the connection is no longer HTTP: pass the rest through as it is
            async for chunk in reader.chunks(None):
                up_writer.write(chunk)
                await up_writer.drain()
            return False
        return not (force_close or request.wants_close())

    @staticmethod
    async def _downstream(up_reader: asyncio.StreamReader, write: Callable[[bytes], None],
                          drain: Callable[[], Awaitable[None]], scrubber: Scrubber | None) -> None:
        """Server -> guest until the server closes; secret values masked when it got any. Each
        chunk waits for the guest to take the last (``drain``): a guest that reads slowly slows
        the server down (TCP), it does not fill the kernel's memory."""
        try:
            while True:
                if scrubber is not None and scrubber.pending:
                    try:
                        data = await asyncio.wait_for(up_reader.read(65536), PAUSE)
                    except asyncio.TimeoutError:
                        write(scrubber.flush())
                        continue
                else:
                    data = await up_reader.read(65536)
                if not data:
                    break
                write(scrubber.feed(data) if scrubber is not None else data)
                await drain()
        except (OSError, ssl.SSLError):
            pass
        if scrubber is not None:
            write(scrubber.flush())

    @staticmethod
    async def _resolve(host: str, port: int) -> list:
        """Every address of ``host``, resolved once: the connection goes to one of these, so a
        name cannot resolve to something else between the check and the connect."""
        literal = parse_address(host)
        if literal is not None:
            return [literal]
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        found = []
        for info in infos:
            addr = parse_address(info[4][0].split("%")[0])
            if addr is not None and addr not in found:
                found.append(addr)
        if not found:
            raise OSError(f"no address for {host}")
        return found

    @staticmethod
    async def _connect(addresses: list, port: int, tls: ssl.SSLContext | None = None,
                       server_hostname: str | None = None):
        error: BaseException | None = None
        for addr in addresses:
            try:
                return await asyncio.wait_for(asyncio.open_connection(
                    str(addr), port, ssl=tls, server_hostname=server_hostname if tls else None), CONNECT_TIMEOUT)
            except ssl.SSLCertVerificationError:
                raise
            except (OSError, asyncio.TimeoutError) as e:
                error = e
        raise error if error else OSError("no address")

    async def _pipe(self, conn: GuestConnection, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        async def upstream() -> None:
            try:
                while data := await conn.read():
                    writer.write(data)
                    await writer.drain()
                if writer.can_write_eof():
                    writer.write_eof()
            except (OSError, AgentGone):
                pass

        up = asyncio.ensure_future(upstream())
        try:
            await self._downstream(reader, conn.write, conn.drain, None)
            conn.close()
            await asyncio.wait_for(up, 60)
        except asyncio.TimeoutError:
            up.cancel()

    @staticmethod
    def _reply(conn: GuestConnection, code: int, reason: str) -> None:
        body = (reason + "\n").encode()
        conn.write(f"HTTP/1.1 {code} {reason.split(':')[0].split(' (')[0]}\r\nContent-Type: text/plain\r\n"
                   f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        conn.close()


def _unparsed(data: bytes | bytearray) -> AccessRecord:
    """The record of a request the proxy could not parse: its method when the first word is
    one, host '-' and no port."""
    word = bytes(data[:17]).split(b" ", 1)[0]
    method = word.decode("latin-1") if len(word) <= 16 and _TOKEN.fullmatch(word) and b" " in data[:17] else "-"
    return AccessRecord(method, "-", None)


async def _drain(events) -> None:
    async for _ in events:
        pass


def _split_host_port(text: str, default: int) -> tuple[str | None, int | None]:
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    if port and (not isdigits(port) or not 0 < int(port) < 65536):
        return None, None
    return host or None, int(port) if port else default
